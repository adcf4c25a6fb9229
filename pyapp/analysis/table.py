"""The whole single-vacancy table of a board: every start (up to symmetry) times every finishing hole.

For each start with one hole empty (one per symmetry class, the first in reading order)
and each hole where the last peg should stand, the solver (:func:`pyapp.solver.search`,
fast phases then the complete search) answers ``solved`` with a solution (replayed here
with :func:`pyapp.game.replay` before it is reported), ``impossible`` with its reason, or
``unknown`` with how far it got when the per-problem budget ran out.

:func:`table_steps` is a step generator (see :mod:`pyapp.budget`): it yields a
:class:`TableProgress` (note ``"d2 -> f5 (12 of 54)"``, and the same as numbers: problems done,
total, the current problem) between and during problems, so the command line prints progress and
the web worker can report and cancel; it returns a :class:`Table`.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import dataclass, field

from ..board import Board
from ..budget import Budget, Progress
from ..game import replay
from ..goal import Goal
from ..notation import format_moves
from ..problem import Problem
from ..solver import search

DEFAULT_PROBLEM_SECONDS = 10.0
"""Time budget of one start/finish problem unless the caller gives another."""


@dataclass(frozen=True)
class TableProgress(Progress):
    """:class:`~pyapp.budget.Progress` of a table: also the problems finished, their total and the
    current problem (``"d2 -> f5"``), so a page can draw a progress bar without reading the note."""

    done: int = 0
    total: int = 0
    problem: str = ""


@dataclass
class Cell:
    """One start/finish problem's answer."""

    start: str
    finish: str
    status: str
    reason: str | None
    moves: list[str]
    method: str
    seconds: float
    nodes: int = 0
    """Search nodes spent on it (how far an ``unknown`` got)."""


@dataclass
class Table:
    """Every cell, and counts by status."""

    board: str
    cells: list[Cell] = field(default_factory=list)
    seconds: float = 0.0
    cancelled: bool = False

    def counts(self) -> dict[str, int]:
        out = {"solved": 0, "impossible": 0, "unknown": 0}
        for c in self.cells:
            out[c.status] += 1
        return out


def single_vacancy_starts(board: Board) -> list[str]:
    """One vacancy per symmetry class of single-vacancy starts, the first in reading order."""
    seen: set[int] = set()
    out = []
    for name in board.names:
        key = board.canonical(board.start(name))
        if key not in seen:
            seen.add(key)
            out.append(name)
    return out


def table_steps(board: Board, *, budget: Budget | None = None, problem_seconds: float = DEFAULT_PROBLEM_SECONDS,
                starts: list[str] | None = None, table: Table | None = None) -> Generator[TableProgress, None, Table]:
    """Solve every single-vacancy start x finishing hole (see the module docstring).  ``table``: an
    empty :class:`Table` to fill as it goes (a caller that shows finished starts before the end)."""
    budget = budget if budget is not None else Budget()
    t0 = time.perf_counter()
    table = table if table is not None else Table(board.id)
    starts = starts if starts is not None else single_vacancy_starts(board)
    total = len(starts) * len(board.names)
    done = 0
    for vacancy in starts:
        start = board.start(vacancy)
        for finish in board.names:
            done += 1
            note = f"{vacancy} -> {finish} ({done} of {total})"
            if budget.over():
                table.cancelled = budget.cancelled
                table.seconds = time.perf_counter() - t0
                return table
            left = budget.remaining_seconds()
            seconds = problem_seconds if left is None else max(min(problem_seconds, left), 1e-3)
            share = Budget(seconds, None, budget.max_bytes, slice_seconds=budget.slice_seconds)
            problem = Problem(board, start, Goal("hole", 1 << board.hole(finish)))
            gen = search(problem, budget=share)
            try:
                while True:
                    prog = next(gen)
                    if budget.cancelled:
                        share.cancel()
                    yield TableProgress(prog.nodes, prog.entries, time.perf_counter() - t0, prog.depth, note,
                                        done - 1, total, f"{vacancy} -> {finish}")
            except StopIteration as stop:
                result = stop.value
            moves = format_moves(board, result.jumps) if result.status == "solved" else []
            if result.status == "solved":
                rep = replay(board, start, moves)
                if not rep.valid or rep.final != 1 << board.hole(finish):  # pragma: no cover - a solver bug
                    raise AssertionError(f"table: the solution of {note} does not replay: {rep.error}")
            table.cells.append(Cell(vacancy, finish, result.status, result.reason, moves, result.method,
                                    round(result.seconds, 6), result.nodes))
            yield TableProgress(0, 0, time.perf_counter() - t0, 0, note, done, total, f"{vacancy} -> {finish}")
    table.seconds = time.perf_counter() - t0
    return table
