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

from array import array
from bisect import bisect_left
from collections.abc import Generator

from ...core.budget import Budget
from ..setup import Sides, stop_if_over
from ..sharded import Parallel, sweeper
from ..sweep import CHUNK, Level, Progress


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
    stored and the peak bytes, as in :func:`.sweep.count_steps`.  On ``parallel``'s pool the sweep is sharded
    and only the two meeting levels are gathered."""
    cd = s.back_codec
    m, low = meeting_levels(s)
    shift = packing_shift(s, s.holes - s.last_pegs - min(m, low))
    weighted = dict(s.backward)
    weighted[start] = weighted.get(start, 0) + (1 << shift)
    kept: dict[int, Level] = {}

    def kept_bytes() -> int:
        return held() + sum(level.nbytes for level in kept.values())

    # a sharded sweep leaves its levels in the shards (keep: never) and they are loaded here at the end, while
    # the sweep stands at its last level (the level above it can still be fetched then); in-process, the level
    # above is held while the last is built, and counts against the memory ceiling
    gen = sweeper(parallel)(cd, weighted, min(m, low), weights=True, stage="backward", kept_bytes=kept_bytes,
                            max_bytes=budget.max_bytes, keep=lambda pegs: False)
    try:
        for item in gen:
            if isinstance(item, Level):
                state["positions"] += len(item)
                if item.pegs in (m, low):
                    kept[item.pegs] = item
                if item.pegs == min(m, low) or not len(item):
                    break
                continue
            state["peak"] = max(state["peak"], item.bytes)
            item.total = state["positions"]
            stop_if_over(budget)
            yield item
        forward, backward = kept.get(m), kept.get(low)
        if forward is None or backward is None or not len(forward) or not len(backward):
            return None
        forward, backward = forward.load(), backward.load()
    finally:
        gen.close()
    assert forward.weights is not None and backward.weights is not None
    total = 0
    n = len(forward.keys)
    for lo in range(0, n, CHUNK):
        hi = min(n, lo + CHUNK)
        total += joint_sum(s, lane, shift, forward.keys, forward.weights, backward.keys, backward.weights, lo, hi)
        stop_if_over(budget)
        yield Progress("combine", m, hi, n, 0, state["positions"], kept_bytes(), budget.elapsed())
    return total


def joint_sum(s: Sides, lane: int, shift: int, fkeys: array, fweights: array | list, bkeys: array,
              bweights: array | list, lo: int, hi: int) -> int:
    """``sum T_f(C) * T_b(D) / |D|`` over the classes ``C`` = ``fkeys[lo:hi]`` with a forward part (packed
    weights, ``T_f`` above ``shift`` bits), ``D`` the backward class of ``g^-1`` of the complement of ``C``'s
    representative: the least image of a complement is the complement of the greatest image, and ``lane`` of
    ``s.wide_codec``'s packed images is the image under ``g^-1``."""
    wide, bcd = s.wide_codec, s.back_codec
    images, packed_key, least_greatest, orbit = wide.packed_key, bcd.packed_key, bcd.least_greatest, bcd.orbit_size
    everything, below, at = bcd.everything, (1 << shift) - 1, lane * wide.holes
    nb = len(bkeys)
    total = 0
    for i in range(lo, hi):
        forward = fweights[i] >> shift
        if not forward:
            continue
        x = packed_key((images(fkeys[i]) >> at) & everything)
        c = everything ^ least_greatest(x)[1]
        j = bisect_left(bkeys, c)
        if j < nb and bkeys[j] == c:
            ways, rest = divmod(bweights[j] & below, orbit(x))
            if rest:  # pragma: no cover - a broken invariant, never silently wrong
                raise ArithmeticError("class weights not divisible by the orbit size")
            total += forward * ways
    return total
