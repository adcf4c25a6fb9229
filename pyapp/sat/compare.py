"""SAT vs search on classic problems: ``python -m pyapp.sat.compare [--runs N] [--max-seconds S]``.

Prints a Markdown table (the ``SAT vs search`` section of BENCHMARKS.md): for each problem
the CNF size, the encode time, the SAT solver's time and the search's time
(:func:`pyapp.solver.solve`), medians over ``--runs`` runs.  Every answer is checked:
a solved result must replay to the goal.

The English-board patterns are those of *Pegged* (Microsoft Entertainment Pack, Mike
Blaylock 1989-90; its starting layouts as read in the wxWidgets port
github.com/andyvand/wxpegged, ``ApplyPattern`` in ``wxpegged.cpp``), each to finish with
one peg in the centre d4, the goal of the classic central game (every pattern is in d4's
position class, and both engines find such a finish).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from dataclasses import dataclass

from ..catalogue import get_board
from ..game import replay
from ..notation import format_jump
from ..problem import Goal, Problem, default_problem
from ..solver import solve
from .decode import decode
from .encode import DEFAULT_AMO, encode
from .solvers import available_solvers, default_solver, run_solver

PATTERNS: dict[str, tuple[str, ...]] = {
    "cross": ("d2", "c3", "d3", "e3", "d4", "d5"),
    "plus": ("d2", "d3", "b4", "c4", "d4", "e4", "f4", "d5", "d6"),
    "fireplace": ("c1", "d1", "e1", "c2", "d2", "e2", "c3", "d3", "e3", "c4", "e4"),
    "up-arrow": ("d1", "c2", "d2", "e2", "b3", "c3", "d3", "e3", "f3", "d4", "d5", "c6", "d6", "e6",
                 "c7", "d7", "e7"),
    "pyramid": ("d2", "c3", "d3", "e3", "b4", "c4", "d4", "e4", "f4", "a5", "b5", "c5", "d5", "e5", "f5", "g5"),
    "diamond": ("d1", "c2", "d2", "e2", "b3", "c3", "d3", "e3", "f3", "a4", "b4", "c4", "e4", "f4", "g4",
                "b5", "c5", "d5", "e5", "f5", "c6", "d6", "e6", "d7"),
}
"""Pegged's English-board patterns: the holes holding a peg at the start."""


def pattern_problem(name: str, goal: str = "d4") -> Problem:
    """An English-board pattern (see :data:`PATTERNS`) to finish with one peg at ``goal``."""
    board = get_board("english")
    start = 0
    for hole in PATTERNS[name]:
        start |= 1 << board.hole(hole)
    return Problem(board, start, Goal("hole", 1 << board.hole(goal)))


@dataclass
class Timing:
    """Medians of the wall-clock and CPU seconds of the solved runs (None when a run failed)."""

    status: str
    wall: float | None = None
    cpu: float | None = None

    def cell(self, limit: float) -> str:
        if self.wall is None or self.cpu is None:
            return f"not solved in {limit:g} s ({self.status})" if self.status != "-" else "-"
        return f"{self.wall:.3f} / {self.cpu:.3f}"


def _check(problem: Problem, jumps) -> None:
    r = replay(problem.board, problem.start, [format_jump(problem.board, j) for j in jumps])
    if not r.valid or not problem.goal.reached(r.final):
        raise SystemExit(f"bad solution: {r.error or 'goal not reached'}")


def _timing(status: str, ok: bool, walls: list[float], cpus: list[float]) -> Timing:
    if not ok or not walls:
        return Timing(status)
    return Timing(status, statistics.median(walls), statistics.median(cpus))


def time_sat(problem: Problem, runs: int, max_seconds: float, solver: str, amo: str) -> Timing:
    """Median SAT-solver time (encoding excluded) of ``runs`` runs; every model is decoded and replayed."""
    enc = encode(problem, amo=amo)
    walls, cpus = [], []
    status = "-"
    for _ in range(runs):
        c0 = time.process_time()
        ans = run_solver(enc.num_vars, enc.clauses, solver=solver, max_seconds=max_seconds)
        cpu = time.process_time() - c0
        status = ans.status
        if status != "sat":
            break
        _check(problem, decode(enc, ans.model or []))
        walls.append(ans.seconds)
        cpus.append(cpu)
    return _timing(status, status == "sat", walls, cpus)


def time_search(problem: Problem, runs: int, max_seconds: float) -> Timing:
    """Median time of :func:`pyapp.solver.solve` over ``runs`` runs; every solution is replayed."""
    walls, cpus = [], []
    status = "-"
    for _ in range(runs):
        c0 = time.process_time()
        res = solve(problem, max_seconds=max_seconds)
        cpu = time.process_time() - c0
        status = res.status
        if status != "solved":
            break
        _check(problem, res.jumps)
        walls.append(res.seconds)
        cpus.append(cpu)
    return _timing(status, status == "solved", walls, cpus)


def time_encode(problem: Problem, runs: int, amo: str) -> tuple[int, int, int, float]:
    """``(jumps, variables, clauses, median encode seconds)``."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        enc = encode(problem, amo=amo)
        times.append(time.perf_counter() - t0)
    return enc.steps, enc.num_vars, len(enc.clauses), statistics.median(times)


def problems() -> list[tuple[str, Problem]]:
    """The compared problems: the 15-hole triangle, Pegged's patterns, the central game."""
    out: list[tuple[str, Problem]] = [("triangle5: vacancy 1 -> one peg", default_problem("triangle5"))]
    out += [(f"english {n} -> d4", pattern_problem(n)) for n in PATTERNS]
    out.append(("english central game d4 -> d4", default_problem("english")))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pyapp.sat.compare", description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs per problem and engine (medians are reported)")
    ap.add_argument("--max-seconds", type=float, default=300.0, help="time limit per run")
    ap.add_argument("--solvers", nargs="+", default=None,
                    help="SAT solvers, one column each (default: the best installed, plus pycosat if installed)")
    ap.add_argument("--amo", default=DEFAULT_AMO, help=f"at-most-one encoding (default {DEFAULT_AMO})")
    ap.add_argument("--only", nargs="*", help="run the problems whose name contains one of these words")
    ap.add_argument("--no-search", action="store_true", help="skip the search column")
    args = ap.parse_args(argv)
    solvers = args.solvers or list(dict.fromkeys([default_solver()] + [s for s in available_solvers()
                                                                         if s == "pycosat"]))
    todo = problems()
    if args.only:
        todo = [(n, p) for n, p in todo if any(o in n for o in args.only)]
    print(f"runtime: {platform.python_implementation()} {platform.python_version()}; at-most-one: {args.amo}; "
          f"median of {args.runs} runs, wall / CPU seconds; limit {args.max_seconds:g} s per run", flush=True)
    head = ["problem", "pegs", "jumps", "variables", "clauses", "encode s"]
    head += [f"SAT {s} s" for s in solvers] + ["search s"]
    print("| " + " | ".join(head) + " |")
    print("|---|" + "---:|" * (len(head) - 1))
    for name, problem in todo:
        jumps, nv, nc, enc_s = time_encode(problem, args.runs, args.amo)
        cells = [name, str(problem.start.bit_count()), str(jumps), str(nv), str(nc), f"{enc_s:.4f}"]
        for s in solvers:
            cells.append(time_sat(problem, args.runs, args.max_seconds, s, args.amo).cell(args.max_seconds))
        if args.no_search:
            cells.append("-")
        else:
            cells.append(time_search(problem, args.runs, args.max_seconds).cell(args.max_seconds))
        print("| " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
