"""One direction of the level search (:mod:`pyapp.search.levels`): its levels, its pruning, its next level.

A :class:`Side` holds the levels of one direction as :class:`~pyapp.core.codec.keyset.KeySet`
of canonical keys (complements for the backward side), the pagodas that prune it toward
its *finishes* (the goal positions for the forward side; the complement of the start for
the backward side), and the tables its hot loop needs.  Pagodas can be added while the
search runs (:meth:`Side.add`, the cuts of :mod:`pyapp.search.cuts`) and the finishes
narrowed (:meth:`Side.retarget`); :meth:`Side.filter` drops the positions of a level that
the current pagodas rule out.

:func:`expand` builds the next level: every child of the last level that no pagoda rules
out, canonicalised through the packed images of :class:`~pyapp.core.codec.keyset.KeyCodec`
(a jump XORs its packed mask in), collected into sorted runs of bounded size.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Generator
from dataclasses import dataclass

from ..core.board import Board
from ..core.codec.keyset import KeyCodec, KeySet, KeySetBuilder, paced
from ..proofs.pagoda import Pagoda, pagodas_for
from .compiled import Tables, build_tables

RUN = 1 << 18
"""Keys per sorted run while a level is built (bounds the temporary Python list of a sort)."""

FILTER_PAUSE = 1 << 15
"""Keys checked between two pauses of :meth:`Side.filter_steps` (tens of ms in CPython)."""

SORT_OVERHEAD = 80
"""Bytes per key a sort of one run holds temporarily (a Python int and its list slot, with slack)."""


@dataclass
class LevelStats:
    """How far a level search got: reported as progress and kept in the answer."""

    forward_levels: int = 0
    backward_levels: int = 0
    stored: int = 0
    """Positions held in all stored levels (symmetry classes)."""
    nodes: int = 0
    """Positions expanded so far."""
    bytes: int = 0
    """Bytes of the stored levels and the level being built."""
    fewest_pegs: int | None = None
    """Fewest pegs of a position the forward side reached."""
    seconds: float = 0.0
    largest_level: int = 0
    learned: int = 0
    """Pagodas learned by linear programming (:mod:`pyapp.search.cuts`)."""
    pruned: int = 0
    """Positions of built levels dropped by learned pagodas."""
    sides: int = 1
    """2 when the backward side runs too."""


class Side:
    """One direction of the search: positions (complemented for the backward side) by level."""

    def __init__(self, name: str, board: Board, codec: KeyCodec, starts: list[int], finishes: list[int]) -> None:
        self.name = name
        self.board = board
        self.codec = codec
        self.finishes = list(finishes)
        """The positions this side must be able to reach (in its own representation)."""
        self.pagodas: list[tuple[Pagoda, int]] = pagodas_for(board, finishes) if finishes else []
        self.learned: list[Pagoda] = []
        self.levels: list[KeySet] = [KeySet(codec.key(p) for p in starts)]
        self.pegs = starts[0].bit_count()
        """Pegs of the positions of the last level (complements for the backward side)."""
        self._compile()
        self.sym_deltas = _sym_deltas(self.tables, codec)

    @property
    def last(self) -> KeySet:
        return self.levels[-1]

    def _compile(self) -> None:
        self.tables: Tables = build_tables(self.board, self.pagodas, [], None)
        self.weight_tables = _weight_tables(self.board, self.tables)

    def threshold(self, p: Pagoda) -> int:
        """The least value of ``p`` over the finishes: a position worth less cannot reach them."""
        return min(p.value(f) for f in self.finishes)

    def add(self, pagodas: list[Pagoda]) -> None:
        """Prune with ``pagodas`` too from now on (each must be a true pagoda function)."""
        self.learned += pagodas
        self.pagodas += [(p, self.threshold(p)) for p in pagodas]
        self._compile()

    def retarget(self, finishes: list[int]) -> None:
        """Aim at fewer finishes (the others proven out of reach): every threshold can only rise."""
        self.finishes = list(finishes)
        self.pagodas = pagodas_for(self.board, self.finishes) + [(p, self.threshold(p)) for p in self.learned]
        self._compile()

    def alive(self, pos: int) -> bool:
        """True when no pagoda of this side rules ``pos`` out."""
        t = self.tables
        x = t.x0_bias
        for tb, v in zip(self.weight_tables, pos.to_bytes(len(self.weight_tables), "little")):
            x += tb[v]
        return (x + t.check_c) & t.check_h == t.check_h

    def filter(self, level: KeySet) -> KeySet:
        """The keys of ``level`` whose positions no pagoda of this side rules out."""
        steps = self.filter_steps(level)
        while True:
            try:
                next(steps)
            except StopIteration as stop:
                return stop.value

    def filter_steps(self, level: KeySet, pause: int = FILTER_PAUSE) -> Generator[None, None, KeySet]:
        """:meth:`filter`, pausing every ``pause`` keys (a level of millions takes seconds in CPython)."""
        t = self.tables
        cc, hh, bias = t.check_c, t.check_h, t.x0_bias
        wt = self.weight_tables
        nw = len(wt)
        layout = self.codec._layout
        keep = []
        for i, key in enumerate(level, 1):
            pos = 0
            for tb, v in zip(layout, key.to_bytes(8, "little")):
                pos |= tb[v]
            x = bias
            for tb, v in zip(wt, pos.to_bytes(nw, "little")):
                x += tb[v]
            if (x + cc) & hh == hh:
                keep.append(key)
            if not i % pause:
                yield
        return level if len(keep) == len(level) else KeySet.from_sorted(array("Q", keep))


def _sym_deltas(t: Tables, codec: KeyCodec) -> list[int]:
    """Each jump's mask in packed dense images (same index as ``t.deltas``)."""
    out = [0] * len(t.deltas)
    for _s, src, _, pat, base in t.pos_dirs:
        m = src
        while m:
            low = m & -m
            m ^= low
            out[base + low.bit_length()] = codec.packed(low * pat)
    for _s, src, s2, pat, base in t.neg_dirs:
        m = src
        while m:
            low = m & -m
            m ^= low
            out[base + low.bit_length()] = codec.packed((low >> s2) * pat)
    return out


def _weight_tables(board: Board, t: Tables) -> tuple[tuple[int, ...], ...]:
    """Per-byte sums of the packed pagoda weights, so a position's pagoda lanes cost one lookup per byte."""
    tables = []
    for byte in range((max(board.bits) >> 3) + 1):
        ws = [(b - 8 * byte, w) for b, w in t.packed_weights.items() if b >> 3 == byte]
        tables.append(tuple(sum(w for off, w in ws if v >> off & 1) for v in range(256)))
    return tuple(tables)


def expand(side: Side, st: LevelStats, deadline: float, node_cap: int, max_bytes: int,
           slice_seconds: float) -> Generator[None, None, KeySet | None]:
    """The next level of ``side``: the canonical keys of every live child of the last level.

    Yields about every ``slice_seconds``; returns None when the budget runs out first.
    """
    codec, t = side.codec, side.tables
    mask = t.mask
    pos_dirs, neg_dirs = t.pos_dirs, t.neg_dirs
    deltas, symd = t.deltas, side.sym_deltas
    cc, hh, bias = t.check_c, t.check_h, t.x0_bias
    prune = bool(side.pagodas)
    wt = side.weight_tables
    nw = len(wt)
    layout, packed_t = codec._layout, codec._packed
    nb = codec._nbytes
    lm = codec.lane_mask
    shifts = codec.shifts
    one = len(shifts) == 1  # a single lane (no symmetry kept) is the key itself
    builder = KeySetBuilder(RUN)
    add = builder.buffer.append
    held = st.bytes
    perf = time.perf_counter
    next_yield = perf() + slice_seconds
    nodes = st.nodes
    count = 0
    for key in side.last:
        pos = 0
        for tb, v in zip(layout, key.to_bytes(8, "little")):
            pos |= tb[v]
        if one:  # the only lane is the key
            imgs = key
        else:
            imgs = 0
            for tb, v in zip(packed_t, pos.to_bytes(nb, "little")):
                imgs |= tb[v]
        x = bias
        if prune:
            for tb, v in zip(wt, pos.to_bytes(nw, "little")):
                x += tb[v]
        x += cc
        empty = mask ^ pos
        for s, src, s2, _pat, base in pos_dirs:
            m = src & pos & (pos >> s) & (empty >> s2)
            while m:
                low = m & -m
                m ^= low
                i = base + low.bit_length()
                if (x + deltas[i]) & hh != hh:
                    continue
                y = imgs ^ symd[i]
                add(y if one else min([(y >> sh) & lm for sh in shifts]))
        for s, src, s2, _pat, base in neg_dirs:
            m = src & pos & (pos << s) & (empty << s2)
            while m:
                low = m & -m
                m ^= low
                i = base + low.bit_length()
                if (x + deltas[i]) & hh != hh:
                    continue
                y = imgs ^ symd[i]
                add(y if one else min([(y >> sh) & lm for sh in shifts]))
        nodes += 1
        count += 1
        if not count & 255:
            if len(builder.buffer) >= RUN:
                # its sorts and merges pause: a slice is never held up by them
                _, next_yield = yield from paced(builder.flush_steps(), next_yield, slice_seconds)
                add = builder.buffer.append
            st.nodes = nodes
            st.bytes = held + builder.nbytes + RUN * SORT_OVERHEAD
            now = perf()
            if nodes >= node_cap or now >= deadline or st.bytes > max_bytes:
                return None
            if now >= next_yield:
                yield
                next_yield = perf() + slice_seconds
    st.nodes = nodes
    level, _ = yield from paced(builder.build_steps(), next_yield, slice_seconds)
    st.bytes = held + level.nbytes
    return level
