"""``fewest``: a solution with the fewest moves, proven minimal where feasible."""

from __future__ import annotations

from ..analysis import fewest_moves
from ..notation import format_moves
from ..wording import plural
from ._common import add_problem_args, add_time_budget, budget_from_args, problem_from_args
from ._progress import StderrProgress


def register(sub) -> None:
    p = sub.add_parser("fewest", help="a solution with the fewest moves (proven minimal where feasible)")
    add_problem_args(p)
    add_time_budget(p, 60.0)
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    problem = problem_from_args(args)
    f = fewest_moves(problem, budget=budget_from_args(args), on_progress=StderrProgress("fewest", "node"))
    return {
        "status": f.status,
        "moves": f.moves,
        "solution": format_moves(problem.board, f.jumps),
        "jumps": len(f.jumps),
        "proven": f.proven,
        "lower_bound": f.lower_bound,
        "reason": f.reason,
        "positions": f.positions,
        "seconds": round(f.seconds, 6),
    }


def text(r: dict) -> str:
    if r["status"] != "solved":
        return f"{r['status']}: {r['reason']}"
    head = (f"{plural(r['moves'], 'move')} ({plural(r['jumps'], 'jump')}), "
            + ("proven minimal" if r["proven"] else f"not proven minimal: {r['reason']}"))
    return f"{head}\n{' '.join(r['solution'])}"
