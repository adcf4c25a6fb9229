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
from ..wording import plural
from ._common import Deadline, stabilizer

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
    if not goal.definite and jumps:
        whole = solve(problem, max_seconds=_share(deadline, len(jumps) + 1))
        if whole.status != "solved":
            out.unknown = list(jumps)
            out.reasons = {j: "the fewest pegs reachable from here is not known (budget spent)" for j in jumps}
            out.seconds = deadline.elapsed()
            return out
        out.best_pegs = whole.pegs_left
    classes = _classes(problem, jumps)
    for n, members in enumerate(classes):
        rep = members[0][0]
        after = apply_jump(start, rep)
        result = solve(Problem(board, after, goal), max_seconds=_share(deadline, len(classes) - n))
        for jump, perm in members:
            line = [(perm[a], perm[b], perm[c]) for a, b, c in result.jumps]
            _file(out, goal.definite, jump, result, line)
    order = {j: i for i, j in enumerate(jumps)}
    for bucket in (out.good, out.bad, out.unknown):
        bucket.sort(key=order.__getitem__)
    out.seconds = deadline.elapsed()
    return out


def _file(out: Hint, definite: bool, jump: Jump, result, line: list[Jump]) -> None:
    """Put ``jump`` in good, bad or unknown according to the solver's answer after it (for a goal
    without a definite end, good means as few pegs as from the position itself)."""
    if not definite:
        if result.status != "solved":
            out.unknown.append(jump)
            out.reasons[jump] = result.reason or "budget spent"
        elif result.pegs_left == out.best_pegs:
            out.good.append(jump)
            out.lines[jump] = line
        else:
            out.bad.append(jump)
            out.reasons[jump] = f"leaves at best {plural(result.pegs_left, 'peg')}, not {out.best_pegs}"
    elif result.status == "solved":
        out.good.append(jump)
        out.lines[jump] = line
    elif result.status == "impossible":
        out.bad.append(jump)
        out.reasons[jump] = result.reason or "impossible"
    else:
        out.unknown.append(jump)
        out.reasons[jump] = result.reason or "budget spent"


def _classes(problem: Problem, jumps: list[Jump]) -> list[list[tuple[Jump, dict[int, int]]]]:
    """Group jumps whose results are images of each other under a symmetry that fixes the position
    and the goal: they get the same answer, so only the first of each class is searched.  Each
    member comes with the bit permutation that maps the first one's continuation onto its own."""
    board, start, goal = problem.board, problem.start, problem.goal
    fixing_goal = set(goal.symmetries(board))
    group = [i for i in stabilizer(board, start) if i in fixing_goal]
    perms = {i: dict(zip(board.bits, board.symmetries[i])) for i in group}
    identity = {b: b for b in board.bits}
    classes: list[list[tuple[Jump, dict[int, int]]]] = []
    reps: list[int] = []
    for jump in jumps:
        after = apply_jump(start, jump)
        for members, rep in zip(classes, reps):
            g = next((i for i in group if board.transform(rep, i) == after), None)
            if g is not None:
                members.append((jump, perms[g]))
                break
        else:
            classes.append([(jump, identity)])
            reps.append(after)
    return classes


def _share(deadline: Deadline, parts: int) -> float | None:
    """An equal share of what is left of the budget (at least a few milliseconds)."""
    left = deadline.remaining()
    return None if left is None else max(left / max(parts, 1), 0.005)
