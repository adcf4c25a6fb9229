"""``finishes``: every hole where one peg can remain from a start, and why not elsewhere."""

from __future__ import annotations

from ...analysis.finishes import finishes_steps
from ...core.budget import drive
from ...core.notation import format_moves
from ._common import add_problem_args, add_time_budget, budget_from_args, problem_from_args
from ._progress import StderrProgress


def register(sub) -> None:
    p = sub.add_parser("finishes", help="holes where a single survivor is possible from a start")
    add_problem_args(p, goal=False, target=False)
    add_time_budget(p, 60.0)
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    problem = problem_from_args(args)
    board = problem.board
    f = drive(finishes_steps(board, problem.start, budget=budget_from_args(args)),
              on_progress=StderrProgress("finishes", "node").nodes)
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
