"""Shipped winnable sets (pyapp.exact.store, pyapp.web.sets): exact round trips, lookups that agree with
the solver, and files that must not be used (stale, of another game, truncated, damaged) refused with
the reason, never trusted."""

from __future__ import annotations

import hashlib
import json
import random
import struct
import zlib

import pytest
from steps_support import pauses_and_value

from pyapp.core.budget import Budget
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import Problem, default_problem
from pyapp.exact import setheader, store
from pyapp.exact.store import MAGIC, StoreError, decode, encode, read_header
from pyapp.exact.winnable import winnable
from pyapp.search.solver import solve
from pyapp.web import api as webapi
from pyapp.web import sets


@pytest.fixture(scope="module")
def triangle6() -> tuple[Problem, bytes]:
    problem = default_problem("triangle6")
    return problem, encode(winnable(problem))


def _rewrite_header(data: bytes, **changes) -> bytes:
    header, body = read_header(data)
    header.update(changes)
    head = json.dumps(header).encode()
    return MAGIC + struct.pack("<I", len(head)) + head + body


@pytest.mark.parametrize("board", ["triangle5", "triangle6"])
def test_round_trip_is_exact(board):
    problem = default_problem(board)
    win = winnable(problem)
    back = decode(encode(win), problem)
    assert back.levels == win.levels and back.codec.group == win.codec.group
    assert len(encode(win)) < 3 * len(win) + 1024  # compact: a few bytes a key at most


def _random_game(problem: Problem, rng: random.Random) -> list[int]:
    pos, seen = problem.start, [problem.start]
    while jumps := legal_jumps(problem.board, pos):
        pos = apply_jump(pos, rng.choice(jumps))
        seen.append(pos)
    return seen


def test_lookups_agree_with_the_solver_on_random_games(triangle6):
    problem, data = triangle6
    win = decode(data, problem)
    rng = random.Random(7)
    checked = {True: 0, False: 0}
    for _ in range(15):
        for pos in _random_game(problem, rng)[::2]:
            solved = solve(Problem(problem.board, pos, problem.goal), budget=Budget(30)).status
            assert solved in ("solved", "impossible")
            assert win.can_win(pos) == (solved == "solved"), problem.board.pegs(pos)
            checked[solved == "solved"] += 1
    assert checked[True] and checked[False]  # both verdicts were exercised


@pytest.mark.parametrize("damage, why", [
    (lambda d: d[:-10], "truncated"),
    (lambda d: d[:-1] + bytes([d[-1] ^ 1]), "checksum"),
    (lambda d: b"X" + d[1:], "magic"),
    (lambda d: d[:len(MAGIC) + 2], "truncated"),
    (lambda d: _rewrite_header(d, keys="0" * 16), "stale"),
    (lambda d: _rewrite_header(d, goal="1"), "not this problem"),
    (lambda d: _rewrite_header(d, group=[0]), "symmetry group"),
    (lambda d: _rewrite_header(d, format=99), "format"),
])
def test_a_file_that_must_not_be_used_is_refused(triangle6, damage, why):
    problem, data = triangle6
    with pytest.raises(StoreError, match=why):
        decode(damage(data), problem)


def test_keys_out_of_order_are_refused(triangle6):
    problem, _ = triangle6
    win = winnable(problem)
    pegs = max(p for p, keys in win.levels.items() if len(keys) > 2)
    repeated = win.levels[pegs] + win.levels[pegs][-1:]  # a key twice: a zero difference
    broken = type(win)(problem, win.codec, {**win.levels, pegs: repeated})
    with pytest.raises(StoreError, match="strictly increasing"):
        decode(encode(broken), problem)


def test_the_key_version_follows_what_the_keys_mean_not_the_source(monkeypatch):
    problem = default_problem("triangle6")
    first = setheader.key_version(problem)
    assert first == setheader.key_version(default_problem("triangle6"))  # stable: same board, same group
    assert first != setheader.key_version(default_problem("triangle5"))  # another board
    setheader._key_version.cache_clear()
    monkeypatch.setattr(setheader, "KEY_DEFINITION", setheader.KEY_DEFINITION + 1)
    assert setheader.key_version(problem) != first  # a new key definition
    monkeypatch.undo()
    setheader._key_version.cache_clear()
    real = setheader.codec

    class Other:  # a codec that keys positions otherwise (its probes' keys differ)
        def __init__(self, board, group):
            self._c = real(board, group)
            self.group = self._c.group

        def canon(self, pos):
            return self._c.canon(pos) ^ 1

    monkeypatch.setattr(setheader, "codec", Other)
    assert setheader.key_version(problem) != first
    monkeypatch.undo()
    setheader._key_version.cache_clear()
    assert setheader.key_version(problem) == first


def test_the_worker_api_loads_a_set_and_never_lose_answers_by_lookup(triangle6):
    problem, data = triangle6
    out = json.loads(webapi.load_set(data))["ok"]
    assert out["board"] == "triangle6" and out["keys"] == len(winnable(problem)) and out["bytes"] == len(data)
    job = webapi.start("never_lose", json.dumps({"board": "triangle6", "moves": []}))
    while not (step := json.loads(job.step()))["done"]:
        pass
    assert step["result"]["method"] == "exact" and step["result"]["status"] == "winnable"
    bad = json.loads(webapi.load_set(data[:-3]))
    assert "truncated" in bad["error"]
    other = json.loads(webapi.load_set(encode(winnable(default_problem("triangle4")))))
    assert "not one whose sets are shipped" in other["error"]


def test_index_entries_name_the_default_games():
    problem = default_problem("triangle5")
    data = encode(winnable(problem))
    version = store.key_version(problem)
    entry = sets.index_entry(sets.game_of("triangle5"), data, b"12345")
    assert entry == {"board": "triangle5", "start": "1", "goal": "any", "default": True, "kind": "winnable",
                     "board_start": "1",
                     "board_goal": "any", "images": [["11", "any"], ["15", "any"]],
                     "file": f"triangle5-1-any-{version}.bin", "bytes": len(data), "keys": 390, "version": version,
                     "sha256": hashlib.sha256(data).hexdigest(), "ways": f"triangle5-1-any-{version}.ways.bin",
                     "ways_bytes": 5, "ways_sha256": hashlib.sha256(b"12345").hexdigest()}


def test_hostile_bytes_get_a_message_never_a_traceback():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    header = st.dictionaries(st.sampled_from(["format", "keys", "board", "start", "goal", "group", "levels",
                                              "sha256", "body_bytes", "holes"]),
                             st.one_of(st.integers(-5, 10**6), st.text(max_size=20), st.none(),
                                       st.lists(st.lists(st.integers(-3, 40), max_size=3), max_size=4)))

    @settings(derandomize=True, database=None, max_examples=200, deadline=None)
    @given(st.one_of(st.binary(max_size=300), header.map(lambda h: MAGIC + struct.pack("<I", len(json.dumps(h)))
                                                          + json.dumps(h).encode() + b"\x00" * 8)))
    def check(data):
        out = json.loads(webapi.load_set(data))
        assert set(out) == {"error"} and "internal error" not in out["error"], out

    check()


def test_hint_answers_from_a_loaded_set_by_lookup_and_agrees_with_the_solver(triangle6):
    from pyapp.core.notation import format_moves, parse_moves

    problem, data = triangle6
    board = problem.board
    assert "ok" in json.loads(webapi.load_set(data))
    rng = random.Random(3)
    for _ in range(4):
        pos, moves = problem.start, []
        while jumps := legal_jumps(board, pos):
            answer = webapi.hint({"board": "triangle6", "moves": moves})
            assert answer["method"] == "exact" and not answer["unknown"]
            assert len(answer["good"]) + len(answer["bad"]) == answer["legal"] == len(jumps)
            for names, wins in [(j, True) for j in answer["good"]] + [(b["jump"], False) for b in answer["bad"]]:
                (jump,) = parse_moves(board, ["-".join(names[::2])])
                status = solve(Problem(board, apply_jump(pos, jump), problem.goal), budget=Budget(10)).status
                assert status == ("solved" if wins else "impossible"), (moves, names)
            jump = rng.choice(jumps)
            moves += format_moves(board, [jump])
            pos = apply_jump(pos, jump)
    # a position on its own (editor, link) is not known to be reachable from the set's start: the search answers
    from pyapp.core.position import format_position

    after = problem.start
    for jump in parse_moves(board, moves[:3]):
        after = apply_jump(after, jump)
    mid = webapi.hint({"board": "triangle6", "position": format_position(board, after).replace("\n", "/")})
    assert mid["method"] == "search"


def test_a_set_decodes_in_pauses_and_a_body_that_inflates_too_far_is_refused_before_it_does(triangle6, monkeypatch):
    """The worker's loader pauses while a winnable set decodes (decompressed INFLATE_PIECE bytes at a time, one byte
    plane of the unshuffle at a time, the keys PIECE at a time): the same set, in steps.  A body that would inflate
    past the size its header gives is refused once it has, not after inflating all of it."""
    problem, data = triangle6
    monkeypatch.setattr(store, "INFLATE_PIECE", 64)
    monkeypatch.setattr(store, "PIECE", 50)
    pauses, back = pauses_and_value(store.decode_steps(data, problem))
    words = sum(len(keys) for keys in back.levels.values())
    assert back.levels == decode(data, problem).levels
    assert pauses >= words * 8 // 64 + 8 + words // 50  # every piece of each stage paused
    bomb = zlib.compress(bytes(1 << 24))  # 16 MiB of zeros in 16 KB
    inflating = store._inflate_steps(bomb, 1000)
    with pytest.raises(StoreError, match=r"1\d{3}\+ bytes of words, expected 1000"):
        for _ in inflating:
            pass
    with pytest.raises(StoreError, match="does not decompress"):
        for _ in store._inflate_steps(bomb[:-9], 1 << 24):
            pass
