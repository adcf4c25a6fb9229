"""The count in one sweep, when the start is (up to a symmetry) among the backward side's sources.

The backward side (see :mod:`pyapp.exact.setup`) sweeps the complement game from ``S``, the complements of the
goal positions the start's class allows, under ``H`` (``Sides.back_codec``).  The number of solutions from the
start is that from ``g(start)`` for any symmetry ``g`` of the goal.  When some ``g(start)`` lies in ``S`` up to
``H`` (triangle7 vacancy 4: its mirror image, the single vacancy at hole 6, is the complement of the end
hole 6), the forward sweep from ``g(start)`` is part of the backward one, so a single sweep from ``S`` can carry
both class weights: ``T_b`` from every source and ``T_f`` from ``g(start)`` alone.  Its two halves meet inside
it, at a class ``C`` of ``m`` pegs and the class ``D`` of ``holes - m`` pegs holding ``g^-1`` of the complement
of ``C``'s representative (the ways on from ``x = g(y)`` are those from ``y``, a position the start reaches,
which are read at the complement of ``y`` in the backward sweep)::

    solutions = sum over classes C of m pegs of T_f(C) * T_b(D) / |D|

(:mod:`.sweep`'s sum, with both levels in one sweep).  Each class is stored once for both sides, as many as
the backward sweep alone: on triangle7 vacancy 4 the forward sweep and the sum over its jumps into the middle
level, more than half of the work, are gone.

The two weights travel packed in one Python int, ``T_b + (T_f << shift)``: adding two packed weights adds each
part as long as no ``T_b`` reaches ``2 ** shift`` (:func:`packing_shift` bounds it by the number of jump
sequences the sweep could count at all), so the sweep's own loops carry both unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from itertools import islice

from ...core.budget import Budget
from ...core.codec.compiled import Codec, least_tree
from ..setup import Sides, stop_if_over
from ..sharded import Pairing, Parallel, sweeper
from ..sweep import CHUNK, DICT_ENTRY_BYTES, Level, Progress, level_below_steps


def joint_start(s: Sides) -> tuple[int, int] | None:
    """``(g(start), lane)`` for a symmetry ``g`` of the goal mapping the start onto a backward source up to the
    backward group, ``lane`` the lane of ``s.wide_codec`` holding the images under ``g``'s inverse; None when
    no symmetry does (the count then sweeps both sides)."""
    board, bcd, wide = s.problem.board, s.back_codec, s.wide_codec
    sources = {bcd.canon(q) for q in s.backward}
    holes = [1 << b for b in board.bits]
    for g in wide.group:
        image = board.transform(s.start, g)
        if bcd.canon(image) in sources:
            moved = [board.transform(p, g) for p in holes]
            inverse = next(lane for lane, h in enumerate(wide.group)
                           if [board.transform(p, h) for p in moved] == holes)
            return image, inverse
    return None


def meeting_levels(s: Sides) -> tuple[int, int]:
    """``(m, holes - m)``: the pegs of the forward classes summed over and of their complements, as close to
    each other as the number of holes allows (the sweep goes down to the smaller of the two)."""
    m = (s.holes + 1) // 2
    return m, s.holes - m


def packing_shift(s: Sides, levels: int) -> int:
    """Bits below the forward weight: more than any backward class weight can reach in ``levels`` levels,
    at most the number of jump sequences that long from the sources (no position has more jumps than the
    board has)."""
    jumps = 2 * len(s.problem.board.lines)
    return (len(s.backward) * max(1, jumps) ** levels).bit_length() + 1


def joint_sweep(s: Sides, start: int, lane: int, budget: Budget, state: dict, held, parallel: Parallel | None
                ) -> Generator[Progress, None, int | None]:
    """Sweep from the backward sources with ``start`` (the image of the start, :func:`joint_start`) weighted
    above them, down to the meeting levels, and sum there (:func:`joint_sum`; ``lane``: ``g``'s inverse); the
    number of solutions, or None when the sweep died out before the middle.  ``state`` gets the positions
    stored and the peak bytes, as in :func:`.sweep.count_steps`.

    In this process the last level is left as the dict it is built in (:func:`_last_level`), never sorted into
    arrays: the sum looks its classes up there.  On ``parallel``'s pool the sweep is sharded and its levels stay
    in the shards: the shards sum the halves themselves (a :class:`~pyapp.exact.sharded.Pairing`: the classes of
    ``m`` pegs with a forward weight send it to the owner of their ``D``), or with a checkpoint the two meeting
    levels are loaded at the end and summed here, while the sweep stands at its last level (the level above it
    can still be fetched then)."""
    cd = s.back_codec
    m, low = meeting_levels(s)
    last, top = min(m, low), s.holes - s.last_pegs
    shift = packing_shift(s, top - last)
    weighted = dict(s.backward)
    weighted[start] = weighted.get(start, 0) + (1 << shift)
    kept: dict[int, Level] = {}

    def kept_bytes() -> int:
        return held() + sum(level.nbytes for level in kept.values())

    by_dict = parallel is None and top > last  # in this process: the last level built here, as a dict
    stop = last + 1 if by_dict else last
    # on a pool the shards sum the two halves where they lie (pyapp.exact.pairs), unless a checkpoint keeps levels
    pairing = Pairing(m, low, joint=(s.wide_codec.group, lane, shift)) \
        if parallel is not None and parallel.checkpoint is None and top >= m else None
    gen = sweeper(parallel)(cd, weighted, stop, weights=True, stage="backward", kept_bytes=kept_bytes,
                            max_bytes=budget.max_bytes, keep=lambda pegs: False,
                            **({"pairing": pairing} if pairing else {}))
    try:
        for item in gen:
            if isinstance(item, Level):
                state["positions"] += len(item)
                if item.pegs in (m, low, stop):
                    kept[item.pegs] = item
                if item.pegs == stop or not len(item):
                    break
                continue
            state["peak"] = max(state["peak"], item.bytes)
            item.total = state["positions"]
            stop_if_over(budget)
            yield item
        if stop not in kept or not len(kept[stop]) or (not by_dict and m not in kept):
            return None
        if pairing is not None:
            return pairing.total
        for level in kept.values():
            level.load()
    finally:
        gen.close()
    if by_dict:
        above = kept.pop(stop)
        table = yield from _last_level(cd, above, budget, state, kept_bytes)
        kept[stop] = above  # the forward classes when the number of holes is odd (m = last + 1)
    else:
        bottom = kept[low]
        assert bottom.weights is not None
        table = dict(zip(bottom.keys, bottom.weights))
    if not table:
        return None
    if m == last and by_dict:
        pairs, n = iter(table.items()), len(table)
    else:
        forward = kept[m]
        assert forward.weights is not None
        pairs, n = zip(forward.keys, forward.weights), len(forward)
    total = 0
    for lo in range(0, n, CHUNK):
        hi = min(n, lo + CHUNK)
        total += joint_sum(s, lane, shift, islice(pairs, CHUNK), table.get)
        stop_if_over(budget)
        yield Progress("combine", m, hi, n, 0, state["positions"], kept_bytes() + DICT_ENTRY_BYTES * len(table),
                       budget.elapsed())
    return total


def _last_level(cd: Codec, above: Level, budget: Budget, state: dict, kept_bytes
                ) -> Generator[Progress, None, dict[int, int]]:
    """The level below ``above`` as a dict of its classes' packed weights, built as :func:`pyapp.exact.sweep.sweep`
    builds a level (:func:`pyapp.exact.sweep.level_below_steps`: the same progress and memory ceiling; the budget
    checked after each chunk) but left unsorted."""
    steps = level_below_steps(cd, above, True, "backward", state["positions"], kept_bytes, budget.max_bytes,
                              budget.elapsed)
    try:
        while True:
            p = next(steps)
            state["peak"] = max(state["peak"], p.bytes)
            stop_if_over(budget)
            yield p
    except StopIteration as stop:
        acc: dict[int, int] = stop.value
    finally:
        steps.close()
    state["positions"] += len(acc)
    return acc


def joint_sum(s: Sides, lane: int, shift: int, pairs: Iterable[tuple[int, int]], get: Callable) -> int:
    """``sum T_f(C) * T_b(D) / |D|`` over the classes ``C`` of ``pairs`` (key and packed weight, ``T_f`` above
    ``shift`` bits) with a forward part, ``D`` the backward class of ``g^-1`` of the complement of ``C``'s
    representative, whose packed weight ``get`` gives: ``lane`` of ``s.wide_codec``'s packed images is the image
    under ``g^-1``, and the least image of a complement is the complement of the greatest image (generated
    code, :func:`_sum_source`)."""
    bcd = s.back_codec
    cache = bcd.__dict__.setdefault("_joint_sums", {})
    if lane not in cache:
        cache[lane] = bcd.compile_source(_sum_source(s, lane), "joint_sum", images=s.wide_codec.packed_key)
    return cache[lane](pairs, get, shift, (1 << shift) - 1)


def _sum_source(s: Sides, lane: int) -> str:
    bcd = s.back_codec
    n, m, count = bcd.holes, bcd.everything, len(bcd.group)
    lanes = [f"(x >> {n * g}) & {m}" if 0 < g < count - 1 else (f"x >> {n * g}" if g else f"x & {m}")
             for g in range(count)]
    return "\n".join([
        "def joint_sum(pairs, get, shift, below):",
        "    total = 0",
        "    for k, w in pairs:",
        "        forward = w >> shift",
        "        if not forward:",
        "            continue",
        f"        v = (images(k) >> {lane * s.wide_codec.holes}) & {m}",
        f"        x = {bcd.images_source('v')}",
        f"        b = get({least_tree([f'{m} ^ {x}' for x in lanes])})",
        "        if b is not None:",
        f"            ways, rest = divmod(b & below, len({{{', '.join(lanes)}}}))",
        "            if rest:  # pragma: no cover - a broken invariant, never silently wrong",
        "                raise ArithmeticError('class weights not divisible by the orbit size')",
        "            total += forward * ways",
        "    return total",
    ]) + "\n"
