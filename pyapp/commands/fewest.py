"""``fewest``: a solution with the fewest moves, proven minimal by an exhaustive search by moves.

The exact search (:mod:`pyapp.exact.fewest`) sweeps the positions that can still win and
searches them move by move, with no cap on positions: the caller's budget
(``--max-seconds``, ``--max-memory``) is the only limit.  When the budget runs out first,
the answer keeps the proven lower bound and, given ``--fallback-seconds``, a solution from
the quicker bounded search (:func:`pyapp.analysis.fewest_moves`), marked not proven.
"""

from __future__ import annotations

from ..analysis import fewest_moves
from ..budget import drive
from ..exact.fewest import fewest_steps
from ..exact.report import fewest_json
from ..moves import count_moves
from ..notation import format_moves
from ..wording import plural
from ._common import add_problem_args, add_time_budget, budget_from_args, positive_float, problem_from_args
from ._progress import StderrProgress


def register(sub) -> None:
    p = sub.add_parser("fewest", help="a solution with the fewest moves (proven minimal by exhaustive search)")
    add_problem_args(p)
    add_time_budget(p, 900.0)
    p.add_argument("--fallback-seconds", type=positive_float, default=20.0,
                   help="if the exact search runs out of budget, seconds for a solution not proven minimal "
                        "(default 20)")
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    problem = problem_from_args(args)
    budget = budget_from_args(args)
    f = drive(fewest_steps(problem, budget), StderrProgress("fewest").level)
    out = fewest_json(problem, f)
    if f.status == "unknown":
        quick = fewest_moves(problem, max_seconds=args.fallback_seconds)
        if quick.status == "impossible" or quick.proven:
            out.update(status=quick.status, proven=True, reason=quick.reason)
        if quick.status == "solved":
            out.update(status="solved", moves=count_moves(quick.jumps), jumps=len(quick.jumps),
                       solution=format_moves(problem.board, quick.jumps),
                       jump_list=[[problem.board.name_of[b] for b in j] for j in quick.jumps],
                       lower_bound=max(f.lower_bound, quick.lower_bound))
    return out


def text(r: dict) -> str:
    if r["status"] != "solved":
        return f"{r['status']}: {r['reason']}"
    head = (f"{plural(r['moves'], 'move')} ({plural(r['jumps'], 'jump')}), "
            + ("proven minimal" if r["proven"] else f"not proven minimal: {r['reason']}"))
    return f"{head}\n{' '.join(r['solution'])}"
