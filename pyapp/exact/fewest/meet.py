"""Fewest moves by two move-cost sweeps that meet at the middle level: no winnable set is built.

Every solution passes through exactly one position ``P`` with ``m`` pegs (``m`` the middle level of
:meth:`pyapp.exact.setup.Sides.meet`).  A sweep from the start down to ``m`` gives every reachable
class its fewest moves ``f`` from the start and the landing holes ``F`` of the last jumps achieving
it; a sweep of the complement game from the goal's complements down to ``m`` gives every class that
can reach the goal its fewest moves ``g`` to the goal (the first jump counted as a new move) and the
source holes ``G`` of the first jumps achieving it (:mod:`.push`, one expansion per level each).  A
prefix ending at ``P`` costs ``f`` when its last landing is in ``F`` and more otherwise; a suffix from
``P`` costs ``g - 1`` when its first jump leaves the hole the prefix landed on and that hole is in
``G``, else at least ``g``.  So the fewest moves through ``P`` are ``f + g - 1`` when ``F`` and ``G``
(each closed under the symmetries fixing ``P``) meet, else ``f + g``, and the fewest moves of the
problem are the least of these over the middle level: exact, resting on both sweeps being exhaustive.

Both sweeps keep classes up to every symmetry of the goal (``Sides.wide_codec``, as
:mod:`pyapp.exact.winnable` does): the forward cost of a class is then the least over the images of
the start, which gives the same minimum since a symmetry fixing the goal maps a solution onto a
solution; the backward sweep starts from the goal positions of every image of the start's class,
which is what a position reachable from such an image can end on.

The solution is rebuilt from the best middle position in actual positions, backwards to an image of
the start over the forward levels and forwards to the goal over the backward ones, each jump chosen
so that the costs account for the moves left; its jumps replay as they are.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Generator
from dataclasses import dataclass, field

from ...core.budget import Budget
from ...core.codec.canonical import jump_table
from ...core.codec.compiled import Codec
from ...core.moves import Jump
from ...core.problem import Problem
from ..setup import Sides, sides, stop_if_over
from ..sharded import Parallel
from ..sweep import Progress
from ..twosided import two_sided
from .meetpool import sides_on_pool
from .push import CostLevel, side_steps


@dataclass
class Middle:
    """The best position of the middle level: fewest moves through it, and how the two halves join."""

    moves: int
    key: int
    """Canonical key (forward frame) of the middle position; its layout is the position rebuilt through."""
    landing: int | None
    """Layout bit of a hole on which the prefix lands and the suffix's first jump starts (one move), or None."""


def _inverse_lanes(cd: Codec) -> list[int]:
    """``inv[j]``: the lane of the symmetry undoing lane ``j``'s."""
    n, full = cd.holes, cd.everything
    lane = [lambda x, g=g: (x >> (n * g)) & full for g in range(len(cd.group))]
    probe = [1 << i for i in range(n)]
    return [next(j2 for j2 in range(len(cd.group))
                 if all(lane[j2](cd.packed_key(lane[j](cd.packed_key(p)))) == p for p in probe))
            for j in range(len(cd.group))]


def best_middle(cd: Codec, ahead: CostLevel, back: CostLevel, budget: Budget
                ) -> Generator[Progress, None, Middle | None]:
    """The least ``f + g - [F and G meet]`` over the classes of the middle level in both sweeps (see the module
    docstring), or None when none is."""
    n, full = cd.holes, cd.everything
    size = len(cd.group)
    inv = _inverse_lanes(cd)
    packed_key, layout = cd.packed_key, cd.layout
    bkeys, bcosts, bmasks = back.keys, back.costs, back.masks
    nb = len(bkeys)
    floor = min(bcosts, default=0) - 1
    best: Middle | None = None
    order = sorted(range(len(ahead.keys)), key=ahead.costs.__getitem__)
    for count, i in enumerate(order):
        f = ahead.costs[i]
        if best is not None and f + floor >= best.moves:
            break  # no class left can do better
        k = ahead.keys[i]
        x = packed_key(k)
        t = [(x >> (n * g)) & full for g in range(size)]
        j = t.index(max(t))
        q = bisect_left(bkeys, full ^ t[j])
        if q == nb or bkeys[q] != full ^ t[j]:
            continue
        total = f + bcosts[q]
        if best is not None and total - 1 >= best.moves:
            continue
        # the backward mask, in the complement key's frame (lane j), brought to k's own frame
        g_mask = (packed_key(bmasks[q]) >> (n * inv[j])) & full
        f_images = packed_key(ahead.masks[i])
        meet = 0
        for s in range(size):  # every symmetry fixing k: the masks closed under them
            if t[s] == k:
                meet |= (f_images >> (n * s)) & full & g_mask
        if meet:
            total -= 1
        if best is None or total < best.moves:
            best = Middle(total, k, (layout(meet & -meet).bit_length() - 1) if meet else None)
        if count & 0xFFFF == 0xFFFF:
            stop_if_over(budget)
            yield Progress("fewest moves: the middle", 0, count, len(order), 0, 0, 0, budget.elapsed())
    return best


def _state(cd: Codec, level: CostLevel | None, pos: int) -> tuple[int, int] | None:
    """``(cost, mask)`` of the actual position ``pos`` in ``level`` (mask in ``pos``'s own layout bits, closed
    under every symmetry mapping ``pos`` onto its key), or None when it is not there."""
    if level is None:
        return None
    board = cd.board
    key = cd.canon(pos)
    i = level.find(key)
    if i < 0:
        return None
    canon_layout, mask_layout = cd.layout(key), cd.layout(level.masks[i])
    mask = 0
    for g in cd.group:
        if board.transform(pos, g) == canon_layout:
            mask |= sum(1 << b for b in board.bits if board.transform(1 << b, g) & mask_layout)
    return level.costs[i], mask


def rebuild(s: Sides, cd: Codec, ahead: dict[int, CostLevel], back: dict[int, CostLevel], mid: Middle
            ) -> tuple[int, list[Jump]]:
    """``(first, jumps)``: ``mid.moves`` moves from ``first`` (an image of the start) through the middle position
    to a goal position."""
    board = cd.board
    table = jump_table(board)
    full = board.mask
    middle = cd.layout(mid.key)
    f_state = _state(cd, ahead.get(middle.bit_count()), middle)
    assert f_state is not None
    cost, mask = f_state
    landing = mid.landing if mid.landing is not None else ((mask & -mask).bit_length() - 1 if mask else None)
    pos, before = middle, list[Jump]()
    while landing is not None:  # back to the start (its class has no last jump)
        found: tuple[int, Jump, int, int | None] | None = None
        for over, src in table[landing]:
            if pos >> over & 1 or pos >> src & 1:
                continue
            parent = pos ^ ((1 << landing) | (1 << over) | (1 << src))
            st = _state(cd, ahead.get(parent.bit_count()), parent)
            if st is None:
                continue
            pcost, pmask = st
            if pmask >> src & 1 and pcost == cost:
                found = (parent, (src, over, landing), pcost, src)
                break
            if pcost + 1 == cost and found is None:
                found = (parent, (src, over, landing), pcost, (pmask & -pmask).bit_length() - 1 if pmask else None)
        assert found is not None, "the forward costs left no parent"  # pragma: no cover - exact by construction
        pos, jump, cost, landing = found
        before.append(jump)
    before.reverse()
    first = pos
    # forwards to the goal: the moves left after the prefix, given the hole it landed on
    last = mid.landing if mid.landing is not None else (before[-1][2] if before else None)
    b_state = _state(cd, back.get(len(board) - middle.bit_count()), full ^ middle)
    assert b_state is not None
    left = b_state[0] - (1 if mid.landing is not None else 0)
    pos, after = middle, list[Jump]()
    while pos.bit_count() > s.last_pegs:
        step: tuple[int, Jump, int] | None = None
        for at in board.pegs(pos):
            for over, to in table[at]:
                if not (pos >> over & 1) or pos >> to & 1:
                    continue
                child = pos ^ ((1 << at) | (1 << over) | (1 << to))
                st = _state(cd, back.get(len(board) - child.bit_count()), full ^ child)
                if st is None:
                    continue
                rest = st[0] - (st[1] >> to & 1)
                if (0 if at == last else 1) + rest == left:
                    step = (child, (at, over, to), rest)
                    break
            if step:
                break
        assert step is not None, "the backward costs left no child"  # pragma: no cover - exact by construction
        pos, jump, left = step
        after.append(jump)
        last = jump[2]
    return first, before + after


def meet_sides(problem: Problem) -> tuple[Sides, Codec, list[int]]:
    """The problem's sides, the codec of both sweeps (every symmetry of the goal) and the backward sources:
    the complements of the goal positions the start's class allows, and their images under that codec."""
    s = sides(problem)
    cd = s.wide_codec
    board = problem.board
    sources = sorted({board.transform(p, g) for p in s.backward for g in cd.group})
    return s, cd, sources


@dataclass
class Met:
    """The outcome of :func:`meet_steps`."""

    moves: int | None
    """Fewest moves (None: no class of the middle level is reachable and reaches the goal)."""
    first: int = 0
    """An image of the start under the sweeps' codec, from which :attr:`jumps` play."""
    jumps: list[Jump] = field(default_factory=list)
    positions: int = 0
    """Classes costed by the two sweeps."""


def meet_steps(problem: Problem, budget: Budget, bound: list[int], parallel: Parallel | None = None
               ) -> Generator[Progress, None, Met]:
    """Sweep the costs from both ends to the middle level (on a local pool of two, each side in its own worker:
    :mod:`.meetpool`), join them there and rebuild a solution; yields :class:`Progress`.  ``bound[0]`` is kept
    at a proven lower bound on the moves (for an answer cut short)."""
    s, cd, sources = meet_sides(problem)
    m, n = s.meet(), s.holes
    if two_sided(parallel):
        assert parallel is not None
        ahead, back = yield from sides_on_pool(parallel, problem.board, cd.group, s.start, sources, m, budget, bound)
    else:
        held = [0]
        ahead = yield from side_steps(cd, [s.start], m, False, budget, "fewest moves from the start", held, bound)
        back = yield from side_steps(cd, sources, n - m, True, budget, "fewest moves to the goal", held, bound)
    positions = sum(len(level.keys) for level in ahead.values()) + sum(len(level.keys) for level in back.values())
    if m not in ahead or n - m not in back:
        return Met(None, positions=positions)  # a sweep died out before the middle
    mid = yield from best_middle(cd, ahead[m], back[n - m], budget)
    if mid is None:
        return Met(None, positions=positions)
    first, jumps = rebuild(s, cd, ahead, back, mid)
    return Met(mid.moves, first, jumps, positions)
