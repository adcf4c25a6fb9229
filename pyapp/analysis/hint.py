"""Hints: from any position, which legal jumps keep the goal reachable.

Each legal jump is tried and the position after it is handed to the solver with a share
of the time budget: a jump is *good* when the goal is still reachable after it, *bad*
when the solver proves it is not, *unknown* when the share ran out.  For the 'min' goal
(as few pegs as possible) a jump is good when the fewest pegs reachable after it equals
the fewest reachable from the position itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..moves import Jump, apply_jump, legal_jumps
from ..problem import Problem
from ..solver import solve
from ._common import Deadline

DEFAULT_HINT_SECONDS = 10.0


@dataclass
class Hint:
    """Legal jumps sorted by whether the goal stays reachable after them."""

    good: list[Jump] = field(default_factory=list)
    bad: list[Jump] = field(default_factory=list)
    unknown: list[Jump] = field(default_factory=list)
    lines: dict[Jump, list[Jump]] = field(default_factory=dict)
    """For each good jump, a continuation that reaches the goal after it."""
    reasons: dict[Jump, str] = field(default_factory=dict)
    """For each bad or unknown jump, why."""
    best_pegs: int | None = None
    """For the 'min' goal: the fewest pegs reachable from the position (None if unproven)."""
    seconds: float = 0.0


def hint(problem: Problem, *, max_seconds: float | None = DEFAULT_HINT_SECONDS) -> Hint:
    """Sort the legal jumps from ``problem.start`` into good, bad and unknown for ``problem.goal``."""
    deadline = Deadline(max_seconds)
    board, start, goal = problem.board, problem.start, problem.goal
    out = Hint()
    jumps = legal_jumps(board, start)
    if goal.kind == "min" and jumps:
        whole = solve(problem, max_seconds=_share(deadline, len(jumps) + 1))
        if whole.status != "solved":
            out.unknown = list(jumps)
            out.reasons = {j: "the fewest pegs reachable from here is not known (budget spent)" for j in jumps}
            out.seconds = deadline.elapsed()
            return out
        out.best_pegs = whole.pegs_left
    for n, jump in enumerate(jumps):
        after = apply_jump(start, jump)
        result = solve(Problem(board, after, goal), max_seconds=_share(deadline, len(jumps) - n))
        if goal.kind == "min":
            if result.status == "solved":
                if result.pegs_left == out.best_pegs:
                    out.good.append(jump)
                    out.lines[jump] = list(result.jumps)
                else:
                    out.bad.append(jump)
                    out.reasons[jump] = f"leaves at best {result.pegs_left} pegs, not {out.best_pegs}"
            else:
                out.unknown.append(jump)
                out.reasons[jump] = result.reason or "budget spent"
        elif result.status == "solved":
            out.good.append(jump)
            out.lines[jump] = list(result.jumps)
        elif result.status == "impossible":
            out.bad.append(jump)
            out.reasons[jump] = result.reason or "impossible"
        else:
            out.unknown.append(jump)
            out.reasons[jump] = result.reason or "budget spent"
    out.seconds = deadline.elapsed()
    return out


def _share(deadline: Deadline, parts: int) -> float | None:
    """An equal share of what is left of the budget (at least a few milliseconds)."""
    left = deadline.remaining()
    return None if left is None else max(left / max(parts, 1), 0.005)
