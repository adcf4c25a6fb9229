"""One side's move-cost sweep of :mod:`.meet` (:func:`side_steps`), its level step compiled per board.

A level holds, for each class (sorted canonical keys), a cost and a mask of holes in the frame of its
key.  Swept forward from the start the cost is the fewest moves to the class and the mask the landing
holes of the last jumps achieving it (as in :mod:`.dp`); swept backward (the complement game from the
goal's complement, a position's complement standing for it) the cost is the fewest moves from the class
to the goal, the first jump counted as a new move, and the mask the source holes of the first jumps
achieving it.  A jump continues the move that came before it (cost 0) when its source is the hole the
last jump landed on: forward, a jump from a hole of the parent's mask; backward, where the jump found
in the complement game is the original jump before the ones costed already, a jump landing on a hole
of the mask.  Every other jump costs 1.

Unlike :mod:`.dp`, the children are not looked up in a finished level: the sweep builds the level.
:func:`push_fn` puts each jump's child, as its packed images (see
:class:`pyapp.core.codec.compiled.Codec`), into a dict whose value joins, over the jumps reaching that
exact position, the packed images of the hole to record (the landing forward, the source backward), in
the field of the child's cost (field ``f`` holds cost ``least + f``, ``least`` the least cost of the
parents' level; a field is ``holes x symmetries`` bits wide).  :func:`merge_fn` then takes each
distinct child once: its canonical key, its cost (the least field set) and the holes of that field read
in the lane of the key, and keeps per key the least cost with the holes of the jumps achieving it (a
lower cost replaces, an equal one joins, so the order of the parents does not matter).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable, Generator
from dataclasses import dataclass

from ...core.budget import Budget
from ...core.codec.compiled import Codec
from ..setup import stop_if_over
from ..sweep import DICT_ENTRY_BYTES, MemoryCeiling, Progress

PushFn = Callable[..., None]
"""``push(keys, costs, masks, lo, hi, raw, least, cap)``: see :func:`push_fn`."""
MergeFn = Callable[[dict, int, dict], None]
"""``merge(raw, least, acc)``: see :func:`merge_fn`."""


def push_fn(cd: Codec, backward: bool) -> PushFn:
    """``push(keys, costs, masks, lo, hi, raw, least, cap)``: every jump of the parents ``lo:hi`` (canonical
    ``keys``, their ``costs`` and dense ``masks``) whose child costs at most ``cap`` into ``raw``, a dict from the
    child's packed images to the packed images of the recorded holes (landing forward, source when ``backward``)
    in the field of the child's cost (see the module docstring; ``least``: the least cost of the parents'
    level).  A parent costing ``cap`` pushes only the jumps that continue its move."""
    board = cd.board
    lines = [
        "def push(keys, costs, masks, lo, hi, raw, least, cap):",
        "    get = raw.get",
        f"    full = {board.mask}",
        "    for i in range(lo, hi):",
        "        k = keys[i]",
        "        b = costs[i]",
        f"        pos = {cd.layout_source('k')}",
        f"        x0 = {cd.images_source('k')}",
        "        M = masks[i]",
        f"        ML = {cd.layout_source('M')}",
        "        e = full ^ pos",
        f"        sh = (b - least) * {cd.holes * len(cd.group)}",
        "        more = b < cap",
    ]
    names: dict[str, object] = {}
    wide = cd.holes * len(cd.group)
    for d_index, d in enumerate(board.directions):
        a = abs(d.shift)
        # the recorded hole of each jump: its source backward, its landing forward
        rt = cd.packed_jumps(d, 0 if backward else 2)
        names[f"J{d_index}"], names[f"H{d_index}"] = cd.packed_jumps(d), rt
        names[f"N{d_index}"] = [h << wide for h in rt]
        lines.append(f"        m = {cd.jump_mask_source(d)}")
        on = "ML" if not backward else f"(ML >> {2 * a})" if d.shift > 0 else f"(ML << {2 * a})"
        # the sources of the jumps that continue the move: forward from a hole of the mask, backward onto one
        lines += ["        if m:", f"            c = m & {on}"]
        for table, pick in (("H", "c"), ("N", "m ^ c if more else 0")):
            lines += [
                f"            mm = {pick}",
                "            while mm:",
                "                low = mm & -mm",
                "                mm ^= low",
                "                j = low.bit_length()",
                f"                x = x0 ^ J{d_index}[j]",
                f"                raw[x] = get(x, 0) | ({table}{d_index}[j] << sh)",
            ]
    return cd.compile_source("\n".join(lines) + "\n", "push", **names)


def merge_fn(cd: Codec) -> MergeFn:
    """``merge(raw, least, acc)``: the children of ``raw`` (see :func:`push_fn`) into ``acc`` (canonical key ->
    ``cost << holes | mask``, the mask dense in the key's frame): a lower cost replaces, an equal one joins
    its holes, a higher one is dropped (so the order of the calls does not matter)."""
    n, full = cd.holes, cd.everything
    size = len(cd.group)
    wide = n * size
    if size > 1:
        lanes = ", ".join(f"(x >> {n * g}) & {full}" if g < size - 1 else f"x >> {n * g}" for g in range(1, size))
        canon = [f"        t = (x & {full}, {lanes})", "        kk = min(t)", "        s = SHIFTS[t.index(kk)]"]
    else:
        canon = ["        kk = x", "        s = 0"]
    lines = [
        "def merge(raw, least, acc):",
        "    get = acc.get",
        "    for x, v in raw.items():",
        *canon,
        f"        f = ((v & -v).bit_length() - 1) // {wide}  # the least field set: the cost, less ``least``",
        f"        base = (least + f) << {n}",
        f"        mm = (v >> ({wide} * f + s)) & {full}",
        "        cur = get(kk, INF)",
        f"        if cur > base | {full}:",
        "            acc[kk] = base | mm",
        "        elif cur >= base:",
        "            acc[kk] = cur | mm",
    ]
    return cd.compile_source("\n".join(lines) + "\n", "merge", SHIFTS=[n * g for g in range(size)],
                             INF=1 << (n + 16))


CHUNK = 20_000
"""Parents pushed between two progress reports."""


@dataclass
class CostLevel:
    """One costed level: sorted canonical keys, a cost and a dense mask (in the key's frame) per key."""

    keys: array
    costs: array
    masks: array

    def find(self, key: int) -> int:
        i = bisect_left(self.keys, key)
        return i if i < len(self.keys) and self.keys[i] == key else -1

    @property
    def nbytes(self) -> int:
        return 17 * len(self.keys)


def _first(cd: Codec, sources: list[int]) -> CostLevel:
    keys = array("Q", sorted({cd.canon(p) for p in sources}))
    return CostLevel(keys, array("B", bytes(len(keys))), array("Q", bytes(8 * len(keys))))


UNCAPPED = 255
"""A cap no cost reaches (costs are bytes; a position has fewer than 64 holes, so fewer jumps)."""


def side_steps(cd: Codec, sources: list[int], last_pegs: int, backward: bool, budget: Budget, stage: str,
               held: list[int], bound: list[int], cap: int = UNCAPPED
               ) -> Generator[Progress, None, dict[int, CostLevel]]:
    """Cost every level from ``sources`` (layout positions with the same pegs) down to ``last_pegs`` pegs, or
    until a level is empty (:mod:`.push`); the levels by pegs.  Only the classes costing at most ``cap`` are
    kept: their costs and masks are still exact, since costs never fall along a sweep, so a class's cheapest
    jumps come from parents costing no more than it.  ``held[0]`` counts the bytes kept (both sides); past the budget's
    ceiling :class:`~.sweep.MemoryCeiling` is raised before the level grows further.  ``bound[0]`` is raised
    to what each finished level proves: every solution passes through it, so it has at least the least
    forward cost there, and at least the least backward cost less one (its first jump may continue a move)."""
    push, merge = push_fn(cd, backward), merge_fn(cd)
    pegs = sources[0].bit_count()
    level = _first(cd, sources)
    out = {pegs: level}
    held[0] += level.nbytes
    full = cd.everything
    done = len(level.keys)
    while pegs > last_pegs and len(level.keys):
        keys, costs, masks = level.keys, level.costs, level.masks
        n = len(keys)
        least = min(costs)
        acc: dict[int, int] = {}
        for lo in range(0, n, CHUNK):
            hi = min(n, lo + CHUNK)
            raw: dict[int, int] = {}
            push(keys, costs, masks, lo, hi, raw, least, cap)
            merge(raw, least, acc)
            need = held[0] + DICT_ENTRY_BYTES * (len(acc) + len(raw))
            if budget.max_bytes is not None and need > budget.max_bytes:
                raise MemoryCeiling(f"level {pegs - 1} of the {stage} sweep: {len(acc):,} classes so far would pass "
                                    f"the memory ceiling of {budget.max_bytes / 1e6:,.0f} MB")
            del raw
            stop_if_over(budget)
            yield Progress(stage, pegs - 1, hi, n, len(acc), done, need, budget.elapsed())
        new = array("Q", sorted(acc))
        get = acc.__getitem__
        values = array("Q", map(get, new))
        del acc
        shift = cd.holes
        level = CostLevel(new, array("B", (v >> shift for v in values)), array("Q", (v & full for v in values)))
        pegs -= 1
        out[pegs] = level
        held[0] += level.nbytes
        if len(new):
            bound[0] = max(bound[0], min(level.costs) - (1 if backward else 0))
        done += len(new)
    return out
