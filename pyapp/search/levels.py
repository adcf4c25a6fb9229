"""The complete search: level by level by peg count, from both ends, meeting in the middle.

Every jump removes one peg, so the positions reachable from the start fall into *levels*
by peg count.  :func:`level_search` grows two such searches breadth first:

* **forward** from the start, each level the canonical keys (:mod:`pyapp.core.codec.keyset`)
  of the positions one jump on from the last level;
* **backward** from the goal set: a reverse jump (pegs at ``c``, holes at ``a`` and ``b``
  become pegs at ``a`` and ``b``, a hole at ``c``) is a forward jump on the *complemented*
  board, so the backward side is the same forward search run on complements, from the
  complements of the goal positions.

It always grows the side whose next level promises to be smaller (its last level times
the growth of its last step, :func:`_predicted`), until both stand at the same peg count;
then the problem is solved exactly when the two last levels share a position class, and
impossible when they do not (or as soon as one side has an empty level:
nothing goes on from there).  Nothing is guessed, so an ``impossible`` is a proof.

**Pruning** at every level: each side drops the positions that a pagoda function proves
cannot reach the other side's end (forward: the goal positions; backward, on complements:
the complement of the start), the bit-parallel packed pagoda lanes of
:mod:`pyapp.search.compiled` (:mod:`pyapp.search.levelside`).  Besides the board's known
pagodas, each side learns pagodas by linear programming from samples of its new levels
(:mod:`pyapp.search.cuts`); before the search the goal positions that a pagoda proves out of
reach from the start are dropped, and the forward side aims at the rest.  Position classes
never change along a jump, so a goal set restricted to the start's class (what callers
pass) keeps every level in it.

**Symmetry**: the caller passes the symmetries that map the goal set onto itself; toward a goal
set both sides store positions up to those of them that also fix the start (the sets each side
holds are closed under them, so a class meets the other side iff one of its members does, and
the backward side prunes toward the start itself, not the weaker minimum over its images), and
the meet is one lookup per position of the smaller side.  Deep in a game the start has no such
symmetry: measured on German e5 -> e5 positions of 24 and 33 pegs, keying the forward side by
the goal's eight symmetries merged under 0.1 % of the positions of its first ten levels and cost
28 % more CPU (the least of eight images per child), and the meet looked up each of the forward
side's positions under all eight (2.5 of the 12.3 CPU s that proved the 24-peg one lost).  Without
a goal set (any position of ``final_pegs`` pegs) the forward side keeps every symmetry passed.

**Storage**: each level is a :class:`~pyapp.core.codec.keyset.KeySet` (8 bytes per position,
sorted, deduplicated through bounded sorted runs); no dict or set of positions outlives a
level.  The caller's budget (seconds, expanded positions, bytes) is checked as it goes;
``unknown`` reports how far the search got.

**Solutions** are rebuilt from the stored levels: from the meeting position, back through
the forward levels to an image of the start (reverse jumps, membership tests) and on
through the backward levels to a goal position; the symmetry that maps that image onto
the start then maps the whole path onto a real game from the start.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from ..core.board import Board
from ..core.budget import DEFAULT_MAX_BYTES
from ..core.codec.keyset import KeyCodec
from .cuts import GOAL_POOL, Learner
from .levelside import LevelStats, Side, expand

__all__ = ["DEFAULT_MAX_BYTES", "LevelResult", "LevelStats", "level_search"]

MEET_PAUSE = 1 << 14
"""Lookups between two pauses of the meet (tens of ms in CPython)."""


@dataclass
class LevelResult:
    """``status``: ``solved`` (``path`` of positions from the start), ``impossible`` or ``unknown``."""

    status: str
    path: list[int] = field(default_factory=list)
    reason: str = ""
    stats: LevelStats = field(default_factory=LevelStats)


def level_search(board: Board, start: int, goals: list[int] | None, final_pegs: int, syms: list[int], *,
                 max_seconds: float | None = None, max_nodes: int | None = None,
                 max_bytes: int = DEFAULT_MAX_BYTES,
                 slice_seconds: float = 0.05) -> Generator[LevelStats, None, LevelResult]:
    """Decide whether ``start`` reaches one of ``goals`` (positions of ``final_pegs`` pegs).

    ``goals`` None means *any* position with ``final_pegs`` pegs (then only the forward
    side runs, and its pruning is off; an ``impossible`` answer then comes with the
    ``path`` to a position with the fewest pegs reachable).  ``syms`` (indexes into ``board.symmetries``)
    must map the goal set onto itself.  Yields :class:`LevelStats` about every
    ``slice_seconds``; returns a :class:`LevelResult`.
    """
    t0 = time.perf_counter()
    deadline = t0 + max_seconds if max_seconds is not None else float("inf")
    node_cap = max_nodes if max_nodes is not None else 1 << 62
    st = LevelStats()
    mask = board.mask
    start_pegs = start.bit_count()
    if goals is not None and not goals:
        return LevelResult("impossible", reason="no goal position", stats=st)
    # toward a goal set both sides keep only the symmetries that also fix the start (see the module docstring)
    fixing = [s for s in syms if board.transform(start, s) == start]
    codec = KeyCodec(board, syms if goals is None else fixing)
    codec_b = KeyCodec(board, fixing)
    fwd = Side("forward", board, codec, [start], goals or [])
    bwd = Side("backward", board, codec_b, [mask ^ g for g in goals], [mask ^ start]) if goals else None
    n = len(board.bits)
    sides = [fwd] if bwd is None else [fwd, bwd]
    learner = Learner(slice_seconds)

    def stats() -> LevelStats:
        st.forward_levels = len(fwd.levels) - 1
        st.backward_levels = len(bwd.levels) - 1 if bwd else 0
        st.stored = sum(len(lv) for s in sides for lv in s.levels)
        st.largest_level = max(len(lv) for s in sides for lv in s.levels)
        st.fewest_pegs = fwd.pegs
        st.sides = len(sides)
        st.seconds = time.perf_counter() - t0
        return st

    def real_pegs_backward() -> int:
        return n - bwd.pegs if bwd else final_pegs

    def steps(gen: Generator[None, None, Any]) -> Generator[LevelStats, None, Any]:
        try:
            while True:
                next(gen)
                yield stats()
        except StopIteration as stop:
            return stop.value

    if start_pegs < final_pegs:
        return LevelResult("impossible", reason="the start has fewer pegs than the goal", stats=stats())
    if bwd is not None and goals:
        # goal positions a pagoda proves out of reach from the start: drop them, and aim the
        # forward side at the rest (closed under its symmetries, so its classes stay exact)
        bwd.levels[0] = yield from steps(learner.learn(bwd, bwd.levels[0], st, GOAL_POOL))
        if not bwd.levels[0]:
            return LevelResult("impossible", stats=stats(), reason=(
                f"pagoda functions: each of the {len(goals)} goal positions is ruled out by one "
                f"({learner.learned} learned by linear programming)"))
        kept = [g for g in goals if codec_b.key(mask ^ g) in bwd.levels[0]]
        if len(kept) < len(goals):
            fwd.retarget(sorted({board.transform(g, s) for g in kept for s in codec.symmetries}))
    while fwd.pegs > real_pegs_backward():
        side = fwd if bwd is None or _predicted(fwd) <= _predicted(bwd) else bwd
        level = yield from steps(expand(side, st, deadline, node_cap, max_bytes, slice_seconds))
        if level is None:
            return LevelResult("unknown", reason=_how_far("budget spent", stats()), stats=st)
        level = yield from steps(learner.learn(side, level, st))
        side.levels.append(level)
        side.pegs -= 1
        if not level and bwd is None:
            # nothing is pruned without a backward side: the last level holds the fewest pegs reachable
            side.levels.pop()
            side.pegs += 1
            deepest = _rebuild(board, fwd, None, codec.pos(fwd.last.keys[0]), start)
            return LevelResult("impossible", path=deepest, stats=stats(), reason=(
                f"exhaustive level search: no position with {side.pegs - 1} pegs is reachable; the fewest "
                f"reachable is {side.pegs} ({_sizes(stats())})"))
        if not level:
            what = "goal" if side is fwd else "start"
            return LevelResult("impossible", stats=stats(), reason=(
                f"exhaustive level search: no position with {side.pegs if side is fwd else n - side.pegs} pegs "
                f"on the {side.name} side can still reach the {what} ({_sizes(stats())})"))
        yield stats()
    # both sides stand at the same peg count: meet
    meet: int | None = codec.pos(next(iter(fwd.last)))
    if bwd is not None:
        meet = yield from _meet(fwd, bwd, stats)
        if meet is None:
            return LevelResult("impossible", stats=stats(), reason=(
                f"exhaustive level search: the {len(fwd.last)} positions with {fwd.pegs} pegs reachable "
                f"from the start and the {len(bwd.last)} that can reach the goal have none in common "
                f"({_sizes(stats())})"))
    assert meet is not None  # both sides met (else the search answered impossible above)
    path = _rebuild(board, fwd, bwd, meet, start)
    return LevelResult("solved", path=path, stats=stats())


def _meet(fwd: Side, bwd: Side, stats: Callable[[], LevelStats]) -> Generator[LevelStats, None, int | None]:
    """A position both sides' last levels hold (keys of one codec: the backward side's are of complements),
    looked up from the smaller side, one key per position; None when they share none.  Pauses every
    :data:`MEET_PAUSE` lookups (a level of hundreds of thousands takes a second or more in CPython)."""
    codec, mask = fwd.codec, fwd.board.mask
    flip = len(bwd.last) <= len(fwd.last)
    small, big = (bwd.last, fwd.last) if flip else (fwd.last, bwd.last)
    for i, key in enumerate(small, 1):
        other = mask ^ codec.pos(key)
        if codec.key(other) in big:
            return other if flip else mask ^ other
        if not i % MEET_PAUSE:
            yield stats()
    return None


def _predicted(side: Side) -> float:
    """The expected size of ``side``'s next level: its last level times the growth of its last step.

    Growing the side whose next level is smaller keeps the stored levels (and the work of
    building them) small.  The last level alone misleads when one side shrinks (pagoda
    pruning near its end) while the other still grows fourfold per jump: measured on the
    issue's 24-peg German position (goal any), choosing by the last level built a backward
    level of 408k positions where the forward side's next one had 107k.
    """
    levels = side.levels
    last = len(levels[-1])
    if len(levels) < 2:
        return float(last)
    return last * last / max(1, len(levels[-2]))


def _sizes(st: LevelStats) -> str:
    learned = f", {st.learned} learned by linear programming" if st.learned else ""
    pruning = ", pagoda pruning" if st.sides > 1 else ""  # a lone forward side lists every position
    return (f"{st.forward_levels} forward and {st.backward_levels} backward levels, "
            f"{st.stored} positions up to symmetry{pruning}{learned}")


def _how_far(what: str, st: LevelStats) -> str:
    return (f"{what}: {st.forward_levels} forward and {st.backward_levels} backward levels completed, "
            f"{st.stored} positions stored ({st.bytes // (1 << 20)} MB), largest level {st.largest_level}, "
            f"fewest pegs reached {st.fewest_pegs}")


def _jumps(board: Board, pos: int) -> list[int]:
    """The masks of the legal jumps of ``pos`` (three bits each)."""
    out = []
    empty = board.mask ^ pos
    for d in board.directions:
        s = d.shift
        m = d.src & pos & (pos >> s) & (empty >> (2 * s)) if s > 0 else d.src & pos & (pos << -s) & (empty << (-2 * s))
        while m:
            low = m & -m
            m ^= low
            a = low.bit_length() - 1
            out.append((1 << a) | (1 << (a + s)) | (1 << (a + 2 * s)))
    return out


def _to_goal(board: Board, meet: int, levels: list, codec: KeyCodec) -> list[int]:
    """The positions after ``meet`` to a goal position: a child in each stored level of the backward side
    (``levels``, keys of complements, the goal's level first), from the one after ``meet``'s down to the goal's."""
    mask = board.mask
    out = []
    cur = meet
    for level in reversed(levels[:-1]):
        for jm in _jumps(board, cur):
            nxt = cur ^ jm
            if codec.key(mask ^ nxt) in level:
                break
        else:  # pragma: no cover - every stored position has a stored child
            raise AssertionError("level search: a stored position has no stored child")
        out.append(nxt)
        cur = nxt
    return out


def _rebuild(board: Board, fwd: Side, bwd: Side | None, meet: int, start: int) -> list[int]:
    """A path of positions from the start through ``meet`` to a goal position (see the module docstring)."""
    mask = board.mask
    codec = fwd.codec
    path = [meet]
    cur = meet
    for level in reversed(fwd.levels[:-1]):
        # a parent of ``cur``: a reverse jump is a forward jump of the complement
        for jm in _jumps(board, mask ^ cur):
            prev = cur ^ jm
            if codec.key(prev) in level:
                break
        else:  # pragma: no cover - every stored position has a stored parent
            raise AssertionError("level search: a stored position has no stored parent")
        path.append(prev)
        cur = prev
    path.reverse()
    if bwd is not None:
        path += _to_goal(board, meet, bwd.levels, bwd.codec)
    first = path[0]
    for s in codec.symmetries:
        if board.transform(first, s) == start:
            return [board.transform(p, s) for p in path]
    raise AssertionError("level search: the path does not start at an image of the start")  # pragma: no cover
