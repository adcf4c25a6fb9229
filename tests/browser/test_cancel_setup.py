"""Every long worker call (solve, hint, finishes, count, fewest, never_lose) cancels within 200 ms of
the request, during its set-up as well as later, in Chromium's worker (Pyodide).  The board is the
largest the limits allow (20 x 20, 400 holes), where the set-up (board tables, pagodas, the search's
tables) is heaviest: before, a cancel pressed in a solve's first second took 0.26-1.3 s."""

from __future__ import annotations

import pytest
from browser_support import go

pytestmark = pytest.mark.browser

CANCEL_MS = 200
_ROWS = ["o" * 20] * 20
_ROWS[8] = "o" * 9 + "." + "o" * 10  # i9 empty: a class that allows one peg, so nothing ends at once
BIG = "square:" + "/".join(_ROWS)

MEASURE = """async ([fn, args, waitMs]) => {
  if (!window.__engine) {
    const { Engine } = await import(new URL("static/engine/protocol.mjs", location.href).href);
    window.__engine = new Engine(new URL("static/engine/worker.mjs", location.href));
  }
  const engine = window.__engine;
  await engine.ready;
  await engine.call("state", args);  // the page shows (and so compiles) the board first
  let progress = 0;
  const { id, promise } = engine.request(fn, args, { onProgress: () => { progress += 1; } });
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  const t0 = performance.now();
  engine.cancel(id);
  let out;
  try { out = await promise; } catch (err) { out = { error: err.message }; }
  return { ms: performance.now() - t0, progress, out: JSON.stringify(out).slice(0, 200) };
}"""

CALLS = ["solve", "hint", "finishes", "count", "fewest", "never_lose"]


@pytest.mark.parametrize("wait_ms", [30, 700], ids=["during-set-up", "searching"])
@pytest.mark.parametrize("fn", CALLS)
def test_every_long_call_cancels_within_200_ms(app, fn, wait_ms):
    args = {"board": BIG, "goal": "any", "max_seconds": 60}
    # up to three tries, the best counts: a loaded machine (six processes on two cores) delays a
    # message now and then; a call that does not pause would miss the bound in every try
    times = []
    for _ in range(3):
        got = app.evaluate(MEASURE, [fn, args, wait_ms])
        assert "error" not in got["out"], got
        times.append(round(got["ms"]))
        if got["ms"] < CANCEL_MS:
            break
    print(f"\n{fn} cancelled {wait_ms} ms after the request: answered in {times} ms ({got['out'][:60]})")
    assert min(times) < CANCEL_MS, f"{fn}: cancel took {times} ms ({wait_ms} ms after the request)"


def test_the_solve_button_cancels_during_set_up(app):
    go(app, "#board=" + BIG + "&goal=any")
    app.select_option("#budget", "60")
    times = []
    for _ in range(3):  # the best of three, as above
        cancels = app.evaluate("window.pegLab.cancels.length")
        app.get_by_role("button", name="Solve").click()
        app.wait_for_timeout(40)
        app.get_by_role("button", name="Cancel").click()
        app.wait_for_function("n => window.pegLab.cancels.length > n", arg=cancels)
        times.append(round(app.evaluate("window.pegLab.cancels.at(-1)")))
        if times[-1] < CANCEL_MS:
            break
    print(f"\nSolve button cancelled 40 ms after the click: answered in {times} ms")
    assert min(times) < CANCEL_MS
