"""Sorted key arrays with a radix index and one mark byte per key: compact sets for the search by moves.

The search by moves (:mod:`pyapp.exact.fewest`) asks, for every jump of every chain, whether
a canonical key is in the winnable set and whether it was reached before.  Python sets answer
that fastest but cost about 60-70 bytes a key, twice over (the set searched and the set seen):
2.45 GB before triangle7 vacancy 4 finished its winnable sets.  Here a level is its sorted
``array('Q')`` of keys (8 bytes a key, shared with :class:`pyapp.exact.winnable.Winnable`),
a radix index of the top bits (about 2 bytes a key) that narrows a binary search to a few
entries, and a ``bytearray`` of marks (1 byte a key: the layer that first reached the key,
0 for none), so "winnable?" and "seen?" are one bounded binary search.  Measured on 10
million random 33-bit keys: 0.64 us a lookup against 0.49 us for a set (and 1.4 us for a
plain binary search over the whole array).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections import Counter
from itertools import accumulate, repeat
from operator import rshift

BUCKET = 8
"""Keys per radix bucket, on average: a bucket is searched in about three comparisons."""


class Marked:
    """One level: ``keys`` (sorted, distinct), its radix index and a mark per key.

    A key ``k`` lies in ``keys[idx[k >> shift]:idx[(k >> shift) + 1]]`` when ``k >> shift < limit``.
    """

    __slots__ = ("keys", "shift", "idx", "limit", "marks")

    def __init__(self, keys: array) -> None:
        n = len(keys)
        self.keys = keys
        self.marks = bytearray(n)
        if not n:
            self.shift, self.limit, self.idx = 0, 0, array("Q", [0])
            return
        bits = max(1, (n // BUCKET).bit_length())
        self.shift = max(0, keys[-1].bit_length() - bits)
        self.limit = (keys[-1] >> self.shift) + 1
        counts = Counter(map(rshift, keys, repeat(self.shift)))
        self.idx = array("Q", accumulate((counts.get(b, 0) for b in range(self.limit)), initial=0))

    def find(self, key: int) -> int:
        """The index of ``key`` in :attr:`keys`, or -1."""
        b = key >> self.shift
        if b >= self.limit:
            return -1
        lo, hi = self.idx[b], self.idx[b + 1]
        i = bisect_left(self.keys, key, lo, hi)
        return i if i < hi and self.keys[i] == key else -1

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def nbytes(self) -> int:
        """Bytes of the index and the marks (the keys belong to the winnable set)."""
        return self.idx.itemsize * len(self.idx) + len(self.marks)

    def as_tuple(self) -> tuple[array, int, array, int, bytearray]:
        """``(keys, shift, idx, limit, marks)``: what the compiled layer of :mod:`.chains` unpacks."""
        return self.keys, self.shift, self.idx, self.limit, self.marks


def index_bytes(n: int) -> int:
    """Bytes :class:`Marked` adds to ``n`` keys (index and marks), checked against a budget before building."""
    return n + 8 * (n // BUCKET * 2 + 2)
