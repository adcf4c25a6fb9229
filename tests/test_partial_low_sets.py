"""Winnable sets shipped as their high and low levels (pyapp.exact.partial with ``upto``), for a game whose set
is not closed under complement: verdicts, losing jumps and lines equal to the whole set's on random reachable
positions of triangle 6; a file that does not hold what it says refused with its reason; and the committed
triangle 7 file loaded by the worker and answering never-lose exactly from the start to the end of a game."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.exact.partial import PartialWinnable, partial
from pyapp.exact.store import StoreError, decode, encode
from pyapp.exact.winnable import Winnable, clear_cache, winnable
from pyapp.web.sets import SHIPPED, Game, file_name
from tests.test_partial_sets import _random_positions, _with_header, same_never_lose

ROOT = Path(__file__).resolve().parents[1]
T6 = Game("triangle6", "4", "any")
T7 = next(g for g in SHIPPED if g.board == "triangle7")


@pytest.fixture(autouse=True)
def _own_loaded_sets(monkeypatch):
    """The sets these tests register are forgotten after each (other tests see the process's own)."""
    from pyapp.exact import winnable as module
    monkeypatch.setattr(module, "_LOADED", {})


@pytest.fixture(scope="module")
def t6() -> Winnable:
    """The whole triangle 6 set, 4 -> one peg anywhere (132,326 classes; a few CPU seconds)."""
    clear_cache()
    return winnable(T6.problem())


def test_high_and_low_levels_answer_as_the_whole_set(t6):
    part = decode(encode(partial(t6, 13, 5)), T6.problem())
    assert isinstance(part, PartialWinnable) and (part.floor, part.upto, part.low) == (13, 5, 5)
    assert set(part.levels) == {*range(13, 21), *range(1, 6)}
    board, seen = T6.problem().board, set()
    for history in _random_positions(t6, 5, 30):
        pos = history[-1]
        seen.add(part.via(pos.bit_count()))
        assert part.can_win(pos) == t6.can_win(pos), board.pegs(pos)
        for jump in legal_jumps(board, pos):
            assert part.can_win(apply_jump(pos, jump)) == t6.can_win(apply_jump(pos, jump))
    assert seen == {"lookup", "search"} and part.searched > 0


def test_never_lose_from_high_and_low_levels_matches_the_whole_set_and_its_lines_replay(t6):
    problem = T6.problem()
    part = partial(t6, 14, 6)
    histories = [h for h in _random_positions(t6, 9, 4) if 5 <= h[-1].bit_count() <= 15]
    same_never_lose(problem, t6, part, histories, "shipped from 14 pegs up and from 6 pegs down")


@pytest.mark.parametrize("damage, why", [
    (lambda h: h.update({"upto": 12}), "holds no search between"),
    (lambda h: h.update({"upto": 4}), "lacks some level"),
    (lambda h: h.pop("upto"), "holds no search between"),
    (lambda h: h.update({"closed": "complement"}), "not closed under complement"),
    (lambda h: h.update({"closed": "guess"}), "does not say how the rest is answered"),
])
def test_a_file_that_does_not_hold_what_it_says_is_refused(t6, damage, why):
    data = encode(partial(t6, 13, 5))
    with pytest.raises(StoreError, match=why):
        decode(_with_header(data, damage), T6.problem())
    with pytest.raises(ValueError, match="closed under complement"):
        partial(t6, 13)  # without its low levels, nothing answers them


def test_the_worker_loads_the_shipped_triangle7_set_and_answers_never_lose_exactly_to_the_end():
    from pyapp.web import api as webapi
    assert T7.floor and T7.upto and T7.default
    data = (ROOT / "sets" / file_name(T7)).read_bytes()
    loaded = json.loads(webapi.load_set(data))["ok"]
    assert loaded["keys"] == len(decode(data, T7.problem()))
    problem, rng = T7.problem(), random.Random(11)
    pos, moves, seen = problem.start, [], set()
    while legal_jumps(problem.board, pos):
        job = webapi.start("never_lose", json.dumps({"board": "triangle7", "moves": moves}))
        while not (step := json.loads(job.step()))["done"]:
            pass
        result = step["result"]
        assert result["method"] == "exact" and result["status"] == "winnable", result
        assert f"shipped from {T7.floor} pegs up and from {T7.upto} pegs down" in result["answered"]
        seen.add(result["answered"].split(": ", 1)[1])
        src, over, dst = rng.choice(result["good"])
        moves.append(f"{src}-{dst}")
        pos = apply_jump(pos, next(j for j in legal_jumps(problem.board, pos)
                                   if [problem.board.name_of[b] for b in j] == [src, over, dst]))
    assert problem.goal.reached(pos) and len(seen) >= 3, seen
