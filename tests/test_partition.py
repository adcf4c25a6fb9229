"""The partition of a sharded sweep (pyapp.exact.partition): a symmetric set's parity, then a hash."""

from __future__ import annotations

import random

from pyapp.core.request import build
from pyapp.exact.partition import owner_function, parity_mask, shard_of
from pyapp.exact.setup import sides


def _holes(cd, mask: int) -> list[str]:
    names = {bit: name for name, bit in cd.board.bit_of.items()}
    return sorted(names[b] for i, b in enumerate(cd.board.bits) if mask >> i & 1)


def test_the_parity_set_is_symmetric_and_few_lines_change_it():
    """On every board of the catalogue's defaults the set is a union of orbits (so every key of a class gives
    the same shard), and the lines that change its parity are 10-15% of the board's."""
    for board in ("triangle6", "triangle7", "french", "german", "asymmetric", "diamond41", "triangle8"):
        cd = sides(build(board).problem).back_codec
        mask = parity_mask(cd.board, cd.group)
        assert mask.bit_count() >= 2, board
        rng = random.Random(7)
        for _ in range(200):
            pos = sum(1 << b for b in cd.board.bits if rng.random() < 0.5)
            x = cd.packed(pos)  # the dense keys of every image, one lane each
            counts = {(x >> cd.holes * g & cd.everything & mask).bit_count() % 2 for g in range(len(cd.group))}
            assert len(counts) == 1, board
        index = {b: i for i, b in enumerate(cd.board.bits)}
        odd = sum(1 for line in cd.board.lines if sum(mask >> index[b] & 1 for b in line) % 2)
        assert 0.1 * len(cd.board.lines) <= odd <= 0.15 * len(cd.board.lines), board


def test_triangle7_splits_by_its_corners_and_english_by_the_hash():
    """Measured (see the module docstring): triangle7's three corners pay; on English no set does."""
    t7 = sides(build("triangle7", start="4", goal="any").problem).back_codec
    assert _holes(t7, parity_mask(t7.board, t7.group)) == ["1", "22", "28"]
    en = sides(build("english").problem).codec
    assert parity_mask(en.board, en.group) == 0
    owner = owner_function(en.board, en.group, 2)
    assert all(owner(k) == shard_of(k, 2, len(en.board) - 13) for k in range(0, 1 << 33, (1 << 33) // 997))


def test_every_shard_count_is_used_and_parity_picks_the_half():
    cd = sides(build("triangle7", start="4", goal="any").problem).back_codec
    mask = parity_mask(cd.board, cd.group)
    rng = random.Random(3)
    keys = [rng.getrandbits(28) for _ in range(4000)]
    for shards in (1, 2, 3, 4, 6):
        owner = owner_function(cd.board, cd.group, shards)
        got = [owner(k) for k in keys]
        assert set(got) == set(range(shards))
        if shards % 2 == 0:
            assert all(j % 2 == (k & mask).bit_count() % 2 for j, k in zip(got, keys, strict=True))
