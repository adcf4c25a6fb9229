"""Fewest moves by dynamic programming over the winnable levels: every edge of the set once.

A move is a chain of jumps by one peg, so the cost of a jump depends on the jump before it:
a jump by the peg that just landed continues the move (cost 0), any other starts a new one
(cost 1).  Every jump removes a peg, so the positions that can still win (the winnable set
``W`` of :mod:`pyapp.exact.winnable`; every position of a solution lies in it) fall into
levels by peg count, and a sweep from the start level down computes, for each class ``P``::

    best[P] = the fewest moves of a jump sequence from the start to P
    mask[P] = the landing holes of the last jump of the sequences that achieve best[P]

(in the frame of ``P``'s canonical key).  A jump from ``P`` by the peg on hole ``a`` costs 0
when ``a`` is in ``mask[P]`` and 1 otherwise, and nothing else matters: a sequence reaching
``P`` in ``best[P] + 1`` moves or more, whatever its last hole, arrives after the jump with at
least as many moves as ``best[P] + 1``.  So ``best[Q] = min over jumps P -> Q of best[P] + cost``
is exact, ``mask[Q]`` collects the landing holes of the jumps that achieve it, and the
fewest moves of the problem are the least ``best`` over the goal positions: a proof that
rests on the winnable set being exact (the level sweeps) and on every jump between two of
its levels being examined once.

Classes are taken up to the winnable set's symmetry group (every symmetry of the goal): the
costs are invariant under it and the goal is, so the least cost to a goal class is the
least over the group's images of the start, which is the start's own (a symmetry fixing the
goal maps a solution onto a solution).  A child is mapped onto its canonical key by one
symmetry, so when the child's class is fixed by a symmetry ``s`` its mask may hold a landing
hole ``h`` without ``s(h)``; that changes no cost, since the jumps by the pegs on ``a`` and
``s(a)`` lead to the same class with mapped landing holes, and the solution's rebuild reads
each mask under every symmetry mapping the position onto its key.

The solution is rebuilt backwards from a goal position by undoing jumps whose parent's
``best`` and ``mask`` account for the cost left, in actual (not canonical) positions, so its
jumps replay as they are.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable, Generator
from dataclasses import dataclass, field

from ...core.budget import Budget
from ...core.codec.canonical import jump_table
from ...core.codec.compiled import Codec
from ...core.moves import Jump
from ..lookup import Marked, index_bytes
from ..setup import stop_if_over
from ..sweep import MemoryCeiling, Progress
from ..winnable import Winnable

LevelFn = Callable[[Marked, array, Marked, array, int, int], None]


def level_fn(cd: Codec) -> LevelFn:
    """``step(parents, masks, children, child_masks, lo, hi)``: push ``best`` and ``mask`` of the
    parents ``lo:hi`` (their ``marks`` hold ``best + 1``, 0 = not reached) to their winnable children."""
    board = cd.board
    n, full_dense = cd.holes, cd.everything
    size = len(cd.group)
    lanes = ", ".join(f"(x >> {n * g}) & {full_dense}" for g in range(size)) + ","
    lines = [
        "def step(parents, masks, children, child_masks, lo, hi):",
        "    keys, best = parents.keys, parents.marks",
        "    live, shift, idx, limit, cbest = children.as_tuple()",
        f"    full = {board.mask}",
        "    for i in range(lo, hi):",
        "        b = best[i]",
        "        if not b:",
        "            continue",
        "        k = keys[i]",
        f"        pos = {cd.layout_source('k')}",
        f"        x0 = {cd.images_source('k')}",
        "        M = masks[i]",
        ]
    lines += [
        f"        ML = {cd.layout_source('M')}",
        "        e = full ^ pos",
        "        b1 = b + 1",
    ]
    names: dict[str, object] = {"bisect_left": bisect_left, "SHIFTS": [n * g for g in range(size)]}
    for d_index, d in enumerate(board.directions):
        names[f"J{d_index}"] = cd.packed_jumps(d)
        names[f"L{d_index}"] = cd.packed_jumps(d, 2)  # the landing hole
        lines.append(f"        m = {cd.jump_mask_source(d)}")
        # the landing hole in the frame of the child's key, worked out only for a jump that sets the child's cost
        landing = (f"(L{d_index}[j] >> SHIFTS[({lanes}).index(kk)]) & {full_dense}" if size > 1
                   else f"L{d_index}[j] & {full_dense}")
        for cost, pick in (("b", "m & ML"), ("b1", "m & ~ML")):
            lines += [
                f"        mm = {pick}",
                "        while mm:",
                "            low = mm & -mm",
                "            mm ^= low",
                "            j = low.bit_length()",
                f"            x = x0 ^ J{d_index}[j]",
                f"            kk = {cd.least_source('x')}",
                "            bb = kk >> shift",
                "            if bb < limit:",
                "                hi2 = idx[bb + 1]",
                "                q = bisect_left(live, kk, idx[bb], hi2)",
                "                if q < hi2 and live[q] == kk:",
                "                    cur = cbest[q]",
                f"                    if not cur or {cost} < cur:",
                f"                        cbest[q] = {cost}",
                f"                        child_masks[q] = {landing}",
                f"                    elif {cost} == cur:",
                f"                        child_masks[q] |= {landing}",
            ]
    return cd.compile_source("\n".join(lines) + "\n", "step", **names)


def actual_state(cd: Codec, level: Marked, masks: array, pos: int) -> tuple[int, int] | None:
    """``(best + 1, mask)`` of the actual position ``pos`` (mask in ``pos``'s own holes, layout bits),
    or None when ``pos`` is not in the level or was not reached."""
    board = cd.board
    key = cd.canon(pos)
    i = level.find(key)
    if i < 0 or not level.marks[i]:
        return None
    canon_layout = cd.layout(key)
    mask_layout = cd.layout(masks[i])
    mask = 0
    for g in cd.group:  # every symmetry mapping pos onto its canonical key (closes the mask too)
        if board.transform(pos, g) == canon_layout:
            mask |= sum(1 << b for b in board.bits if board.transform(1 << b, g) & mask_layout)
    return level.marks[i], mask


def rebuild(cd: Codec, levels: list[Marked], masks: list[array], goal_pos: int) -> tuple[int, list[Jump]]:
    """``(first, jumps)``: jumps from ``first``, an image of the start, to ``goal_pos`` in ``best`` moves,
    found backwards by undoing a jump into a parent whose ``best`` and ``mask`` account for the moves left
    (see the module docstring)."""
    board = cd.board
    table = jump_table(board)
    pos = goal_pos
    state = actual_state(cd, levels[pos.bit_count()], masks[pos.bit_count()], pos)
    assert state is not None
    cost, mask = state
    landing = (mask & -mask).bit_length() - 1
    back: list[Jump] = []
    while mask:  # the start has no last jump (its mask is empty); every other class has one
        found = None
        for over, src in table[landing]:
            if pos >> over & 1 or pos >> src & 1:
                continue
            parent = pos ^ ((1 << landing) | (1 << over) | (1 << src))
            st = actual_state(cd, levels[parent.bit_count()], masks[parent.bit_count()], parent)
            if st is None:
                continue
            pcost, pmask = st
            if pmask >> src & 1 and pcost == cost:
                found = (parent, (src, over, landing), pcost, 1 << src)
                break
            if pcost + 1 == cost:
                found = (parent, (src, over, landing), pcost, pmask)
        assert found is not None, "the costs left no parent"  # pragma: no cover - exact by construction
        pos, jump, cost, mask = found
        back.append(jump)
        landing = (mask & -mask).bit_length() - 1
    back.reverse()
    return pos, back


DP_CHUNK = 4096
"""Parents of a level pushed between two progress reports."""


@dataclass
class Costs:
    """The outcome of :func:`costs_steps`: the least ``best`` over the goal positions, one of them."""

    moves: int | None
    """Fewest moves to a goal position (None: no goal position was reached)."""
    goal: int = 0
    """A goal position (layout) reached in ``moves`` moves."""
    reached: int = 0
    """Classes given a cost (every winnable class is reachable, so all of them)."""
    levels: list[Marked] = field(default_factory=list)
    masks: list[array] = field(default_factory=list)


def costs_steps(win: Winnable, budget: Budget, bound: list[int]) -> Generator[Progress, None, Costs]:
    """Push ``best`` and ``mask`` level by level from the start through every winnable level.

    ``bound[0]`` is kept at a proven lower bound on the moves of any solution (the least ``best`` of
    the last level finished), so a caller stopped by the budget can say how far the sweep got.
    Raises :class:`~.sweep.MemoryCeiling` before allocating when the arrays would pass the ceiling."""
    levels, masks, need = prepared(win, budget)
    problem = win.problem
    first = problem.start.bit_count()
    step = level_fn(win.codec)
    reached = 1
    for pegs in range(first, problem.goal.final_pegs or 1, -1):
        parents = levels[pegs]
        size = len(parents)
        for lo in range(0, size, DP_CHUNK):
            hi = min(size, lo + DP_CHUNK)
            step(parents, masks[pegs], levels[pegs - 1], masks[pegs - 1], lo, hi)
            stop_if_over(budget)
            yield Progress("fewest moves", pegs - 1, hi, size, len(levels[pegs - 1]), reached, need,
                           budget.elapsed())
        reached += settled(levels[pegs - 1], bound)
    return least_goal(win, levels, masks, reached)


def prepared(win: Winnable, budget: Budget) -> tuple[list[Marked], list[array], int]:
    """Every winnable level indexed by pegs (the start's class marked: ``best + 1`` = 1), zero masks, and the
    bytes they need; :class:`~.sweep.MemoryCeiling` first if that passes the budget's ceiling."""
    cd, problem = win.codec, win.problem
    need = win.nbytes + sum(index_bytes(len(keys)) + 8 * len(keys) for keys in win.levels.values())
    if budget.max_bytes is not None and need > budget.max_bytes:
        raise MemoryCeiling(f"the costs of {len(win):,} winnable positions need about {need / 1e6:,.0f} MB, "
                            f"over the memory ceiling of {budget.max_bytes / 1e6:,.0f} MB")
    levels = [Marked(win.levels.get(pegs, array("Q"))) for pegs in range(len(problem.board) + 1)]
    masks = [array("Q", bytes(8 * len(level))) for level in levels]
    top = levels[problem.start.bit_count()]
    top.marks[top.find(cd.canon(problem.start))] = 1  # best + 1: no move yet
    return levels, masks, need


def settled(level: Marked, bound: list[int]) -> int:
    """How many classes of a level just costed were reached; raises ``bound[0]`` to the least cost among them."""
    marks = level.marks
    done = len(marks) - marks.count(0)
    if done:
        bound[0] = max(bound[0], min(c for c in marks if c) - 1)
    return done


def least_goal(win: Winnable, levels: list[Marked], masks: list[array], reached: int) -> Costs:
    """The :class:`Costs` of costed levels: the least ``best`` over the goal positions of the last level."""
    cd, problem = win.codec, win.problem
    final = levels[problem.goal.final_pegs or 1]
    found = [(final.marks[i], key) for i, key in enumerate(final.keys)
             if final.marks[i] and problem.goal.reached(cd.layout(key))]
    if not found:
        return Costs(None, 0, reached, levels, masks)
    cost, key = min(found)
    return Costs(cost - 1, cd.layout(key), reached, levels, masks)
