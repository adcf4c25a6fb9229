""""Where can one peg finish?" on the page's pool of Pyodide workers (``?workers=2``: two pool workers beside
the page's engine worker): where the solver method runs, its holes go to the pool in shares of whole
symmetry classes, side by side; the holes and reasons drawn are those CPython's ``pyapp.web`` gives for
the one-worker request, the status says "on 2 workers", and one Cancel stops every pool worker's request
within 200 ms (measured in the page: from Cancel until the last pool worker answered, or was terminated
for not answering in time).
"""

from __future__ import annotations

import json

import pytest
from browser_support import ARTIFACTS, close_app, go, open_app
from test_analysis_board import marked, open_tools, status

pytestmark = pytest.mark.browser

_ROWS12 = ["o" * 12] * 5 + ["ooooo.oooooo"] + ["o" * 12] * 6
BIG = "#board=square:" + "/".join(_ROWS12) + "&goal=any"
"""12x12, the centre vacant: the exploration gives up, and every share's search runs its whole budget."""
FINISH = "Where can one peg finish?"


@pytest.fixture(scope="module")
def pooled(app_context, server):
    page = open_app(app_context, server.url + "?workers=2")
    yield page
    close_app(page)


def _cpython_finishes(args: dict) -> dict:
    from pyapp.web import api as webapi

    job = webapi.start("finishes", json.dumps(args))
    out = json.loads(job.step())
    while not out["done"]:
        out = json.loads(job.step())
    return out["result"]


def _replays(board_id: str, start: str, solutions: dict) -> bool:
    from pyapp.core.catalogue import get_board
    from pyapp.core.game import replay

    board = get_board(board_id)
    for hole, moves in solutions.items():
        rep = replay(board, board.start(start), moves)
        if not rep.valid or rep.final != 1 << board.hole(hole):
            return False
    return True


def test_finishes_on_two_pool_workers_are_the_one_worker_answer(pooled):
    go(pooled, "#board=triangle7&start=4")  # the solver method (its exploration passes the cap): two shares
    open_tools(pooled)
    pooled.evaluate("""() => { window.finishShares = 0;
      window.pegLab.store.subscribe((s) => {
        const m = /(\\d+) of (\\d+) hole shares done on (\\d+) workers/.exec(s.progress.text);
        if (m) window.finishShares = Number(m[2]);
      }); }""")
    pooled.get_by_role("button", name=FINISH, exact=True).click()
    pooled.wait_for_function("() => !window.pegLab.store.state.task && window.pegLab.store.state.finishes.shown",
                             timeout=180_000)
    got = pooled.evaluate("window.pegLab.store.state.finishes")
    cpython = _cpython_finishes({"board": "triangle7", "start": "4", "max_seconds": 20})
    holes = {h: "yes" for h in cpython["possible"]} | {h: "no" for h in cpython["impossible"]} | \
        {h: "unknown" for h in cpython["unknown"]}
    assert got["holes"] == holes and len(cpython["possible"]) == 9 and not cpython["unknown"]
    assert got["groups"] == cpython["groups"]  # every reason, with its holes
    assert _replays("triangle7", "4", got["solutions"])
    assert marked(pooled, "finish-yes") == set(cpython["possible"])
    assert marked(pooled, "finish-no") == set(cpython["impossible"])
    assert pooled.evaluate("window.finishShares") == 2  # the pool's progress: two shares
    assert pooled.evaluate("window.pegLab.store.state.pool.ran") == 2
    assert "on 2 workers" in status(pooled) and "on 2 workers" in (pooled.text_content("#progress") or "")
    assert len(pooled.workers) == 3  # the page's engine and the two pool workers, kept
    assert not pooled.errors
    ARTIFACTS.mkdir(exist_ok=True)
    pooled.screenshot(path=str(ARTIFACTS / "finishes-pool-desktop.png"), full_page=True)
    pooled.set_viewport_size({"width": 390, "height": 844})
    pooled.screenshot(path=str(ARTIFACTS / "finishes-pool-phone.png"), full_page=True)
    pooled.set_viewport_size({"width": 1280, "height": 900})


def _finish_then_cancel(pooled) -> tuple[float | None, float]:
    """Finishes on the pool, cancelled once both shares search: ms until the pool's requests answered, and until
    the merged answer showed."""
    go(pooled, BIG)
    open_tools(pooled)
    pooled.evaluate("() => window.pegLab.store.do('pool/set', { cancelMs: null })")
    cancels = pooled.evaluate("window.pegLab.cancels.length")
    pooled.get_by_role("button", name=FINISH, exact=True).click()
    # the plan done in the engine worker, both shares searching on the pool
    pooled.wait_for_function("() => { const p = window.pegLab.store.state.progress;"
                             " return p.text.includes('0 of 2 hole shares done on 2 workers') && p.nodes > 0; }",
                             timeout=120_000)
    pooled.wait_for_timeout(1000)
    assert not pooled.get_by_role("button", name="Cancel").is_disabled()
    pooled.get_by_role("button", name="Cancel").click()
    pooled.wait_for_function("n => window.pegLab.cancels.length > n", arg=cancels, timeout=30_000)
    cancel_ms = pooled.evaluate("window.pegLab.store.state.pool.cancelMs")
    answer_ms = pooled.evaluate("window.pegLab.cancels.at(-1)")
    print(f"\nfinishes on 2 pool workers: the pool stopped {cancel_ms:.0f} ms after Cancel, "
          f"the merged answer showed after {answer_ms:.0f} ms")
    return cancel_ms, answer_ms


def test_one_cancel_stops_every_pool_worker_within_200_ms(pooled):
    cancel_ms, _ = _finish_then_cancel(pooled)
    if cancel_ms is not None and cancel_ms >= 200:
        # once more: three workers, the page and the other test worker share 2 cores here, so one cancel can wait
        # for a time slice (230 ms measured once in a fresh-clone run); a cancel the workers do not check in
        # their loops, or one lost on the way, is late both times
        cancel_ms, _ = _finish_then_cancel(pooled)
    assert cancel_ms is not None and cancel_ms < 200, f"the pool's requests answered {cancel_ms} ms after Cancel"
    assert "Finishes cancelled" in (pooled.text_content("#progress") or "")
    assert "cancelled" in status(pooled) and "on 2 workers" in status(pooled)
    assert len(marked(pooled, "finish-unknown")) == 16  # the holes the position class allows: undecided
    if pooled.evaluate("window.pegLab.store.state.pool.status") == "ready":
        assert len(pooled.workers) == 3  # the requests stopped, the pool kept
    else:  # a worker too busy to answer within 120 ms: the pool was terminated
        assert pooled.evaluate("window.pegLab.store.state.pool.status") == "off"
    assert pooled.get_by_role("button", name="Solve").is_enabled()
    assert not pooled.errors
