"""SAT vs search on classic problems: ``python -m pyapp.sat.compare [--runs N] [--max-seconds S]``.

Prints a Markdown table (the ``SAT vs search`` section of BENCHMARKS.md): for each problem
the CNF size, the encode time, the SAT solver's time and the search's time
(:func:`pyapp.solver.solve`), medians over ``--runs`` runs.  Every answer is checked:
a solved result must replay to the goal.

The English-board patterns are those of *Pegged* (Microsoft Entertainment Pack, Mike
Blaylock 1989-90; its starting layouts as read in the wxWidgets port
github.com/andyvand/wxpegged, ``ApplyPattern`` in ``wxpegged.cpp``), each to finish with
one peg in the centre d4, the traditional goal (Beasley, *The Ins and Outs of Peg
Solitaire*, 1985: the Latin cross, the first of the classic problems, ends at the centre).
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
from .encode import DEFAULT_AMO, encode
from .solvers import default_solver, run_solver

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
class Row:
    name: str
    pegs: int
    jumps: int
    variables: int
    clauses: int
    encode: float
    sat: float | None
    sat_status: str
    search: float | None
    search_status: str


def _check(problem: Problem, jumps) -> None:
    r = replay(problem.board, problem.start, [format_jump(problem.board, j) for j in jumps])
    if not r.valid or not problem.goal.reached(r.final):
        raise SystemExit(f"bad solution: {r.error or 'goal not reached'}")


def measure(name: str, problem: Problem, runs: int, max_seconds: float, solver: str, amo: str,
            search: bool = True) -> Row:
    """Median encode / SAT / search times of ``runs`` runs (a run over ``max_seconds`` stops the series)."""
    enc_t, sat_t, search_t = [], [], []
    sat_status = search_status = "-"
    enc = None
    for _ in range(runs):
        t0 = time.perf_counter()
        enc = encode(problem, amo=amo)
        enc_t.append(time.perf_counter() - t0)
        ans = run_solver(enc.num_vars, enc.clauses, solver=solver, max_seconds=max_seconds)
        sat_status = ans.status
        if ans.status != "sat":
            break
        sat_t.append(ans.seconds)
        from .decode import decode

        _check(problem, decode(enc, ans.model or []))
    if search:
        for _ in range(runs):
            res = solve(problem, max_seconds=max_seconds)
            search_status = res.status
            if res.status != "solved":
                break
            _check(problem, res.jumps)
            search_t.append(res.seconds)
    assert enc is not None
    return Row(name, problem.start.bit_count(), enc.steps, enc.num_vars, len(enc.clauses),
               statistics.median(enc_t), statistics.median(sat_t) if sat_t and sat_status == "sat" else None,
               sat_status, statistics.median(search_t) if search_t and search_status == "solved" else None,
               search_status)


def _fmt(seconds: float | None, status: str, limit: float) -> str:
    if seconds is None:
        return f"not solved in {limit:g} s ({status})" if status != "-" else "-"
    return f"{seconds:.3f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pyapp.sat.compare", description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs per problem (medians are reported)")
    ap.add_argument("--max-seconds", type=float, default=300.0, help="time limit per run and engine")
    ap.add_argument("--solver", default=None, help="SAT solver name (default: the best installed)")
    ap.add_argument("--amo", default=DEFAULT_AMO, help=f"at-most-one encoding (default {DEFAULT_AMO})")
    ap.add_argument("--only", nargs="*", help="problem names to run (default: all)")
    args = ap.parse_args(argv)
    solver = args.solver or default_solver()
    problems: list[tuple[str, Problem]] = [("triangle5 (1 -> any)", default_problem("triangle5"))]
    problems += [(f"english {n} -> d4", pattern_problem(n)) for n in PATTERNS]
    problems.append(("english central game (d4 -> d4)", default_problem("english")))
    if args.only:
        problems = [(n, p) for n, p in problems if any(o in n for o in args.only)]
    print(f"runtime: {platform.python_implementation()} {platform.python_version()}; SAT solver: {solver}; "
          f"at-most-one: {args.amo}; median of {args.runs} runs; limit {args.max_seconds:g} s per run", flush=True)
    print("| problem | pegs | jumps | variables | clauses | encode s | SAT s | search s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, problem in problems:
        row = measure(name, problem, args.runs, args.max_seconds, solver, args.amo)
        print(f"| {row.name} | {row.pegs} | {row.jumps} | {row.variables} | {row.clauses} | {row.encode:.4f} | "
              f"{_fmt(row.sat, row.sat_status, args.max_seconds)} | "
              f"{_fmt(row.search, row.search_status, args.max_seconds)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
