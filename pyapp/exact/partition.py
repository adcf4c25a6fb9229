"""Which shard owns a canonical key: the partition every level of a sharded sweep uses.

A child found in a shard other than its owner's is sent there, and a child whose parents lie in several
shards is found, sent and merged once in each: the partition decides how much a sharded level costs beyond
the unsharded one.  Two parts:

* **the parity of a symmetric set** (:func:`parity_mask`).  The number of pegs on a set of holes that every
  symmetry of the sweep's group maps onto itself (a union of orbits) is the same for every member of a class,
  so any key of the class gives it.  A jump changes its parity only when its line holds an odd number of the
  set's holes: on triangle7 the three corners, 6 of its 45 lines.  So most children share their parent's
  parity and stay in its shard.  The set is the one with the fewest such lines among single orbits and unions
  of two, of at least two holes, on :data:`MIX_SHARE` of the lines: a parity no jump changes would put a whole
  sweep in one shard, one that seldom changes splits the levels near the sources unevenly, and one that often
  changes keeps too few children home to pay.  Measured on the English count (2 workers): the centre alone (6
  of 38 lines) split the large levels 58:42; the four holes d1, a4, g4, d7 (8 of 38) split them evenly but
  sent as many keys as the hash alone (312 and 316 MB), so English keeps the hash;
* **a hash of the key's top bits** (:func:`shard_of`) splits each parity among ``S / 2`` shards (all ``S``
  when ``S`` is odd or the board has no such set): neighbouring values land in different shards.

Measured on triangle7's count (vacancy 4 -> one peg anywhere, 2 workers, run alternately): with the corners'
parity 414 MB sent between shards and 111.2 and 105.7 CPU s (57.7 and 54.4 s wall), against 449 MB and 120.1
and 119.2 CPU s (61.6 and 60.4 s) for the hash alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from itertools import combinations

from ..core.board import Board

MIX = 0x9E3779B97F4A7C15
"""Multiplier of the shard hash (Fibonacci hashing): neighbouring values of the top bits land in different shards."""
MASK64 = (1 << 64) - 1

OWNER_BITS = 13
"""Bits of a key (its last holes in reading order) the shard hash reads: fewer keep more children with their
parents but split a level less evenly.  English, 20 pegs, 2 shards, hash alone: 1.87 keys sent per child for
the whole key, 1.75 for the top 13 bits, the two shards' parents 8% apart (248,714 and 269,140)."""

MIX_SHARE = (0.1, 0.15)
"""The share of the board's lines that must change the parity of the symmetric set (see the module docstring):
at least enough that a sweep's levels a few jumps from its sources are already split about evenly, at most
what still keeps most children in their parent's shard."""


def shard_of(key: int, shards: int, shift: int = 0) -> int:
    """The hash part: ``(((key >> shift) * MIX) mod 2**64 >> 32) mod shards``; ``shift`` is the low bits the
    hash ignores (:func:`hash_shift`)."""
    return (((key >> shift) * MIX & MASK64) >> 32) % shards


def hash_shift(board: Board) -> int:
    """Low bits of a key the shard hash ignores: it reads the top :data:`OWNER_BITS`."""
    return max(0, len(board) - OWNER_BITS)


@cache
def parity_mask(board: Board, group: tuple[int, ...]) -> int:
    """The dense mask of the symmetric set whose peg parity splits the shards (0: none fits): a union of one
    or two orbits of ``group``, at least two holes, on the fewest lines holding an odd number of its holes
    within :data:`MIX_SHARE` of all lines; ties go to the larger set, then to the lower mask."""
    index = {bit: i for i, bit in enumerate(board.bits)}
    group = tuple(sorted(set(group) | {0}))
    orbits: list[int] = []
    seen = 0
    for i in range(len(board.bits)):
        if not seen >> i & 1:
            orbit = sum({1 << index[board.symmetries[g][i]] for g in group})
            orbits.append(orbit)
            seen |= orbit
    lines = [sum(1 << index[b] for b in line) for line in board.lines]
    least, most = max(1, math.ceil(len(lines) * MIX_SHARE[0])), int(len(lines) * MIX_SHARE[1])
    best: tuple[int, int, int] | None = None
    for k in (1, 2):
        for combo in combinations(orbits, k):
            mask = sum(combo)
            odd = sum(1 for line in lines if (line & mask).bit_count() % 2)
            if least <= odd <= most and mask.bit_count() >= 2:
                rank = (odd, -mask.bit_count(), mask)
                best = rank if best is None or rank < best else best
    return 0 if best is None else best[2]


def owner_source(board: Board, group: tuple[int, ...], shards: int, var: str) -> str:
    """Source of the owner shard of the canonical key in variable ``var`` (inlined in generated loops)."""
    if shards == 1:
        return "0"
    mask = parity_mask(board, group) if shards % 2 == 0 else 0
    if not mask:
        return _hash_source(board, var, shards)
    parity = f"(({var} & {mask}).bit_count() & 1)"
    return parity if shards == 2 else f"({parity} + 2 * {_hash_source(board, var, shards // 2)})"


def _hash_source(board: Board, var: str, modulo: int) -> str:
    """Source of :func:`shard_of` for the key in variable ``var``, modulo ``modulo``."""
    return f"(((({var} >> {hash_shift(board)}) * {MIX} & {MASK64}) >> 32) % {modulo})"


@cache
def owner_function(board: Board, group: tuple[int, ...], shards: int) -> Callable[[int], int]:
    """The owner shard of a canonical key, as :func:`owner_source` computes it inline."""
    return eval(f"lambda k: {owner_source(board, group, shards, 'k')}")  # noqa: S307 - our own source
