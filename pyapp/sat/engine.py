"""The SAT engine: encode, run a SAT solver, decode and verify; answers like the search."""

from __future__ import annotations

import time

from ..problem import Problem, Result
from .decode import decode, verify
from .encode import DEFAULT_AMO, encode
from .solvers import default_solver, run_solver


def solve_sat(problem: Problem, *, solver: str | None = None, amo: str = DEFAULT_AMO,
              max_seconds: float | None = None, precheck: bool = True) -> Result:
    """Answer ``problem`` with a SAT solver (``solved``/``impossible``/``unknown``, as the search).

    ``nodes`` counts the solver's conflicts (0 for pycosat, which reports none).  For the
    ``min`` goal the number of pegs left is tried 1, 2, ... and the first satisfiable
    count is the minimum.  ``precheck`` applies the position-class test first.
    """
    t0 = time.perf_counter()
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
        left = None if max_seconds is None else max(max_seconds - (time.perf_counter() - t0), 0.001)
        ans = run_solver(enc.num_vars, enc.clauses, solver=name, max_seconds=left)
        conflicts += ans.conflicts
        if ans.status == "sat":
            jumps = decode(enc, ans.model or [])
            final = verify(enc, jumps)
            return Result("solved", None, jumps, final, conflicts, 0, time.perf_counter() - t0, method)
        if ans.status == "unknown":
            return Result("unknown", f"budget spent: SAT solver {ans.solver} stopped after {ans.seconds:.1f} s",
                          [], start, conflicts, 0, time.perf_counter() - t0, method)
        if goal.definite:
            return Result("impossible", f"SAT solver {ans.solver} proved that no {enc.steps}-jump solution exists "
                          f"({enc.num_vars} variables, {len(enc.clauses)} clauses)",
                          [], start, conflicts, 0, time.perf_counter() - t0, method)
    return Result("impossible", "no jump sequence at all", [], start, conflicts, 0, time.perf_counter() - t0, method)
