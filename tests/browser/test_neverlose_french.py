"""Never lose on the French board (no shipped set: the page's search decides): a game played with it on
gets a verdict (data-verdict) for every position, and a jump the engine proves losing is marked
`loses-to` on the board once its peg is selected.

The game follows the solver's line for the default game (d2 -> d6): opened by a link 15 jumps in, then
five jumps played with never-lose on; at the position reached, a jump the command line's hint proves
losing (computed here in CPython) must be marked, and the note names the goal's endgame table, which answers
there (16 pegs): the one the site ships, fetched beside the game's first check.

The first moves of the game are answered from the opening book the site ships (pyapp/exact/openingbook.py, the
committed file in sets/): at a position a few jumps in whose losing jump the book proves, the note names the book,
no jump is left undecided, and the losing jump is marked."""

from __future__ import annotations

import pytest
from browser_support import ARTIFACTS, go, screenshot_both, wait_state, wait_verdict

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
    # at 16 pegs the goal's endgame table answers (pyapp.exact.endgame): exact, and the note says so; it is the
    # table the site ships (pyapp.exact.endgame_files), fetched beside the first check of this game
    assert "Answered from the endgame table of this goal" in note and "(endgame table)" in note, note
    assert "shipped with the site" in note, note
    ARTIFACTS.mkdir(exist_ok=True)
    screenshot_both(app, "body", "never-lose-french")
    app.set_viewport_size({"width": 1280, "height": 900})
    app.click(f"[data-hole='{losing[0]}']")
    button.click()


def _booked_position():
    """The jumps (in notation) from the French start to the first position, breadth first, where the shipped opening
    book files a jump as losing, and that jump's holes."""
    from build import SETS_ARTEFACTS
    from pyapp.analysis.neverlose_exact import never_lose_book
    from pyapp.core.moves import apply_jump, legal_jumps
    from pyapp.core.problem import default_problem
    from pyapp.exact import openingbook
    from pyapp.exact.openingbook_files import decode_book, file_name

    problem = default_problem("french")
    board = problem.board
    book = decode_book((SETS_ARTEFACTS / file_name(problem)).read_bytes(), problem)
    openingbook.install(book)
    try:
        frontier = [(problem.start, [])]
        while frontier:
            pos, path = frontier.pop(0)
            answer = never_lose_book(board, problem.goal, pos)
            if answer is not None and answer.jumps.bad and answer.status == "winnable":
                a, _, c = answer.jumps.bad[0]
                return path, (board.name_of[a], board.name_of[c])
            if pos.bit_count() > book.deepest + 1:
                frontier += [(apply_jump(pos, j), [*path, f"{board.name_of[j[0]]}-{board.name_of[j[2]]}"])
                             for j in legal_jumps(board, pos)]
    finally:
        openingbook.clear()
    raise AssertionError("no position of the book's levels has a losing jump")


def test_the_first_moves_are_answered_from_the_shipped_opening_book(app):
    path, (x, y) = _booked_position()
    go(app, "#board=french&moves=" + ",".join(path))
    wait_state(app, len(path))
    button = app.get_by_role("button", name="Never lose")
    if app.get_attribute("#never-lose", "aria-pressed") != "true":
        button.click()
    wait_verdict(app, "win", 36 - len(path), timeout=60_000)
    note = app.text_content("#neverlose-note") or ""
    assert "opening book of this game" in note and "Not decided" not in note, note
    assert f"{x}-{y} (opening book)" in note, note
    app.click(f"[data-hole='{x}']")
    app.wait_for_selector(f"[data-hole='{y}'].loses-to", timeout=30_000)
    screenshot_both(app, "body", "never-lose-french-book")
    app.click(f"[data-hole='{x}']")
    button.click()
