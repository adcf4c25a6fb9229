"""Never lose on the asymmetric board, from its set shipped as one bit per reachable position
(pyapp.exact.overbits): a game played with it on gets a verdict (data-verdict) for every position, the note names
that set, and a jump the set proves losing is marked `loses-to` once its peg is selected.

The game is a seeded one of the default game (d5 -> d5) whose jumps the set calls winning, up to the first position
of 25-26 pegs with a jump the search of the command line's hint proves losing (computed here in CPython, the set
not loaded: an independent check of the bits): opened by a link some jumps in, then played on with never-lose on,
all above the set's floor (24 pegs), where every verdict is a lookup of a bit."""

from __future__ import annotations

import pytest
from browser_support import go, screenshot_both, wait_state

pytestmark = pytest.mark.browser

BOARD, TOP = "asymmetric", 38
OPENED = 8  # jumps opened by the link (30 pegs): the rest played with never-lose on


def _verdict(page, pegs: int) -> str:
    page.wait_for_function("n => { const d = document.getElementById('neverlose-note').dataset;"
                           " return d.pegs === String(n) && ['win', 'lose', 'unknown'].includes(d.verdict); }",
                           arg=pegs, timeout=120_000)
    return page.eval_on_selector("#neverlose-note", "el => el.dataset.verdict")


def _game_with_a_losing_jump() -> tuple[list[int], tuple[int, int, int]]:
    """Positions of a seeded game from the start, each jump one the shipped set calls winning, ending at the first
    position with 25-26 pegs where the search of the command line's hint proves some jump losing; and that jump."""
    import random

    from build import SETS_ARTEFACTS
    from pyapp.analysis.hint import hint
    from pyapp.core.budget import CPU_CLOCK, Budget
    from pyapp.core.moves import apply_jump, legal_jumps
    from pyapp.core.problem import Problem, default_problem
    from pyapp.exact.store import decode
    from pyapp.web.sets import SHIPPED, file_name

    game = next(g for g in SHIPPED if g.bits and g.board == BOARD)
    problem = default_problem(BOARD)
    win = decode((SETS_ARTEFACTS / file_name(game)).read_bytes(), problem)  # not registered: hint searches
    rng = random.Random(5)
    history = [problem.start]
    while history[-1].bit_count() > game.floor + 1:
        pos = history[-1]
        afters = [apply_jump(pos, j) for j in legal_jumps(problem.board, pos)]
        # the search asked only where the bits say some jump loses, from 26 pegs (a few CPU seconds in all)
        if pos.bit_count() <= TOP - 12 and not all(win.lookup(a) for a in afters):
            # 3 CPU seconds, not wall seconds: the same proof under the suite's load (3 wall s once found none)
            proved = hint(Problem(problem.board, pos, problem.goal), budget=Budget(3, clock=CPU_CLOCK))
            if proved.bad:
                return history, proved.bad[0]
        history.append(rng.choice([a for a in afters if win.lookup(a)]))
    raise AssertionError("no losing jump proved on the game above the set's floor")


def test_an_asymmetric_game_is_answered_from_its_bits_and_the_losing_jump_marked(app):
    from pyapp.core.moves import apply_jump, legal_jumps
    from pyapp.core.notation import format_jump
    from pyapp.core.problem import default_problem
    from pyapp.web.sets import SHIPPED

    board = default_problem(BOARD).board
    floor = next(g.floor for g in SHIPPED if g.bits and g.board == BOARD)
    history, (a, _, c) = _game_with_a_losing_jump()
    moves = [format_jump(board, next(j for j in legal_jumps(board, x) if apply_jump(x, j) == y))
             for x, y in zip(history, history[1:])]
    losing = (board.name_of[a], board.name_of[c])
    opened = min(OPENED, len(moves) - 1)
    names = [tuple(m.split("-")) for m in moves]

    go(app, f"#board={BOARD}&moves=" + ",".join(moves[:opened]))
    wait_state(app, opened)
    button = app.get_by_role("button", name="Never lose")
    button.click()
    verdicts = [_verdict(app, TOP - opened)]
    for played, (x, y) in enumerate(names[opened:], opened + 1):
        app.click(f"[data-hole='{x}']")
        app.click(f"[data-hole='{y}']")
        wait_state(app, played)
        verdicts.append(_verdict(app, TOP - played))
    assert verdicts == ["win"] * len(verdicts), verdicts  # each jump was one the set calls winning
    app.click(f"[data-hole='{losing[0]}']")
    app.wait_for_selector(f"[data-hole='{losing[1]}'].loses-to", timeout=60_000)
    note = app.text_content("#neverlose-note") or ""
    assert f"{losing[0]}-{losing[1]} (" in note, note  # listed with what proved it
    assert (f"Answered from the exact winnable set of this game, shipped from {floor} pegs up, one bit per position "
            "the start reaches") in note, note
    screenshot_both(app, "body", "never-lose-asymmetric")
    app.set_viewport_size({"width": 1280, "height": 900})
    app.click(f"[data-hole='{losing[0]}']")
    button.click()
