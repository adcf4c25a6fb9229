"""The SAT engine: encode, run a SAT solver, decode and verify; answers like the search."""

from __future__ import annotations

import time

from ..core.budget import Budget, budget_of
from ..core.problem import Problem, Result
from .decode import decode, verify
from .encode import DEFAULT_AMO, encode
from .solvers import default_solver, run_solver


def solve_sat(problem: Problem, *, solver: str | None = None, amo: str = DEFAULT_AMO,
              budget: Budget | None = None, max_seconds: float | None = None, precheck: bool = True) -> Result:
    """Answer ``problem`` with a SAT solver (``solved``/``impossible``/``unknown``, as the search).

    ``budget`` (or the older ``max_seconds``) bounds the whole call: its seconds, its nodes
    (counted as the solver's conflicts) and cancel, checked between the solver's slices.
    ``nodes`` counts the solver's conflicts (0 for pycosat, which reports none).  For the
    ``min`` goal the number of pegs left is tried 1, 2, ... and the first satisfiable
    count is the minimum.  ``precheck`` applies the position-class test first.
    """
    t0 = time.perf_counter()
    b = None if budget is None and max_seconds is None else budget_of(budget, max_seconds)
    name = solver or default_solver()
    start, goal = problem.start, problem.goal
    if goal.final_pegs is not None and start.bit_count() < goal.final_pegs:
        return Result("impossible", "the start has fewer pegs than the goal", final=start,
                      seconds=time.perf_counter() - t0, method="count")
    if precheck and (reason := goal.obstacle(problem.board, start)):
        return Result("impossible", reason, final=start, seconds=time.perf_counter() - t0, method="position class")
    method = f"SAT solver {name}"
    if not goal.definite and start == 0:
        return Result("solved", None, [], start, seconds=time.perf_counter() - t0, method="start")
    ends = [None] if goal.definite else list(range(1, start.bit_count() + 1))
    conflicts = 0
    for end in ends:
        enc = encode(problem, amo=amo, pegs_left=end)
        ans = run_solver(enc.num_vars, enc.clauses, solver=name, budget=b)
        conflicts += ans.conflicts
        if ans.status == "sat":
            jumps = decode(enc, ans.model or [])
            final = verify(enc, jumps)
            return Result("solved", None, jumps, final, conflicts, 0, time.perf_counter() - t0, method)
        if ans.status == "unknown":
            why = "budget spent" if b is None else b.why()
            return Result("unknown", f"{why}: SAT solver {ans.solver} stopped after {ans.seconds:.1f} s "
                          f"({conflicts} conflicts)",
                          [], start, conflicts, 0, time.perf_counter() - t0, method)
        if goal.definite:
            return Result("impossible", f"SAT solver {ans.solver} proved that no {enc.steps}-jump solution exists "
                          f"({enc.num_vars} variables, {len(enc.clauses)} clauses)",
                          [], start, conflicts, 0, time.perf_counter() - t0, method)
    return Result("impossible", "no jump sequence at all", [], start, conflicts, 0, time.perf_counter() - t0, method)
