"""pyapp/exact/retrieval.py: the one-bit static function that lets a game's set be read for reachable positions
without their keys.  Every key gets its bit back, whatever the bits and however many keys; the bytes round-trip;
the size stays near 1.23 bits a key; a seed that does not peel is replaced; repeated keys are refused; and the
structure is as small as promised on a real level (triangle 6's game 4 -> one peg, every reachable class, its bit
whether the class can still win)."""

from __future__ import annotations

import random

import pytest

from pyapp.core.errors import PegError
from pyapp.exact import retrieval
from pyapp.exact.retrieval import BitRetrieval, build, from_bytes


@pytest.mark.parametrize("n", [0, 1, 2, 3, 17, 1000, 20_000])
def test_every_key_gets_its_bit_back(n):
    rng = random.Random(n)
    keys = rng.sample(range(1 << 62), n)
    values = [rng.getrandbits(1) for _ in keys]
    r = build(keys, values.__getitem__)
    assert all(r.get(k) == v for k, v in zip(keys, values))
    assert r.size == n and len(r.bits) * 8 <= 1.23 * n + 3 * retrieval.SLACK + 8


def test_all_ones_and_all_zeros_are_both_kept():
    keys = list(range(5000))
    ones, zeros = build(keys, lambda i: 1), build(keys, lambda i: 0)
    assert all(ones.get(k) for k in keys) and not any(zeros.get(k) for k in keys)


def test_the_bytes_round_trip_and_bad_bytes_are_refused():
    keys = random.Random(3).sample(range(1 << 60), 3000)
    r = build(keys, lambda i: keys[i] & 1)
    again = from_bytes(r.to_bytes())
    assert again == r and all(again.get(k) == k & 1 for k in keys)
    with pytest.raises(PegError, match="header"):
        from_bytes(b"short")
    with pytest.raises(PegError, match="bytes of bits"):
        from_bytes(r.to_bytes()[:-1])


def test_a_seed_that_does_not_peel_is_replaced(monkeypatch):
    keys = list(range(1, 400))
    real = retrieval._peel
    tried: list[int] = []

    def first_fails(keys, seed, block):
        tried.append(seed)
        return None if seed == 5 else real(keys, seed, block)

    monkeypatch.setattr(retrieval, "_peel", first_fails)
    r = build(keys, lambda i: i % 3 == 0, first_seed=5)
    assert tried == [5, 6] and r.seed == 6 and all(r.get(k) == (i % 3 == 0) for i, k in enumerate(keys))


def test_repeated_keys_are_refused():
    with pytest.raises(PegError, match="distinct"):
        build([7, 8, 7], lambda i: 1)


def test_a_games_reachable_classes_and_whether_they_can_win():
    from pyapp.core.catalogue import get_board
    from pyapp.core.problem import make_problem
    from pyapp.exact.winnable import winnable

    problem = make_problem(get_board("triangle6"), start="4", goal="any")
    win = winnable(problem)
    total = 0
    for pegs, keys in sorted(win.levels.items()):
        reach = sorted(set(keys) | set(random.Random(pegs).sample(range(1 << 21), 50)))  # stand-ins for the lost
        held = set(keys)
        values = [int(k in held) for k in reach]
        r = build(reach, values.__getitem__)
        assert all(r.get(k) == (k in held) for k in reach), pegs
        total += len(r.to_bytes())
    assert total < 2 * sum(len(v) for v in win.levels.values())  # well under a byte a class
    assert isinstance(r, BitRetrieval)
