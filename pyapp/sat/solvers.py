"""Adapters to the optional SAT packages: python-sat (pysat) and pycosat.

Neither is needed by the app (the browser only exports CNF); they are imported lazily, so
this module imports fine under Pyodide.  A :class:`~pyapp.core.budget.Budget` (seconds, nodes =
conflicts, cancel) is honoured without threads: pysat solvers run in slices of a conflict
budget (learnt clauses are kept between slices) and the budget is checked between slices;
pycosat, which keeps nothing between calls, is restarted with a doubling propagation limit,
capped by what the remaining time allows at the rate last seen.  The memory ceiling cannot be
enforced inside a compiled solver: it is not applied here.
"""

from __future__ import annotations

import importlib.util
import time
from dataclasses import dataclass
from typing import Literal

from ..core.budget import Budget, budget_of
from ..core.errors import PegError

PYSAT_PREFERENCE = ("cadical153", "cadical195", "glucose4", "minisat22")
"""pysat back-ends tried in order when no solver is named (CaDiCaL 1.5.3 first: fastest on the central game)."""


class SatUnavailableError(PegError):
    """No SAT package is installed, or the named solver is not available."""


@dataclass(frozen=True)
class SatAnswer:
    """What a SAT solver said about a CNF."""

    status: Literal["sat", "unsat", "unknown"]
    model: list[int] | None
    solver: str
    seconds: float
    conflicts: int = 0
    """Conflicts the solver reported (0 when it reports none, as pycosat)."""


def _has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def available_solvers() -> list[str]:
    """Names accepted by :func:`run_solver`, best first: pysat back-ends, then ``pycosat``."""
    names = []
    if _has("pysat"):
        try:
            from pysat.solvers import SolverNames
        except ImportError:
            SolverNames = None  # noqa: N806
        if SolverNames is not None:
            names += [n for n in PYSAT_PREFERENCE if hasattr(SolverNames, n)]
    if _has("pycosat"):
        names.append("pycosat")
    return names


def default_solver() -> str:
    """The solver used when none is named; a clear error when no SAT package is installed."""
    names = available_solvers()
    if not names:
        raise SatUnavailableError("no SAT solver installed: the SAT engine needs the optional package "
                                  "'pycosat' or 'python-sat' (pip install pycosat)")
    return names[0]


def run_solver(num_vars: int, clauses: list[list[int]], *, solver: str | None = None,
               budget: Budget | None = None, max_seconds: float | None = None) -> SatAnswer:
    """Solve a CNF with ``solver`` (a name from :func:`available_solvers`; default: the first),
    within ``budget`` (or ``max_seconds``; neither: run to the end).  Conflicts are spent as the
    budget's nodes, so a node budget stops pysat solvers after about that many conflicts."""
    name = (solver or default_solver()).lower().removeprefix("pysat:")
    if name not in available_solvers():
        have = ", ".join(available_solvers()) or "none"
        raise SatUnavailableError(f"SAT solver {name!r} is not available (installed: {have})")
    t0 = time.perf_counter()
    if any(not c for c in clauses):  # an empty clause: unsatisfiable, and pycosat rejects it
        return SatAnswer("unsat", None, name, time.perf_counter() - t0)
    b = None if budget is None and max_seconds is None else budget_of(budget, max_seconds)
    if name == "pycosat":
        if b is not None and b.max_nodes is not None:
            raise PegError("pycosat reports no conflicts, so a node budget cannot stop it: "
                           "give it a time budget (--max-seconds) or use a python-sat solver")
        return _pycosat(num_vars, clauses, b, t0)
    return _pysat(name, clauses, b, t0)


def _pycosat(num_vars: int, clauses: list[list[int]], budget: Budget | None, t0: float) -> SatAnswer:
    import pycosat

    if budget is None:
        out = pycosat.solve(clauses, vars=num_vars)
        return _pycosat_answer(out, time.perf_counter() - t0)
    limit = 250_000
    while True:
        t1 = time.perf_counter()
        out = pycosat.solve(clauses, vars=num_vars, prop_limit=limit)
        now = time.perf_counter()
        if out != "UNKNOWN":
            return _pycosat_answer(out, now - t0)
        if budget.over():
            return SatAnswer("unknown", None, "pycosat", now - t0)
        remaining = budget.remaining_seconds()
        if remaining is None:
            limit *= 2
            continue
        # double the limit, but no further than the remaining time allows at the rate just seen
        rate = limit / max(now - t1, 1e-6)
        limit = max(10_000, min(2 * limit, int(rate * remaining)))


def _pycosat_answer(out, seconds: float) -> SatAnswer:
    if out == "UNSAT":
        return SatAnswer("unsat", None, "pycosat", seconds)
    return SatAnswer("sat", list(out), "pycosat", seconds)


def _pysat(name: str, clauses: list[list[int]], budget: Budget | None, t0: float) -> SatAnswer:
    from pysat.solvers import Solver

    with Solver(name=name, bootstrap_with=clauses) as s:
        if budget is None:
            ok: bool | None = s.solve()
        else:
            ok = None
            seen = 0
            while ok is None and not budget.over():
                left = budget.remaining_nodes()
                s.conf_budget(20_000 if left is None else max(1, min(20_000, left)))
                ok = s.solve_limited()
                done = int((s.accum_stats() or {}).get("conflicts", 0))
                budget.spend(done - seen)
                seen = done
        stats = s.accum_stats() or {}
        model = s.get_model() if ok else None
    status: Literal["sat", "unsat", "unknown"] = "unknown" if ok is None else "sat" if ok else "unsat"
    return SatAnswer(status, model, name, time.perf_counter() - t0, int(stats.get("conflicts", 0)))
