"""``hint``: the legal jumps from a position after which the goal is still reachable.

The jumps (one per class of symmetric jumps) are decided side by side on every core (``--workers``,
``--cluster``; :func:`pyapp.analysis.hint.hint_steps` with a pool); ``--workers 1`` decides them one after
the other in this process.  A position with one class of jumps starts no pool."""

from __future__ import annotations

from ...analysis.hint import hint_steps, spreads
from ...core.budget import drive
from ...core.notation import format_jump, format_moves
from ._common import add_problem_args, add_time_budget, budget_from_args, problem_from_args
from ._parallel import add_pool_args, pool_from_args, pool_workers
from ._progress import StderrProgress


def register(sub) -> None:
    p = sub.add_parser("hint", help="legal jumps that keep the goal reachable")
    add_problem_args(p)
    add_time_budget(p, 10.0)
    add_pool_args(p, "the jumps decided side by side on ")
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    problem = problem_from_args(args)
    board = problem.board
    local = pool_workers(args)  # refuses --workers with --cluster before any work
    budget = budget_from_args(args)
    progress = StderrProgress("hint", "node")
    pool = pool_from_args(args) if local != 1 and spreads(problem) else None
    if pool is None:
        h = drive(hint_steps(problem, budget), on_progress=progress.nodes)
    else:
        with pool:
            h = drive(hint_steps(problem, budget, pool), on_progress=progress.pool)
    return {
        "good": [format_jump(board, j) for j in h.good],
        "bad": [format_jump(board, j) for j in h.bad],
        "unknown": [format_jump(board, j) for j in h.unknown],
        "lines": {format_jump(board, j): format_moves(board, line) for j, line in h.lines.items()},
        "reasons": {format_jump(board, j): why for j, why in h.reasons.items()},
        "goal": problem.goal.text(problem.board),
        "seconds": round(h.seconds, 6),
    }


def text(r: dict) -> str:
    lines = [f"good: {' '.join(r['good']) or 'none'}", f"bad: {' '.join(r['bad']) or 'none'}"]
    if r["unknown"]:
        lines.append(f"unknown: {' '.join(r['unknown'])}")
    return "\n".join(lines)
