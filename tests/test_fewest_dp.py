"""The fewest-moves dynamic programmes (pyapp.exact.fewest.meet and .dp), cross-checked.

Four independent answers are compared: the costs swept from both ends and joined at the middle
(``method="meet"``, the default), the programme over the winnable levels (``method="levels"``),
the breadth-first search by chains (``method="chains"``) and, where small enough, a memoised brute
force over (position, hole of the last landing) written here, which costs each jump directly
(0 when the jumping peg just landed, else 1) instead of keeping a mask per position.  A change of
a programme's cost rule (a jump always costing a move, masks not merged, masks of symmetric
classes not closed, the join at the middle ignoring a move that runs through it) makes these
comparisons fail.
"""

from __future__ import annotations

from functools import cache

import pytest

from pyapp.bench.suite import oracle, replay_error
from pyapp.core.budget import Budget, drive
from pyapp.core.catalogue import get_board
from pyapp.core.moves import apply_jump, count_moves, legal_jumps
from pyapp.core.notation import parse_moves
from pyapp.core.problem import Goal, Problem
from pyapp.exact.fewest import fewest_exact, fewest_steps
from pyapp.exact.fewest.table import fewest_all_steps

T5, T6 = get_board("triangle5"), get_board("triangle6")
ENGLISH = get_board("english")
BERGHOLT = ["f4-d4", "e6-e4", "g5-e5", "d5-f5", "b5-d5", "c7-c5", "c4-c6", "e7-c7-c5", "e3-e5", "e1-e3",
            "c2-c4-c6-e6-e4-e2", "g3-g5-e5-c5", "a3-c3", "d3-b3", "a5-a3-c3", "c1-e1-e3",
            "f3-d3-b3-b5-d5-d3", "d2-d4"]
"""Bergholt's 18-move solution of the English central game (1912), as in tests/test_exact.py."""


def brute_fewest(problem: Problem) -> float:
    """Fewest moves by a memoised search over (position, last landing hole); inf when unsolvable."""
    board, goal = problem.board, problem.goal
    last_pegs = goal.final_pegs or 1

    @cache
    def rest(pos: int, landed: int) -> float:
        if pos.bit_count() == last_pegs:
            return 0 if goal.reached(pos) else float("inf")
        return min((int(a != landed) + rest(apply_jump(pos, (a, b, c)), c) for a, b, c in legal_jumps(board, pos)),
                   default=float("inf"))

    return rest(problem.start, -1)


def _check(problem: Problem, got, moves: float) -> None:
    if moves == float("inf"):
        assert got.status == "impossible" and got.reason
        return
    assert (got.status, got.moves, got.lower_bound) == ("solved", moves, moves)
    err, final = replay_error(problem.board, problem.start, got.jumps)
    assert err is None and problem.goal.reached(final) and count_moves(got.jumps) == moves


def _english_after(n_moves: int) -> int:
    pos = ENGLISH.start("d4")
    for jump in parse_moves(ENGLISH, BERGHOLT[:n_moves]):
        pos = apply_jump(pos, jump)
    return pos


T5_ORBITS = ["15", "3", "13", "9"]
"""One start of each of triangle5's four hole orbits under its symmetries (corners 1 11 15; next to a corner
2 3 7 10 12 14; edge middles 4 6 13; inside 5 8 9), none of them the least of its orbit: every (start, goal)
pair of the board is a symmetric image of a pair with one of these starts. tests/test_fewest_all.py checks
the table of every (start, finish) class against the oracle too."""


class TestAgainstOthers:
    @pytest.mark.parametrize("start", T5_ORBITS)
    def test_triangle5_every_goal_equals_the_oracle_and_the_chains(self, start):
        """Every goal from one start per hole orbit (:data:`T5_ORBITS`): the oracle's full search per goal
        makes all 15 starts cost four times as much for no other kind of case."""
        for goal in [Goal("any")] + [Goal("hole", 1 << b) for b in T5.bits]:
            problem = Problem(T5, T5.start(start), goal)
            want = oracle(T5).fewest(problem.start, goal.target if goal.exact else 0)
            got = fewest_exact(problem)
            _check(problem, got, want)
            chains = fewest_exact(problem, method="chains")
            assert (chains.status, chains.moves) == (got.status, got.moves)
            levels = fewest_exact(problem, method="levels")
            _check(problem, levels, want)

    @pytest.mark.parametrize("start", ["1", "2", "5"])
    def test_triangle5_brute_force(self, start):
        for goal in (Goal("any"), Goal("hole", 1 << T5.hole("13"))):
            problem = Problem(T5, T5.start(start), goal)
            _check(problem, fewest_exact(problem), brute_fewest(problem))

    # starts: a corner (1), next to a corner (2, 11), inside (5); "any" from 2, whose chains cost 3/5 of those from 4
    @pytest.mark.parametrize("start,goal", [("2", "any"), ("1", "1"), ("11", "11"), ("5", "16")])
    def test_triangle6_equals_the_chains(self, start, goal):
        g = Goal("any") if goal == "any" else Goal("hole", 1 << T6.hole(goal))
        problem = Problem(T6, T6.start(start), g)
        got, chains = fewest_exact(problem), fewest_exact(problem, method="chains")
        assert (got.status, got.moves) == (chains.status, chains.moves)
        _check(problem, got, chains.moves if chains.status == "solved" else float("inf"))

    @pytest.mark.parametrize("after", [11, 12, 13])
    def test_english_positions_from_bergholt_equal_the_brute_force(self, after):
        mid = _english_after(after)
        for hole in ("d4", "d1", "c3"):
            problem = Problem(ENGLISH, mid, Goal("hole", 1 << ENGLISH.hole(hole)))
            got = fewest_exact(problem)
            _check(problem, got, brute_fewest(problem))
            assert fewest_exact(problem, method="chains").moves == got.moves

    def test_a_chain_is_one_move(self):
        # after 11 of Bergholt's moves the last 7 are the fewest; his 16th and 17th moves are chains
        mid = _english_after(11)
        got = fewest_exact(Problem(ENGLISH, mid, Goal("hole", 1 << ENGLISH.hole("d4"))))
        assert got.moves == 7 and len(got.jumps) > 7


class TestSearchMechanics:
    def test_every_winnable_class_is_costed(self):
        problem = Problem(T6, T6.start("1"), Goal("hole", 1 << T6.hole("1")))
        got = fewest_exact(problem, method="levels")
        assert got.positions == got.winnable > 10_000

    def test_cancel_in_the_costs_keeps_a_proven_bound(self):
        problem = Problem(T6, T6.start("1"), Goal("hole", 1 << T6.hole("1")))
        budget = Budget(max_seconds=600)
        steps = fewest_steps(problem, budget, method="levels")
        for item in steps:
            if (item.stage, item.pegs) == ("fewest moves", 10):
                budget.cancel()
                break
        answer = drive(steps)
        assert answer.status == "unknown" and "cancelled" in answer.reason and "at least" in answer.reason
        assert 1 <= answer.lower_bound <= fewest_exact(problem).moves

    def test_memory_ceiling_is_said_before_allocating(self):
        problem = Problem(T6, T6.start("4"), Goal("any"))
        got = fewest_exact(problem, Budget(max_bytes=200_000))
        assert got.status == "unknown" and "memory ceiling" in got.reason

    def test_unknown_method_is_refused(self):
        with pytest.raises(ValueError, match="unknown fewest method"):
            fewest_exact(Problem(T5, T5.start("1"), Goal("any")), method="guess")

    @pytest.mark.parametrize("board", [T5, get_board("triangle4")])
    def test_table_shares_the_sweep_from_a_start_and_equals_the_chains(self, board):
        levels = drive(fewest_all_steps(board))
        chains = drive(fewest_all_steps(board, method="chains"))
        assert [(r.start, r.finish, r.answer.status, r.answer.moves) for r in levels.rows] == [
            (r.start, r.finish, r.answer.status, r.answer.moves) for r in chains.rows]
