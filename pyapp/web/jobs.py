"""The web worker's long requests (``solve``, ``hint``, ``finishes``, ``never_lose``, the exact counts and
``table``; ``bench`` and ``study`` from :mod:`.jobs_bench`) as :class:`~.job.Job` objects driven slice by slice, and
:data:`STREAMING`, the table of them :mod:`pyapp.web.api` starts; the protocol is described there."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from typing import Any

from ..analysis.neverlose import VERDICT
from ..core import fields
from ..core.board import Board
from ..core.budget import Budget, Progress
from ..core.errors import PegError
from ..core.moves import Jump, apply_jump, legal_jumps
from ..core.notation import format_moves
from ..core.problem import Result
from ..core.request import from_request, result_json
from ..search.sharedlevels import MAX_CLASSES
from . import neverpool
from . import neverpool_shares as shares
from . import play as webplay
from .job import Job
from .jobs_bench import bench_job, study_job

DEFAULT_SOLVE_SECONDS = 60.0
DEFAULT_HINT_SECONDS = 10.0
DEFAULT_FINISHES_SECONDS = 20.0
SLICE_SECONDS = 0.05
ANALYSIS_SLICE_SECONDS = 0.025
"""Hint and finishes pause twice as often as a solve: their Cancel must answer within 200 ms on a
loaded machine too (the worker only sees a cancel between two slices)."""


def _names(board: Board, jump: Jump) -> list[str]:
    return [board.name_of[b] for b in jump]


def solve_job(args: dict) -> Job:
    from ..search.solver import search

    s = from_request(args)
    seed = fields.integer(args, "seed", None)
    budget = _budget(args, DEFAULT_SOLVE_SECONDS)

    def cancelled() -> dict:
        res = Result("unknown", "cancelled", [], s.position, budget.nodes, 0, budget.elapsed())
        return result_json(s.board, res)

    gen = search(s.problem, seed=seed, budget=budget)
    return Job(gen, lambda result: result_json(s.board, result), _progress, budget, cancelled)


def never_lose_job(args: dict) -> Job:
    """Never-lose in this worker; with ``workers`` N (2 or more) the plan for the page's pool, with ``decide``
    a pool worker's share (both in :mod:`pyapp.web.neverpool`)."""
    s = from_request(args)
    seconds = fields.number(args, "max_seconds", webplay.NEVER_LOSE_SECONDS)
    t0 = time.perf_counter()
    last = {"nodes": 0}

    def progress(p: Any) -> dict:
        last["nodes"] = p.nodes
        out = {"nodes": p.nodes, "seconds": round(p.seconds, 3)}
        if p.note.startswith(VERDICT):  # the position's own status, before the per-jump detail
            out["verdict"] = p.note[len(VERDICT):]
        return out

    def cancelled() -> dict:
        return {"status": "unknown", "reason": f"cancelled after {last['nodes']:,} nodes", "line": [], "good": [],
                "bad": [], "unknown": [], "nodes": last["nodes"], "seconds": round(time.perf_counter() - t0, 3),
                "budget": seconds, "method": "search", "solutions": None, "through": [], "history": []}

    history = [s.start]
    for jump in s.jumps:
        history.append(apply_jump(history[-1], jump))
    workers = fields.integer(args, "workers", 1, low=1, high=64) or 1
    decide = fields.text(args, "decide", 100)
    if decide is not None:  # a pool worker's share (pyapp.web.neverpool_shares)
        if workers > 1:
            raise PegError("'decide' (a pool worker's share) and 'workers' (the plan for a pool) do not go together")
        budget = _budget(args, seconds, ANALYSIS_SLICE_SECONDS)
        if decide == shares.GROUP:
            if args.get("decided") is not None:
                raise PegError(f"'decided' goes only with 'decide' {shares.JUMPS!r} (a group is told while it runs)")
            names = fields.text_list(args, "group", limit=MAX_CLASSES + 1, item_chars=20) or []
            gen, told = shares.group_share(s.problem, names, budget, fields.flag(args, "shared", False),
                                           fields.integer(args, "portfolio", None, low=0, high=1))
        else:
            gen, told = shares.share(s.problem, decide, budget, fields.text_list(args, "decided", limit=MAX_CLASSES))
        job = Job(gen, lambda value: value, _progress, budget)
        job.told = told
        return job
    line = fields.flag(args, "line", True)  # the page shows no line: it asks for none (costly from some sets)
    gen = neverpool.plan_steps(s.problem, seconds, history, workers, line) if workers > 1 else \
        webplay.never_lose_job(s.problem, seconds, history, line)
    return Job(gen, lambda value: value, progress, cancelled=cancelled)


def _budget(args: dict, default_seconds: float, slice_seconds: float = SLICE_SECONDS) -> Budget:
    """The request's budget: ``max_seconds`` (default ``default_seconds``) and ``max_nodes``."""
    return Budget(fields.number(args, "max_seconds", default_seconds), fields.integer(args, "max_nodes", None),
                  slice_seconds=slice_seconds)


def _progress(p: Progress) -> dict:
    return {"nodes": p.nodes, "entries": p.entries, "seconds": round(p.seconds, 3), "depth": p.depth,
            "rate": round(p.nodes / p.seconds) if p.seconds > 0 else 0, "note": p.note}


def hint_job(args: dict) -> Job:
    """Hint: the legal jumps filed good / bad / unknown.  On a game whose winnable set is held (shipped and
    loaded by ``load_set``, or computed by the exact analyses) from the start and the ``moves`` played, every
    jump is one lookup (``method: exact``); otherwise the solver decides them through the game's table of
    proved positions (``method: search``)."""
    from ..analysis.hint import hint_steps
    from ..analysis.neverlose_exact import hint_exact, prepare_steps

    s = from_request(args)
    board, budget = s.board, _budget(args, DEFAULT_HINT_SECONDS, ANALYSIS_SLICE_SECONDS)
    legal = legal_jumps(board, s.position)
    history = [s.start]
    for jump in s.jumps:
        history.append(apply_jump(history[-1], jump))
    method = ["search"]

    def finish(found: Any) -> dict:
        return {
            "good": [_names(board, j) for j in found.good],
            "bad": [{"jump": _names(board, j), "reason": found.reasons.get(j, "")} for j in found.bad],
            "unknown": [_names(board, j) for j in found.unknown],
            "legal": len(legal),
            "cancelled": budget.cancelled,
            "method": method[0],
        }

    def cancelled() -> dict:  # the analysis did not stop in time: every jump undecided
        return {"good": [], "bad": [], "unknown": [_names(board, j) for j in legal], "legal": len(legal),
                "cancelled": True}

    def steps() -> Generator[Progress, None, Any]:
        # a held set's search made in pauses first (its first search would make it in one go)
        ready = yield from prepare_steps(board, s.problem.goal, history, budget.max_seconds, line=False)
        exact = hint_exact(board, s.problem.goal, history) if ready else None
        if exact is not None:
            method[0] = "exact"
            return exact
        return (yield from hint_steps(s.problem, budget))

    return Job(steps(), finish, _progress, budget, cancelled)


def finishes_job(args: dict) -> Job:
    """"Where can one peg finish?" from the current position, in this worker (the usual request); with
    ``workers`` N (2 or more) the plan for the page's pool, with ``holes`` a pool worker's share of the
    solver method (both in :mod:`pyapp.web.finishes`)."""
    from ..analysis.finishes import finishes_steps, solver_steps
    from . import finishes as webfinishes

    s = from_request(args)
    board, budget = s.board, _budget(args, DEFAULT_FINISHES_SECONDS, ANALYSIS_SLICE_SECONDS)
    workers = fields.integer(args, "workers", 1, low=1, high=webfinishes.MAX_WORKERS) or 1
    holes = webfinishes.requested_holes(board, s.position, args)
    if holes is not None and workers > 1:
        raise PegError("'holes' (a pool worker's share) and 'workers' (the plan for a pool) do not go together")

    def finish(found: Any) -> dict:
        if holes is not None:
            return webfinishes.share_answer(board, holes, found, budget.cancelled)
        if isinstance(found, list):  # the plan: the solver method's shares for the pool
            return webfinishes.shares_answer(board, s.position, found, budget.elapsed())
        return webfinishes.answer(board, *webfinishes.named(board, found), budget.cancelled)

    def cancelled() -> dict:  # the analysis did not stop in time: every hole (of the share) undecided
        if holes is not None:
            return {"possible": {}, "impossible": {}, "cancelled": True,
                    "unknown": {board.name_of[h]: webfinishes.CANCELLED for h in holes}}
        return webfinishes.answer(board, {}, {}, dict.fromkeys(board.names, webfinishes.CANCELLED), True)

    gen: Generator[Progress, None, Any]
    if holes is not None:
        gen = solver_steps(board, s.position, budget=budget, holes=holes)
    elif workers > 1:
        gen = webfinishes.plan_steps(board, s.position, budget, workers)
    else:
        gen = finishes_steps(board, s.position, budget=budget)
    return Job(gen, finish, _progress, budget, cancelled)


def count_job(args: dict) -> Job:
    """The exact number of solving jump sequences (``solutions`` as text: it may be far above 2**53)."""
    from ..exact.count import memo_steps as count_steps

    s = from_request(args)
    budget = _budget(args, DEFAULT_SOLVE_SECONDS)

    def finish(c: Any) -> dict:
        return {"solutions": None if c.solutions is None else str(c.solutions), "positions": c.positions,
                "seconds": round(c.seconds, 3), "reason": c.reason, "cancelled": budget.cancelled}

    # a count that does not stop within the cancel's wait is closed: the same shape, no number
    return Job(count_steps(s.problem, budget=budget), finish, _progress, budget,
               lambda: {"solutions": None, "positions": None, "seconds": None, "reason": "cancelled",
                        "cancelled": True})


def fewest_job(args: dict) -> Job:
    """A solution with the fewest moves, proven minimal where the search completes."""
    from ..exact.fewest import bfs_steps as fewest_steps

    s = from_request(args)
    budget = _budget(args, DEFAULT_SOLVE_SECONDS)

    def finish(f: Any) -> dict:
        return {"status": f.status, "moves": f.moves, "solution": format_moves(s.board, f.jumps),
                "proven": f.proven, "reason": f.reason, "lower_bound": f.lower_bound, "positions": f.positions,
                "seconds": round(f.seconds, 3), "cancelled": budget.cancelled}

    return Job(fewest_steps(s.problem, budget=budget), finish, _progress, budget,
               lambda: {"status": "unknown", "moves": None, "solution": [], "proven": False, "reason": "cancelled",
                        "lower_bound": None, "positions": None, "seconds": None, "cancelled": True})


def exact_job(args: dict, analysis: str) -> Job:
    """The exact analyses of :mod:`pyapp.exact` (``count``, ``levels``, ``fewest``), level by level."""
    from . import exact as exact_web

    s = from_request(args)
    gen, finish, progress, budget, relay = exact_web.job(s.problem, {**args, "analysis": analysis})
    # a sweep that does not stop within the cancel's wait (a level's step under load) is closed: no answer
    out = Job(gen, finish, progress, budget, lambda: {"status": "unknown", "reason": "cancelled", "cancelled": True})
    out.relay = relay
    return out


def count_exact_job(args: dict) -> Job:
    """``count_exact``: every solution counted; ``levels: true`` for the level histogram instead."""
    args = fields.request(args)
    return exact_job(args, "levels" if fields.flag(args, "levels", False) else "count")


def fewest_exact_job(args: dict) -> Job:
    """``fewest_exact``: the fewest moves, proven by an exhaustive search by moves."""
    return exact_job(args, "fewest")


def table_job(args: dict) -> Job:
    """The whole single-vacancy table of ``board`` (:mod:`pyapp.analysis.table`): ``problem_seconds``
    each (default 10), ``max_seconds`` for the whole table (default none), ``starts`` (default all: a
    pool worker's share, see :func:`pyapp.web.table.requested_starts`); cancel keeps the cells done.
    Progress adds ``done``, ``total`` and ``problem`` (``"d2 -> f5"``), and once a start is finished
    ``starts``: its class's holes as starts; the answer is :func:`pyapp.web.table.answer`'s (a share's
    with ``starts``)."""
    from ..analysis.table import DEFAULT_PROBLEM_SECONDS, Table, table_steps
    from ..core.limits import MAX_SPEC_CHARS
    from ..core.spec import resolve_board
    from . import table as webtable

    args = fields.request(args)
    board = resolve_board(fields.text(args, "board", MAX_SPEC_CHARS, "english") or "english").board
    per = fields.number(args, "problem_seconds", DEFAULT_PROBLEM_SECONDS)
    starts = webtable.requested_starts(board, args)
    total = args.get("max_seconds")
    budget = Budget(None if total is None else fields.number(args, "max_seconds", 0.0), None,
                    slice_seconds=ANALYSIS_SLICE_SECONDS)
    table = Table(board.id)
    shown = {"cells": 0}

    def progress(p: Any) -> dict:
        out = {**_progress(p), "done": p.done, "total": p.total, "problem": p.problem}
        cells = len(table.cells)
        if cells != shown["cells"] and cells % len(board) == 0:  # a start just finished: its class, at once
            shown["cells"] = cells
            out["starts"] = webtable.by_start(board, table, only=table.cells[-1].start)
        return out

    def answer(done: Table) -> dict:
        return webtable.answer(board, done, per, share=starts is not None)

    t0 = time.perf_counter()

    def cancelled() -> dict:  # the table did not stop within the cancel's wait: the cells it had finished
        table.cancelled, table.seconds = True, time.perf_counter() - t0
        return answer(table)

    return Job(table_steps(board, budget=budget, problem_seconds=per, starts=starts, table=table), answer, progress,
               budget, cancelled)


STREAMING: dict[str, Callable[[dict], Job]] = {"solve": solve_job, "bench": bench_job, "hint": hint_job,
                                               "finishes": finishes_job, "never_lose": never_lose_job,
                                               "count": count_job, "fewest": fewest_job, "table": table_job,
                                               "count_exact": count_exact_job, "fewest_exact": fewest_exact_job,
                                               "study": study_job}


