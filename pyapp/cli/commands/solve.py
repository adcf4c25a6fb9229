"""``solve``: answer a problem (solved / impossible / unknown)."""

from __future__ import annotations

from ...core.errors import PegError
from ...core.wording import plural
from ...search.solver import solve
from ._common import add_problem_args, add_time_budget, budget_from_args, problem_from_args, result_dict
from ._progress import StderrProgress


def register(sub) -> None:
    p = sub.add_parser("solve", help="solve a problem")
    add_problem_args(p)
    p.add_argument("--seed", type=int, help="vary the move order: a different solution per seed")
    add_time_budget(p, None)
    p.add_argument("--engine", choices=("search", "sat"), default="search",
                   help="search (default) or sat: the CNF encoding of pyapp.sat run by an installed SAT package "
                        "(python-sat or pycosat)")
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    problem = problem_from_args(args)
    if getattr(args, "engine", "search") == "sat":
        if args.seed is not None:
            raise PegError("--seed applies to the search engine only")
        from ...sat import solve_sat

        return result_dict(problem, solve_sat(problem, budget=budget_from_args(args)))
    result = solve(problem, seed=args.seed, budget=budget_from_args(args),
                   on_progress=StderrProgress("solve", "node").nodes)
    return result_dict(problem, result)


def text(r: dict) -> str:
    head = f"{r['status']}" + (f": {r['reason']}" if r["reason"] else "")
    stats = (f"{plural(r['jumps'], 'jump')}, {plural(len(r['moves']), 'move')}, {plural(r['pegs_left'], 'peg')} left; "
             f"{plural(r['nodes'], 'node')} in {r['seconds']:.3f} s")
    body = " ".join(r["moves"])
    return "\n".join(x for x in (head, stats, body, r["final"]) if x)
