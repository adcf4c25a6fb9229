"""Fewest moves by two move-cost sweeps under caps, joined at every level: no winnable set is built.

A sweep from the start gives every reachable class its fewest moves ``f`` from the start and the landing
holes ``F`` of the last jumps achieving it; a sweep of the complement game from the goal's complements
gives every class that can reach the goal its fewest moves ``g`` to the goal (the first jump counted as a
new move) and the source holes ``G`` of the first jumps achieving it (:mod:`.push`, one expansion per
level each).  A prefix ending at ``P`` costs ``f`` when its last landing is in ``F`` and more otherwise; a
suffix from ``P`` costs ``g - 1`` when its first jump leaves the hole the prefix landed on and that hole is
in ``G``, else at least ``g``.  So the fewest moves through ``P`` are ``f + g - 1`` when ``F`` and ``G``
(each closed under the symmetries fixing ``P``) meet, else ``f + g`` (:func:`best_middle`): every such
join is a real solution.

Each sweep keeps only the classes costing at most its cap (``a`` from the start, ``b`` to the goal): costs
never fall along a sweep, so those classes keep their exact costs and holes.  A solution of ``A <= a + b``
moves is cut after its ``min(a, A)``-th move at a position ``P`` with ``f <= a`` and ``g <= b``, which
both sweeps keep, so the least join ``J`` over every level both reached is at most ``A``; and ``J`` is
never below the fewest moves.  Hence ``J <= a + b`` is the answer, and no join at or below ``a + b``
proves at least ``a + b + 1`` moves.  A round raises the cap of the side whose next sweep is foreseen
smaller (its classes grow by about the same factor each time) and sweeps it again, from its end;
on triangle 7 the costs from the start crowd high (most classes of 14 pegs need 9-11 moves) and those to
the goal (18 finishing holes, long final moves) low, so the caps meet unevenly and each side keeps a
fraction of its classes.  A side left whole by its cap (no class costs the cap) decides alone: the
least join is then the answer, or there is none.

Both sweeps keep classes up to every symmetry of the goal (``Sides.wide_codec``, as
:mod:`pyapp.exact.winnable` does): the forward cost of a class is then the least over the images of
the start, which gives the same minimum since a symmetry fixing the goal maps a solution onto a
solution; the backward sweep starts from the goal positions of every image of the start's class,
which is what a position reachable from such an image can end on.

The solution is rebuilt from the best joined position in actual positions, backwards to an image of
the start over the forward levels and forwards to the goal over the backward ones, each jump chosen
so that the costs account for the moves left (those positions cost no more than it, so the caps kept
them); its jumps replay as they are.
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
from .meetpool import Race
from .push import CostLevel, side_steps


@dataclass
class Middle:
    """The best joined position (of one level): fewest moves through it, and how the two halves join."""

    moves: int
    key: int
    """Canonical key (forward frame) of the joined position; its layout is the position rebuilt through."""
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


def best_middle(cd: Codec, ahead: CostLevel, back: CostLevel, budget: Budget, only: int | None = None
                ) -> Generator[Progress, None, Middle | None]:
    """The least ``f + g - [F and G meet]`` over the classes of one level in both sweeps (see the module
    docstring; with ``only``, over the forward classes costing ``only``), or None when none is."""
    n, full = cd.holes, cd.everything
    size = len(cd.group)
    inv = _inverse_lanes(cd)
    packed_key, layout, least_greatest = cd.packed_key, cd.layout, cd.least_greatest
    bkeys, bcosts, bmasks = back.keys, back.costs, back.masks
    nb = len(bkeys)
    floor = min(bcosts, default=0) - 1
    best: Middle | None = None
    order = ([i for i, c in enumerate(ahead.costs) if c == only] if only is not None
             else sorted(range(len(ahead.keys)), key=ahead.costs.__getitem__))
    for count, i in enumerate(order):
        f = ahead.costs[i]
        if best is not None and f + floor >= best.moves:
            break  # no class left can do better
        k = ahead.keys[i]
        x = packed_key(k)
        other = full ^ least_greatest(x)[1]  # the complement's canonical key
        q = bisect_left(bkeys, other)
        if q == nb or bkeys[q] != other:
            continue
        t = [(x >> (n * g)) & full for g in range(size)]
        j = t.index(full ^ other)
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
            yield Progress("fewest moves: the join", 0, count, len(order), 0, 0, 0, budget.elapsed())
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
    """``(first, jumps)``: ``mid.moves`` moves from ``first`` (an image of the start) through the joined position
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
    """Fewest moves (None: no position reachable from the start reaches the goal)."""
    first: int = 0
    """An image of the start under the sweeps' codec, from which :attr:`jumps` play."""
    jumps: list[Jump] = field(default_factory=list)
    positions: int = 0
    """Classes costed by the sweeps of every round."""
    caps: tuple[int, int] = (0, 0)
    """The caps of the last round: the most moves from the start, and to the goal, of the classes kept."""


GROWTH = 8.0
"""The most a side's classes are foreseen to grow by when its cap rises by one (on triangle 7 they grow by 4-9
once past a few thousand; a tiny first sweep may grow by a thousand times, which would hold its side back)."""


AHEAD = 1.0
"""On a pool of two, a side's next sweep starts while the other side's runs only when it is foreseen at most this
many times as large: a larger one would most often be stopped unused (on triangle 7 the forward cap 9, 8 million
classes, while the backward cap 4 that decides the answer runs), taking its share of a loaded machine."""


@dataclass(eq=False)
class End:
    """One side of :func:`meet_steps`: its sources, where it stops, its cap and the levels swept under it."""

    backward: bool
    sources: list[int]
    last_pegs: int
    stage: str
    cap: int = -1
    levels: dict[int, CostLevel] = field(default_factory=dict)
    sizes: list[int] = field(default_factory=list)
    """Classes kept by the sweep under each cap so far (to foresee the next one)."""

    @property
    def whole(self) -> bool:
        """No class was left out by the cap (no class costs the cap, so no jump could cost more)."""
        return bool(self.sizes) and all(max(lv.costs, default=0) < self.cap for lv in self.levels.values())

    def raised(self, levels: dict[int, CostLevel]) -> int:
        """Take the levels swept under the next cap; their classes."""
        self.cap += 1
        self.levels = levels
        self.sizes.append(sum(len(lv.keys) for lv in levels.values()))
        return self.sizes[-1]

    def foreseen(self) -> float:
        """Classes the sweep under the next cap is expected to keep: the last size times the last growth."""
        last = self.sizes[-1] if self.sizes else 1
        growth = last / self.sizes[-2] if len(self.sizes) > 1 and self.sizes[-2] else GROWTH
        return last * min(max(growth, 1.0), GROWTH)


def best_join(cd: Codec, ahead: dict[int, CostLevel], back: dict[int, CostLevel], budget: Budget,
              only: int | None = None) -> Generator[Progress, None, Middle | None]:
    """The best of :func:`best_middle` over every level both sweeps reached (with ``only``: see there)."""
    best: Middle | None = None
    n = cd.holes
    for pegs in sorted(ahead):
        if n - pegs in back and len(ahead[pegs].keys) and len(back[n - pegs].keys):
            mid = yield from best_middle(cd, ahead[pegs], back[n - pegs], budget, only)
            if mid is not None and (best is None or mid.moves < best.moves):
                best = mid
    return best


def meet_steps(problem: Problem, budget: Budget, bound: list[int], parallel: Parallel | None = None
               ) -> Generator[Progress, None, Met]:
    """Sweep the costs from both ends under caps raised round by round (see the module docstring), join them at
    every level and rebuild a solution; yields :class:`Progress`.  In this process a round raises the side whose
    next sweep is foreseen smaller; on a local pool of two each side is raised in its own worker, cap after cap,
    the driver joining whichever finishes (:func:`_race`).  ``bound[0]`` is kept at a proven lower bound on the
    moves (for an answer cut short)."""
    s, cd, sources = meet_sides(problem)
    n = s.holes
    ends = [End(False, [s.start], s.last_pegs, "fewest moves from the start"),
            End(True, sources, n - s.first_pegs, "fewest moves to the goal")]
    if two_sided(parallel):
        assert parallel is not None
        return (yield from _race(problem, s, cd, ends, parallel, budget, bound))
    best: Middle | None = None
    positions = 0
    while True:
        end = min(ends, key=End.foreseen) if all(e.sizes for e in ends) else next(e for e in ends if not e.sizes)
        end.levels = {}  # the old levels go before the new ones are built
        held = [sum(lv.nbytes for e in ends for lv in e.levels.values())]
        levels = yield from side_steps(cd, end.sources, end.last_pegs, end.backward, budget, end.stage, held, [0],
                                       end.cap + 1)
        positions += end.raised(levels)
        best = yield from _joined(cd, ends, end, best, budget)
        met = _outcome(s, cd, ends, best, positions, bound)
        if met is not None:
            return met


def _joined(cd: Codec, ends: list[End], raised: End, best: Middle | None, budget: Budget
            ) -> Generator[Progress, None, Middle | None]:
    """The least join once ``raised`` (one of ``ends``) has its new levels, ``best`` the least before: only its
    new classes join differently, and when it is the forward side those are the forward classes costing its cap."""
    ahead, back = ends[0].levels, ends[1].levels
    if raised is ends[0]:
        mid = yield from best_join(cd, ahead, back, budget, raised.cap)
        return mid if best is None or (mid is not None and mid.moves < best.moves) else best
    return (yield from best_join(cd, ahead, back, budget))


def _outcome(s: Sides, cd: Codec, ends: list[End], best: Middle | None, positions: int, bound: list[int]
             ) -> Met | None:
    """The answer when the caps decide it (the least join within their sum, or a side whole), else None with
    ``bound[0]`` raised to the sum plus one."""
    caps = (ends[0].cap, ends[1].cap)
    whole = ends[0].whole or ends[1].whole
    if best is not None and (best.moves <= sum(caps) or whole):
        first, jumps = rebuild(s, cd, ends[0].levels, ends[1].levels, best)
        return Met(best.moves, first, jumps, positions, caps)
    if whole:
        return Met(None, positions=positions, caps=caps)  # one side is every class: nothing joins
    if min(caps) >= 0:
        bound[0] = max(bound[0], sum(caps) + 1)
    return None


def _race(problem: Problem, s: Sides, cd: Codec, ends: list[End], parallel: Parallel, budget: Budget,
          bound: list[int]) -> Generator[Progress, None, Met]:
    """Each side raised cap after cap in its own worker of the pool, joined with the other's last levels as it
    finishes, until the caps decide the answer (a sweep still running is then stopped).  When neither runs, the
    side foreseen smaller goes; a side's next sweep starts beside the other's only when it is foreseen at most
    :data:`AHEAD` times as large, else it waits for that one's answer."""
    race = Race(parallel, problem.board, cd.group, budget)
    best: Middle | None = None
    positions = 0
    try:
        while True:
            for i in sorted((i for i in (0, 1) if i not in race.running), key=lambda i: ends[i].foreseen()):
                if not race.running or ends[i].foreseen() <= AHEAD * min(ends[j].foreseen() for j in race.running):
                    race.submit(i, tuple(ends[i].sources), ends[i].last_pegs, ends[i].backward, ends[i].cap + 1)
            i, levels = yield from race.next()
            end = ends[i]
            positions += end.raised(levels)
            best = yield from _joined(cd, ends, end, best, budget)
            met = _outcome(s, cd, ends, best, positions, bound)
            if met is not None:
                return met
    finally:
        race.stop()
