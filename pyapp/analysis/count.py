"""Counting solutions: the exact number of jump sequences that solve a problem.

``count(pos)`` is the number of jump sequences from ``pos`` that end at the goal; it is
1 at the goal, and otherwise the sum over the legal jumps of the count after the jump.
Memoised per position, and per symmetry class of positions under the symmetries that
leave the goal unchanged (the count is the same for two such positions), so the work is
the number of distinct reachable positions, not the (astronomical) number of sequences.
Python ints keep the totals exact however large they get.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..budget import Budget, BudgetSpent, budget_of
from ..errors import PegError
from ..moves import jump_sources
from ..problem import Problem
from ._common import canonicalizer


class CountBudgetError(RuntimeError):
    """The time budget ran out before the count was complete."""


@dataclass
class Count:
    """A count with its statistics: ``solutions`` is None when the budget ran out."""

    solutions: int | None
    positions: int
    seconds: float
    reason: str | None = None


DEFAULT_MAX_POSITIONS = 1_000_000
POSITION_BYTES = 150
"""About what one memoised position costs (an int key and an int count in a dict, and the shortcut)."""


def count(problem: Problem, *, max_seconds: float | None = None, max_positions: int = DEFAULT_MAX_POSITIONS,
          budget: Budget | None = None, on_progress: Callable[[int, float], object] | None = None) -> Count:
    """Count the jump sequences that solve ``problem`` (goal: a hole, 'any' or a target).

    The memo holds at most ``max_positions`` entries (fewer under the budget's memory ceiling);
    past that, or past the budget (``budget``, or one of ``max_seconds``; one node per position
    expanded), the answer is ``solutions=None`` with the reason.  The count is one recursive
    call, not a step generator: it checks the budget (and a cancel) every 1024 positions, and
    then calls ``on_progress`` with the positions counted so far and the seconds spent.
    """
    board, goal, start = problem.board, problem.goal, problem.start
    if not goal.definite:
        raise PegError("counting needs a goal with a definite end (a hole, 'any' or a target), not 'min'")
    budget = budget_of(budget, max_seconds)
    max_positions = budget.cap(max_positions, POSITION_BYTES)
    final = goal.final_pegs or 1
    obstacle = goal.obstacle(board, start)
    if start.bit_count() < final or obstacle:
        return Count(0, 0, budget.elapsed(), obstacle or "the start has fewer pegs than the goal")
    canon = canonicalizer(board, goal.symmetries(board))
    memo: dict[int, int] = {}
    seen: dict[int, int] = {}
    reached = goal.reached
    ticks = [0]

    def ways(pos: int) -> int:
        if pos.bit_count() == final:
            return 1 if reached(pos) else 0
        got = seen.get(pos)  # the exact position again: no canonical form needed
        if got is not None:
            return got
        key = canon(pos)
        got = memo.get(key)
        if got is not None:
            seen[pos] = got
            return got
        ticks[0] += 1
        if ticks[0] & 1023 == 0:
            budget.spend(1024)
            budget.check()
            if on_progress is not None:
                on_progress(len(memo), budget.elapsed())
            if len(memo) > max_positions:
                raise BudgetSpent
            if len(seen) > 2 * max_positions:
                seen.clear()  # only a shortcut: the canonical memo keeps every answer
        total = 0
        for s, m in jump_sources(board, pos):
            while m:
                low = m & -m
                b = low.bit_length() - 1
                total += ways(pos ^ (low | (1 << (b + s)) | (1 << (b + 2 * s))))
                m ^= low
        memo[key] = seen[pos] = total
        return total

    try:
        n = ways(start)
    except BudgetSpent:
        why = "position cap reached" if len(memo) > max_positions else budget.why()
        return Count(None, len(memo), budget.elapsed(), f"{why} after {len(memo)} positions")
    return Count(n, len(memo), budget.elapsed())


def count_solutions(problem: Problem, *, max_seconds: float | None = None,
                    max_positions: int = DEFAULT_MAX_POSITIONS, budget: Budget | None = None) -> int:
    """The exact number of jump sequences solving ``problem``; raises CountBudgetError past the budget."""
    result = count(problem, max_seconds=max_seconds, max_positions=max_positions, budget=budget)
    if result.solutions is None:
        raise CountBudgetError(result.reason)
    return result.solutions
