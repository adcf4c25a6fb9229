"""The jump-count integer programme (pyapp/proofs/jumpcounts.py): never claims a winnable position lost, proves lost
positions that no pagoda does, and the solver names it when it is the proof it gives."""

from __future__ import annotations

from pyapp.bench.game_rows import exact_set
from pyapp.core.budget import drive
from pyapp.core.catalogue import get_board
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.position import parse_position
from pyapp.core.problem import Problem, make_problem
from pyapp.proofs.jumpcounts import counts_model, counts_steps
from pyapp.proofs.lp import solve as solve_programme
from pyapp.proofs.pagoda import find_pagoda_steps
from pyapp.search.solver import solve
from tests.test_partial_sets import _random_positions

# English d1 -> d1, 27 pegs, reached in a seeded game of the first test: lost (the committed exact set of the game
# does not hold it), yet neither a pagoda found by linear programming nor the pagoda separations prove it; the jump
# counts do
NO_PAGODA = "o.o/o.o/ooooooo/o...ooo/ooo.ooo/ooo/ooo"


def test_winnable_positions_always_have_counts_and_lost_ones_are_proved_beyond_the_pagodas():
    problem = make_problem(get_board("english"), start="d1", goal="d1")
    whole = exact_set(problem, "english-d1-d1")
    assert whole is not None, "the committed English d1 -> d1 set decodes"
    finishes = [problem.goal.target]
    seen: set[int] = set()
    won = lost = proved = beyond = 0
    for history in _random_positions(whole, 3, 2):
        pos = history[-1]
        for after in (apply_jump(pos, j) for j in legal_jumps(problem.board, pos)):
            if after in seen or after.bit_count() < 16:
                continue
            seen.add(after)
            status = solve_programme(counts_model(problem.board, after, finishes)).status
            assert status in ("optimal", "infeasible"), status
            if whole.can_win(after):  # a winnable position has whole jump counts: its solution's
                won += 1
                assert status == "optimal", problem.board.pegs(after)
            else:
                lost += 1
                if status == "infeasible":
                    proved += 1
                    beyond += drive(find_pagoda_steps(problem.board, after, finishes)) is None
    assert won >= 50 and lost >= 100
    assert proved >= lost // 3 and beyond >= 5, (won, lost, proved, beyond)


def test_one_peg_anywhere_chooses_among_the_finishes():
    board = get_board("english")
    full_but_centre = make_problem(board, start="d4", goal="any")
    finishes = full_but_centre.goal.pagoda_targets(board, full_but_centre.start)
    sol = drive(counts_steps(board, full_but_centre.start, finishes))
    assert sol.status == "optimal"
    # two pegs in opposite corners of the cross: no jump is even legal
    apart = parse_position(board, "o../.../......./......./......./.../..o")
    assert drive(counts_steps(board, apart, finishes)).status == "infeasible"


def test_the_solver_names_the_jump_counts_when_they_are_its_proof():
    problem = make_problem(get_board("english"), start="d1", goal="d1")
    pos = parse_position(problem.board, NO_PAGODA)
    assert drive(find_pagoda_steps(problem.board, pos, [problem.goal.target])) is None
    whole = exact_set(problem, "english-d1-d1")
    assert whole is not None and not whole.can_win(pos)
    r = solve(Problem(problem.board, pos, problem.goal), max_seconds=20)
    assert r.status == "impossible" and r.method == "jump counts (integer programming)", (r.method, r.reason)
    assert r.reason.startswith("jump counts: no whole number of plays") and "HiGHS" in r.reason
