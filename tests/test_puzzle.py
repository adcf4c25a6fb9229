"""Puzzles built backwards from one peg (issue 12, point 5): solvable by construction, seeded,
N pegs, on every board; the ``puzzle`` command's JSON keys."""

from __future__ import annotations

import json

import pytest

from pyapp.analysis.puzzle import make_puzzle, reverse_jumps
from pyapp.cli.main import main
from pyapp.core.catalogue import ENTRIES, get_board
from pyapp.core.custom import board_from_text
from pyapp.core.errors import PegError
from pyapp.core.game import replay
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.position import parse_position
from pyapp.core.problem import Goal, Problem
from pyapp.search.solver import solve


def _replays(puzzle) -> bool:
    pos = puzzle.position
    for jump in puzzle.solution:
        if jump not in legal_jumps(puzzle.board, pos):
            return False
        pos = apply_jump(pos, jump)
    return pos == 1 << puzzle.finish


@pytest.mark.parametrize("board_id", [e.id for e in ENTRIES])
def test_every_board_gives_puzzles_whose_witness_replays(board_id):
    board = get_board(board_id)
    for pegs in sorted({2, 5, len(board) // 2, len(board) * 2 // 3}):
        for seed in (0, 1, 99):
            p = make_puzzle(board, pegs, seed=seed)
            assert p.pegs == pegs and len(p.solution) == pegs - 1
            assert _replays(p), (board_id, pegs, seed)
            assert p.goal == Goal("hole", 1 << p.finish)


def test_the_same_seed_gives_the_same_puzzle_and_others_differ():
    board = get_board("english")
    a, b = make_puzzle(board, 12, seed=1234), make_puzzle(board, 12, seed=1234)
    assert (a.position, a.finish, a.solution) == (b.position, b.finish, b.solution)
    others = {make_puzzle(board, 12, seed=s).position for s in range(20)}
    assert len(others) >= 15  # random, not a handful of fixed positions


def test_without_a_seed_one_is_drawn_and_reproduces_the_puzzle():
    board = get_board("triangle6")
    p = make_puzzle(board, 9)
    assert make_puzzle(board, 9, seed=p.seed).position == p.position


def test_the_solver_agrees_the_puzzle_is_solvable():
    board = get_board("german")
    p = make_puzzle(board, 14, seed=5)
    result = solve(Problem(board, p.position, p.goal), max_seconds=30)
    assert result.status == "solved" and result.final == 1 << p.finish


def test_reverse_jumps_undo_forward_jumps():
    board = get_board("triangle5")
    pos = board.start("1")
    for jump in legal_jumps(board, pos):
        after = apply_jump(pos, jump)
        assert jump in reverse_jumps(board, after)


def test_custom_boards_work_and_bad_counts_are_refused():
    board, _ = board_from_text("ooooo/ooooo/ooooo")
    assert _replays(make_puzzle(board, 6, seed=3))
    with pytest.raises(PegError, match="2 to 32 pegs"):
        make_puzzle(get_board("english"), 33)
    with pytest.raises(PegError, match="not 1"):
        make_puzzle(get_board("english"), 1)
    with pytest.raises(PegError, match="seed"):
        make_puzzle(get_board("english"), 5, seed=-1)


def test_an_exhausted_budget_is_an_honest_error():
    with pytest.raises(PegError, match="within 10 reverse jumps .*try fewer pegs"):
        make_puzzle(get_board("english"), 32, seed=1, max_nodes=10)


def test_puzzle_command_json_keys_and_text(capsys):
    code = main(["puzzle", "english", "--pegs", "10", "--seed", "7", "--json"])
    obj = json.loads(capsys.readouterr().out)
    assert code == 0 and {"position", "goal", "solution", "seed", "pegs"} <= set(obj)
    assert obj["seed"] == 7 and obj["pegs"] == 10
    board = get_board("english")
    start = parse_position(board, obj["position"])
    assert start.bit_count() == 10
    rep = replay(board, start, obj["solution"])
    assert rep.valid and rep.final == 1 << board.hole(obj["goal"])
    assert main(["puzzle", "english", "--pegs", "10", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "seed 7: 10 pegs, leave one peg on " + obj["goal"] in out
    assert main(["puzzle", "english", "--pegs", "40"]) == 2
    assert "2 to 32 pegs" in capsys.readouterr().err
