"""Winnable sets shipped from a level up (pyapp.exact.partial): the closure under complement they rest on,
checked on whole sets; verdicts, losing jumps and lines equal to the whole set's on random reachable positions;
and a damaged or inconsistent partial file refused with its reason."""

from __future__ import annotations

import json
import random
import struct
from pathlib import Path

import pytest
from steps_support import pauses_and_value

from pyapp.analysis.neverlose_exact import line_from, never_lose_exact
from pyapp.core.catalogue import get_board
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import Problem, make_problem
from pyapp.exact.partial import PartialWinnable, complement_closed, partial
from pyapp.exact.setup import sides
from pyapp.exact.store import MAGIC, StoreError, decode, decode_ways, encode
from pyapp.exact.winnable import Winnable, clear_cache, register, winnable
from pyapp.web.sets import Game, file_name

ROOT = Path(__file__).resolve().parents[1]
D1 = Game("english", "d1", "d1")


@pytest.fixture(autouse=True)
def _own_loaded_sets(monkeypatch):
    """The sets these tests register are forgotten after each (other tests see the process's own)."""
    from pyapp.exact import winnable as module
    monkeypatch.setattr(module, "_LOADED", {})


@pytest.fixture(scope="module")
def d1() -> Winnable:
    """The whole English d1 -> d1 set (199,964 classes), from its committed file."""
    return decode((ROOT / "sets" / file_name(D1)).read_bytes(), D1.problem())


def _closed(win: Winnable) -> None:
    board = win.problem.board
    n, layout, canon = len(board), win.codec.layout, win.codec.canon
    assert win.codec.group == sides(win.problem).codec.group  # the goal's symmetries fix the start too
    for pegs, keys in win.levels.items():
        flipped = sorted(canon(board.mask ^ layout(k)) for k in keys)
        assert flipped == list(win.levels[n - pegs]), pegs


def test_an_own_hole_games_set_is_closed_under_complement(d1):
    _closed(d1)
    assert complement_closed(D1.problem()) is None


def test_closure_holds_on_a_computed_triangle_game_and_not_where_the_goal_is_elsewhere():
    problem = make_problem(get_board("triangle5"), start="1", goal="1")
    clear_cache()
    win = winnable(problem)
    assert len(win) and win.can_win(problem.start)
    _closed(win)
    other = make_problem(get_board("english"), start="d1", goal="d4")
    assert complement_closed(other) is not None
    with pytest.raises(ValueError, match="closed under complement"):
        PartialWinnable(other, sides(other).wide_codec, floor=19)


def _random_positions(win: Winnable, seed: int, games: int) -> list[list[int]]:
    """Histories of seeded games: half of them play winnable jumps while one is left, half any jump."""
    problem, rng, out = win.problem, random.Random(seed), []
    for game in range(games):
        history = [problem.start]
        while jumps := legal_jumps(problem.board, history[-1]):
            good = [j for j in jumps if win.can_win(apply_jump(history[-1], j))] if game % 2 else []
            history.append(apply_jump(history[-1], rng.choice(good or jumps)))
            out.append(list(history))
    return out


@pytest.mark.parametrize("floor", [18, 19])
def test_partial_verdicts_equal_the_whole_sets(d1, floor):
    part = decode(encode(partial(d1, floor)), D1.problem())
    assert isinstance(part, PartialWinnable) and part.floor == floor
    assert set(part.levels) == set(range(floor, 33))
    board = D1.problem().board
    seen = set()
    for history in _random_positions(d1, floor, 40):
        pos = history[-1]
        seen.add(part.via(pos.bit_count()))
        assert part.can_win(pos) == d1.can_win(pos), board.pegs(pos)
        for jump in legal_jumps(board, pos):
            assert part.can_win(apply_jump(pos, jump)) == d1.can_win(apply_jump(pos, jump))
    assert seen == {"lookup", "search", "complement"}
    assert part.searched > 0


def test_never_lose_from_a_partial_set_matches_the_whole_set_and_its_lines_replay(d1):
    problem = D1.problem()
    part = partial(d1, 19)
    histories = [h for h in _random_positions(d1, 7, 6) if 12 <= h[-1].bit_count() <= 20]
    for got in same_never_lose(problem, d1, part, histories, "shipped from 19 pegs up"):
        for jump in got.jumps.bad:
            assert got.jumps.reasons[jump].startswith("exact analysis")
    assert line_from(part, problem.start)  # the whole game's line, read off the partial set


def same_never_lose(problem, whole_set, part, histories, shipped: str) -> list:
    """Never-lose from ``part`` at the last position of each history: the same verdict, good and bad jumps as from
    ``whole_set``, the note saying ``shipped``, and a winnable verdict's line replaying to the goal.  Returns the
    answers from ``part`` (for checks of the caller's own)."""
    board, out = problem.board, []
    assert histories
    for history in histories:
        register(whole_set)
        whole = never_lose_exact(board, problem.goal, history)
        register(part)
        got = never_lose_exact(board, problem.goal, history)
        assert whole is not None and got is not None
        assert (got.status, set(got.jumps.good), set(got.jumps.bad)) == \
            (whole.status, set(whole.jumps.good), set(whole.jumps.bad))
        assert got.answered and shipped in got.answered
        if got.status == "winnable":
            pos = history[-1]
            for jump in got.line:
                assert jump in legal_jumps(board, pos)
                pos = apply_jump(pos, jump)
            assert problem.goal.reached(pos)
        out.append(got)
    return out


def _with_header(data: bytes, change) -> bytes:
    size = struct.unpack("<I", data[len(MAGIC):len(MAGIC) + 4])[0]
    start = len(MAGIC) + 4
    header = json.loads(data[start:start + size])
    change(header)
    head = json.dumps(header, separators=(",", ":")).encode()
    return MAGIC + struct.pack("<I", len(head)) + head + data[start + size:]


@pytest.mark.parametrize("damage, why", [
    (lambda d: d[:-3], "short"),
    (lambda d: d[:-20] + bytes(b ^ 1 for b in d[-20:]), "checksum"),
    (lambda d: _with_header(d, lambda h: h.update({"from": 21})), "lacks some level"),
    (lambda d: _with_header(d, lambda h: h.pop("closed")), "does not say how the rest is answered"),
    (lambda d: _with_header(d, lambda h: h.update({"levels": h["levels"][:-1]})), "bytes of words"),
    (lambda d: _with_header(d, lambda h: h.update({"kind": "winnable"})), "whole set that lacks some level"),
])
def test_a_damaged_partial_file_is_refused_with_its_reason(d1, damage, why):
    data = encode(partial(d1, 20))
    with pytest.raises(StoreError, match=why):
        decode(damage(data), D1.problem())


def test_a_partial_file_has_no_solution_counts_and_belongs_to_its_game_only(d1):
    data = encode(partial(d1, 20))
    part = decode(data, D1.problem())
    with pytest.raises(StoreError, match="partial"):
        decode_ways(data, part)
    with pytest.raises(StoreError, match="not this problem"):
        decode(data, make_problem(get_board("english"), start="d2", goal="d2"))


def test_a_loaded_partial_set_answers_never_lose_but_the_exact_analyses_still_sweep_the_whole_set():
    problem = make_problem(get_board("triangle5"), start="1", goal="1")
    clear_cache()
    whole = winnable(problem)
    register(partial(whole, 9))
    clear_cache()
    again = winnable(problem)  # "Fewest moves" and the counts need every level: computed, not the loaded set
    assert again.whole and again.levels == whole.levels


def test_the_worker_loads_the_shipped_c1_set_and_answers_never_lose_from_it_on_every_level():
    from pyapp.web import api as webapi
    game = Game("english", "c1", "c1", artefact=True, floor=19)
    data = (ROOT / "sets" / file_name(game)).read_bytes()
    loaded = json.loads(webapi.load_set(data))["ok"]
    assert loaded["keys"] == 5_870_715  # the classes with at least 19 pegs (benchmarks/sets.json)
    problem, rng = game.problem(), random.Random(3)
    pos, moves, seen = problem.start, [], set()
    while pos.bit_count() > 12:  # down through the held levels, the searched ones and the complemented ones
        job = webapi.start("never_lose", json.dumps({"board": "english", "start": "c1", "goal": "c1",
                                                     "moves": moves}))
        while not (step := json.loads(job.step()))["done"]:
            pass
        result = step["result"]
        assert result["method"] == "exact" and result["status"] == "winnable", result
        assert "shipped from 19 pegs up" in result["answered"]
        seen.add(result["answered"].split(": ", 1)[1])
        src, over, dst = rng.choice(result["good"])
        moves.append(f"{src}-{dst}")
        pos = apply_jump(pos, next(j for j in legal_jumps(problem.board, pos)
                                   if [problem.board.name_of[b] for b in j] == [src, over, dst]))
    assert len(seen) >= 3, seen


def test_a_set_file_of_other_levels_than_the_game_ships_is_made_again(d1, tmp_path):
    from pyapp.web.setfiles import checked
    game = Game("english", "d1", "d1", artefact=True, floor=19)
    assert checked(game, {"winnable": encode(partial(d1, 19))}).floor == 19
    for other in (encode(partial(d1, 18)), encode(d1)):
        with pytest.raises(StoreError, match="the game ships them from 19"):
            checked(game, {"winnable": other})


def test_the_page_check_makes_a_partial_sets_search_in_pauses_before_its_first_search(d1, monkeypatch):
    """pyapp.analysis.neverlose_exact.prepare_steps: where a partial set answers a position or its jumps by search,
    the never-lose request first builds the search's filter in pieces (progress between them: a page's worker takes
    a cancel meanwhile) instead of in one go inside its first search; above the search band it builds nothing."""
    from pyapp.analysis.neverlose_exact import prepare_steps
    from pyapp.core.notation import format_moves
    from pyapp.exact import subtree
    from pyapp.web.jobs import hint_job
    from pyapp.web.play import never_lose_job

    monkeypatch.setattr(subtree, "FILTER_PIECE", 1000)
    problem = D1.problem()
    part = partial(d1, 19)
    register(part)
    top = next(h for h in _random_positions(d1, 7, 6) if h[-1].bit_count() >= 21)
    assert list(prepare_steps(problem.board, problem.goal, top)) == [] and not part.search_ready
    history = next(h for h in _random_positions(d1, 7, 6) if part.via(h[-1].bit_count()) == "search")
    pauses, answer = pauses_and_value(never_lose_job(Problem(problem.board, history[-1], problem.goal), None, history))
    keys = len(part.levels[len(problem.board) - part.low])
    assert part.search_ready and pauses >= keys // 1000
    # Hint too (pyapp.web.jobs.hint_job), the search made again from nothing
    part._subtree = None
    jumps = [next(j for j in legal_jumps(problem.board, a) if apply_jump(a, j) == b)
             for a, b in zip(history, history[1:])]
    job = hint_job({"board": "english", "start": "d1", "goal": "d1", "moves": format_moves(problem.board, jumps)})
    outs = [json.loads(job.step())]
    while not outs[-1]["done"]:
        outs.append(json.loads(job.step()))
    assert part.search_ready and len(outs) > keys // 1000 and outs[-1]["result"]["method"] == "exact"
    register(d1)
    whole = never_lose_exact(problem.board, problem.goal, history)
    assert answer["method"] == "exact" and answer["status"] == whole.status
    assert {tuple(g) for g in outs[-1]["result"]["good"]} == {tuple(problem.board.name_of[b] for b in (j[0], j[2]))
                                                             for j in whole.jumps.good}
