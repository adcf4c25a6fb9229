"""``count``: the exact number of jump sequences that solve a problem."""

from __future__ import annotations

from ..analysis import count
from ..wording import plural
from ._common import add_problem_args, add_time_budget, budget_from_args, problem_from_args
from ._progress import StderrProgress


def register(sub) -> None:
    p = sub.add_parser("count", help="count the jump sequences that solve a problem")
    add_problem_args(p)
    add_time_budget(p, 60.0)
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    problem = problem_from_args(args)
    c = count(problem, budget=budget_from_args(args), on_progress=StderrProgress("count"))
    return {
        "solutions": c.solutions,
        "status": "counted" if c.solutions is not None else "unknown",
        "reason": c.reason,
        "goal": problem.goal.text(problem.board),
        "positions": c.positions,
        "seconds": round(c.seconds, 6),
    }


def text(r: dict) -> str:
    if r["solutions"] is None:
        return f"unknown: {r['reason']}"
    why = f" ({r['reason']})" if r["reason"] else ""
    return (f"{r['solutions']} jump sequences solve it (goal {r['goal']}){why}\n"
            f"{plural(r['positions'], 'position')} in {r['seconds']:.3f} s")
