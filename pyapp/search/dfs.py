"""The complete search: depth-first, best-scored jump first, with a table of dead positions.

It explores every position reachable from the start (less those pruned by a pagoda
function, which provably cannot reach the goal), so when it ends without a solution that
is a proof of impossibility.  A position whose every continuation failed goes into the
bounded table, so no symmetric image of it is explored twice.

The loop keeps an explicit stack (no recursion), so it is a generator that can hand
control back to its caller between any two nodes: :mod:`pyapp.search.solver` resumes it,
pauses it to run other searches, or closes it to cancel.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import dataclass, field

from .compiled import Tables
from .table import BoundedTable

NO_LIMIT = 1 << 62
"""A node count no search reaches: no node limit."""
CHECK_NODES = 32
"""The depth-first search looks at the clock every this many nodes."""
LIMIT_NODES = 128
"""...and at its node limit every this many nodes (a run of 300 nodes stops at 384)."""

ISO = 1
"""Weight of isolated pegs in the depth-first ordering score (measured: 0 or 1 on English, 1 on triangles, 2+ worse)."""
EDGE = 0
"""Weight of edge pegs in the depth-first ordering score (the beam uses 2; here it did not pay)."""


@dataclass
class Stats:
    """Counters shared by the searches of one solve, and how often they hand control back."""

    nodes: int = 0
    slice_seconds: float = 0.05
    """A search yields at least this often (the caller's budget reports progress and checks limits)."""
    at_limit: bool = False
    """True while a search is paused because it reached its node limit (not just for the clock)."""
    depth: int = 0
    best_path: list[int] = field(default_factory=list, repr=False)
    """The path to the fewest pegs reached by any search of this solve so far."""
    dead_sample: list[int] | None = field(default=None, repr=False)
    """When a list, dead positions are appended to it (used to learn pagodas)."""
    how_far: str = ""
    """How far a complete search got, for an ``unknown`` answer (set by the level search)."""
    tried: list[str] = field(default_factory=list)
    """Impossibility proofs the phases tried without success, for an ``unknown`` answer."""


def make_expand(t: Tables, keys: set[int], iso: int = ISO, edge: int = EDGE):
    """A function ``expand(pos, x)``: the children of ``pos`` not in ``keys`` and not pruned by a
    pagoda, as ``(key, child, packed pagoda values)`` sorted so that ``pop()`` gives the best.

    The key is the bit-parallel score of :func:`pyapp.search.compiled.score` (inlined here
    for speed), times 64, plus the seed's tie-break for the jump.
    """
    mask = t.mask
    pos_dirs, neg_dirs, pairs = t.pos_dirs, t.neg_dirs, t.pairs
    deltas, ties = t.deltas, t.ties
    cc, hh = t.check_c, t.check_h
    e1, e2 = t.edge1, t.edge2

    def expand(pos: int, x: int) -> list[tuple[int, int, int, int]]:
        empty = mask ^ pos
        out: list[tuple[int, int, int, int]] = []
        append = out.append
        for s, src, s2, pat, base in pos_dirs:
            m = src & pos & (pos >> s) & (empty >> s2)
            while m:
                low = m & -m
                m ^= low
                nxt = pos ^ (low * pat)
                if nxt in keys:
                    continue
                i = base + low.bit_length()
                y = x + deltas[i]
                if (y + cc) & hh != hh:
                    continue
                per = 0
                nbr = 0
                for ps, pm in pairs:
                    per += ((nxt ^ (nxt >> ps)) & pm).bit_count()
                    nbr |= ((nxt >> ps) & pm) | ((nxt & pm) << ps)
                per += iso * (nxt & ~nbr).bit_count() + edge * ((nxt & e1).bit_count() + 2 * (nxt & e2).bit_count())
                append((per * 64 + ties[i], nxt, y, i))
        for s, src, s2, pat, base in neg_dirs:
            m = src & pos & (pos << s) & (empty << s2)
            while m:
                low = m & -m
                m ^= low
                nxt = pos ^ ((low >> s2) * pat)
                if nxt in keys:
                    continue
                i = base + low.bit_length()
                y = x + deltas[i]
                if (y + cc) & hh != hh:
                    continue
                per = 0
                nbr = 0
                for ps, pm in pairs:
                    per += ((nxt ^ (nxt >> ps)) & pm).bit_count()
                    nbr |= ((nxt >> ps) & pm) | ((nxt & pm) << ps)
                per += iso * (nxt & ~nbr).bit_count() + edge * ((nxt & e1).bit_count() + 2 * (nxt & e2).bit_count())
                append((per * 64 + ties[i], nxt, y, i))
        out.sort(reverse=True)
        return out

    return expand


def dfs(t: Tables, start: int, table: BoundedTable, st: Stats, *, final_pegs: int | None, target: int | None,
        lower_bound: int = 1, x0: int | None = None, imgs0: int | None = None,
        stop_at: int = NO_LIMIT) -> Generator[None, None, tuple[bool, list[int]]]:
    """Search from ``start``; return ``(found, path of positions)``.

    Yields about every ``st.slice_seconds`` (the clock is read every :data:`CHECK_NODES` nodes),
    and once ``st.nodes`` has reached ``stop_at``, the caller's node limit (tested every
    :data:`LIMIT_NODES` nodes from the start); the caller then closes or resumes it.

    ``final_pegs`` None means the ``min`` goal: explore everything, return the path to the
    fewest pegs seen (``found`` when it reaches ``lower_bound``).  Otherwise a position with
    ``final_pegs`` pegs is a solution when it equals ``target`` (None: any such position).
    ``x0``/``imgs0``: the start's packed pagoda values and images, when the caller has them.
    """
    keys = table.keys
    add = table.add_images
    sym_deltas = t.sym_deltas
    lane = t.sym_lane
    lane_mask = (1 << lane) - 1
    shifts = [lane * k for k in range(len(t.sym_tables))]
    sample = st.dead_sample
    start_pegs = start.bit_count()
    min_goal = final_pegs is None
    stop_depth = start_pegs - (final_pegs if final_pegs is not None else lower_bound)
    perf = time.perf_counter

    expand = make_expand(t, keys, ISO, EDGE)

    if x0 is None:
        x0 = t.pack(start)
    path = [start]
    imgs = [t.pack_images(start) if imgs0 is None else imgs0]
    if not st.best_path:
        st.best_path = [start]
    deepest = len(st.best_path) - 1
    if min_goal and start_pegs <= lower_bound:
        return True, [start]
    stack = [expand(start, x0)]
    nodes = base = st.nodes
    next_check = nodes + CHECK_NODES
    next_yield = perf() + st.slice_seconds
    while stack:
        kids = stack[-1]
        if not kids:
            stack.pop()
            dead = path.pop()
            packed = imgs.pop()
            if stack:
                add([(packed >> k) & lane_mask for k in shifts])
                if sample is not None and len(sample) < 100000:
                    sample.append(dead)
            continue
        _, nxt, y, i = kids.pop()
        nodes += 1
        path.append(nxt)
        imgs.append(imgs[-1] ^ sym_deltas[i])
        depth = len(path) - 1
        if depth > deepest:
            # every jump removes a peg: the deepest position is the fewest pegs reached (``min``)
            deepest = depth
            if depth >= len(st.best_path):
                st.best_path = list(path)
        if depth == stop_depth:
            if min_goal or target is None or nxt == target:
                st.nodes = nodes
                return True, path
            stack.append([])
        else:
            stack.append(expand(nxt, y))
        if nodes >= next_check:
            next_check = nodes + CHECK_NODES
            # the node limit is tested every LIMIT_NODES nodes from the start (where a run of N
            # nodes stops), the clock every CHECK_NODES (so big boards still pause often)
            hit = nodes >= stop_at and (nodes - base) % LIMIT_NODES == 0
            if hit or perf() >= next_yield:
                st.nodes = nodes
                st.depth = depth
                st.at_limit = hit
                yield
                st.at_limit = False
                base += st.nodes - nodes  # someone else's nodes while paused shift the grid
                nodes = st.nodes
                next_check = nodes + CHECK_NODES
                next_yield = perf() + st.slice_seconds
    st.nodes = nodes
    return False, (st.best_path if min_goal else [])
