"""Small helpers shared by the analyses: symmetry subgroups, canonical forms, jump tables.

Symmetry is only used where it is valid: a search keyed by canonical positions may merge
two positions only when some symmetry maps one onto the other *and* leaves the fixed
part of the question (the goal, or the start) unchanged: :meth:`pyapp.core.goal.Goal.symmetries`
or :func:`pyapp.core.goal.stabilizer` give that subgroup; :func:`canonicalizer` gives the
canonical form under it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from ..board import BOARD_CACHE_SIZE, Board
from ..goal import stabilizer
from ..moves import Jump

__all__ = ["canonicalizer", "corner_mask", "jump_bits", "jump_table", "orbit_size",
           "stabilizer"]


def canonicalizer(board: Board, group: tuple[int, ...]) -> Callable[[int], int]:
    """A function giving the least image of a position under the symmetries in ``group``."""
    if len(group) <= 1:
        return lambda pos: pos
    if len(group) == len(board.symmetries):
        return board.canonical
    transform = board.transform
    return lambda pos: min(transform(pos, i) for i in group)


def orbit_size(board: Board, group: tuple[int, ...], pos: int) -> int:
    """Number of distinct images of ``pos`` under ``group``."""
    return len({board.transform(pos, i) for i in group}) if len(group) > 1 else 1


@lru_cache(maxsize=BOARD_CACHE_SIZE)
def jump_table(board: Board) -> dict[int, tuple[tuple[int, int], ...]]:
    """For each hole bit, the ``(over, to)`` pairs of every jump that starts there."""
    table: dict[int, list[tuple[int, int]]] = {b: [] for b in board.bits}
    for a, b, c in board.lines:
        table[a].append((b, c))
        table[c].append((b, a))
    return {k: tuple(v) for k, v in table.items()}


@lru_cache(maxsize=BOARD_CACHE_SIZE)
def corner_mask(board: Board) -> int:
    """Holes that are never jumped over (not the middle of any line): a peg there must move to leave."""
    middles = 0
    for _, b, _ in board.lines:
        middles |= 1 << b
    return board.mask & ~middles


def jump_bits(jump: Jump) -> int:
    a, b, c = jump
    return (1 << a) | (1 << b) | (1 << c)
