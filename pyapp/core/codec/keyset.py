"""Compact canonical position keys and sorted key sets, for searches that store millions of positions.

A board's *layout* int (bit ``r * stride + c`` per hole) wastes bits on the holes a row
lacks: German and Diamond 41 layouts span 77-78 bits.  The *dense* key numbers the holes
in reading order instead (bit ``i`` is hole ``board.bits[i]``), so every board of up to
64 holes has keys below ``2**64`` that fit an ``array('Q')`` slot (8 bytes, against
~70 bytes for a Python int in a set).

:class:`KeyCodec` converts with per-byte lookup tables (one lookup per byte, no loop over
holes):

* ``dense(pos)``: layout -> dense key (no symmetry);
* ``pos(key)``: dense key -> layout;
* ``key(pos)``: the *canonical* dense key, the least dense image of ``pos`` under a
  subgroup of the board's symmetries (by default all of them; a search for one peg at a
  given hole passes only the symmetries that fix that hole).  The tables map each layout
  byte straight to the dense images under every symmetry at once, packed in lanes of
  ``n`` bits (``n`` holes), so a key costs one lookup per layout byte and a min over lanes;
* ``packed(pos)`` / ``key_of_packed(x)``: the same two halves separately.  ``packed`` is
  linear over XOR (images of a permutation), so a search can keep a position's packed
  images and update them per jump with ``x ^ packed(jump mask)``.

:class:`KeySet` is an immutable sorted set of keys in one ``array('Q')``: built from
unsorted keys (sort + dedupe), membership and rank by bisection, iteration in key order,
``nbytes`` for memory budgets, and sorted-merge ``intersection``/``union``/``difference``.
:class:`KeySetBuilder` collects keys of a level in sorted runs of bounded size, so the
temporary Python list used for sorting never holds more than ``run`` keys.

>>> from pyapp.core.catalogue import get_board
>>> b = get_board("english")
>>> codec = KeyCodec(b)
>>> start = b.start("d4")
>>> codec.dense(start) == (1 << 33) - 1 - (1 << 16)    # d4 is hole number 16 in reading order
True
>>> codec.pos(codec.dense(start)) == start
True
>>> c3, e3 = b.start("c3"), b.start("e3")               # mirror images of each other
>>> codec.key(c3) == codec.key(e3)
True
>>> ks = KeySet([5, 3, 5, 9, 3])
>>> ks
KeySet([3, 5, 9])
>>> 5 in ks, 4 in ks, len(ks), ks.nbytes, ks.index(9)
(True, False, 3, 24, 2)
>>> list(ks.union(KeySet([4, 9]))), list(ks.intersection(KeySet([4, 9]))), list(ks.difference(KeySet([5])))
([3, 4, 5, 9], [9], [3, 9])
"""

from __future__ import annotations

import heapq
import time
from array import array
from bisect import bisect_left
from collections.abc import Generator, Iterable, Iterator, Sequence
from itertools import groupby, islice
from typing import TypeVar

from ..board import Board

MAX_HOLES = 64
"""Dense keys must fit an unsigned 64-bit array slot."""

KEY_BYTES = 8
"""Bytes per stored key (``array('Q')``)."""

T = TypeVar("T")

MERGE_PAUSE = 1 << 15
"""Keys merged between two pauses of :meth:`KeySetBuilder.build_steps` (about 10 ms in CPython)."""
SORT_PIECE = 1 << 15
"""The most keys :meth:`KeySetBuilder.flush_steps` sorts between two pauses (about 20 ms in CPython: a sort
cannot pause, and a search that must answer a cancel within a slice yields only between two sorts)."""
PIECE_FAN = 64
"""Sorted pieces merged into one run once this many are waiting (one merge pass per 2 million keys)."""
RUN_FAN = 8
"""Runs of one merge tier above the pieces merged into one run of the next tier once this many are waiting."""


def _byte_tables(sources: Sequence[int], targets: Sequence[int], top: int) -> tuple[tuple[int, ...], ...]:
    """Tables mapping each byte of a source int to the target bits: source bit ``sources[i]`` -> int ``targets[i]``."""
    tables = []
    for byte in range((top >> 3) + 1):
        moves = [(s - 8 * byte, t) for s, t in zip(sources, targets) if s >> 3 == byte]
        table = [0] * 256
        for value in range(1, 256):
            low = value & -value
            rest = table[value ^ low]
            off = low.bit_length() - 1
            table[value] = rest | sum(t for s, t in moves if s == off)
        tables.append(tuple(table))
    return tuple(tables)


def _lookup(tables: tuple[tuple[int, ...], ...], data: bytes) -> int:
    """OR of the tables' entries for the bytes of ``data`` (table ``i`` for byte ``i``)."""
    out = 0
    for t, v in zip(tables, data):
        out |= t[v]
    return out


class KeyCodec:
    """Dense and canonical keys of one board's positions (see the module docstring).

    ``symmetries``: indexes into ``board.symmetries`` (identity included or not; the
    identity is always used); None means every symmetry of the board.
    """

    def __init__(self, board: Board, symmetries: Iterable[int] | None = None) -> None:
        n = len(board.bits)
        if n > MAX_HOLES:
            raise ValueError(f"board {board.id!r} has {n} holes: dense keys allow at most {MAX_HOLES}")
        syms = list(range(len(board.symmetries))) if symmetries is None else sorted({0, *symmetries})
        for s in syms:
            if not 0 <= s < len(board.symmetries):
                raise ValueError(f"no symmetry number {s} on board {board.id!r}")
        self.board = board
        self.n = n
        self.symmetries = tuple(syms)
        self.lane_mask = (1 << n) - 1
        self.shifts = tuple(n * k for k in range(len(syms)))
        index = {bit: i for i, bit in enumerate(board.bits)}
        top = max(board.bits)
        self._dense = _byte_tables(board.bits, [1 << i for i in range(n)], top)
        self._layout = _byte_tables(range(n), [1 << b for b in board.bits], n - 1)
        packed = [0] * n
        for k, s in enumerate(syms):
            perm = board.symmetries[s]
            for i in range(n):
                packed[i] |= 1 << (n * k + index[perm[i]])
        self._packed = _byte_tables(board.bits, packed, top)
        self._nbytes = len(self._packed)

    def __repr__(self) -> str:
        return f"KeyCodec(<board {self.board.id!r}>, symmetries={list(self.symmetries)!r})"

    def dense(self, pos: int) -> int:
        """The dense key of ``pos`` itself (no symmetry)."""
        return _lookup(self._dense, pos.to_bytes(self._nbytes, "little"))

    def pos(self, key: int) -> int:
        """The layout position of a dense key (the inverse of :meth:`dense`)."""
        return _lookup(self._layout, key.to_bytes(8, "little"))

    def packed(self, pos: int) -> int:
        """The dense images of ``pos`` under every kept symmetry, lane ``k`` (``n`` bits) for symmetry ``k``."""
        return _lookup(self._packed, pos.to_bytes(self._nbytes, "little"))

    def key_of_packed(self, x: int) -> int:
        """The least lane of a :meth:`packed` value: the canonical key."""
        m = self.lane_mask
        return min([(x >> s) & m for s in self.shifts])

    def key(self, pos: int) -> int:
        """The canonical key: the least dense image of ``pos`` under the kept symmetries."""
        out = 0
        for t, v in zip(self._packed, pos.to_bytes(self._nbytes, "little")):
            out |= t[v]
        m = self.lane_mask
        return min([(out >> s) & m for s in self.shifts])


class KeySet:
    """An immutable sorted set of 64-bit keys in one ``array('Q')`` (see the module docstring)."""

    __slots__ = ("keys",)

    def __init__(self, keys: Iterable[int] = ()) -> None:
        self.keys = array("Q", sorted(set(keys)))

    @classmethod
    def from_sorted(cls, keys: array) -> KeySet:
        """Wrap an ``array('Q')`` that is already strictly increasing (not copied, not checked)."""
        out = cls.__new__(cls)
        out.keys = keys
        return out

    def __repr__(self) -> str:
        shown = ", ".join(str(k) for k in self.keys[:8])
        return f"KeySet([{shown}{', ...' if len(self.keys) > 8 else ''}])"

    def __len__(self) -> int:
        return len(self.keys)

    def __iter__(self) -> Iterator[int]:
        return iter(self.keys)

    def __contains__(self, key: int) -> bool:
        a = self.keys
        i = bisect_left(a, key)
        return i < len(a) and a[i] == key

    def index(self, key: int) -> int:
        """The rank of ``key`` in the set (for parallel arrays of per-key data), or -1 when absent."""
        a = self.keys
        i = bisect_left(a, key)
        return i if i < len(a) and a[i] == key else -1

    @property
    def nbytes(self) -> int:
        """Bytes held by the keys."""
        return len(self.keys) * KEY_BYTES

    def intersection(self, other: KeySet) -> KeySet:
        """Keys in both sets (the smaller set is probed into the larger by bisection)."""
        small, big = (self, other) if len(self) <= len(other) else (other, self)
        return KeySet.from_sorted(array("Q", [k for k in small.keys if k in big]))

    def union(self, other: KeySet) -> KeySet:
        """Keys in either set (a streaming sorted merge)."""
        return KeySet.from_sorted(array("Q", (k for k, _ in groupby(heapq.merge(self.keys, other.keys)))))

    def difference(self, other: KeySet) -> KeySet:
        """Keys of this set that are not in ``other``."""
        return KeySet.from_sorted(array("Q", [k for k in self.keys if k not in other]))


class KeySetBuilder:
    """Collects keys (duplicates allowed) into sorted, deduplicated runs, then one :class:`KeySet`.

    Keys wait in an ``array('Q')`` buffer; every ``run`` keys the buffer is sorted and deduplicated in pieces
    of at most :data:`SORT_PIECE` keys, so the temporary Python objects of a sort never exceed that many and a
    caller can pause between two sorts.  The sorted runs are merged in tiers (:data:`PIECE_FAN` pieces, then
    :data:`RUN_FAN` runs of one tier into one of the next), so each key is merged about once per tier: the
    merge work grows as ``n log n``, not as ``n**2`` as when every new run was merged into one growing run.
    :attr:`nbytes` is what the runs and the buffer hold.

    >>> kb = KeySetBuilder(run=3)
    >>> for k in (7, 1, 7, 4, 1, 9, 2):
    ...     kb.add(k)
    >>> kb.build()
    KeySet([1, 2, 4, 7, 9])
    """

    __slots__ = ("buffer", "piece", "run", "runs", "stored", "tiers")

    def __init__(self, run: int = 1 << 20, piece: int = SORT_PIECE) -> None:
        self.run = max(1, run)
        self.piece = max(1, piece)
        self.buffer = array("Q")
        self.runs: list[array] = []
        self.tiers: list[int] = []
        """The merge tier of each run (0: one sorted piece); never increasing along :attr:`runs`."""
        self.stored = 0

    def add(self, key: int) -> None:
        buf = self.buffer
        buf.append(key)
        if len(buf) >= self.run:
            self._flush()

    def extend(self, keys: Iterable[int]) -> None:
        self.buffer.extend(keys)
        if len(self.buffer) >= self.run:
            self._flush()

    def _flush(self) -> None:
        drive_all(self.flush_steps())

    def flush_steps(self, pause: int = MERGE_PAUSE) -> Generator[None, None, None]:
        """Sort the buffer into runs of at most :attr:`piece` keys, pausing after each and merging the runs of a
        tier once it fills, pausing every ``pause`` keys of a merge (a caller that must answer within a slice
        yields at the pauses: :func:`paced`)."""
        buf, self.buffer = self.buffer, array("Q")
        for i in range(0, len(buf), self.piece):
            run = array("Q", sorted(set(buf[i:i + self.piece])))
            self.stored += len(run)
            self.runs.append(run)
            self.tiers.append(0)
            yield
            yield from self._merge_full_tiers(pause)

    def _merge_full_tiers(self, pause: int) -> Generator[None, None, None]:
        """Merge the last runs while they fill a tier (pausing every ``pause`` keys), so that the tiers of
        :attr:`runs` never increase along it."""
        tiers = self.tiers
        while tiers:
            tier = tiers[-1]
            fan = PIECE_FAN if tier == 0 else RUN_FAN
            if len(tiers) < fan or tiers[-fan] != tier:
                break
            merged = yield from merge_steps(self.runs[-fan:], pause)
            del self.runs[-fan:], tiers[-fan:]
            self.runs.append(merged)
            tiers.append(tier + 1)
            self.stored = sum(map(len, self.runs))

    @property
    def nbytes(self) -> int:
        return (self.stored + len(self.buffer)) * KEY_BYTES

    def build(self) -> KeySet:
        """The set of every key added (the builder is emptied)."""
        return drive_all(self.build_steps())

    def build_steps(self, pause: int = MERGE_PAUSE) -> Generator[None, None, KeySet]:
        """:meth:`build`, pausing between its sorts and every ``pause`` keys of its merges."""
        yield from self.flush_steps(pause)
        runs, self.runs, self.tiers, self.stored = self.runs, [], [], 0
        if not runs:
            return KeySet()
        return KeySet.from_sorted(runs[0] if len(runs) == 1 else (yield from merge_steps(runs, pause)))


def merge_steps(runs: list[array], pause: int = MERGE_PAUSE) -> Generator[None, None, array]:
    """Sorted, deduplicated merge of sorted runs, pausing every ``pause`` keys."""
    out = array("Q")
    for part in batched((k for k, _ in groupby(heapq.merge(*runs))), pause):
        out.extend(part)
        yield
    return out


def paced(steps: Generator[None, None, T], due: float, slice_seconds: float
          ) -> Generator[None, None, tuple[T, float]]:
    """Drive a pausing generator (a sort or a merge of :class:`KeySetBuilder`), yielding at its pauses only
    once the caller's next yield is due (``due``, a :func:`time.perf_counter` time), then every ``slice_seconds``.
    Returns its value and when the caller's next yield is due: a pause is a chance to yield, not a reason to
    (each yield of a search costs the page's worker a turn of its event loop).

    >>> kb = KeySetBuilder(run=10, piece=2)
    >>> kb.extend([5, 3, 9, 1, 7])
    >>> steps = paced(kb.build_steps(), 0.0, 60.0)  # a yield due at once, then not for a minute
    >>> next(steps) is None                          # the first of its pauses (three sorts, a merge): due
    True
    >>> drive_all(steps)[0]                          # the rest without a yield
    KeySet([1, 3, 5, 7, 9])
    """
    perf = time.perf_counter
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value, due
        if perf() >= due:
            yield
            due = perf() + slice_seconds


def batched(keys: Iterable[int], size: int) -> Iterator[tuple[int, ...]]:
    """``keys`` in tuples of ``size`` (the last one shorter)."""
    it = iter(keys)
    while part := tuple(islice(it, size)):
        yield part


def drive_all(steps: Generator[None, None, T]) -> T:
    """Run a pausing generator to its value."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value
