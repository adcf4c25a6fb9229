"""Independent problems spread over one pool: whole tables (``table``, ``fewest --all``) start by start,
one start's finishes share by share, puzzles seed by seed (and, from :mod:`pyapp.bench.suite`, bench rows).

:func:`spread_steps` submits one task per item to a :class:`~pyapp.exact.pool.Pool` (local processes
or a Dask cluster), waits in slices of :data:`SLICE_SECONDS` yielding one :class:`~pyapp.core.budget.Progress`
for the whole pool (``"3 of 9 done"``), and returns the answers in the items' order, so the table
is the same as the one built in one process.  Ctrl+C, an error or the caller's cancel stops every
worker at once (:meth:`Pool.cancel`); a worker's budget is the time left when it starts.

``hint`` spreads its jumps (one class of symmetric jumps per task, :func:`decide_jump`), each decided side
by side with the share of the budget one round of the pool leaves it.

The tables split by start: the cells of one start depend on each other (a symmetric twin's answer
is mapped instead of searched; one sweep from the start serves each of its finishes), the starts do not.
``finishes`` splits one start's holes in whole symmetry classes (:func:`~.finishes.split_holes`), and only
for the solver method: the exhaustive method answers every hole with one sweep, run before any pool starts.
Puzzles go in runs of consecutive seeds, a few per worker, so thousands of them are not thousands of tasks.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from typing import Any

from ..core.board import Board
from ..core.budget import CPU_CLOCK, Budget, Progress, drive
from ..core.errors import PegError
from ..core.moves import Jump
from ..exact.pool import Pool

SLICE_SECONDS = 0.05


def spread_steps(pool: Pool, fn: Callable, items: list, budget: Budget | None = None, label: str = "",
                 on_result: Callable[[int, Any], object] | None = None) -> Generator[Progress, None, list[Any]]:
    """``[fn(item) for item in items]`` on ``pool``; yields progress; a cancelled budget stops every worker
    and returns None for the items not finished.  ``on_result(i, answer)`` is called as each item finishes
    (in the order they finish), for callers that report answers as they come."""
    t0 = time.perf_counter()
    handles = [pool.submit(fn, item) for item in items]
    out: list[Any] = [None] * len(items)
    left = set(range(len(items)))
    try:
        while left:
            pool.wait([handles[i] for i in sorted(left)][:1], SLICE_SECONDS)
            for i in sorted(i for i in left if pool.ready(handles[i])):
                out[i] = pool.result(handles[i])
                left.discard(i)
                if on_result is not None:
                    on_result(i, out[i])
            done = len(items) - len(left)
            yield Progress(done, 0, time.perf_counter() - t0, 0,
                           f"{label}{done} of {len(items)} done on {pool.workers} workers")
            if budget is not None and budget.cancelled and left:
                pool.cancel()
                break
    except BaseException:
        pool.cancel()
        raise
    return out


def _budget(seconds: float | None, max_bytes: int | None, cpu: bool) -> Budget:
    return Budget(seconds, None, max_bytes, clock=CPU_CLOCK if cpu else None)


def table_start(job: tuple) -> list:
    """One start's cells of the whole-board table (a worker's task)."""
    from .table import table_steps
    board, vacancy, problem_seconds, seconds, max_bytes, cpu = job
    table = drive(table_steps(board, budget=_budget(seconds, max_bytes, cpu), problem_seconds=problem_seconds,
                              starts=[vacancy]))
    return table.cells


def fewest_start(job: tuple):
    """One start's rows of ``fewest --all`` (a worker's task)."""
    from ..exact.fewest.table import fewest_all_steps
    board, vacancy, each_seconds, seconds, max_bytes, cpu = job
    return drive(fewest_all_steps(board, _budget(seconds, max_bytes, cpu), each_seconds=each_seconds,
                                  starts=[vacancy]))


def jobs(board: Board, starts: list[str], budget: Budget, *extra: Any) -> list[tuple]:
    """One task per start: the board, the start, ``extra``, the time left, the memory ceiling, the clock."""
    cpu = budget.clock is CPU_CLOCK
    return [(board, vacancy, *extra, budget.remaining_seconds(), budget.max_bytes, cpu) for vacancy in starts]


def finishes_share(job: tuple):
    """One share of a start's holes for ``finishes`` by the solver method (a worker's task): whole symmetry
    classes (:func:`~.finishes.split_holes`), answered by :func:`~.finishes.solver_steps`; a
    :class:`~.finishes.Finishes` (plain data: ints, strings and jump tuples)."""
    from .finishes import solver_steps
    board, start, holes, seconds, nodes, max_bytes, cpu = job
    budget = Budget(seconds, nodes, max_bytes, clock=CPU_CLOCK if cpu else None)
    return drive(solver_steps(board, start, budget=budget, holes=holes))


def finishes_jobs(board: Board, start: int, shares: list[list[int]], budget: Budget) -> list[tuple]:
    """One task per share: each gets the time left (the shares run side by side), an equal part of the
    nodes left (a node budget caps the work of the whole command), the memory ceiling and the clock."""
    nodes = budget.remaining_nodes()
    each = None if nodes is None else max(nodes // max(len(shares), 1), 1)
    cpu = budget.clock is CPU_CLOCK
    return [(board, start, share, budget.remaining_seconds(), each, budget.max_bytes, cpu) for share in shares]


def decide_jump(job: tuple):
    """One class of symmetric jumps of ``hint`` (a worker's task): the position after its first jump decided by
    :func:`~.proven.decide_steps`; a :class:`~pyapp.core.problem.Result`.  Its time: on a wall clock, what is
    left until the hint's ``deadline`` (``time.time()``) shared with the tasks not started before it (``later``
    of them, ``workers`` at a time), as :func:`~.hint.hint_steps` shares it in one process; in CPU seconds,
    the ``seconds`` it was given."""
    from ..core.problem import Problem
    from .proven import decide_steps
    board, after, goal, deadline, later, workers, seconds, nodes, max_bytes, cpu = job
    if deadline is not None and not cpu:
        seconds = max(deadline - time.time(), 0.0) / (1 + later // workers)
    budget = Budget(seconds, nodes, max_bytes, clock=CPU_CLOCK if cpu else None)
    return drive(decide_steps(Problem(board, after, goal), budget))


PuzzleAnswer = tuple[int, int, tuple[Jump, ...]] | str
"""A puzzle as plain data, ``(position, finish, solution)``, or the error its seed met."""


def puzzle_seeds(job: tuple) -> list[PuzzleAnswer]:
    """The puzzles of a run of seeds (a worker's task, and the one-process batch too, so both make the same
    puzzles): each as :data:`PuzzleAnswer`, the board not sent back.  A seed whose walk found no position
    within the node budget (likely near a full board) answers its error and the run goes on."""
    from .puzzle import make_puzzle
    board, pegs, seeds = job
    out: list[PuzzleAnswer] = []
    for seed in seeds:
        try:
            p = make_puzzle(board, pegs, seed=seed)
        except PegError as err:
            out.append(str(err))
            continue
        out.append((p.position, p.finish, p.solution))
    return out


def seed_runs(first: int, count: int, parts: int) -> list[list[int]]:
    """Seeds ``first .. first + count - 1`` in at most ``parts`` runs of consecutive seeds, in order."""
    parts = max(1, min(parts, count))
    size, extra = divmod(count, parts)
    runs, at = [], first
    for i in range(parts):
        n = size + (i < extra)
        runs.append(list(range(at, at + n)))
        at += n
    return runs
