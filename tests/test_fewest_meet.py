"""Fewest moves by the costs swept from both ends and joined at the middle level (pyapp.exact.fewest.meet).

Its answers are compared with the programme over the winnable levels (``method="levels"``), which
builds the whole winnable set; test_fewest_dp.py compares both with the chains and a brute force.
Here: problems whose best line runs one move through the middle level (the join must take away the
move counted twice), triangle 6 against the levels, what an answer cut short says, and the
mechanics of one costed level (a lower cost replaces, an equal one joins its holes).
"""

from __future__ import annotations

import pytest

from pyapp.bench.suite import replay_error
from pyapp.core.budget import Budget, drive
from pyapp.core.catalogue import get_board
from pyapp.core.moves import count_moves
from pyapp.core.problem import Goal, Problem
from pyapp.exact.fewest import fewest_exact
from pyapp.exact.fewest.meet import best_middle, meet_sides, side_steps
from pyapp.exact.fewest.push import merge_fn

T5, T6 = get_board("triangle5"), get_board("triangle6")


def _solved(problem: Problem, got) -> None:
    assert got.status == "solved" and got.lower_bound == got.moves
    err, final = replay_error(problem.board, problem.start, got.jumps)
    assert err is None and problem.goal.reached(final) and count_moves(got.jumps) == got.moves


# one peg anywhere from the inner hole 5 (its winnable set costs the levels half what vacancy 4's does), and a
# single-hole goal from an edge hole
@pytest.mark.parametrize("start,goal", [("5", "any"), ("11", "11")])
def test_triangle6_equals_the_levels(start, goal):
    g = Goal("any") if goal == "any" else Goal("hole", 1 << T6.hole(goal))
    problem = Problem(T6, T6.start(start), g)
    got, levels = fewest_exact(problem), fewest_exact(problem, method="levels")
    assert (got.status, got.moves) == (levels.status, levels.moves)
    _solved(problem, got)
    assert got.winnable is None and got.positions > 10_000  # classes costed by the two sweeps, no winnable set


def test_some_best_line_runs_a_move_through_the_middle():
    """On triangle 5 the best join at the middle takes a move away for some problems (a move runs through the
    middle position): each is checked against the levels."""
    through = 0
    for start, hole in [(s, h) for s in ("4", "13") for h in T5.names]:
        problem = Problem(T5, T5.start(start), Goal("hole", 1 << T5.hole(hole)))
        if problem.goal.obstacle(T5, problem.start):
            continue
        s, cd, sources = meet_sides(problem)
        m, n = s.meet(), s.holes
        ahead = drive(side_steps(cd, [s.start], m, False, Budget(), "f", [0], [0]))
        back = drive(side_steps(cd, sources, n - m, True, Budget(), "b", [0], [0]))
        mid = drive(best_middle(cd, ahead[m], back[n - m], Budget()))
        if mid is None:
            continue
        through += mid.landing is not None
        assert mid.moves == fewest_exact(problem, method="levels").moves
    assert through > 0


def test_a_lower_cost_replaces_and_an_equal_one_joins():
    cd = meet_sides(Problem(T5, T5.start("1"), Goal("any")))[1]
    merge = merge_fn(cd)
    n, wide = cd.holes, cd.holes * len(cd.group)
    x = cd.packed(T5.start("5"))  # some position, as packed images (its canonical key is one lane)
    key = cd.canon(T5.start("5"))
    hole = [cd.packed_of_bit[b] for b in T5.bits]
    acc: dict[int, int] = {}
    merge({x: hole[3] << wide}, 4, acc)  # field 1 of a level whose least cost is 4: cost 5
    assert acc[key] >> n == 5
    merge({x: hole[7] | hole[1] << wide}, 3, acc)  # fields 0 and 1 set: the least, cost 3, replaces
    first = acc[key]
    assert first >> n == 3 and (first & cd.everything).bit_count() == 1
    merge({x: hole[9]}, 3, acc)  # equal: the holes join
    assert acc[key] >> n == 3 and (acc[key] & cd.everything).bit_count() == 2
    merge({x: hole[11] << wide}, 2, acc)  # cost 3 again: joins, not replaces
    assert acc[key] >> n == 3 and (acc[key] & cd.everything).bit_count() == 3
    merge({x: hole[12] << 2 * wide}, 2, acc)  # cost 4: dropped
    assert acc[key] >> n == 3 and (acc[key] & cd.everything).bit_count() == 3


def test_cut_short_says_where_and_keeps_a_bound():
    board = get_board("triangle7")
    got = fewest_exact(Problem(board, board.start("2"), Goal("hole", 1 << board.hole("3"))), Budget(0.3))
    assert got.status == "unknown" and "fewest moves " in got.reason and "(level " in got.reason
    assert f"at least {got.lower_bound} moves" in got.reason and got.lower_bound >= 1


def test_memory_ceiling_is_said_before_the_level_grows():
    got = fewest_exact(Problem(T6, T6.start("4"), Goal("any")), Budget(max_bytes=200_000))
    assert got.status == "unknown" and "memory ceiling" in got.reason


def test_impossible_by_the_sweeps():
    # the position class allows this goal, but no line reaches it: both sweeps meet on nothing
    problem = Problem(T6, T6.start("5"), Goal("hole", 1 << T6.hole("16")))
    got = fewest_exact(problem)
    assert got.status == fewest_exact(problem, method="levels").status == "impossible" and got.reason


def test_a_move_through_the_middle_counts_once():
    """Pegs on 1, 2 and 5 of triangle 5 finish only by the chain 1-4-6, one move of two jumps: its middle
    position (two pegs) is left by the peg that landed there, so the join must not count two moves."""
    pos = sum(1 << T5.hole(h) for h in ("1", "2", "5"))
    for goal in (Goal("any"), Goal("hole", 1 << T5.hole("6"))):
        problem = Problem(T5, pos, goal)
        got = fewest_exact(problem)
        _solved(problem, got)
        assert (got.moves, len(got.jumps)) == (1, 2)


def test_the_join_closes_the_masks_under_the_symmetries_of_the_middle_position():
    """A middle position fixed by a reflection: a prefix landing on ``h`` joins a suffix leaving from the
    mirror image of ``h`` (the reflection maps one line onto the other), so the join counts one move less."""
    from array import array

    from pyapp.exact.fewest.push import CostLevel

    cd = meet_sides(Problem(T5, T5.start("1"), Goal("any")))[1]
    n, full = cd.holes, cd.everything
    key = cd.canon(sum(1 << T5.hole(h) for h in ("1", "4", "6", "8", "9")))  # symmetric about the axis through 1
    lanes = [(cd.packed_key(key) >> (n * g)) & full for g in range(len(cd.group))]
    s = next(g for g in range(1, len(lanes)) if lanes[g] == key)  # the reflection, in the key's frame
    h = next(i for i in range(n) if key >> i & 1 and (cd.packed_key(1 << i) >> (n * s)) & full != 1 << i)
    mirror = (cd.packed_key(1 << h) >> (n * s)) & full
    images = [(cd.packed_key(full ^ key) >> (n * g)) & full for g in range(len(cd.group))]
    j = images.index(min(images))  # the lane of the complement's key
    for back_hole, moves in ((mirror, 5 + 4 - 1), (1 << h, 5 + 4 - 1)):
        back_mask = (cd.packed_key(back_hole) >> (n * j)) & full  # the hole in the complement key's frame
        ahead = CostLevel(array("Q", [key]), array("B", [5]), array("Q", [1 << h]))
        back = CostLevel(array("Q", [images[j]]), array("B", [4]), array("Q", [back_mask]))
        assert drive(best_middle(cd, ahead, back, Budget())).moves == moves
    far = next(i for i in range(n) if key >> i & 1 and 1 << i not in (1 << h, mirror))
    back = CostLevel(array("Q", [images[j]]), array("B", [4]),
                     array("Q", [(cd.packed_key(1 << far) >> (n * j)) & full]))
    assert drive(best_middle(cd, ahead, back, Budget())).moves == 5 + 4  # no move runs through


def test_a_pool_the_two_sides_cannot_use_gets_the_sharded_levels():
    from pyapp.exact.fewest import fewest_steps
    from pyapp.exact.pool import InProcess
    from pyapp.exact.sharded import Parallel

    problem = Problem(T5, T5.start("1"), Goal("any"))
    sharded = drive(fewest_steps(problem, parallel=Parallel(InProcess(), shards=2)))
    here = fewest_exact(problem)
    assert (sharded.status, sharded.moves) == (here.status, here.moves) == ("solved", 10)
    assert sharded.winnable and here.winnable is None  # over the winnable set there, by the two sweeps here


@pytest.mark.parametrize("board,start,goal", [(T5, "1", "any"), (T5, "13", "13"), (T5, "4", "any")])
def test_capped_sides_keep_exact_costs_and_join_exactly_within_their_caps(board, start, goal):
    """What the rounds rest on: a side under a cap keeps every class costing at most the cap, with the cost and
    holes of the whole sweep; the least join over every level is the fewest moves once the caps sum to at least
    them, and no join is within caps summing to fewer (it would be a solution shorter than the fewest)."""
    from pyapp.exact.fewest.meet import best_join

    g = Goal("any") if goal == "any" else Goal("hole", 1 << board.hole(goal))
    problem = Problem(board, board.start(start), g)
    want = fewest_exact(problem, method="levels").moves
    s, cd, sources = meet_sides(problem)
    n = s.holes
    whole = [drive(side_steps(cd, [s.start], s.last_pegs, False, Budget(), "f", [0], [0])),
             drive(side_steps(cd, sources, n - s.first_pegs, True, Budget(), "b", [0], [0]))]
    capped: list[list] = [[], []]
    for side, (src, last) in enumerate((([s.start], s.last_pegs), (sources, n - s.first_pegs))):
        for cap in range(want + 1):
            levels = drive(side_steps(cd, src, last, side == 1, Budget(), "c", [0], [0], cap))
            for pegs, level in whole[side].items():
                kept = [(k, c, m) for k, c, m in zip(level.keys, level.costs, level.masks) if c <= cap]
                got = levels.get(pegs)
                assert kept == (list(zip(got.keys, got.costs, got.masks)) if got is not None else [])
            capped[side].append(levels)
    for a in range(want + 1):
        for b in range(want + 1 - a):
            mid = drive(best_join(cd, capped[0][a], capped[1][b], Budget()))
            if a + b >= want:
                assert mid is not None and mid.moves == want
            else:
                assert mid is None or mid.moves > a + b
