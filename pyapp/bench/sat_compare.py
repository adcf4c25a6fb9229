"""SAT vs search on classic problems: ``python -m pyapp.bench.sat_compare [--runs N] [--max-seconds S]``.

Prints a Markdown table (the ``SAT vs search`` section of BENCHMARKS.md): for each problem
the CNF size, the encode time, the SAT solver's time and the search's time
(:func:`pyapp.search.solver.solve`), medians over ``--runs`` runs.  Every answer is checked:
a solved result must replay to the goal.

The English-board patterns are those of *Pegged* (Microsoft Entertainment Pack, Mike
Blaylock 1989-90; its starting layouts as read in the wxWidgets port
github.com/andyvand/wxpegged, ``ApplyPattern`` in ``wxpegged.cpp``), each to finish with
one peg in the centre d4, the goal of the classic central game (every pattern is in d4's
position class, and both engines find such a finish).
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass

from ..core.catalogue import get_board
from ..core.game import replay
from ..core.notation import format_jump
from ..core.problem import Goal, Problem, default_problem
from ..sat.decode import decode
from ..sat.encode import DEFAULT_AMO, encode
from ..sat.solvers import available_solvers, default_solver, run_solver
from ..search.solver import solve

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
    """Medians over the runs of wall-clock and CPU seconds; a run over the limit counts as infinite."""

    status: str
    wall: float | None = None
    cpu: float | None = None
    cpu_range: tuple[float, float] | None = None
    solved: int = 0
    runs: int = 0

    def cell(self, limit: float) -> str:
        if self.runs == 0:
            return "-"
        if self.wall is None or self.cpu is None or self.cpu == math.inf:
            return f"not solved in {limit:g} s ({self.solved}/{self.runs} runs solved)"
        text = f"{self.wall:.3f} / {self.cpu:.3f}"
        if self.cpu_range and self.cpu_range[1] > 2 * self.cpu_range[0] + 0.01:
            high = "> limit" if self.cpu_range[1] == math.inf else f"{self.cpu_range[1]:.3f}"
            text += f" ({self.cpu_range[0]:.3f}-{high})"
        if self.solved < self.runs:
            text += f", {self.solved}/{self.runs} runs solved (limit {limit:g} s)"
        return text


def _check(problem: Problem, jumps) -> None:
    r = replay(problem.board, problem.start, [format_jump(problem.board, j) for j in jumps])
    if not r.valid or not problem.goal.reached(r.final):
        raise SystemExit(f"bad solution: {r.error or 'goal not reached'}")


def _timing(status: str, walls: list[float], cpus: list[float]) -> Timing:
    """Summary of runs; unsolved runs are recorded as ``math.inf``."""
    solved = sum(1 for c in cpus if c != math.inf)
    if not cpus:
        return Timing(status)
    return Timing(status, statistics.median(walls), statistics.median(cpus), (min(cpus), max(cpus)), solved, len(cpus))


def shuffled(clauses: list[list[int]], seed: int) -> list[list[int]]:
    """The same CNF with its clauses (and the literals in each) in a seeded random order (seed 0: as is).

    A CDCL solver is deterministic for one input, but its running time on these instances is
    heavy-tailed in the input order; the runs of a row use seeds 0, 1, ... so that the median
    describes the encoding rather than one lucky or unlucky order.
    """
    if seed == 0:
        return clauses
    rng = random.Random(seed)
    out = [rng.sample(c, len(c)) for c in clauses]
    rng.shuffle(out)
    return out


def time_sat(problem: Problem, runs: int, max_seconds: float, solver: str, amo: str) -> Timing:
    """Median SAT-solver time (encoding excluded) over ``runs`` clause orders; every model is replayed."""
    enc = encode(problem, amo=amo)
    walls, cpus = [], []
    status = "-"
    for run in range(runs):
        clauses = shuffled(enc.clauses, run)
        c0 = time.process_time()
        ans = run_solver(enc.num_vars, clauses, solver=solver, max_seconds=max_seconds)
        cpu = time.process_time() - c0
        status = ans.status
        if status == "sat":
            _check(problem, decode(enc, ans.model or []))
            walls.append(ans.seconds)
            cpus.append(cpu)
        elif status == "unknown":
            walls.append(math.inf)
            cpus.append(math.inf)
        else:
            raise SystemExit(f"SAT solver {solver} says {status} on a solvable problem")
    return _timing(status, walls, cpus)


def time_search(problem: Problem, runs: int, max_seconds: float) -> Timing:
    """Median time of :func:`pyapp.search.solver.solve` over ``runs`` runs; every solution is replayed."""
    walls, cpus = [], []
    status = "-"
    for _ in range(runs):
        c0 = time.process_time()
        res = solve(problem, max_seconds=max_seconds)
        cpu = time.process_time() - c0
        status = res.status
        if status == "solved":
            _check(problem, res.jumps)
            walls.append(res.seconds)
            cpus.append(cpu)
        elif status == "unknown":
            walls.append(math.inf)
            cpus.append(math.inf)
        else:
            raise SystemExit(f"the search says {status} on a solvable problem: {res.reason}")
    return _timing(status, walls, cpus)


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
    ap = argparse.ArgumentParser(prog="python -m pyapp.bench.sat_compare", description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs per problem and engine (medians are reported)")
    ap.add_argument("--max-seconds", type=float, default=300.0, help="time limit per run")
    ap.add_argument("--solvers", nargs="+", default=None,
                    help="SAT solvers, one column each (default: the best installed, plus pycosat if installed)")
    ap.add_argument("--amo", default=DEFAULT_AMO, help=f"at-most-one encoding (default {DEFAULT_AMO})")
    ap.add_argument("--only", nargs="*", help="run the problems whose name contains one of these words")
    ap.add_argument("--no-search", action="store_true", help="skip the search column")
    ap.add_argument("--no-sat", action="store_true", help="skip the SAT columns")
    args = ap.parse_args(argv)
    solvers: list[str] = []
    if not args.no_sat:
        default = [default_solver()] + [s for s in available_solvers() if s == "pycosat"]
        solvers = args.solvers or list(dict.fromkeys(default))
    todo = problems()
    if args.only:
        todo = [(n, p) for n, p in todo if any(o in n for o in args.only)]
    print(f"runtime: {platform.python_implementation()} {platform.python_version()}; at-most-one: {args.amo}; "
          f"median of {args.runs} runs (SAT: clause orders 0..{args.runs - 1}), wall / CPU seconds, "
          f"(CPU range) when wide; limit {args.max_seconds:g} s per run", flush=True)
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
