"""fewest: solutions with the fewest moves, minimality checked against brute force; honest give-ups."""

import json

import pytest

from pyapp.cli.main import main
from pyapp.core.catalogue import get_board
from pyapp.core.codec.canonical import corner_mask, jump_table
from pyapp.core.errors import PegError
from pyapp.core.moves import apply_jump, count_moves, is_legal, legal_jumps
from pyapp.core.problem import Goal, Problem
from pyapp.exact.fewest import fewest_moves
from pyapp.exact.fewest.bfs import lower_bound, move_successors


def brute_force_fewest(board, pos, goal, path=()):
    """The fewest moves over every solving jump sequence, enumerated one by one (None if none)."""
    if pos.bit_count() == 1:
        return count_moves(path) if goal.reached(pos) else None
    best = None
    for j in legal_jumps(board, pos):
        n = brute_force_fewest(board, apply_jump(pos, j), goal, path + (j,))
        if n is not None and (best is None or n < best):
            best = n
    return best


def check_solution(problem, f):
    pos = problem.start
    for j in f.jumps:
        assert is_legal(problem.board, pos, j)
        pos = apply_jump(pos, j)
    assert problem.goal.reached(pos)
    assert count_moves(f.jumps) == f.moves


class TestFewest:
    @pytest.mark.parametrize("start", ["2", "3", "4", "6", "8", "9"])
    def test_triangle4_against_brute_force(self, start):
        board = get_board("triangle4")
        for goal in [Goal("any")] + [Goal("hole", 1 << b) for b in board.bits]:
            problem = Problem(board, board.start(start), goal)
            f = fewest_moves(problem)
            expected = brute_force_fewest(board, problem.start, goal)
            if expected is None:
                assert f.status == "impossible" and f.proven
            else:
                assert (f.status, f.moves, f.proven) == ("solved", expected, True)
                check_solution(problem, f)

    def test_triangle5_every_start_proven(self):
        board = get_board("triangle5")
        for start in board.names:
            problem = Problem(board, board.start(start), Goal("any"))
            f = fewest_moves(problem)
            assert f.status == "solved" and f.proven and f.lower_bound == f.moves
            check_solution(problem, f)

    def test_successors_are_whole_moves(self):
        board = get_board("triangle5")
        pos = board.start("13")
        succ = move_successors(board, pos, jump_table(board))
        # every single jump is a move, and chains of one peg are moves too
        assert {chain[0] for _, chain in succ} == set(legal_jumps(board, pos))
        for after, chain in succ:
            p = pos
            for j in chain:
                assert is_legal(board, p, j)
                p = apply_jump(p, j)
            assert p == after and count_moves(chain) == 1

    def test_lower_bound_counts_corner_pegs(self):
        english = get_board("english")
        corners = corner_mask(english)
        assert {english.name_of[b] for b in english.bits if corners >> b & 1} == {
            "c1", "e1", "a3", "g3", "a5", "g5", "c7", "e7"}
        problem = Problem(english, english.start("d4"), Goal("hole", 1 << english.hole("d4")))
        assert lower_bound(problem, problem.start, corners) == 8

    def test_gives_up_honestly(self):
        english = get_board("english")
        problem = Problem(english, english.start("d4"), Goal("any"))
        f = fewest_moves(problem, max_seconds=1, max_positions=2000)
        assert not f.proven and f.reason
        assert f.reason.startswith("position limit of 2,000") or "budget spent" in f.reason
        assert f.status in ("solved", "unknown")
        if f.status == "solved":
            check_solution(problem, f)
            assert f.lower_bound < f.moves

    def test_impossible(self):
        french = get_board("french")
        f = fewest_moves(Problem(french, french.start("d4"), Goal("any")))
        assert f.status == "impossible" and f.proven and "position class" in f.reason
        t5 = get_board("triangle5")
        f = fewest_moves(Problem(t5, t5.start("5"), Goal("hole", 1 << t5.hole("1"))))
        assert f.status == "impossible" and f.proven

    def test_min_goal_is_refused(self):
        board = get_board("triangle5")
        with pytest.raises(PegError, match="min"):
            fewest_moves(Problem(board, board.start("1"), Goal("min")))


class TestFewestCommand:
    def test_json(self, capsys):
        assert main(["fewest", "triangle5", "--start", "13", "--goal", "13", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert (out["status"], out["moves"], out["proven"]) == ("solved", 9, True)
        assert len(out["solution"]) == 9 and out["jumps"] == 13

    def test_text(self, capsys):
        assert main(["fewest", "triangle4", "--start", "2"]) == 0
        assert "5 moves (8 jumps), proven minimal" in capsys.readouterr().out
