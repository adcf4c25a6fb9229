"""``table``: every single-vacancy start (up to symmetry) x every finishing hole, solved or impossible.

The starts run side by side on every core (``--workers``, ``--cluster``: :mod:`pyapp.analysis.spread`),
one progress line for the pool; ``--workers 1`` runs them one after the other in this process."""

from __future__ import annotations

import sys
import time

from ...analysis import spread
from ...analysis.table import DEFAULT_PROBLEM_SECONDS, Table, single_vacancy_starts, table_steps
from ...core.budget import drive
from ...core.spec import resolve_board
from ._common import add_time_budget, budget_from_args, positive_float
from ._parallel import add_pool_args, pool_from_args


def register(sub) -> None:
    p = sub.add_parser("table", help="the whole single-vacancy table: every start x every finishing hole")
    p.add_argument("board", help="catalogue id (see 'boards') or square:ROWS / triangle:ROWS")
    p.add_argument("--problem-seconds", type=positive_float, default=DEFAULT_PROBLEM_SECONDS,
                   help=f"time budget of each start/finish problem (default {DEFAULT_PROBLEM_SECONDS:g})")
    add_time_budget(p, None)
    add_pool_args(p, "the starts on ")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    board = resolve_board(args.board).board
    budget = budget_from_args(args)
    last = [""]

    def show(prog) -> None:
        if not args.quiet and prog.note != last[0]:
            last[0] = prog.note
            print(f"table {board.id}: {prog.note}, {prog.seconds:.1f} s", file=sys.stderr, flush=True)

    pool = pool_from_args(args)
    if pool is None:
        table = drive(table_steps(board, budget=budget, problem_seconds=args.problem_seconds), show)
    else:
        with pool:
            t0 = time.perf_counter()
            jobs = spread.jobs(board, single_vacancy_starts(board), budget, args.problem_seconds)
            rows = drive(spread.spread_steps(pool, spread.table_start, jobs, budget, f"table {board.id}: "), show)
            table = Table(board.id, [c for cells in rows if cells for c in cells],
                          time.perf_counter() - t0, any(cells is None for cells in rows))
    return {
        "board": board.id,
        "counts": table.counts(),
        "cells": [{"start": c.start, "finish": c.finish, "status": c.status, "reason": c.reason,
                   "moves": c.moves, "method": c.method, "seconds": c.seconds, "nodes": c.nodes}
                  for c in table.cells],
        "complete": len(table.cells) == len({c.start for c in table.cells}) * len(board.names)
        and not table.cancelled and bool(table.cells),
        "seconds": round(table.seconds, 3),
    }


def text(r: dict) -> str:
    """The table as text: counts and total search nodes, then per start its solutions (with the nodes each
    took) and its other finishes grouped by reason (with the nodes spent, when a search ran)."""
    counts = r["counts"]
    nodes = sum(c["nodes"] for c in r["cells"])
    lines = [f"{r['board']}: {counts['solved']} solved, {counts['impossible']} impossible, "
             f"{counts['unknown']} unknown in {r['seconds']:.1f} s, {nodes:,} nodes"]
    by_start: dict[str, list[dict]] = {}
    for c in r["cells"]:
        by_start.setdefault(c["start"], []).append(c)
    for start, cells in by_start.items():
        ok = [c["finish"] for c in cells if c["status"] == "solved"]
        lines.append(f"vacancy {start}: one peg can finish at {' '.join(ok) or 'no hole'}")
        for c in cells:
            if c["status"] == "solved":
                lines.append(f"  {c['finish']} ({c['nodes']:,} nodes): {' '.join(c['moves'])}")
        reasons: dict[str, list[str]] = {}
        for c in cells:
            if c["status"] != "solved":
                reasons.setdefault(f"{c['status']}: {c['reason']}", []).append(
                    c["finish"] + (f" ({c['nodes']:,} nodes)" if c["nodes"] else ""))
        for why, holes in reasons.items():
            lines.append(f"  {' '.join(holes)}: {why}")
    return "\n".join(lines)
