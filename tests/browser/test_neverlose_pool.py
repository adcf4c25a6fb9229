"""Never lose on the page's pool of workers (``?workers=2``): on the Diamond 41 board (no shipped set) the
position's verdict and its jumps are decided side by side on two pool workers and merged in the engine
worker; every position of a game gets its data-verdict, the note says the check ran on 2 workers, and the
verdicts are the one-worker check's (CPython's ``never_lose``, the same code in one process).  The first check
does not wait for the pool to start: it runs in the engine worker while the pool starts.

The game follows the solver's line for the default game (d2 -> one peg anywhere), opened by a link 19 jumps in (21
pegs, the endgame table's reach: below it the first check waits for the table, which then answers without the
pool), then played on with never-lose on; an undo then answers from the engine's game-long table of proved
positions (what the pool proved was recorded there by the merge: only the jumps it left undecided go to the pool
again).  Before that, a jump played while the pool decides its first questions of the game (opened 16 jumps in, 24
pegs: above the table's reach and below the opening book's, 32 pegs, where the pool searches for seconds) stops
them at once.
"""

from __future__ import annotations

import re

import pytest
from browser_support import close_app, go, open_app, screenshot_both, wait_state

pytestmark = pytest.mark.browser

BOARD, TOP, REACH = "diamond41", 40, 21  # its default game (d2 -> any), its start's pegs, its table's reach
OPENED, PLAYED, STOPPED = TOP - REACH, 4, TOP - 24  # jumps in: the line's verdicts; where a move stops the pool
# a custom 5x5 board, centre vacant, one peg on the centre: lost (position class) at once, yet asked as questions
# (no set, no table under 33 holes), so the first check starts the pool without spending its budget
WARM = "#board=square:" + "/".join(["ooooo", "ooooo", "oo.oo", "ooooo", "ooooo"]) + "&goal=c3"
RESULT = "window.pegLab.store.state.neverlose.result"


@pytest.fixture(scope="module")
def pooled(app_context, server):
    page = open_app(app_context, server.url + "?workers=2")
    yield page
    close_app(page)


def _verdict(page, pegs: int) -> dict:
    page.wait_for_function("n => { const d = document.getElementById('neverlose-note').dataset;"
                           " return d.pegs === String(n) && ['win', 'lose', 'unknown'].includes(d.verdict); }",
                           arg=pegs, timeout=180_000)
    # the whole answer, not only the position's early verdict
    page.wait_for_function("() => { const nl = window.pegLab.store.state.neverlose;"
                           " return !nl.checking && nl.result; }", timeout=180_000)
    return page.evaluate(f"({RESULT})")


def _one_worker(position: int) -> dict:
    """CPython's one-process never-lose verdicts of a position of the default game."""
    from pyapp.analysis.neverlose import never_lose
    from pyapp.core.problem import Problem, default_problem

    problem = default_problem(BOARD)
    board = problem.board
    r = never_lose(Problem(board, position, problem.goal), max_seconds=30)
    name = lambda j: [board.name_of[b] for b in j]  # noqa: E731
    return {"status": r.status, "good": [name(j) for j in r.jumps.good], "bad": [name(j) for j in r.jumps.bad],
            "unknown": [name(j) for j in r.jumps.unknown]}


def _one_worker_verdicts(problem, positions: list[int]) -> list[dict]:
    """:func:`_one_worker` at each position, with the game's endgame table the site ships installed as the page
    installs it (``pyapp.bench.game_rows.install_shipped``, from the build's set cache), dropped after so that no
    later test in this process finds it: exact verdicts at these pegs, in 9 CPU s instead of 22 without it."""
    from pyapp.bench.game_rows import install_shipped
    from pyapp.exact import endgame, openingbook

    install_shipped(problem)
    try:
        return [_one_worker(position) for position in positions]
    finally:
        endgame.clear()
        openingbook.clear()


def test_a_game_on_two_pool_workers_gets_the_one_worker_verdicts(pooled):
    from pyapp.core.moves import apply_jump
    from pyapp.core.problem import default_problem
    from pyapp.search.solver import solve

    problem = default_problem(BOARD)
    assert problem.start.bit_count() == TOP
    board = problem.board
    line = solve(problem).jumps
    names = [(board.name_of[a], board.name_of[c]) for a, _, c in line]
    positions = [problem.start]
    for jump in line[:OPENED + PLAYED]:
        positions.append(apply_jump(positions[-1], jump))
    results = _play(pooled, names)
    # the one-worker verdicts, in this process once the page is idle (nothing competes with the page's checks
    # for their budget). A helper process at the lowest priority during the play used to compute them, but it
    # got almost no CPU while the other test worker was busy: the test then sat idle for up to a minute waiting
    # for it.
    expected = _one_worker_verdicts(problem, positions[OPENED:])
    _compare(results, expected)
    _undo(pooled, results)


def _play(pooled, names) -> list[dict]:
    """Never-lose on, the pool started, two jumps played while it decides, then the solver's next jumps: each
    position's answer from the table's reach on."""
    # the first check does not wait for the pool to start: it runs in the engine worker while the pool starts.
    # Asked on another board: on this one the engine's check would load the game's endgame table, which then
    # answers the positions below, and the pool would not be asked there
    go(pooled, WARM)
    wait_state(pooled, 0)
    assert pooled.evaluate("window.pegLab.store.state.pool.status") == "off"  # not started at load
    pooled.get_by_role("button", name="Never lose").click()
    first = _verdict(pooled, 24)
    assert first["status"] == "lost", first
    assert "workers" not in first and pooled.evaluate("window.pegLab.store.state.pool.status") != "off", first
    pooled.wait_for_function("() => window.pegLab.store.state.pool.status === 'ready'", timeout=120_000)
    _stop(pooled, names)
    go(pooled, f"#board={BOARD}&moves=" + ",".join(f"{x}-{y}" for x, y in names[:OPENED]))
    wait_state(pooled, OPENED)
    results = [_verdict(pooled, TOP - OPENED)]
    note = pooled.text_content("#neverlose-note") or ""
    for played, (x, y) in enumerate(names[OPENED:OPENED + PLAYED], OPENED + 1):
        pooled.click(f"[data-hole='{x}']")
        pooled.click(f"[data-hole='{y}']")
        wait_state(pooled, played)
        results.append(_verdict(pooled, TOP - played))
    assert results[0]["workers"] == 2 and "on 2 workers" in note, note
    # under the table's reach the pool asks the shared level search of every class too (as the one-worker check runs
    # it), told of the classes decided when it starts
    asked = pooled.evaluate("window.pegLab.neverloseAsked")
    together = [a for a in asked if a["decide"] == "jumps"]
    assert together and all(re.fullmatch(r"[a-h][1-8]-[a-h][1-8]", d) for a in together for d in a["decided"]), asked
    assert len(pooled.workers) == 3  # the page's engine and the two pool workers
    screenshot_both(pooled, "body", "never-lose-pool")
    return results


def _compare(results: list[dict], expected: list[dict]) -> None:
    """Every verdict both decided is the same on the pool and in one CPython process."""
    # the solver's line never loses (a position can stay unknown when the machine is loaded)
    assert "lost" not in [r["status"] for r in results] and results[-1]["status"] == "winnable", results
    compared = 0
    for played, (got, one) in enumerate(zip(results, expected, strict=True)):
        decided = {tuple(j) for j in one["good"] + one["bad"]} - {tuple(u["jump"]) for u in got["unknown"]}
        assert got["status"] == one["status"] or "unknown" in (got["status"], one["status"]), (played, got, one)
        for verdict in ("good", "bad"):
            mine = {tuple(j if verdict == "good" else j["jump"]) for j in got[verdict]}
            assert mine & decided == {tuple(j) for j in one[verdict]} & decided, (played, verdict, got, one)
        compared += len(decided)
    assert compared >= 20, compared


def _undo(pooled, results: list[dict]) -> None:
    # an undo: the position before is answered from the engine's table, where the pool's answers were
    # recorded; only the jumps it left undecided go to the pool again
    pooled.evaluate("""() => { window.nlAsked = 0; window.pegLab.store.subscribe((s) => {
      if (s.neverlose.pool) window.nlAsked = Math.max(window.nlAsked, s.neverlose.pool.total); }); }""")
    pooled.click("#undo")
    wait_state(pooled, OPENED + PLAYED - 1)
    again, before = _verdict(pooled, TOP - OPENED - PLAYED + 1), results[-2]
    print("ms per position:", [r["ms"] for r in results], "unknown:", [len(r["unknown"]) for r in results],
          "undo:", again["ms"], "ms, asked again", pooled.evaluate("window.nlAsked"))
    assert pooled.evaluate("window.nlAsked") <= len(before["unknown"]) + 1  # (+1: the jumps question, if asked)
    # fewer than two questions left are asked in the engine worker alone (pyapp.web.neverpool.plan_steps)
    assert ("workers" in again) == (pooled.evaluate("window.nlAsked") >= 2)
    assert again["status"] == before["status"] and set(map(tuple, before["good"])) <= set(map(tuple, again["good"]))
    assert not pooled.errors


def _stop(pooled, names) -> None:
    """A jump played while the pool decides the first questions of the game: every question stops (answers) within
    the grace period, although each pool worker is decoding the game's endgame table meanwhile (fetched beside its
    first question; seconds in Pyodide, in steps: static/engine/sets.mjs)."""
    go(pooled, f"#board={BOARD}&moves=" + ",".join(f"{x}-{y}" for x, y in names[:STOPPED]))
    wait_state(pooled, STOPPED)
    pooled.wait_for_function("() => !!window.pegLab.store.state.neverlose.pool", timeout=60_000)
    x, y = names[STOPPED]
    pooled.click(f"[data-hole='{x}']")
    pooled.click(f"[data-hole='{y}']")
    wait_state(pooled, STOPPED + 1)
    pooled.wait_for_function("() => window.pegLab.neverloseStops.length > 0", timeout=10_000)
    stop = pooled.evaluate("window.pegLab.neverloseStops[0]")
    print("stopped in", stop)
    # answered, not terminated (static/panels/neverpool.mjs CANCEL_GRACE_MS): typically 0.1-0.8 s here; how long
    # is for the bench to say (a timed assertion fails on a loaded machine), while a cancel lost on the way or a
    # decode that takes no message runs for seconds and fails this
    assert not stop["terminated"], stop


def test_a_pool_worker_takes_the_classes_decided_while_its_jumps_question_runs(pooled):
    """Engine.tell reaches the running request in the worker: the shared search drops the classes named."""
    from pyapp.core.moves import apply_jump
    from pyapp.core.notation import format_moves
    from pyapp.core.problem import Problem, default_problem
    from pyapp.search.solver import solve
    from pyapp.web.neverpool_shares import POSITION, questions

    problem = default_problem(BOARD)
    line = solve(problem).jumps[:TOP - 14]  # 14 pegs: decided in well under a second
    pos = problem.start
    for jump in line:
        pos = apply_jump(pos, jump)
    # the classes as a plan would name them (the engine's own plan answers here from the endgame table)
    names = [name for name in questions(Problem(problem.board, pos, problem.goal))[2] if name != POSITION]
    out = pooled.evaluate("""async ([board, moves, names]) => {
      const { Engine } = await import("./static/engine/protocol.mjs");
      const engine = new Engine();
      await engine.ready;
      const args = { board, moves, max_seconds: 20 };
      await engine.request("never_lose", { ...args, workers: 2 }).promise;  // the worker warm, as in play
      const { id, promise } = engine.request("never_lose", { ...args, decide: "jumps" });
      engine.tell(id, { decided: names.slice(0, -2) });
      const answer = await promise;
      engine.destroy();
      return { left: names.slice(-2), got: answer.answers.map((a) => a.decide) };
    }""", [BOARD, format_moves(problem.board, line), names])
    assert len(names) > 2 and sorted(out["got"]) == sorted(out["left"]), out


def test_a_cancel_sent_while_the_games_table_loads_is_answered_not_lost(pooled):
    """static/engine/worker.mjs: a check below the endgame table's reach first waits for the table (fetched, then
    decoded); a cancel sent meanwhile answers the check as cancelled, instead of being dropped (the request was
    not yet known by its id) and the check then running its whole budget."""
    from pyapp.core.notation import format_moves
    from pyapp.core.problem import default_problem
    from pyapp.search.solver import solve

    problem = default_problem(BOARD)
    moves = format_moves(problem.board, solve(problem).jumps[:TOP - REACH + 1])  # the check waits for the table
    out = pooled.evaluate("""async ([board, moves]) => {
      const { Engine } = await import("./static/engine/protocol.mjs");
      const engine = new Engine();  // a new engine worker: no set loaded yet
      await engine.ready;
      const { id, promise } = engine.request("never_lose", { board, moves, max_seconds: 20 });
      engine.cancel(id);
      const answer = await promise;
      engine.destroy();
      return answer;
    }""", [BOARD, moves])
    assert out["status"] == "unknown" and out["reason"].startswith("cancelled after"), out
