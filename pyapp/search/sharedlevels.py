"""One level search for every first jump of a position: which jumps keep the goal reachable.

Never-lose asks the same question about the position after each (class of) legal jump.  Those
searches overlap almost entirely: the descendants of every jump are descendants of the position.
:class:`SharedLevels` runs the level search of :mod:`pyapp.search.levels` once for all of them:

* the **forward** side starts from the positions after the jumps (one per class, class ``c`` bit
  ``c`` of a mask) and stores, beside each canonical key of a level (a
  :class:`~pyapp.core.codec.keyset.KeySet`), the mask of the classes whose position reaches it, in a
  parallel ``array('Q')``; a child inherits its parent's mask, and masks are OR-merged when two
  parents reach the same key.  A class decided elsewhere (:meth:`SharedLevels.drop`) loses its bit
  as the next level is built, and positions left with no bit are not stored;
* the **backward** side is the level search's own (:class:`~pyapp.search.levelside.Side` on
  complements, from the goal positions), pruned toward the position itself (every jump's
  descendants are its descendants);
* both sides prune with the same pagodas (the board's known ones and those learned by linear
  programming, :mod:`pyapp.search.cuts`) and the side whose next level promises to be smaller grows.

Verdicts come as soon as they are proved (:attr:`SharedLevels.decided`): a class whose bit no
longer appears in a forward level is lost (no position it reaches with that many pegs can reach the
goal); when both sides stand at the same peg count, every class whose bit is on a position of the
meet is winnable (a line is rebuilt through the stored levels, keeping to positions that carry its
bit, and replayed before it is reported), and every other class is lost, since the forward side
holds every position it reaches that a pagoda does not rule out.  Each proof names the level
search, as :func:`pyapp.search.levels.level_search` does.

Memory is the caller's ceiling (``max_bytes``): 16 bytes per forward position (key and mask), 8
per backward one, and the sort runs; past it the search stops and the open classes stay unknown.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from ..core.board import Board
from ..core.budget import Budget
from ..core.codec.keyset import KeyCodec, KeySet, paced
from .cuts import GOAL_POOL, Learner
from .formulations import replays
from .levels import _jumps, _sizes, _to_goal
from .levelside import LevelStats, Side, expand
from .masked import MaskBuilder, Masked

MAX_CLASSES = 64
"""Masks are 64-bit array slots: a position with more classes of jumps is searched jump by jump."""

T = TypeVar("T")


@dataclass
class Verdict:
    """One class's answer: ``solved`` (``path`` of positions from its position to a goal position) or
    ``impossible`` (``reason``)."""

    status: str
    path: list[int] = field(default_factory=list)
    reason: str = ""


def bits_of(mask: int) -> Iterable[int]:
    """The indexes of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class SharedLevels:
    """The level search of ``root``'s jumps, one class per entry of ``children`` (see the module docstring).

    ``goals``: the goal positions (``final_pegs`` pegs each); ``syms``: indexes of the board's symmetries
    that map the goal set onto itself.  Run :meth:`steps`; read :attr:`decided` as it goes."""

    def __init__(self, board: Board, root: int, children: list[int], goals: list[int], syms: list[int], *,
                 max_bytes: int, slice_seconds: float = 0.05) -> None:
        if not 0 < len(children) <= MAX_CLASSES:
            raise ValueError(f"a shared level search takes 1 to {MAX_CLASSES} classes of jumps, not {len(children)}")
        self.board, self.root, self.children = board, root, children
        self.goals = goals
        self.k = len(children)
        self.open = (1 << self.k) - 1
        """The classes still to decide (a bit each)."""
        self.decided: dict[int, Verdict] = {}
        self.max_bytes = max_bytes
        self.slice_seconds = slice_seconds
        self.st = LevelStats(sides=2)
        # both sides keep the symmetries that fix the root too (as the level search does with its start): the
        # classes of jumps are orbits under them, and deep in a game the goal's others merge almost nothing
        self.codec = self.codec_b = KeyCodec(board, [s for s in syms if board.transform(root, s) == root])
        first = MaskBuilder(self.k)
        for c, child in enumerate(children):
            first.buffer.append(self.codec.key(child) << self.k | 1 << c)
        first.flush()
        self.levels: list[Masked] = [Masked(KeySet.from_sorted(first.runs[0][0]), first.runs[0][1])]
        self.fwd = Side("forward", board, self.codec, children, goals)
        mask = board.mask
        self.bwd = Side("backward", board, self.codec_b, [mask ^ g for g in goals], [mask ^ root])
        self.learner = Learner(slice_seconds)
        self.aimed = False
        """True once the goal positions a pagoda rules out were dropped (the first stage)."""

    def drop(self, c: int) -> None:
        """Class ``c`` was decided elsewhere: search no further for it."""
        self.open &= ~(1 << c)

    def _decide(self, classes: int, verdict: Verdict) -> None:
        for c in bits_of(classes & self.open):
            self.decided[c] = verdict
        self.open &= ~classes

    def how_far(self) -> str:
        """What an unfinished search says: the levels built, positions stored, classes open."""
        st = self._stats()
        full = f"memory ceiling of {self.max_bytes // 2**20} MB reached; " if st.bytes > self.max_bytes else ""
        return (f"{full}shared level search: {st.forward_levels} forward and {st.backward_levels} backward levels "
                f"completed, {st.stored:,} positions stored ({st.bytes // 2**20} MB), "
                f"{self.open.bit_count()} of {self.k} jumps open")

    def _stats(self) -> LevelStats:
        st = self.st
        st.forward_levels = len(self.levels) - 1
        st.backward_levels = len(self.bwd.levels) - 1
        st.stored = sum(len(lv) for lv in self.levels) + sum(len(lv) for lv in self.bwd.levels)
        st.largest_level = max(max(len(lv) for lv in self.levels), max(len(lv) for lv in self.bwd.levels))
        st.fewest_pegs = self.fwd.pegs
        return st

    def steps(self, budget: Budget) -> Generator[LevelStats, None, bool]:
        """Search until every class is decided (True) or ``budget`` is over or the memory ceiling reached
        (False); yield progress about every slice; the budget's nodes count the positions expanded."""
        board, fwd, bwd, st = self.board, self.fwd, self.bwd, self.st
        n = len(board.bits)
        if not self.aimed:
            got = yield from self._run(self.learner.learn(bwd, bwd.levels[0], st, GOAL_POOL), budget)
            if got is None:
                return False
            bwd.levels[0] = got
            self.aimed = True
            if not got:
                self._decide(self.open, Verdict("impossible", reason=(
                    "pagoda functions: each goal position is ruled out by one "
                    f"({self.learner.learned} learned by linear programming)")))
                return True
            kept = [g for g in self.goals if self.codec_b.key(board.mask ^ g) in got]
            if len(kept) < len(self.goals):
                fwd.retarget(sorted({board.transform(g, s) for g in kept for s in self.codec.symmetries}))
        while self.open and fwd.pegs > n - bwd.pegs:
            if budget.over():
                return False
            if _predicted([len(lv) for lv in self.levels]) <= _predicted([len(lv) for lv in bwd.levels]):
                level = yield from self._run(self._expand(budget), budget)
                if level is None:
                    return False
                level = yield from self._learned(level, budget)
                if level is None:
                    return False
                self.levels.append(level)
                fwd.pegs -= 1
                reached = 0
                for m in level.masks:
                    reached |= m
                self._decide(self.open & ~reached, Verdict("impossible", reason=(
                    f"exhaustive level search: no position with {fwd.pegs} pegs reachable after this jump can "
                    f"still reach the goal ({_sizes(self._stats())}; one search for all the position's jumps)")))
            else:
                got = yield from self._run(expand(bwd, st, float("inf"), 1 << 62, self.max_bytes,
                                                  self.slice_seconds), budget)
                if got is None:
                    return False
                got = yield from self._run(self.learner.learn(bwd, got, st), budget)
                if got is None:
                    return False
                bwd.levels.append(got)
                bwd.pegs -= 1
                if not got:
                    self._decide(self.open, Verdict("impossible", reason=(
                        f"exhaustive level search: no position with {n - bwd.pegs} pegs on the backward side can "
                        f"still be reached from the position before this jump ({_sizes(self._stats())})")))
            yield self._stats()
        if self.open:
            yield from self._meet(budget)
        return not self.open

    def _run(self, gen: Generator[None, None, T], budget: Budget) -> Generator[LevelStats, None, T | None]:
        """Drive one stage, yielding progress at its pauses; None when the budget is over (the stage closed)."""
        try:
            while True:
                next(gen)
                if budget.over():
                    gen.close()
                    return None
                yield self._stats()
        except StopIteration as stop:
            return stop.value

    def _learned(self, level: Masked, budget: Budget) -> Generator[LevelStats, None, Masked | None]:
        """``level`` less the positions that pagodas learned from a sample of it rule out (masks kept beside)."""
        kept = yield from self._run(self.learner.learn(self.fwd, level.keys, self.st), budget)
        if kept is None or len(kept) == len(level):
            return None if kept is None else level
        masks, i = array("Q"), 0
        keys = level.keys.keys
        for key in kept:
            while keys[i] != key:
                i += 1
            masks.append(level.masks[i])
        return Masked(kept, masks)

    def _expand(self, budget: Budget) -> Generator[None, None, Masked | None]:
        """The next forward level: every live child of the last, with its parent's open classes (see
        :func:`pyapp.search.levelside.expand`, of which this is the masked copy)."""
        side, st = self.fwd, self.st
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
        k = self.k
        builder = MaskBuilder(k)
        add = builder.buffer.append
        held = st.bytes
        perf = time.perf_counter
        next_yield = perf() + self.slice_seconds
        nodes = spent = st.nodes
        count = 0
        want = self.open
        last = self.levels[-1]
        for key, m in zip(last.keys.keys, last.masks):
            m &= want
            if not m:
                continue
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
                j = src & pos & (pos >> s) & (empty >> s2)
                while j:
                    low = j & -j
                    j ^= low
                    i = base + low.bit_length()
                    if (x + deltas[i]) & hh == hh:
                        y = imgs ^ symd[i]
                        add((y if one else min([(y >> sh) & lm for sh in shifts])) << k | m)
            for s, src, s2, _pat, base in neg_dirs:
                j = src & pos & (pos << s) & (empty << s2)
                while j:
                    low = j & -j
                    j ^= low
                    i = base + low.bit_length()
                    if (x + deltas[i]) & hh == hh:
                        y = imgs ^ symd[i]
                        add((y if one else min([(y >> sh) & lm for sh in shifts])) << k | m)
            nodes += 1
            count += 1
            if not count & 255:
                if len(builder.buffer) >= builder.run:
                    builder.flush()
                    add = builder.buffer.append
                st.nodes = nodes
                budget.spend(nodes - spent)
                spent = nodes
                st.bytes = held + builder.nbytes
                want = self.open
                if st.bytes > self.max_bytes:
                    return None
                if perf() >= next_yield:
                    yield  # the caller checks the budget here
                    next_yield = perf() + self.slice_seconds
        st.nodes = nodes
        budget.spend(nodes - spent)
        st.bytes = held + builder.nbytes
        level, _ = yield from paced(builder.build(), next_yield, self.slice_seconds)
        st.bytes = held + level.nbytes
        return level

    def _meet(self, budget: Budget) -> Generator[LevelStats, None, None]:
        """Both sides at one peg count: the classes on a common position are winnable, the others lost."""
        codec = self.codec
        mask = self.board.mask
        last, blast = self.levels[-1], self.bwd.last
        met = 0
        witness: dict[int, int] = {}
        count = 0
        if len(blast) <= len(last):
            for key in blast:
                real = mask ^ codec.pos(key)
                i = last.keys.index(codec.key(real))
                if i >= 0 and last.masks[i] & self.open & ~met:
                    for c in bits_of(last.masks[i] & self.open & ~met):
                        witness[c] = real
                    met |= last.masks[i]
                count += 1
                if not count & 1023:
                    if budget.over():
                        return
                    yield self._stats()
        else:
            for key, m in zip(last.keys.keys, last.masks):
                if m & self.open & ~met:
                    p = codec.pos(key)
                    if codec.key(mask ^ p) in blast:
                        for c in bits_of(m & self.open & ~met):
                            witness[c] = p
                        met |= m
                count += 1
                if not count & 1023:
                    if budget.over():
                        return
                    yield self._stats()
        for c, meet in witness.items():
            self._decide(1 << c, Verdict("solved", path=self._rebuild(c, meet)))
        self._decide(self.open, Verdict("impossible", reason=(
            f"exhaustive level search: no position with {self.fwd.pegs} pegs reachable after this jump is among "
            f"the {len(blast)} that can reach the goal (the {len(last)} reachable after any of the position's jumps "
            f"searched at once; {_sizes(self._stats())})")))

    def _rebuild(self, c: int, meet: int) -> list[int]:
        """A path from class ``c``'s position through ``meet`` to a goal position, replayed."""
        board, codec = self.board, self.codec
        mask = board.mask
        bit = 1 << c
        path = [meet]
        cur = meet
        for level in reversed(self.levels[:-1]):
            for jm in _jumps(board, mask ^ cur):  # a parent: a reverse jump is a forward jump of the complement
                prev = cur ^ jm
                i = level.keys.index(codec.key(prev))
                if i >= 0 and level.masks[i] & bit:
                    break
            else:  # pragma: no cover - every stored position with the bit has a parent with it
                raise AssertionError("shared level search: a stored position has no stored parent")
            path.append(prev)
            cur = prev
        path.reverse()
        path += _to_goal(board, meet, self.bwd.levels, self.codec_b)
        child = self.children[c]
        for s in codec.symmetries:
            if board.transform(path[0], s) == child:
                path = [board.transform(p, s) for p in path]
                break
        if not replays(board, path, child, path[-1]) or path[-1] not in set(self.goals):
            raise AssertionError("shared level search: a rebuilt line does not replay")  # pragma: no cover
        return path


def _predicted(sizes: list[int]) -> float:
    """The expected size of a side's next level (:func:`pyapp.search.levels._predicted`, on level sizes)."""
    if len(sizes) < 2:
        return float(sizes[-1])
    return sizes[-1] * sizes[-1] / max(1, sizes[-2])
