"""Counting solutions: the exact number of jump sequences that solve a problem.

``count(pos)`` is the number of jump sequences from ``pos`` that end at the goal; it is
1 at the goal, and otherwise the sum over the legal jumps of the count after the jump.
Memoised per position, and per symmetry class of positions under the symmetries that
leave the goal unchanged (the count is the same for two such positions), so the work is
the number of distinct reachable positions, not the (astronomical) number of sequences.
Python ints keep the totals exact however large they get.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass

from ...core.budget import Budget, Progress, budget_of, drive
from ...core.codec.canonical import canonicalizer
from ...core.errors import PegError
from ...core.moves import jump_sources
from ...core.problem import Problem


class CountBudgetError(RuntimeError):
    """The time budget ran out before the count was complete."""


@dataclass
class Count:
    """A count with its statistics: ``solutions`` is None when the budget ran out."""

    solutions: int | None
    positions: int
    seconds: float
    reason: str | None = None


POSITION_BYTES = 150
"""About what one memoised position costs (an int key and an int count in a dict, and the shortcut)."""


def count(problem: Problem, *, max_seconds: float | None = None, max_positions: int | None = None,
          budget: Budget | None = None, on_progress: Callable[[int, float], object] | None = None) -> Count:
    """Count the jump sequences that solve ``problem`` (goal: a hole, 'any' or a target).

    The memo holds what fits in the memory ceiling (the budget's, else
    :data:`~pyapp.core.budget.DEFAULT_MAX_BYTES`) at :data:`POSITION_BYTES` an entry, or
    ``max_positions`` entries if fewer; past that, or past the budget (``budget``, or one of
    ``max_seconds``; one node per position expanded), the answer is ``solutions=None`` with the
    reason.  ``on_progress`` is called now and then with the positions counted so far and the
    seconds spent.
    """
    relay = None if on_progress is None else (lambda p: on_progress(p.entries, p.seconds))
    return drive(count_steps(problem, budget=budget_of(budget, max_seconds), max_positions=max_positions), relay)


def count_steps(problem: Problem, *, budget: Budget,
                max_positions: int | None = None) -> Generator[Progress, None, Count]:
    """:func:`count` as a step generator (see :mod:`pyapp.core.budget`): a depth-first walk with an
    explicit stack (no recursion), checking the budget every 16 new positions."""
    board, goal, start = problem.board, problem.goal, problem.start
    if not goal.definite:
        raise PegError("counting needs a goal with a definite end (a hole, 'any' or a target), not 'min'")
    max_positions = budget.entries(max_positions, POSITION_BYTES)
    final = goal.final_pegs or 1
    obstacle = goal.obstacle(board, start)
    if start.bit_count() < final or obstacle:
        return Count(0, 0, budget.elapsed(), obstacle or "the start has fewer pegs than the goal")
    canon = canonicalizer(board, goal.symmetries(board))
    memo: dict[int, int] = {}
    seen: dict[int, int] = {}
    reached = goal.reached

    def lookup(pos: int) -> tuple[int | None, int]:
        """``(count, canonical key)``: the count when already known (the key is then unused)."""
        if pos.bit_count() == final:
            return (1 if reached(pos) else 0), 0
        got = seen.get(pos)  # the exact position again: no canonical form needed
        if got is not None:
            return got, 0
        key = canon(pos)
        got = memo.get(key)
        if got is not None:
            seen[pos] = got
        return got, key

    def children(pos: int) -> list[int]:
        out = []
        for s, m in jump_sources(board, pos):
            while m:
                low = m & -m
                b = low.bit_length() - 1
                out.append(pos ^ (low | (1 << (b + s)) | (1 << (b + 2 * s))))
                m ^= low
        return out

    known, key = lookup(start)
    if known is not None:
        return Count(known, 0, budget.elapsed())
    # frames: [position, canonical key, children, next child, total so far]
    stack: list[list] = [[start, key, children(start), 0, 0]]
    ticks = 1
    total = 0
    while stack:
        frame = stack[-1]
        i = frame[3]
        if i == len(frame[2]):
            stack.pop()
            total = frame[4]
            memo[frame[1]] = seen[frame[0]] = total
            if stack:
                stack[-1][4] += total
            continue
        frame[3] = i + 1
        child = frame[2][i]
        got, key = lookup(child)
        if got is not None:
            frame[4] += got
            continue
        ticks += 1
        if ticks & 15 == 0:  # a new position costs up to 1.5 ms on a 400-hole board in Pyodide
            budget.spend(16)
            if budget.report_due():
                yield budget.progress(entries=len(memo), depth=len(stack), note="counting")
            # checked after the pause too: a cancel sent while paused stops the count at once
            if budget.over() or len(memo) > max_positions:
                why = budget.why() if budget.over() else budget.full(max_positions, POSITION_BYTES)
                return Count(None, len(memo), budget.elapsed(), f"{why} after {len(memo)} positions")
            if len(seen) > max_positions:
                seen.clear()  # only a shortcut: the canonical memo keeps every answer
        stack.append([child, key, children(child), 0, 0])
    return Count(total, len(memo), budget.elapsed())


def count_solutions(problem: Problem, *, max_seconds: float | None = None,
                    max_positions: int | None = None, budget: Budget | None = None) -> int:
    """The exact number of jump sequences solving ``problem``; raises CountBudgetError past the budget."""
    result = count(problem, max_seconds=max_seconds, max_positions=max_positions, budget=budget)
    if result.solutions is None:
        raise CountBudgetError(result.reason)
    return result.solutions
