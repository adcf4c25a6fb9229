"""Pagoda functions packed side by side in one integer, so the table's search tests all of them in four operations.

The goal's endgame table proves a position lost by searching every position it leads to (:mod:`.subtree`): on
French d2 -> d6, a position of 22 pegs that cannot reach the goal takes 150,000-400,000 classes.  Yet nearly every
such position, and most of the positions under it, is lost for a simple reason: some pagoda function (weights on
the holes that no jump can raise: :mod:`pyapp.proofs.pagoda`) is worth less on it than on the goal.  A library of
such pagodas learned for the goal (:mod:`pyapp.proofs.table_pagodas`) lets the search stop at such a position.

Checking a hundred pagodas one by one would cost more than the search saves, so they are packed: lane ``k`` (``L``
bits) of one Python integer holds pagoda ``k``'s value plus ``M_k`` per peg (``M_k`` the largest negative weight's
size, so every per-hole term is at least 0 and the lanes never borrow from each other).  A position's packed sum
``s`` is carried down the search (a jump adds one precomputed integer: :attr:`PackedPagodas.deltas`), and the
position is lost by some pagoda exactly when a lane of ``s`` is below that lane of :attr:`PackedPagodas.bounds`
for its number of pegs: ``((s | tops) - bounds[pegs]) & tops != tops``, the textbook SIMD-within-a-register
comparison (each lane's top bit, set beforehand, survives the subtraction exactly when the lane is not below).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.board import Board


@dataclass(frozen=True)
class PackedPagodas:
    """Pagodas ``(weights by bit, threshold)`` of one board packed in lanes (module docstring)."""

    count: int
    """How many pagodas are packed."""
    weights: dict[int, int]
    """The packed per-hole terms, by layout bit (lane ``k``: the hole's weight plus ``M_k``)."""
    tops: int
    """Every lane's top bit."""
    bounds: tuple[int, ...]
    """By number of pegs ``p``: lane ``k`` holds ``threshold_k + M_k * p`` (below it: lost)."""
    deltas: dict[str, list[int]]
    """Per direction ``i`` of the board (``G<i>``), by a jump's source bit + 1: what the jump adds to ``s``."""

    def sum(self, pos: int) -> int:
        """The packed sum ``s`` of ``pos`` (the search carries it down from there)."""
        return sum(w for bit, w in self.weights.items() if pos >> bit & 1)

    def proving(self, s: int, pegs: int) -> int:
        """The top bits of the lanes whose pagoda proves the position with packed sum ``s`` and ``pegs`` pegs lost."""
        return ~((s | self.tops) - self.bounds[pegs]) & self.tops

    def provers(self, s: int, pegs: int) -> list[int]:
        """The indices (in packing order) of the pagodas that prove the position with packed sum ``s`` and ``pegs``
        pegs lost: :meth:`proving`'s lanes by number (for ranking pagodas by what each proves)."""
        lane = (self.tops & -self.tops).bit_length()
        lanes, out = self.proving(s, pegs), []
        while lanes:
            top = lanes & -lanes
            lanes ^= top
            out.append(top.bit_length() // lane - 1)
        return out

    def lost(self, s: int, pegs: int) -> bool:
        """Whether some pagoda proves the position with packed sum ``s`` and ``pegs`` pegs lost."""
        return self.proving(s, pegs) != 0

    @property
    def lost_source(self) -> str:
        """:meth:`lost` as an expression of ``s`` and ``pegs`` for the compiled search (``TOPS``, ``BOUNDS``)."""
        return "((s | TOPS) - BOUNDS[pegs]) & TOPS != TOPS"


def pack(board: Board, pagodas: Sequence[tuple[dict[int, int], int]]) -> PackedPagodas:
    """Pack ``pagodas`` (each a pagoda's weights by layout bit and the value below which a position is lost)."""
    holes = len(board)
    shift = [max([0] + [-w for w in weights.values()]) for weights, _ in pagodas]
    widest = max([1] + [max(2 * m * holes, t + m * holes, sum(max(w, 0) for w in weights.values()) + m * holes)
                        for (weights, t), m in zip(pagodas, shift)])
    lane = widest.bit_length() + 1  # the top bit stays free: the sums and bounds stay under it
    tops = sum(1 << (lane * k + lane - 1) for k in range(len(pagodas)))
    packed = {bit: sum((weights.get(bit, 0) + m) << (lane * k) for k, ((weights, _), m) in
                       enumerate(zip(pagodas, shift))) for bit in board.bits}
    bounds = tuple(sum(max(0, t + m * pegs) << (lane * k) for k, ((_, t), m) in enumerate(zip(pagodas, shift)))
                   for pegs in range(holes + 1))
    deltas: dict[str, list[int]] = {}
    size = max(board.bits) + 2
    for i, d in enumerate(board.directions):
        table = [0] * size
        for bit in board.bits:
            if d.src >> bit & 1:  # a peg at bit jumps over bit + shift into bit + 2 * shift
                table[bit + 1] = packed[bit + 2 * d.shift] - packed[bit] - packed[bit + d.shift]
        deltas[f"G{i}"] = table
    return PackedPagodas(len(pagodas), packed, tops, bounds, deltas)
