"""One bit for each key of a fixed set, in about 1.23 bits a key: a static function ("retrieval" structure).

Why: a game's winnable set from some level up is, on the big boards, tens of millions of positions (asymmetric
d5 -> d5 from 24 pegs up: 46 million of the 85 million the start reaches there), several times the 10 MB a
phone should download as sorted keys, and hundreds of MB once decoded.  But never-lose only ever asks about
positions reached in play, which are reachable from the game's start (:mod:`pyapp.analysis.neverlose_exact` already
relies on it).  So the set need not say *which* positions it holds, only, for each reachable position, whether it
can still win: one bit per reachable position, stored so that a key's bit is read without the keys themselves.

How (the construction of Botelho, Pagh and Ziviani, and of XOR filters, Graf and Lemire 2020): ``3 * block`` slots
of one bit, in three blocks; a key hashes to one slot in each block, and its bit is the XOR of its three slots.
Building: the keys form a 3-hypergraph on the slots; peel it (repeatedly take a slot that only one remaining key
uses: that key is removed and pushed), which succeeds with high probability when ``3 * block >= 1.23 * n``; then
assign the slots in the reverse order, each pushed key's own slot set so that its XOR comes out right (the slots
of keys pushed later were assigned first and never change again).  A seed that fails to peel is replaced by the
next one.  The hash is plain Python integer arithmetic, so CPython and Pyodide read the same bits.

A key outside the set gets an arbitrary bit: the caller must only ask about keys of the set (positions reachable
from the start, for a set of a game).
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core.errors import PegError

LOAD = 1.23
"""Slots per key: peeling a random 3-hypergraph succeeds with high probability above 1.222 (the threshold)."""
SLACK = 32
"""Slots added to every block, so small sets peel too."""
SEEDS = 64
"""Seeds tried before giving up (each fails with a probability well under a half above the threshold)."""

_M64 = (1 << 64) - 1
_M32 = (1 << 32) - 1
_C1, _C2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB  # splitmix64's finaliser
HEADER = struct.Struct("<QQQ")
"""What :meth:`BitRetrieval.to_bytes` writes before the bits: the number of keys, the seed, the block size."""


def _mix(x: int) -> int:
    x = (x ^ (x >> 30)) * _C1 & _M64
    x = (x ^ (x >> 27)) * _C2 & _M64
    return x ^ (x >> 31)


def slots(key: int, seed: int, block: int) -> tuple[int, int, int]:
    """The three slots of ``key``: one in each block (a 64-bit hash of the key and the seed, cut in two halves and
    mixed once more for the third).

    >>> slots(12345, 1, 100)
    (60, 168, 270)
    """
    h = _mix((key ^ (seed * 0x9E3779B97F4A7C15)) & _M64)
    g = _mix(h ^ seed)
    return (((h & _M32) * block) >> 32, block + (((h >> 32) * block) >> 32), 2 * block + (((g & _M32) * block) >> 32))


@dataclass(frozen=True)
class BitRetrieval:
    """A bit for each key of the set it was built for (:func:`build`); any bit for other keys."""

    size: int
    """Keys in the set."""
    seed: int
    block: int
    """Slots in each of the three blocks."""
    bits: bytes | memoryview
    """``3 * block`` bits, slot ``s`` at bit ``s % 8`` of byte ``s // 8`` (a view of a file's bytes, read in place,
    or bytes)."""

    def __post_init__(self) -> None:
        if len(self.bits) != (3 * self.block + 7) // 8:
            raise PegError(f"a bit retrieval of {self.block:,} slots a block needs {(3 * self.block + 7) // 8:,} "
                           f"bytes of bits, not {len(self.bits):,}")

    def get(self, key: int) -> int:
        """The bit of ``key`` (0 or 1)."""
        bits = self.bits
        a, b, c = slots(key, self.seed, self.block)
        return (bits[a >> 3] >> (a & 7) ^ bits[b >> 3] >> (b & 7) ^ bits[c >> 3] >> (c & 7)) & 1

    def to_bytes(self) -> bytes:
        """The header (:data:`HEADER`) and the bits: :func:`from_bytes` reads them back."""
        return HEADER.pack(self.size, self.seed, self.block) + bytes(self.bits)


def from_bytes(data: bytes | memoryview) -> BitRetrieval:
    """The structure :meth:`BitRetrieval.to_bytes` wrote (:class:`PegError` when the bytes do not hold one); from a
    memoryview, its bits are a view of the same memory (nothing copied)."""
    if len(data) < HEADER.size:
        raise PegError(f"a bit retrieval needs a {HEADER.size}-byte header, not {len(data)} bytes")
    size, seed, block = HEADER.unpack_from(data)
    return BitRetrieval(size, seed, block, data[HEADER.size:])


def build(keys: Sequence[int], bit: Callable[[int], int], first_seed: int = 1) -> BitRetrieval:
    """The structure giving ``bit(i)`` for ``keys[i]`` (the keys distinct), with the first seed from ``first_seed``
    on that peels; :class:`PegError` if none of :data:`SEEDS` does (repeated keys never peel)."""
    n = len(keys)
    block = int(n * LOAD / 3) + SLACK
    for seed in range(first_seed, first_seed + SEEDS):
        order = _peel(keys, seed, block)
        if order is not None:
            return BitRetrieval(n, seed, block, _assign(keys, bit, seed, block, order))
    raise PegError(f"no seed of {first_seed}..{first_seed + SEEDS - 1} peels these {n:,} keys: are they distinct?")


def _peel(keys: Sequence[int], seed: int, block: int) -> array | None:
    """The keys' indices in the order peeling removed them (each with the slot it alone held, interleaved:
    index, slot, index, slot...), or None when the hypergraph does not peel."""
    m = 3 * block
    count = array("I", bytes(4 * m))
    xor = array("Q", bytes(8 * m))  # the XOR of the indices of the keys on each slot: the last one left, when alone
    for i, key in enumerate(keys):
        for s in slots(key, seed, block):
            count[s] += 1
            xor[s] ^= i
    stack = [s for s in range(m) if count[s] == 1]
    order = array("Q")
    while stack:
        s = stack.pop()
        if count[s] != 1:
            continue
        i = xor[s]
        order.append(i)
        order.append(s)
        for t in slots(keys[i], seed, block):
            count[t] -= 1
            xor[t] ^= i
            if count[t] == 1:
                stack.append(t)
    return order if len(order) == 2 * len(keys) else None


def _assign(keys: Sequence[int], bit: Callable[[int], int], seed: int, block: int, order: array) -> bytes:
    bits = bytearray((3 * block + 7) // 8)
    for j in range(len(order) - 2, -1, -2):
        i, own = order[j], order[j + 1]
        a, b, c = slots(keys[i], seed, block)
        value = (bit(i) ^ bits[a >> 3] >> (a & 7) ^ bits[b >> 3] >> (b & 7) ^ bits[c >> 3] >> (c & 7)) & 1
        if value:  # the own slot is still 0, so the XOR above left it out; set it to make the key's XOR right
            bits[own >> 3] |= 1 << (own & 7)
    return bytes(bits)
