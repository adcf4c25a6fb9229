"""What the exact analyses share: the symmetry group of a problem, its backward sources, limits.

The *backward* side of a problem is swept as a forward game on complements: a jump
``(a, b, c)`` (pegs at a and b, c empty) turns into its own undoing when every hole is
flipped, so the positions that can reach the goal are the complements of the positions
reachable from the complement of the goal, and the number of jump sequences from ``x`` to
the goal equals the number from ``complement(goal)`` to ``complement(x)``.  For a goal of
one peg anywhere the complement game starts from every board-minus-one-hole position.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.budget import Budget
from ..core.codec.compiled import Codec, codec
from ..core.errors import PegError
from ..core.goal import stabilizer
from ..core.problem import Problem


class Cancelled(Exception):
    """The caller cancelled the budget."""


class OutOfTime(Exception):
    """The caller's time (or node) budget ran out."""


def stop_if_over(budget: Budget, positions: int = 0) -> None:
    """Count ``positions`` as work done and raise :class:`Cancelled` / :class:`OutOfTime` when
    the caller's :class:`~pyapp.core.budget.Budget` says stop (checked between two chunks of a level)."""
    if positions:
        budget.spend(positions)
    if budget.cancelled:
        raise Cancelled("cancelled")
    if budget.over():
        spent = f"time budget of {budget.max_seconds:g} s" if budget.out_of_time() else "node budget"
        raise OutOfTime(f"{spent} spent")


@dataclass(frozen=True)
class Sides:
    """A problem prepared for sweeping from both ends."""

    problem: Problem
    codec: Codec
    """Forward codec: the symmetries fixing the start and the goal."""
    back_codec: Codec
    """Backward codec: the symmetries fixing the goal and the set of backward sources (for 'any', often
    the whole board group, so the backward sweep is several times smaller).  It contains the forward
    group, so a backward count is the same for every member of a forward class."""
    start: int
    backward: dict[int, int]
    """Complement-game sources (layout position -> weight 1)."""
    first_pegs: int
    """Pegs at the start."""
    last_pegs: int
    """Pegs at the goal."""
    holes: int
    wide_codec: Codec
    """Counting codec: every symmetry of the goal, whether or not it fixes the start (see
    :mod:`pyapp.exact.count`); on a start fixed by few symmetries (triangle7 vacancy 4: none
    but the identity) its forward sweep is up to the group's order smaller."""

    @property
    def complement_problem(self) -> bool:
        """True when the backward sweep is the forward one (the goal is the start's complement)."""
        return list(self.backward) == [self.start]

    def coset_lanes(self, fcd: Codec) -> list[int]:
        """Lanes of ``fcd`` (a forward codec) holding one symmetry of each coset ``H g`` of the backward
        group ``H``: the backward counts of ``g(x)`` and ``h(g(x))`` are equal, so one image per coset
        is enough to read how ``x`` (or any member of its class) reaches the goal."""
        board = self.problem.board
        holes = [1 << b for b in board.bits]

        def image(g: int, h: int) -> tuple[int, ...]:
            return tuple(board.transform(board.transform(p, g), h) for p in holes)

        seen: set[tuple[int, ...]] = set()
        lanes = []
        for lane, g in enumerate(fcd.group):
            if image(g, 0) not in seen:
                lanes.append(lane)
                seen.update(image(g, h) for h in self.back_codec.group)
        return lanes

    def meet(self) -> int:
        """The level where the two sweeps meet: as many levels on each side as possible."""
        return (self.first_pegs + self.last_pegs + 1) // 2


def sides(problem: Problem) -> Sides:
    """The symmetry group (symmetries fixing the start and the goal) and both ends of ``problem``."""
    board, goal, start = problem.board, problem.goal, problem.start
    if not goal.definite:
        raise PegError("exact analyses need a goal with a definite end (a hole, 'any' or a target), not 'min'")
    fixed = set(stabilizer(board, start)) & set(goal.symmetries(board))
    cd = codec(board, tuple(sorted(fixed)))
    mask = board.mask
    # the ends the start's position class allows (for 'any', only some of the one-peg positions)
    backward = {mask ^ end: 1 for end in goal.pagoda_targets(board, start)}
    ends = frozenset(backward)
    back_group = tuple(g for g in goal.symmetries(board)
                       if frozenset(board.transform(p, g) for p in ends) == ends)
    if not fixed <= set(back_group):  # pragma: no cover - a symmetry fixing the start keeps its class
        back_group = tuple(sorted(fixed))
    last = goal.final_pegs or 1
    wide = codec(board, tuple(sorted(set(goal.symmetries(board)) | fixed)))
    return Sides(problem, cd, codec(board, back_group), start, backward, start.bit_count(), last, len(board),
                 wide)
