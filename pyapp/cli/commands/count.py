"""``count``: the exact number of jump sequences that solve a problem; ``--levels``: the level histogram.

Both run the exact level sweeps of :mod:`pyapp.exact` with no cap on positions: the caller's
budget (``--max-seconds``, ``--max-memory``) is the only limit, and progress goes to stderr
level by level.  The sweeps run sharded on every core by default (``--workers``, ``--cluster``,
``--checkpoint``: :mod:`._parallel`).
"""

from __future__ import annotations

from ...core.budget import drive
from ...core.wording import plural
from ...exact.count import sweep_steps as count_steps
from ...exact.levels import levels_steps
from ...exact.report import count_json, levels_json
from ._common import add_problem_args, add_time_budget, budget_from_args, problem_from_args
from ._parallel import add_parallel_args, close, parallel_from_args
from ._progress import StderrProgress


def register(sub) -> None:
    p = sub.add_parser("count", help="count the jump sequences that solve a problem (exact, level by level)")
    add_problem_args(p)
    p.add_argument("--levels", action="store_true",
                   help="instead: positions reachable and positions that can still win, per peg count")
    add_time_budget(p, 900.0)
    add_parallel_args(p)
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    problem = problem_from_args(args)
    budget = budget_from_args(args)
    par = parallel_from_args(args)
    try:
        if args.levels:
            return levels_json(problem, drive(levels_steps(problem, budget, par),
                                              StderrProgress("count --levels").level))
        return count_json(problem, drive(count_steps(problem, budget, parallel=par), StderrProgress("count").level))
    finally:
        close(par)


def text(r: dict) -> str:
    if "levels" in r:
        head = "" if r["status"] == "counted" else f"unknown: {r['reason']} (levels so far)\n"
        rows = [f"{'pegs':>5} {'reachable':>12} {'can win':>12}"]
        rows += [f"{row['pegs']:>5} {row['reachable']:>12,} {row['winnable']:>12,}" for row in r["levels"]]
        rows.append(f"{'total':>5} {r['reachable']:>12,} {r['winnable']:>12,}")
        group = plural(r["symmetries"], "symmetry", "symmetries")
        return f"{head}positions up to symmetry ({group}), goal {r['goal']}\n" + "\n".join(rows)
    if r["solutions"] is None:
        return f"unknown: {r['reason']}"
    why = f" ({r['reason']})" if r["reason"] else ""
    return (f"{r['solutions']:,} jump sequences solve it (goal {r['goal']}){why}\n"
            f"{r['positions']:,} positions (up to symmetry) in {r['seconds']:.3f} s")
