"""count: exact numbers of solving jump sequences, checked against brute force and by hand."""

import json

import pytest

from pyapp.cli.main import main
from pyapp.core.budget import Budget
from pyapp.core.catalogue import get_board
from pyapp.core.custom import board_from_text
from pyapp.core.errors import PegError
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import Goal, Problem
from pyapp.exact.count import CountBudgetError, count, count_solutions


def brute_force(board, pos, goal) -> int:
    """Every jump sequence enumerated one by one: no memo, no symmetry."""
    if pos.bit_count() == (goal.final_pegs or 1):
        return int(goal.reached(pos))
    return sum(brute_force(board, apply_jump(pos, j), goal) for j in legal_jumps(board, pos))


class TestCount:
    def test_by_hand(self):
        board, pos = board_from_text("oo.o")
        # a1-c1 then d1-b1: the only way to one peg
        assert count_solutions(Problem(board, pos, Goal("any"))) == 1
        board, pos = board_from_text("ooo/o.o/ooo")
        # a 3x3 square with the centre empty: no jump reaches the centre's lines with a peg beyond
        assert count_solutions(Problem(board, pos, Goal("any"))) == brute_force(board, pos, Goal("any"))

    @pytest.mark.parametrize("start", ["2", "3", "4", "6"])
    def test_matches_brute_force(self, start):
        board = get_board("triangle4")
        pos = board.start(start)
        for goal in [Goal("any")] + [Goal("hole", 1 << b) for b in board.bits]:
            assert count_solutions(Problem(board, pos, goal)) == brute_force(board, pos, goal)

    def test_matches_brute_force_15_holes(self):
        board = get_board("triangle5")
        pos = board.start("5")
        assert count_solutions(Problem(board, pos, Goal("any"))) == brute_force(board, pos, Goal("any"))

    def test_hole_counts_add_up_to_any(self):
        board = get_board("triangle5")
        pos = board.start("13")
        per_hole = sum(count_solutions(Problem(board, pos, Goal("hole", 1 << b))) for b in board.bits)
        assert per_hole == count_solutions(Problem(board, pos, Goal("any")))

    def test_target_goal(self):
        board = get_board("triangle5")
        start = board.start("4")
        # every three-jump sequence ends at exactly one position three jumps on (some are reached twice)
        ends = []
        for a in legal_jumps(board, start):
            p = apply_jump(start, a)
            for b in legal_jumps(board, p):
                q = apply_jump(p, b)
                ends.extend(apply_jump(q, c) for c in legal_jumps(board, q))
        sequences, targets = ends, set(ends)
        total = sum(count_solutions(Problem(board, start, Goal("target", t))) for t in targets)
        assert total == len(sequences) > len(targets)
        # the start itself is reached by the empty sequence only
        assert count_solutions(Problem(board, start, Goal("target", start))) == 1

    def test_impossible_by_class_is_zero_at_once(self):
        french = get_board("french")
        c = count(Problem(french, french.start("d4"), Goal("any")))
        assert c.solutions == 0 and c.positions == 0 and "position class" in c.reason

    def test_budget(self):
        english = get_board("english")
        problem = Problem(english, english.start("d4"), Goal("hole", 1 << english.hole("d4")))
        c = count(problem, max_seconds=0.2)
        assert c.solutions is None and "budget spent" in c.reason
        with pytest.raises(CountBudgetError, match="position limit of 1,000"):
            count_solutions(problem, max_positions=1000)

    def test_memory_ceiling_is_the_only_default_limit(self):
        english = get_board("english")
        problem = Problem(english, english.start("d4"), Goal("hole", 1 << english.hole("d4")))
        c = count(problem, budget=Budget(max_bytes=150_000))  # 1,000 positions at POSITION_BYTES
        assert c.solutions is None and "memory ceiling of 0 MB reached" in c.reason
        assert 1000 < c.positions < 1100

    def test_min_goal_is_refused(self):
        board = get_board("triangle5")
        with pytest.raises(PegError, match="min"):
            count(Problem(board, board.start("1"), Goal("min")))


class TestCountCommand:
    def test_json(self, capsys):
        assert main(["count", "triangle4", "--start", "2", "--goal", "any", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        board = get_board("triangle4")
        assert out["solutions"] == brute_force(board, board.start("2"), Goal("any"))
        assert out["status"] == "counted"

    def test_budget_answers_unknown(self, capsys):
        assert main(["count", "english", "--max-seconds", "0.2", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["solutions"] is None and out["status"] == "unknown"

    def test_min_goal_is_an_input_error(self, capsys):
        assert main(["count", "triangle5", "--goal", "min"]) == 2
        assert "min" in capsys.readouterr().err
