"""Compact canonical keys (:mod:`pyapp.core.codec.keyset`): codec round trips, canonical forms, sorted key sets."""

from __future__ import annotations

import doctest
import random

import pytest

from pyapp.core.catalogue import CATALOGUE, get_board
from pyapp.core.codec import keyset
from pyapp.core.codec.keyset import KeyCodec, KeySet, KeySetBuilder
from pyapp.core.custom import board_from_text
from pyapp.core.goal import Goal


def _random_positions(board, count, seed):
    rnd = random.Random(seed)
    return [sum(1 << b for b in board.bits if rnd.random() < 0.5) for _ in range(count)]


class TestKeyCodec:
    @pytest.mark.parametrize("board_id", sorted(CATALOGUE))
    def test_dense_round_trip_and_range(self, board_id):
        board = get_board(board_id)
        codec = KeyCodec(board)
        for pos in [0, board.mask, *_random_positions(board, 200, 1)]:
            key = codec.dense(pos)
            assert 0 <= key < 1 << len(board)
            assert key.bit_count() == pos.bit_count()
            assert codec.pos(key) == pos
        # dense bit i is hole number i in reading order
        for i, bit in enumerate(board.bits):
            assert codec.dense(1 << bit) == 1 << i

    @pytest.mark.parametrize("board_id", sorted(CATALOGUE))
    def test_canonical_key_names_the_symmetry_class(self, board_id):
        board = get_board(board_id)
        codec = KeyCodec(board)
        for pos in _random_positions(board, 100, 2):
            images = {board.transform(pos, i) for i in range(len(board.symmetries))}
            keys = {codec.key(img) for img in images}
            assert len(keys) == 1
            key = keys.pop()
            # the key is the least dense image, and decodes to a member of the class
            assert key == min(codec.dense(img) for img in images)
            assert codec.pos(key) in images
            assert codec.key_of_packed(codec.packed(pos)) == key

    def test_different_classes_get_different_keys(self):
        board = get_board("english")
        codec = KeyCodec(board)
        positions = _random_positions(board, 300, 3)
        by_class = {board.canonical(p) for p in positions}
        assert len({codec.key(p) for p in positions}) == len(by_class)

    def test_subgroup_fixing_a_hole(self):
        board = get_board("english")
        target = 1 << board.hole("d3")
        syms = list(Goal("hole", target).symmetries(board))
        assert 0 < len(syms) < len(board.symmetries)
        codec = KeyCodec(board, syms)
        pos = board.start("c3")
        mirror = board.start("e3")
        assert codec.key(pos) == codec.key(mirror)  # the left-right mirror fixes d3
        assert codec.key(pos) != codec.key(board.start("c5"))  # the up-down mirror does not
        assert KeyCodec(board, []).key(pos) == codec.dense(pos)  # identity only

    def test_packed_is_linear_over_xor(self):
        board = get_board("german")
        codec = KeyCodec(board)
        a, b = _random_positions(board, 2, 4)
        assert codec.packed(a ^ b) == codec.packed(a) ^ codec.packed(b)

    def test_too_many_holes_is_refused(self):
        board, _ = board_from_text("\n".join(["ooooooooo"] * 8))
        with pytest.raises(ValueError, match="72 holes"):
            KeyCodec(board)

    def test_bad_symmetry_index(self):
        with pytest.raises(ValueError, match="no symmetry number 99"):
            KeyCodec(get_board("english"), [99])


class TestKeySet:
    def test_matches_a_python_set(self):
        rnd = random.Random(5)
        raw = [rnd.randrange(1 << 64) for _ in range(500)] + [rnd.randrange(50) for _ in range(500)]
        ks = KeySet(raw)
        want = sorted(set(raw))
        assert list(ks) == want and len(ks) == len(want) and ks.nbytes == 8 * len(want)
        for k in raw[:100]:
            assert k in ks and want[ks.index(k)] == k
        for k in (50, 51, (1 << 64) - 1):
            assert (k in ks) == (k in set(raw))
            assert (ks.index(k) >= 0) == (k in set(raw))

    def test_set_operations(self):
        rnd = random.Random(6)
        a = {rnd.randrange(300) for _ in range(200)}
        b = {rnd.randrange(300) for _ in range(150)}
        ka, kb = KeySet(a), KeySet(b)
        assert list(ka.intersection(kb)) == sorted(a & b)
        assert list(kb.intersection(ka)) == sorted(a & b)
        assert list(ka.union(kb)) == sorted(a | b)
        assert list(ka.difference(kb)) == sorted(a - b)
        assert len(KeySet()) == 0 and 3 not in KeySet()

    def test_builder_runs_merge_to_one_sorted_set(self):
        rnd = random.Random(7)
        raw = [rnd.randrange(1000) for _ in range(5000)]
        builder = KeySetBuilder(run=97)
        for k in raw[:2500]:
            builder.add(k)
        builder.extend(raw[2500:])
        assert builder.nbytes > 0
        assert list(builder.build()) == sorted(set(raw))
        assert len(builder.build()) == 0  # the builder was emptied

    def test_builder_sorts_in_pieces_and_merges_in_tiers(self, monkeypatch):
        """A flush sorts the buffer ``piece`` keys at a time, a pause after each; full tiers of runs are merged
        (PIECE_FAN pieces, then RUN_FAN runs of a tier), so the runs waiting stay few and the set is the same."""
        monkeypatch.setattr(keyset, "PIECE_FAN", 4)
        monkeypatch.setattr(keyset, "RUN_FAN", 3)
        rnd = random.Random(11)
        raw = [rnd.randrange(5000) for _ in range(20_000)]
        builder = KeySetBuilder(run=100, piece=10)
        most = 0
        for at in range(0, len(raw), 100):
            builder.buffer.extend(raw[at:at + 100])
            pauses = sum(1 for _ in builder.flush_steps(pause=7))
            assert pauses >= 10  # one per piece, and the merges' pauses
            most = max(most, len(builder.runs))
            assert builder.tiers == sorted(builder.tiers, reverse=True)
        # never more than a full tier's worth waiting at each tier: 3 pieces, 2 runs of each tier above
        assert most <= 3 + 2 * max(builder.tiers) + 1
        assert list(builder.build()) == sorted(set(raw))


def test_module_doctests():
    failed, tried = doctest.testmod(keyset)
    assert tried > 0 and failed == 0
