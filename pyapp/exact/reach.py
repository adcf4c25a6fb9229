"""Exhaustive forward exploration: every position reachable from a start, layer by jump count.

Positions are stored in canonical form under the symmetries that fix the start (the set of
positions reachable from the start is invariant under them), so each layer is a set of
canonical ints.  A reachable position's history is recovered by walking backwards: a
position one layer up is a predecessor when undoing one jump gives a member of that layer.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

from ..core.board import Board
from ..core.budget import Budget, Progress, budget_of, drive
from ..core.codec.canonical import canonicalizer, orbit_size, stabilizer
from ..core.moves import Jump, jump_sources

DEFAULT_MAX_POSITIONS = 400_000
"""Where exploring every position stops paying: past about this many (a second or two of CPython),
asking the solver hole by hole is faster (English: 0.7 s against minutes), so the finishes analysis
switches over.  A choice of speed, not a memory cap: the memory ceiling lowers it further, and a
caller may raise it (``max_positions``)."""
POSITION_BYTES = 100
"""About what one stored position costs (an int in a set of a layer)."""


@dataclass
class Reachable:
    """Every position reachable from ``start``, by number of jumps made."""

    board: Board
    start: int
    group: tuple[int, ...]
    """Symmetries fixing the start; layers hold canonical forms under them."""
    layers: list[set[int]]

    @property
    def positions(self) -> int:
        """Number of canonical positions (each symmetry class counted once)."""
        return sum(len(layer) for layer in self.layers)

    def layer_sizes(self) -> list[int]:
        """Number of distinct reachable positions after 0, 1, 2, ... jumps (no symmetry reduction)."""
        return [sum(orbit_size(self.board, self.group, p) for p in layer) for layer in self.layers]

    def contains(self, pos: int) -> bool:
        k = self.start.bit_count() - pos.bit_count()
        if not 0 <= k < len(self.layers):
            return False
        return self._canon(pos) in self.layers[k]

    @property
    def _canon(self):
        return canonicalizer(self.board, self.group)

    def history(self, pos: int) -> list[Jump]:
        """A jump sequence from the start to ``pos`` (which must be reachable)."""
        canon = self._canon
        board = self.board
        path: list[Jump] = []
        k = self.start.bit_count() - pos.bit_count()
        while k > 0:
            previous = self.layers[k - 1]
            for a, b, c in board.lines:
                found = None
                for src, dst in ((a, c), (c, a)):
                    # undo src->dst over b: dst holds the peg, src and b are empty
                    if pos >> dst & 1 and not pos >> b & 1 and not pos >> src & 1:
                        before = pos | (1 << src) | (1 << b)
                        before &= ~(1 << dst)
                        if canon(before) in previous:
                            found = (src, b, dst), before
                            break
                if found:
                    path.append(found[0])
                    pos = found[1]
                    break
            else:  # pragma: no cover - the layers are closed under predecessors by construction
                raise ValueError("position is not reachable from the start")
            k -= 1
        path.reverse()
        return path


def explore_steps(board: Board, start: int, *, budget: Budget,
                  max_positions: int = DEFAULT_MAX_POSITIONS) -> Generator[Progress, None, Reachable | None]:
    """Every position reachable from ``start`` (a step generator: see :mod:`pyapp.core.budget`); ``None``
    when the budget or the position cap (lowered to the budget's memory ceiling) is hit.

    Counts one node per position expanded."""
    max_positions = budget.entries(max_positions, POSITION_BYTES)
    group = stabilizer(board, start)
    canon = canonicalizer(board, group)
    layers = [{canon(start)}]
    total = 1
    while True:
        nxt: set[int] = set()
        for n, pos in enumerate(layers[-1]):
            if n & 63 == 0:
                budget.spend(64 if n else 0)  # the 64 positions expanded since the last check
                if budget.over() or total + len(nxt) > max_positions:
                    return None
                if budget.report_due():
                    yield budget.progress(entries=total + len(nxt), depth=len(layers), note="exploring every position")
            for s, m in jump_sources(board, pos):
                while m:
                    low = m & -m
                    b = low.bit_length() - 1
                    nxt.add(canon(pos ^ (low | (1 << (b + s)) | (1 << (b + 2 * s)))))
                    m ^= low
        budget.spend(len(layers[-1]) - 64 * ((len(layers[-1]) - 1) // 64))  # the rest of the layer
        if not nxt:
            break
        total += len(nxt)
        # give up early when the next two layers, growing as the last one did, would pass the cap
        growth = len(nxt) / len(layers[-1])
        if total > max_positions or growth > 1 and total + len(nxt) * (growth + growth * growth) > max_positions:
            return None
        layers.append(nxt)
    return Reachable(board, start, group, layers)


def explore(board: Board, start: int, *, budget: Budget | None = None,
            max_positions: int = DEFAULT_MAX_POSITIONS) -> Reachable | None:
    """:func:`explore_steps` run to the end (no limit but the position cap unless ``budget`` says so)."""
    return drive(explore_steps(board, start, budget=budget_of(budget), max_positions=max_positions))
