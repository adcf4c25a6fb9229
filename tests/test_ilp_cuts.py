"""The additions to the time-indexed integer programme (pyapp/search/ilp_cuts.py): symmetry breaking, time reversal,
jump counts and reachability fixings keep a solution of every solvable problem and change no answer."""

from __future__ import annotations

import pytest
from test_levels import reachable

from pyapp.core.budget import Budget
from pyapp.core.catalogue import get_board
from pyapp.core.errors import PegError
from pyapp.core.goal import Goal
from pyapp.core.notation import parse_moves
from pyapp.core.problem import Problem, make_problem
from pyapp.proofs import lp
from pyapp.proofs.book_solved import SOLVED
from pyapp.search.ilp import IlpFormulation, solve_ilp
from pyapp.search.ilp_cuts import BYTES_PER_POSITION, LEVEL_POSITIONS, add_level_fixings, levels, symmetry_group

SOLVED_SAMPLE = ("5", "7", "13")
"""The reachable finishes of triangle 5 from 13 asked of the programme, one of each kind: 5 on the mirror axis (the
symmetry rows added; 1 too), 7 off it (no symmetry kept; 10, its mirror image, too) and 13 itself (the symmetry rows
and the reversal row).  Each solve takes HiGHS 1.5-5 s; the unreachable finishes, refused at once by the position
class, are all asked."""


def test_symmetric_single_vacancy_cells_agree_with_enumeration():
    """Triangle 5 with the vacancy on a mirror axis (13) to every unreachable finish and a sample of the reachable
    ones (:data:`SOLVED_SAMPLE`): solved exactly where enumeration reaches the finish, impossible elsewhere, with
    the symmetry rows (and, for 13 -> 13, the reversal row) added."""
    board = get_board("triangle5")
    counts = {"solved": 0, "impossible": 0}
    for vacancy in ("13",):
        start = board.start(vacancy)
        seen = reachable(board, start)
        for finish in board.bits:
            if 1 << finish in seen and board.name_of[finish] not in SOLVED_SAMPLE:
                continue
            problem = Problem(board, start, Goal("hole", 1 << finish))
            result = solve_ilp(problem, max_seconds=60)
            want = "solved" if 1 << finish in seen else "impossible"
            assert result.status == want, (vacancy, board.name_of[finish], result)
            counts[want] += 1
    assert counts["solved"] == len(SOLVED_SAMPLE) and counts["impossible"] > 0
    notes = IlpFormulation(make_problem(board, start="13", goal="13")).notes
    assert any(n.startswith("symmetry breaking") for n in notes) and "time reversal broken" in notes


def test_the_german_e1_group_is_the_mirror_and_the_rows_are_added():
    board = get_board("german")
    f = IlpFormulation(make_problem(board, start="e1", goal="e1"))
    group = symmetry_group(f)
    assert len(group) == 2  # the identity and the mirror in column e
    assert f.notes[0].startswith("symmetry breaking") and "time reversal broken" in f.notes
    plain = IlpFormulation(make_problem(board, start="e1", goal="e1"), cuts=False)
    jumps = len(f.jumps)
    assert sum(f.model.integer) == sum(plain.model.integer) + jumps == (f.steps + 1) * jumps


def test_levels_are_the_positions_at_each_distance():
    board = get_board("triangle5")
    start = board.start("5")
    fwd = levels(board, [start], True, 10**6, 20)
    assert set().union(*fwd) == reachable(board, start)
    for d, level in enumerate(fwd):
        assert all(q.bit_count() == start.bit_count() - d for q in level)
    goal = 1 << board.hole("13")
    back = levels(board, [goal], False, 10**6, 20)
    dual = levels(board, [board.full() ^ goal], True, 10**6, 20)
    assert back == [{board.full() ^ q for q in level} for level in dual]
    assert len(levels(board, [start], True, 3, 20)) < len(fwd)


def _fixed_to(f: IlpFormulation, jumps) -> lp.Model:
    """The formulation's model with step t's jump fixed to ``jumps[t - 1]``."""
    m = f.model.copy()
    index = {j: k for k, j in enumerate(f.jumps)}
    for t, j in enumerate(jumps, 1):
        col = f.x[t][index[j]]
        m.lower[col] = 1.0
        if m.upper[col] < 1:
            return m  # fixed to 0 by reachability: infeasible as it stands
    return m


def _book_jumps(board, start, finish):
    entry = next(e for e in SOLVED if (e.board, e.start, e.finish) == (board.id, start, finish))
    return parse_moves(board, entry.moves)


def test_a_known_solution_or_its_image_stays_feasible_and_the_others_are_cut():
    """German e1 -> e7 (mirror symmetric): of a book solution and its mirror image, exactly one passes the symmetry
    rows, and reachability fixings keep it; German d1 -> d1: of a solution and its reverse, at least one passes the
    reversal row (each checked by HiGHS with every jump fixed)."""
    board = get_board("german")
    jumps = _book_jumps(board, "e1", "e7")
    f = IlpFormulation(make_problem(board, start="e1", goal="e7"))
    mirror = next(i for i in symmetry_group(f) if board.transform(1 << board.hole("d1"), i) != 1 << board.hole("d1"))
    answers = [lp.solve(_fixed_to(f, js)).status for js in (jumps, board.map_jumps(jumps, mirror))]
    assert sorted(answers) == ["infeasible", "optimal"], answers
    jumps = _book_jumps(board, "d1", "d1")
    f = IlpFormulation(make_problem(board, start="d1", goal="d1"))
    assert "time reversal broken" in f.notes
    answers = [lp.solve(_fixed_to(f, js)).status for js in (jumps, jumps[::-1])]
    assert "optimal" in answers, answers


def test_additions_can_be_chosen_and_unknown_ones_are_refused():
    problem = make_problem(get_board("triangle5"), start="13", goal="13")
    only = IlpFormulation(problem, cuts=("levels",))
    assert len(only.notes) == 1 and only.notes[0].endswith("levels of reachable positions")
    assert sum(only.model.integer) == sum(IlpFormulation(problem, cuts=False).model.integer)
    with pytest.raises(PegError, match="unknown additions to the integer programme: pagodas"):
        IlpFormulation(problem, cuts=("pagodas",))


def _old_rule_fixings(f: IlpFormulation, positions: int) -> set[int]:
    """The jump columns the reachability fixings fixed before they OR-ed whole-board masks: each jump checked at
    each step against the positions before and after it, one by one."""
    board, steps, start = f.problem.board, f.steps, f.problem.start
    half = steps // 2
    fwd = levels(board, [start], True, positions, half)
    bwd = levels(board, [f.exact], False, positions, steps - half) if f.exact is not None else []
    sets = dict(enumerate(fwd))
    for d, s in enumerate(bwd):
        sets[steps - d] = sets[steps - d] & s if steps - d in sets else s
    fixed = set()
    for t in range(1, steps + 1):
        before, after = sets.get(t - 1), sets.get(t)
        if before is None and after is None:
            continue
        for k, (a, b, c) in enumerate(f.jumps):
            takes, gives = 1 << a | 1 << b, 1 << c
            if not ((before is None or any(q & takes == takes and not q & gives for q in before))
                    and (after is None or any(q & gives and not q & takes for q in after))):
                fixed.add(f.x[t][k])
    return fixed


@pytest.mark.parametrize("board, start, goal, positions", [
    ("triangle5", "13", "13", 10**6),  # both sides' levels meet in the middle
    ("triangle5", "1", "any", 10**6),  # no finish to go back from
    ("english", "d4", "d4", 3_000),  # both sides stop at the budget, long before they meet
    ("diamond41", "e1", "e9", 800),
])
def test_level_fixings_fix_the_jumps_the_one_by_one_rule_fixed(board, start, goal, positions):
    problem = make_problem(get_board(board), start=start, goal=goal)
    f = IlpFormulation(problem, cuts=False)
    fixed_x, fixed_p, depth = add_level_fixings(f, positions)
    want = _old_rule_fixings(IlpFormulation(problem, cuts=False), positions)
    got = {col for t in range(1, f.steps + 1) for col in f.x[t] if f.model.upper[col] == 0}
    assert got == want and fixed_x == len(want) > 0 and fixed_p > 0 and depth > 0


def test_level_fixings_keep_to_the_caller_s_budget():
    """Fewer positions (a lower count, a smaller memory ceiling) enumerate fewer levels; a cancelled budget stops
    at once and fixes only what the start and the finish themselves rule out."""
    problem = make_problem(get_board("english"), start="d4", goal="d4")

    def depth(positions=LEVEL_POSITIONS, budget=None):
        return add_level_fixings(IlpFormulation(problem, cuts=False), positions, budget)[2]

    def fixings(budget):
        return add_level_fixings(IlpFormulation(problem, cuts=False), LEVEL_POSITIONS, budget)

    full, small = depth(), depth(2_000)
    assert 2 < small < full
    assert depth(budget=Budget(max_bytes=2_000 * BYTES_PER_POSITION)) == small
    cancelled = Budget()
    cancelled.cancel()
    fixed_x, _, levels_done = fixings(cancelled)
    assert levels_done == 0 and fixed_x > 0  # the jumps the start and the finish alone rule out at steps 1 and T
