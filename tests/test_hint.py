"""hint: legal jumps sorted by whether the goal stays reachable, cross-checked by counting."""

import json

from pyapp.analysis import hint
from pyapp.cli.main import main
from pyapp.core.catalogue import get_board
from pyapp.core.moves import apply_jump, is_legal, legal_jumps
from pyapp.core.notation import format_jump
from pyapp.core.position import format_position, parse_position
from pyapp.core.problem import Goal, Problem
from pyapp.exact.count import count_solutions


def _reaches(problem, jump, line):
    pos = apply_jump(problem.start, jump)
    for j in line:
        assert is_legal(problem.board, pos, j)
        pos = apply_jump(pos, j)
    return problem.goal.reached(pos)


class TestHint:
    def test_agrees_with_counting(self):
        board = get_board("triangle5")
        # a middle-game position: after 4-1, 6-4, 1-6 from the top vacancy
        pos = parse_position(board, "./../o.o/oooo/ooooo")
        for goal in (Goal("any"), Goal("hole", 1 << board.hole("13")), Goal("hole", 1 << board.hole("1"))):
            problem = Problem(board, pos, goal)
            h = hint(problem, max_seconds=20)
            assert h.unknown == []
            assert sorted(h.good + h.bad) == sorted(legal_jumps(board, pos))
            for j in legal_jumps(board, pos):
                alive = count_solutions(Problem(board, apply_jump(pos, j), goal)) > 0
                assert (j in h.good) == alive, format_jump(board, j)
            for j in h.good:
                assert _reaches(problem, j, h.lines[j])
            assert all(h.reasons[j] for j in h.bad)

    def test_some_jumps_are_bad(self):
        board = get_board("triangle5")
        h = hint(Problem(board, board.start("2"), Goal("any")), max_seconds=20)
        assert [format_jump(board, j) for j in h.good] == ["7-2"]
        assert [format_jump(board, j) for j in h.bad] == ["9-2"]

    def test_min_goal(self):
        board = get_board("triangle4")
        pos = board.start("1")  # a corner start: one peg is impossible

        def fewest_pegs(p):
            return min((fewest_pegs(apply_jump(p, j)) for j in legal_jumps(board, p)), default=p.bit_count())

        h = hint(Problem(board, pos, Goal("min")), max_seconds=20)
        assert h.best_pegs == fewest_pegs(pos) > 1
        assert not h.unknown
        for j in legal_jumps(board, pos):
            assert (j in h.good) == (fewest_pegs(apply_jump(pos, j)) == h.best_pegs)

    def test_budget_gives_unknown(self):
        english = get_board("english")
        h = hint(Problem(english, english.start("d4"), Goal("hole", 1 << english.hole("d4"))), max_seconds=0.01)
        assert len(h.good) + len(h.bad) + len(h.unknown) == 4
        for j in h.unknown:
            assert h.reasons[j]


class TestHintCommand:
    def test_position(self, capsys):
        board = get_board("triangle5")
        text = format_position(board, board.start("1")).replace("\n", "/")
        assert main(["hint", "triangle5", "--position", text, "--goal", "any", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert sorted(out["good"]) == ["4-1", "6-1"] and out["bad"] == []

    def test_start_and_hole_goal(self, capsys):
        assert main(["hint", "triangle5", "--start", "5", "--goal", "13", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["good"] and out["goal"] == "13"
        assert set(out["lines"]) == set(out["good"])
