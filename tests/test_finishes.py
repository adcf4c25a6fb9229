"""finishes: every hole answered once, solutions that really end there, honest reasons and budgets."""

import json

import pytest

from pyapp.analysis import finishes
from pyapp.analysis.finishes import class_reason, finishes_steps, hole_orbits, merge, split_holes
from pyapp.cli.main import main
from pyapp.core.budget import Budget, drive
from pyapp.core.catalogue import get_board
from pyapp.core.custom import board_from_text
from pyapp.core.moves import apply_jump, is_legal


def _replays_to(board, start, jumps, hole):
    pos = start
    for j in jumps:
        assert is_legal(board, pos, j)
        pos = apply_jump(pos, j)
    return pos == 1 << hole


class TestFinishes:
    @pytest.mark.parametrize("board_id,start", [("triangle5", "1"), ("triangle5", "13"), ("triangle4", "2"),
                                                 ("triangle6", "4")])
    def test_every_hole_once_and_solutions_replay(self, board_id, start):
        board = get_board(board_id)
        pos = board.start(start)
        f = finishes(board, pos, max_seconds=25)
        keys = [set(f.possible), set(f.impossible), set(f.unknown)]
        assert set().union(*keys) == set(board.bits)
        assert sum(len(k) for k in keys) == len(board)
        assert f.possible, "these starts are all solvable"
        for hole, jumps in f.possible.items():
            assert _replays_to(board, pos, jumps, hole)
        for why in f.impossible.values():
            assert why.startswith(("position class", "exhaustive search"))

    def test_solver_fallback_agrees_with_exhaustive(self):
        board = get_board("triangle5")
        exhaustive = finishes(board, board.start("4"))
        by_solver = finishes(board, board.start("4"), max_positions=10)
        assert (exhaustive.method, by_solver.method) == ("exhaustive", "solver")
        assert set(by_solver.possible) == set(exhaustive.possible)
        assert set(by_solver.impossible) == set(exhaustive.impossible)
        for hole, jumps in by_solver.possible.items():
            assert _replays_to(board, board.start("4"), jumps, hole)

    def test_budget_gives_unknown_not_a_wrong_answer(self):
        board = get_board("english")
        f = finishes(board, board.start("d4"), max_seconds=0.05)
        # the position class is decided at once; the five holes in the start's class need a search
        assert len(f.impossible) == 28
        assert set(f.unknown) | set(f.possible) == {board.hole(h) for h in ("d1", "a4", "d4", "g4", "d7")}
        for hole, jumps in f.possible.items():
            assert _replays_to(board, board.start("d4"), jumps, hole)

    def test_custom_board(self):
        board, pos = board_from_text("oo.o")  # one row: a1 b1 . d1
        f = finishes(board, pos)
        # a1-c1 leaves c1 d1 (then d1-b1 leaves b1); nothing else is possible
        assert {board.name_of[h] for h in f.possible} == {"b1"}
        assert set(f.impossible) == {board.hole(h) for h in ("a1", "c1", "d1")}


class TestFinishesCommand:
    def test_json(self, capsys):
        assert main(["finishes", "triangle5", "--start", "1", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["finishes"] == ["1", "7", "10", "13"]
        assert set(out["impossible"]) == {str(h) for h in range(1, 16)} - {"1", "7", "10", "13"}
        assert out["solutions"]["13"] and out["method"] == "exhaustive"

    def test_text(self, capsys):
        assert main(["finishes", "french", "--start", "d4"]) == 0
        assert "one peg can finish at: nowhere" in capsys.readouterr().out

    def test_bad_hole(self, capsys):
        assert main(["finishes", "triangle5", "--start", "99", "--json"]) == 2
        assert "no hole '99'" in json.loads(capsys.readouterr().out)["error"]


class TestShares:
    """The shares a pool of workers answers (split_holes, the holes filter, merge) give the whole answer."""

    @pytest.mark.parametrize("board_id,start,parts", [("english", "d4", 2), ("english", "d4", 5), ("triangle6", "4", 3),
                                                       ("german", "e5", 4)])
    def test_shares_are_whole_classes_covering_the_allowed_holes(self, board_id, start, parts):
        board = get_board(board_id)
        pos = board.start(start)
        shares = split_holes(board, pos, parts)
        flat = [h for share in shares for h in share]
        assert len(flat) == len(set(flat)) and 1 <= len(shares) <= parts
        assert set(flat) == {h for h in board.bits if class_reason(board, pos, h) is None}
        orbits = hole_orbits(board, pos, flat)
        for share in shares:
            assert all(set(o) <= set(share) or not set(o) & set(share) for o in orbits)

    def test_merged_shares_answer_as_the_whole_board(self):
        board = get_board("triangle5")  # the solver method (max_positions 1): every class searched
        pos = board.start("4")
        whole = finishes(board, pos, max_seconds=30, max_positions=1)
        parts = [finishes_steps(board, pos, budget=Budget(30), max_positions=1, holes=share)
                 for share in split_holes(board, pos, 2)]
        merged = merge(board, [drive(p) for p in parts])
        assert merged.method == whole.method == "solver"
        assert set(merged.possible) == set(whole.possible) and set(merged.impossible) == set(whole.impossible)
        assert not merged.unknown
        for hole, jumps in merged.possible.items():
            assert _replays_to(board, pos, jumps, hole)

    def test_a_share_answers_only_its_holes(self):
        board = get_board("english")
        pos = board.start("d4")
        share = split_holes(board, pos, 3)[1]
        f = finishes_steps(board, pos, budget=Budget(0.01), holes=share)
        got = drive(f)
        forbidden = {h for h in board.bits if class_reason(board, pos, h)}
        assert set(got.possible) | set(got.impossible) | set(got.unknown) == set(share) | forbidden
