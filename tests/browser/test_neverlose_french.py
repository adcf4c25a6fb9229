"""Never lose on the French board: a game played with it on gets a verdict (data-verdict) for every position,
and a jump proved losing is marked `loses-to` on the board once its peg is selected.

The game follows the solver's line for the default game (d2 -> d6): opened by a link 15 jumps in, then
five jumps played with never-lose on; at the position reached, a jump the command line's hint proves
losing (computed here in CPython, by search: an independent check) must be marked.  The game's exact set ships
from some pegs up over the goal's endgame table (pyapp.exact.overtable): the positions here (21 to 16 pegs) are
under its floor, so the note names the set and the table, the one the site ships, fetched with the set."""

from __future__ import annotations

import pytest
from browser_support import ARTIFACTS, go, screenshot_both, wait_state

pytestmark = pytest.mark.browser

OPENED, PLAYED = 15, 5


def _verdict(page, pegs: int) -> str:
    page.wait_for_function("n => { const d = document.getElementById('neverlose-note').dataset;"
                           " return d.pegs === String(n) && ['win', 'lose', 'unknown'].includes(d.verdict); }",
                           arg=pegs, timeout=180_000)
    return page.eval_on_selector("#neverlose-note", "el => el.dataset.verdict")


def test_a_french_game_gets_a_verdict_for_every_position_and_the_losing_jump_marked(app):
    from pyapp.analysis.hint import hint
    from pyapp.core.moves import apply_jump
    from pyapp.core.problem import Problem, default_problem
    from pyapp.search.solver import solve
    from pyapp.web.sets import SHIPPED

    problem = default_problem("french")
    board = problem.board
    line = solve(problem).jumps
    names = [(board.name_of[a], board.name_of[c]) for a, _, c in line]
    pos = problem.start
    for jump in line[:OPENED + PLAYED]:
        pos = apply_jump(pos, jump)
    proved = hint(Problem(board, pos, problem.goal), max_seconds=30)
    assert proved.bad, "the line's position has no losing jump to look for"
    a, _, c = proved.bad[0]
    losing = (board.name_of[a], board.name_of[c])

    go(app, "#board=french&moves=" + ",".join(f"{x}-{y}" for x, y in names[:OPENED]))
    wait_state(app, OPENED)
    button = app.get_by_role("button", name="Never lose")
    button.click()
    verdicts = [_verdict(app, 36 - OPENED)]
    for played, (x, y) in enumerate(names[OPENED:OPENED + PLAYED], OPENED + 1):
        app.click(f"[data-hole='{x}']")
        app.click(f"[data-hole='{y}']")
        wait_state(app, played)
        verdicts.append(_verdict(app, 36 - played))
    assert "lose" not in verdicts, verdicts  # the solver's line never loses
    app.click(f"[data-hole='{losing[0]}']")
    app.wait_for_selector(f"[data-hole='{losing[1]}'].loses-to", timeout=180_000)
    note = app.text_content("#neverlose-note") or ""
    assert f"{losing[0]}-{losing[1]} (" in note, note  # listed with what proved it
    # at 16 pegs the set answers through the goal's endgame table (pyapp.exact.overtable): exact, and the note
    # says so; the table is the one the site ships (pyapp.exact.endgame_files), fetched with the set
    floor = next(g.floor for g in SHIPPED if g.over_table and g.board == "french")
    assert f"Answered from the exact winnable set of this game, shipped from {floor} pegs up" in note, note
    assert "by the goal's endgame table (shipped with the site)" in note and "(exact winnable set)" in note, note
    ARTIFACTS.mkdir(exist_ok=True)
    screenshot_both(app, "body", "never-lose-french")
    app.set_viewport_size({"width": 1280, "height": 900})
    app.click(f"[data-hole='{losing[0]}']")
    button.click()
