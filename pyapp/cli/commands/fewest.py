"""``fewest``: a solution with the fewest moves, proven minimal by an exhaustive search by moves.

The exact search (:mod:`pyapp.exact.fewest`) sweeps the fewest moves from the start and to the
goal level by level, each side keeping the classes within a cap on its moves that rises round by round
until the two sides join within their caps, with no cap on positions: the caller's budget
(``--max-seconds``, ``--max-memory``) is the only limit.  When the budget runs out first,
the answer keeps the proven lower bound and, given ``--fallback-seconds``, a solution from
the quicker bounded search (:func:`pyapp.analysis.fewest_moves`), marked not proven.

``fewest BOARD --all`` proves every single-vacancy problem of the board instead, one row per
start and finish up to symmetry (:mod:`pyapp.exact.fewest.table`): ``--starts`` keeps some start
holes' classes, ``--each-seconds`` caps each problem, ``--max-seconds`` the whole table; the starts run
side by side on every core (``--workers``, ``--cluster``), the rows merged in order.
"""

from __future__ import annotations

import json
import sys

from ...analysis import spread
from ...core.budget import drive
from ...core.catalogue import get_board
from ...core.errors import PegError
from ...core.moves import count_moves
from ...core.notation import format_moves
from ...core.wording import plural
from ...exact.fewest import fewest_all_steps, fewest_moves, fewest_steps
from ...exact.fewest.table import merge_tables, single_vacancy_problems
from ...exact.report import fewest_json, fewest_row_json, fewest_table_json
from ...exact.sharded import Parallel
from ...exact.store import start_hole
from ._common import add_problem_args, add_time_budget, budget_from_args, positive_float, problem_from_args
from ._parallel import add_pool_args, pool_from_args
from ._progress import StderrProgress


def register(sub) -> None:
    p = sub.add_parser("fewest", help="a solution with the fewest moves (proven minimal by exhaustive search)")
    add_problem_args(p)
    add_time_budget(p, 900.0)
    p.add_argument("--fallback-seconds", type=positive_float, default=20.0,
                   help="if the exact search runs out of budget, seconds for a solution not proven minimal "
                        "(default 20)")
    p.add_argument("--all", action="store_true",
                   help="instead: every single-vacancy problem of the board (one start and finish per symmetry "
                        "class, finishes in the start's position class), each proven")
    p.add_argument("--starts", help="with --all: only these start holes' classes (comma-separated hole names)")
    p.add_argument("--each-seconds", type=positive_float, help="with --all: time budget of each problem")
    add_pool_args(p, "the level sweeps (with --all: the starts) on ")
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    if args.all:
        return run_all(args)
    if args.starts or args.each_seconds:
        raise PegError("--starts and --each-seconds go with --all")
    problem = problem_from_args(args)
    budget = budget_from_args(args)
    pool = pool_from_args(args)
    try:
        f = drive(fewest_steps(problem, budget, parallel=Parallel(pool) if pool else None),
                  StderrProgress("fewest").level)
    finally:
        if pool is not None:
            pool.close()
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


def run_all(args) -> dict:
    """``fewest BOARD --all``: the table of every single-vacancy problem (progress on stderr)."""
    if args.start or args.position or args.goal or args.target:
        raise PegError("--all runs every single-vacancy start and finish: give no --start, --position, --goal "
                       "or --target")
    board = get_board(args.board)
    starts = [name.strip() for name in args.starts.split(",") if name.strip()] if args.starts else None
    budget = budget_from_args(args)
    names = list(dict.fromkeys(_vacancy(p) for p, _ in single_vacancy_problems(board, starts)))  # bad --starts
    pool = pool_from_args(args)  # after every check that can refuse the command: a pool is closed only in "with"
    if pool is None:
        steps = fewest_all_steps(board, budget, each_seconds=args.each_seconds, starts=starts, on_row=_row_line)
        return fewest_table_json(drive(steps, StderrProgress("fewest --all").level))
    with pool:
        jobs = spread.jobs(board, names, budget, args.each_seconds)
        parts = drive(spread.spread_steps(pool, spread.fewest_start, jobs, budget),
                      StderrProgress("fewest --all", "start").nodes)
    table = merge_tables(board, [t for t in parts if t is not None])
    table.pending += [pair for name, t in zip(names, parts, strict=True) if t is None
                      for pair in _pairs(board, name)]
    for row in table.rows:
        _row_line(row)
    return fewest_table_json(table)


def _vacancy(problem) -> str:
    return start_hole(problem)


def _pairs(board, start: str) -> list[tuple[str, str]]:
    return [(start, p.goal.text(board)) for p, _ in single_vacancy_problems(board, [start])]


def _row_line(row) -> None:
    """Each answered row as one JSON line on stderr, at once (stdout keeps the one table at the end)."""
    print(f"fewest --all: row {json.dumps(fewest_row_json(row))}", file=sys.stderr, flush=True)


def text(r: dict) -> str:
    if "rows" in r:
        return table_text(r)
    if r["status"] != "solved":
        return f"{r['status']}: {r['reason']}"
    head = (f"{plural(r['moves'], 'move')} ({plural(r['jumps'], 'jump')}), "
            + ("proven minimal" if r["proven"] else f"not proven minimal: {r['reason']}"))
    return f"{head}\n{' '.join(r['solution'])}"


def table_text(r: dict) -> str:
    """The table of ``fewest --all``: one line per problem, then what was not run."""
    lines = [f"{'start':>6} {'finish':>6} {'moves':>6}  {'answer':<12} {'pairs':>5} {'positions':>11} {'CPU s':>8}"]
    for row in r["rows"]:
        moves = str(row["moves"]) if row["status"] == "solved" else (f">= {row['lower_bound']}"
                                                                      if row["status"] == "unknown" else "-")
        answer = {"solved": "proven", "impossible": "impossible"}.get(row["status"], "unknown")

        lines.append(f"{row['start']:>6} {row['finish']:>6} {moves:>6}  {answer:<12} {row['problems']:>5} "
                     f"{row['positions']:>11,} {row['cpu_seconds']:>8.1f}")
    for row in r["rows"]:
        if row["status"] != "solved":
            lines.append(f"{row['start']} -> {row['finish']}: {row['status']}: {row['reason']}")
    if r["pending"]:
        lines.append("not run (budget): " + ", ".join(f"{a} -> {b}" for a, b in r["pending"]))
    return "\n".join(lines)
