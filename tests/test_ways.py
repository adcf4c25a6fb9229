"""Solutions left per position (pyapp.exact.ways), the survival funnel's numbers: the start's value is the
game's count by the meeting sweeps, every position's value is the memoised count from it, each legal
jump's share adds up to the position's total, and the shipped file round-trips and belongs to its set."""

from __future__ import annotations

import functools
import json
import random

import pytest

from pyapp.core.budget import drive
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import Problem, default_problem
from pyapp.exact.count import count_exact, count_solutions
from pyapp.exact.store import StoreError, decode_ways, encode, encode_ways
from pyapp.exact.ways import ways_of, ways_steps
from pyapp.exact.winnable import winnable
from pyapp.web import api as webapi


@functools.cache
def _game(board_id: str):
    """The default game of ``board_id``, its winnable set and its ways: computed once for every test here (they
    only read them; triangle 6's ways take 3 s)."""
    problem = default_problem(board_id)
    win = winnable(problem)
    return problem, win, drive(ways_steps(win))


@pytest.fixture(scope="module", params=["triangle5", "triangle6"])
def game(request):
    return _game(request.param)


def test_the_start_counts_every_solution(game):
    problem, win, ways = game
    assert ways_of(win, ways, problem.start) == count_exact(problem).solutions


def test_every_position_counts_its_own_solutions_and_the_jumps_add_up(game):
    problem, win, ways = game
    rng = random.Random(3)
    board = problem.board
    for _ in range(8):
        pos = problem.start
        while jumps := legal_jumps(board, pos):
            total = ways_of(win, ways, pos)
            assert total == sum(ways_of(win, ways, apply_jump(pos, j)) for j in jumps)
            if pos.bit_count() <= 12:
                assert total == count_solutions(Problem(board, pos, problem.goal))
            pos = apply_jump(pos, rng.choice(jumps))


def test_the_file_round_trips_and_belongs_to_its_set(game):
    problem, win, ways = game
    data = encode_ways(win, ways)
    assert decode_ways(data, win) == ways
    other = winnable(default_problem("triangle4"))
    with pytest.raises(StoreError):
        decode_ways(data, other)
    with pytest.raises(StoreError, match="holds ways"):
        from pyapp.exact.store import decode
        decode(data, problem)


def test_never_lose_carries_the_funnel_once_loaded(monkeypatch):
    from pyapp.exact import winnable as winnable_module

    monkeypatch.setattr(winnable_module, "_LOADED", {})  # this process has loaded no set yet
    problem, win, ways = _game("triangle6")
    assert "before" in json.loads(webapi.load_set(encode_ways(win, ways)))["error"]  # counts need their set first
    assert json.loads(webapi.load_set(encode(win)))["ok"]["kind"] == "winnable"
    assert json.loads(webapi.load_set(encode_ways(win, ways)))["ok"]["kind"] == "ways"
    job = webapi.start("never_lose", json.dumps({"board": "triangle6", "moves": ["13-4"]}))
    while not (out := json.loads(job.step()))["done"]:
        pass
    r = out["result"]
    assert r["history"][0] == ways_of(win, ways, problem.start) and r["history"][-1] == r["solutions"]
    assert sum(t["solutions"] for t in r["through"]) == r["solutions"]
