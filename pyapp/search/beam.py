"""The heuristic search: a beam over peg counts, finished by small exhaustive searches.

Every jump removes one peg, so the positions after ``d`` jumps form level ``d``.  The
beam keeps the ``width`` best-scored positions of each level (one per symmetry class),
expands them all, and goes on to the next level.  It does not get stuck in one corner
of the tree the way a depth-first search with a bad early move does, so it finds
solutions on large boards (Diamond 41, German 45) quickly.

A beam tends to fail at the very end (two or three pegs that cannot meet), so the last
``endgame`` levels are not beamed: from the best positions the beam reaches with that
many jumps to go (an eighth of the width, at least 16: measured, the successes come from
the first few), a depth-first search with a small node limit finishes the job
(sharing the dead-position table).  The complete depth-first search remains the
solver's fallback.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator

from .compiled import Tables
from .dfs import NO_LIMIT, Stats, dfs, make_expand
from .table import BoundedTable


def beam(t: Tables, start: int, table: BoundedTable, st: Stats, width: int, *, final_pegs: int | None,
         target: int | None, iso: int = 4, edge: int = 2, endgame: int = 11,
         endgame_nodes: int = 1000, stop_at: int = NO_LIMIT) -> Generator[None, None, list[int] | None]:
    """Return the path of positions to a solution, or None when the beam and its endgames fail.

    Yields about every ``st.slice_seconds`` and whenever ``st.nodes`` has reached ``stop_at``
    (the caller's node limit; ``st.at_limit`` then says so).  Positions in ``table`` (known
    dead) are skipped.  For the ``min`` goal (``final_pegs`` None) the path to the fewest pegs
    reached is returned (no endgame searches).
    """
    start_pegs = start.bit_count()
    stop = start_pegs - final_pegs if final_pegs is not None else start_pegs - 1
    if final_pegs is None or stop <= endgame:
        endgame = 0
    reached = yield from beam_levels(t, start, table, st, width, stop - endgame, iso=iso, edge=edge, stop_at=stop_at)
    level, back, depth = reached
    if final_pegs is None:
        return back(level[0][0]) if depth else [start]
    if depth < stop - endgame:
        return None
    if not endgame:
        hits = [p for p, _, _ in level if target is None or p == target]
        return back(hits[0]) if hits else None
    perf = time.perf_counter
    next_yield = perf() + st.slice_seconds
    for pos, x, imgs in level[:max(16, width // 8)]:
        if pos in table:
            continue
        limit = min(stop_at, st.nodes + endgame_nodes)
        sub = dfs(t, pos, table, st, final_pegs=final_pegs, target=target, x0=x, imgs0=imgs, stop_at=limit)
        try:
            while True:
                next(sub)
                if st.at_limit:
                    if limit >= stop_at:
                        yield  # the caller's limit, not this endgame's: let it see (st.at_limit is set)
                    st.at_limit = False
                    sub.close()
                    break
                yield
                next_yield = perf() + st.slice_seconds
        except StopIteration as stop_:
            found, tail = stop_.value
            if found:
                return back(pos) + tail[1:]
        if perf() >= next_yield:
            yield
            next_yield = perf() + st.slice_seconds
    return None


Level = list[tuple[int, int, int]]
"""A beam's level, best first: each position with its packed pagoda values and its packed images."""


def beam_levels(t: Tables, start: int, table: BoundedTable, st: Stats, width: int, jumps: int, *, iso: int = 4,
                edge: int = 2, stop_at: int = NO_LIMIT
                ) -> Generator[None, None, tuple[Level, Callable[[int], list[int]], int]]:
    """The beam's level after ``jumps`` jumps (or the last it reached, when it died out first), its path back
    (a function from one of its positions to the path of positions from ``start`` to it) and how many jumps
    that level is from ``start``.  Pauses as :func:`beam` does."""
    expand = make_expand(t, table.keys, iso, edge)
    perf = time.perf_counter
    next_yield = perf() + st.slice_seconds
    lane = t.sym_lane
    lane_mask = (1 << lane) - 1
    shifts = [lane * k for k in range(len(t.sym_tables))]
    sym_deltas = t.sym_deltas
    level: Level = [(start, t.pack(start), t.pack_images(start))]
    parents: list[dict[int, int]] = []
    for depth in range(jumps):
        cands: dict[int, tuple[int, int, int, int, int]] = {}
        for pos, x, imgs in level:
            for key, nxt, y, i in expand(pos, x):
                old = cands.get(nxt)
                if old is None or key < old[0]:
                    cands[nxt] = (key, y, pos, i, imgs)
            st.nodes += 1
            if st.nodes >= stop_at or perf() >= next_yield:
                st.depth = depth
                st.at_limit = st.nodes >= stop_at
                yield
                st.at_limit = False
                next_yield = perf() + st.slice_seconds
        if not cands:
            break
        if perf() >= next_yield:
            yield
            next_yield = perf() + st.slice_seconds
        # rank by bucketing on the key (small integers): linear, and it can pause
        buckets: dict[int, list[int]] = {}
        for n, (nxt, v) in enumerate(cands.items()):
            bucket = buckets.get(v[0])
            if bucket is None:
                buckets[v[0]] = [nxt]
            else:
                bucket.append(nxt)
            if not n & 4095 and perf() >= next_yield:
                yield
                next_yield = perf() + st.slice_seconds
        seen: set[int] = set()
        nxt_level = []
        link: dict[int, int] = {}
        n = 0
        for key in sorted(buckets):
            for nxt in buckets[key]:
                _, y, parent, i, imgs = cands[nxt]
                cimgs = imgs ^ sym_deltas[i]
                c = min([(cimgs >> k) & lane_mask for k in shifts])
                n += 1
                if not n & 1023 and perf() >= next_yield:
                    yield
                    next_yield = perf() + st.slice_seconds
                if c in seen:
                    continue
                seen.add(c)
                nxt_level.append((nxt, y, cimgs))
                link[nxt] = parent
                if len(nxt_level) >= width:
                    break
            if len(nxt_level) >= width:
                break
        parents.append(link)
        level = nxt_level

    def back(end: int) -> list[int]:
        path = [end]
        for link in reversed(parents):
            path.append(link[path[-1]])
        path.reverse()
        return path

    return level, back, len(parents)
