"""The heuristic search: a beam over peg counts.

Every jump removes one peg, so the positions after ``d`` jumps form level ``d``.  The
beam keeps the ``width`` best-scored positions of each level (one per symmetry class),
expands them all, and goes on to the next level.  It is incomplete (it may drop the only
good position), but it does not get stuck in one corner of the tree the way a
depth-first search with a bad early move does, so it finds solutions on large boards
(Diamond 41, German 45) quickly; the complete depth-first search remains the fallback.
"""

from __future__ import annotations

import time
from collections.abc import Generator

from .compiled import Tables
from .dfs import Stats, make_expand


def beam(t: Tables, start: int, keys: set[int], st: Stats, width: int, *, final_pegs: int | None,
         target: int | None) -> Generator[None, None, list[int] | None]:
    """Return the path of positions to a solution, or None when the beam dies out.

    ``keys``: positions known dead (the depth-first search's table), skipped.  For the
    ``min`` goal (``final_pegs`` None) the path to the fewest pegs reached is returned.
    """
    expand = make_expand(t, keys)
    perf = time.perf_counter
    next_yield = perf() + st.slice_seconds
    start_pegs = start.bit_count()
    stop = start_pegs - final_pegs if final_pegs is not None else start_pegs - 1
    level: list[tuple[int, int]] = [(start, t.pack(start))]
    parents: list[dict[int, int]] = []
    canonical = t.canonical
    for _depth in range(stop):
        cands: dict[int, tuple[int, int, int]] = {}
        for pos, x in level:
            for key, nxt, y, _ in expand(pos, x):
                old = cands.get(nxt)
                if old is None or key < old[0]:
                    cands[nxt] = (key, y, pos)
            st.nodes += 1
            if st.nodes >= st.pause_at or perf() >= next_yield:
                yield
                next_yield = perf() + st.slice_seconds
        if not cands:
            break
        ranked = sorted(cands.items(), key=lambda kv: kv[1][0])
        seen: set[int] = set()
        nxt_level = []
        link: dict[int, int] = {}
        for nxt, (_, y, parent) in ranked:
            c = canonical(nxt)
            if c in seen:
                continue
            seen.add(c)
            nxt_level.append((nxt, y))
            link[nxt] = parent
            if len(nxt_level) >= width:
                break
        parents.append(link)
        level = nxt_level
    if not parents:
        return None if final_pegs is not None else [start]
    if final_pegs is not None:
        if len(parents) < stop:
            return None
        hits = [p for p, _ in level if target is None or p == target]
        if not hits:
            return None
        end = hits[0]
    else:
        end = level[0][0]
    path = [end]
    for link in reversed(parents):
        path.append(link[path[-1]])
    path.reverse()
    return path
