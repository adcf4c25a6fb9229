"""``finishes``: every hole where one peg can remain from a start, and why not elsewhere.

When the solver method runs (the start's reachable positions are too many to explore), its holes are
spread over every core (``--workers``, ``--cluster``) in whole symmetry classes, one share per worker,
one progress line for the pool: :mod:`pyapp.analysis.spread`.  The exhaustive method (small boards) runs
in this process first, whatever the options, and answers every hole with one sweep, so no pool is started
for it.  ``--workers 1`` runs everything in this process, one hole class after the other.
"""

from __future__ import annotations

from ...analysis import spread
from ...analysis.finishes import Finishes, exhaustive_steps, finishes_steps, merge, split_holes
from ...core.board import Board
from ...core.budget import Budget, drive
from ...core.notation import format_moves
from ._common import add_problem_args, add_time_budget, budget_from_args, problem_from_args
from ._parallel import add_pool_args, pool_from_args, pool_workers
from ._progress import StderrProgress


def register(sub) -> None:
    p = sub.add_parser("finishes", help="holes where a single survivor is possible from a start")
    add_problem_args(p, goal=False, target=False)
    add_time_budget(p, 60.0)
    add_pool_args(p, "with the solver method: the holes on ")
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    problem = problem_from_args(args)
    board = problem.board
    local = pool_workers(args)  # refuses --workers with --cluster before any work
    budget = budget_from_args(args)
    progress = StderrProgress("finishes", "node")
    if local == 1:
        f = drive(finishes_steps(board, problem.start, budget=budget), on_progress=progress.nodes)
    else:
        found = drive(exhaustive_steps(board, problem.start, budget=budget), on_progress=progress.nodes)
        f = found if found is not None else _spread(args, board, problem.start, budget, progress)
    order = {bit: i for i, bit in enumerate(board.bits)}

    def names(holes):
        return [board.name_of[h] for h in sorted(holes, key=order.__getitem__)]

    return {
        "finishes": names(f.possible),
        "impossible": {board.name_of[h]: f.impossible[h] for h in sorted(f.impossible, key=order.__getitem__)},
        "unknown": {board.name_of[h]: f.unknown[h] for h in sorted(f.unknown, key=order.__getitem__)},
        "solutions": {board.name_of[h]: format_moves(board, f.possible[h]) for h in sorted(f.possible,
                                                                                            key=order.__getitem__)},
        "method": f.method,
        "positions": f.positions,
        "seconds": round(f.seconds, 6),
    }


def _spread(args, board: Board, start: int, budget: Budget, progress: StderrProgress) -> Finishes:
    """The solver method on the pool: one share of whole hole classes per worker, merged as one answer
    (a hole no share answered, the budget cancelled, is unknown)."""
    pool = pool_from_args(args)
    assert pool is not None  # run() comes here for more than one worker or a cluster only
    with pool:
        shares = split_holes(board, start, pool.workers)
        jobs = spread.finishes_jobs(board, start, shares, budget)
        parts = drive(spread.spread_steps(pool, spread.finishes_share, jobs, budget, "hole shares: "),
                      on_progress=progress.pool)
    f = merge(board, [p for p in parts if p is not None])
    f.method = "solver"
    for hole in board.bits:
        if hole not in f.possible and hole not in f.impossible and hole not in f.unknown:
            f.unknown[hole] = "cancelled"
    f.seconds = budget.elapsed()
    return f


def text(r: dict) -> str:
    lines = [f"one peg can finish at: {' '.join(r['finishes']) or 'nowhere'}"]
    for hole, moves in r["solutions"].items():
        lines.append(f"  {hole}: {' '.join(moves)}")
    reasons: dict[str, list[str]] = {}
    for hole, why in r["impossible"].items():
        reasons.setdefault(why, []).append(hole)
    for why, holes in reasons.items():
        lines.append(f"impossible at {' '.join(holes)}: {why}")
    for hole, why in r["unknown"].items():
        lines.append(f"unknown at {hole}: {why}")
    return "\n".join(lines)
