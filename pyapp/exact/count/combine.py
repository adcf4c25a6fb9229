"""The count's final sum over the middle level, for any range of it: in this process or in a worker.

With symmetry classes ``C`` of the middle level (see :mod:`.sweep`)::

    solutions = sum over C of T_forward(C) * T_backward(complement C) / |C|

read per forward class at one image per coset of the backward group (:meth:`Sides.coset_lanes`).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left

from ...core.codec.compiled import Codec


def combine_part(fcd: Codec, bcd: Codec, lanes: list[int], fkeys: array, fweights: array | list, bkeys: array,
                 bweights: array | list, lo: int, hi: int) -> int:
    """``sum T_f(C) * T_b(D) / |D|`` over the forward classes ``C`` of the middle level ``fkeys[lo:hi]``, ``D``
    the backward class of the complement of an image of ``C`` (``T_b(D) / |D|`` is the number of ways from
    any member of ``C`` to the goal; images outside the start's class have none, hence the max).  ``lanes``:
    the shifts of ``fcd``'s lanes holding one image per coset of the backward group (:meth:`Sides.coset_lanes`)."""
    packed_key, least_greatest, orbit = bcd.packed_key, bcd.least_greatest, bcd.orbit_size
    everything = bcd.everything
    images = fcd.packed_key
    nb = len(bkeys)
    total = 0
    for i in range(lo, hi):
        y = images(fkeys[i]) if len(lanes) > 1 else fkeys[i]
        best = 0
        for shift in lanes:
            x = packed_key((y >> shift) & everything)  # a forward image's backward images
            c = everything ^ least_greatest(x)[1]  # the backward canonical key of the complement
            j = bisect_left(bkeys, c)
            if j < nb and bkeys[j] == c:
                ways, rest = divmod(bweights[j], orbit(x))
                if rest:  # pragma: no cover - a broken invariant, never silently wrong
                    raise ArithmeticError("class weights not divisible by the orbit size")
                best = max(best, ways)
        total += fweights[i] * best
    return total
