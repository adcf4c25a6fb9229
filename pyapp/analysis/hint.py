"""Hints: from any position, which legal jumps keep the goal reachable.

Each legal jump is tried and the position after it is handed to the solver with a share
of the time budget: a jump is *good* when the goal is still reachable after it, *bad*
when the solver proves it is not, *unknown* when the share ran out.  For the 'min' goal
(as few pegs as possible) a jump is good when the fewest pegs reachable after it equals
the fewest reachable from the position itself.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import dataclass, field

from ..core.budget import CPU_CLOCK, Budget, Progress, budget_of, drive
from ..core.codec.canonical import stabilizer
from ..core.moves import Jump, apply_jump, legal_jumps
from ..core.problem import Problem
from ..core.wording import plural
from ..exact.endgame import endgame_steps, when_to_build
from ..exact.pool import Pool
from ..search.solver import search
from .proven import decide_steps

DEFAULT_HINT_SECONDS = 10.0


@dataclass
class Hint:
    """Legal jumps sorted by whether the goal stays reachable after them."""

    good: list[Jump] = field(default_factory=list)
    bad: list[Jump] = field(default_factory=list)
    unknown: list[Jump] = field(default_factory=list)
    lines: dict[Jump, list[Jump]] = field(default_factory=dict)
    """For each good jump, a continuation that reaches the goal after it (from a set held over the goal's endgame
    table, for the first good jump or none: :func:`~pyapp.analysis.neverlose_exact.exact_lines`)."""
    reasons: dict[Jump, str] = field(default_factory=dict)
    """For each bad or unknown jump, why."""
    best_pegs: int | None = None
    """For the 'min' goal: the fewest pegs reachable from the position (None if unproven)."""
    seconds: float = 0.0


def hint_steps(problem: Problem, budget: Budget, pool: Pool | None = None) -> Generator[Progress, None, Hint]:
    """:func:`hint` as a step generator (see :mod:`pyapp.core.budget`): yields progress, returns the Hint.

    Each class of symmetric jumps gets an equal share of what is left of ``budget``; once the
    budget is cancelled the jumps not yet searched are filed as unknown (``cancelled``).  With a
    ``pool`` (and a definite goal, and two classes or more) the classes are decided side by side on its
    workers (:func:`pyapp.analysis.spread.decide_jump`), each with the time one round of the pool leaves
    it: the same verdicts, sooner where cores are free (a worker's table of proved positions is its own).
    """
    board, start, goal = problem.board, problem.start, problem.goal
    out = Hint()
    jumps = legal_jumps(board, start)
    if when_to_build(problem) == "first":  # the jumps' positions answered by the goal's endgame table
        yield from endgame_steps(board, goal, start, budget)
    if not goal.definite and jumps:
        whole = yield from search(problem, budget=budget.share(len(jumps) + 1))
        if whole.status != "solved":
            why = budget.why() if budget.cancelled else "budget spent"
            out.unknown = list(jumps)
            out.reasons = {j: f"the fewest pegs reachable from here is not known ({why})" for j in jumps}
            out.seconds = budget.elapsed()
            return out
        out.best_pegs = whole.pegs_left
    classes = _classes(problem, jumps)
    if pool is not None and pool.workers > 1 and goal.definite and len(classes) > 1:
        yield from _pooled(problem, classes, budget, pool, out)
        classes = []
    for n, members in enumerate(classes):
        if budget.cancelled:
            for jump, _ in members:
                out.unknown.append(jump)
                out.reasons[jump] = "cancelled"
            continue
        after = apply_jump(start, members[0][0])
        result = yield from decide_steps(Problem(board, after, goal), budget.share(len(classes) - n))
        file_class(out, goal.definite, members, result)
        yield budget.progress(note=f"jump {n + 1} of {len(classes)} (up to symmetry)")
    order_as(out, jumps)
    out.seconds = budget.elapsed()
    return out


def spreads(problem: Problem) -> bool:
    """True when :func:`hint_steps` would use a pool for ``problem``: a definite goal and two classes of
    symmetric jumps or more (a caller starts a pool only then)."""
    return problem.goal.definite and len(_classes(problem, legal_jumps(problem.board, problem.start))) > 1


def _pooled(problem: Problem, classes: list[list[tuple[Jump, dict[int, int]]]], budget: Budget, pool: Pool,
            out: Hint) -> Generator[Progress, None, None]:
    """Decide one position per class of jumps on ``pool`` and file every member (see :func:`hint_steps`)."""
    from .spread import decide_jump, spread_steps
    board, start, goal = problem.board, problem.start, problem.goal
    rounds = -(-len(classes) // pool.workers)
    left, nodes = budget.remaining_seconds(), budget.remaining_nodes()
    deadline = None if left is None else time.time() + left
    cpu = budget.clock is CPU_CLOCK
    jobs = [(board, apply_jump(start, members[0][0]), goal, deadline, len(classes) - 1 - i, pool.workers,
             None if left is None else left / rounds, None if nodes is None else max(nodes // len(classes), 1),
             budget.max_bytes, cpu) for i, members in enumerate(classes)]
    results = yield from spread_steps(pool, decide_jump, jobs, budget, "jumps: ")
    for members, result in zip(classes, results):
        if result is not None:
            file_class(out, goal.definite, members, result)
            continue
        for jump, _ in members:
            out.unknown.append(jump)
            out.reasons[jump] = "cancelled"


def hint(problem: Problem, *, max_seconds: float | None = DEFAULT_HINT_SECONDS, budget: Budget | None = None) -> Hint:
    """Sort the legal jumps from ``problem.start`` into good, bad and unknown for ``problem.goal``
    (``budget``, or a budget of ``max_seconds``)."""
    return drive(hint_steps(problem, budget_of(budget, max_seconds)))


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
    perms = {i: board.permutation(i) for i in group}
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


def file_class(out: Hint, definite: bool, members: list[tuple[Jump, dict[int, int]]], result) -> None:
    """File every jump of a class of symmetric jumps by the answer found after its first one (:func:`_file`),
    each with the line mapped through the symmetry that takes the first jump to it."""
    for jump, perm in members:
        _file(out, definite, jump, result, [(perm[a], perm[b], perm[c]) for a, b, c in result.jumps])


def order_as(out: Hint, jumps: list[Jump]) -> None:
    """Sort good, bad and unknown in the order of ``jumps`` (the legal jumps), whatever order they were filed in."""
    order = {j: i for i, j in enumerate(jumps)}
    for bucket in (out.good, out.bad, out.unknown):
        bucket.sort(key=order.__getitem__)
