"""The whole single-vacancy table of a board: every start (up to symmetry) times every finishing hole.

For each start with one hole empty (one per symmetry class, the first in reading order)
and each hole where the last peg should stand, the solver (:func:`pyapp.search.solver.search`,
fast phases then the complete search) answers ``solved`` with a solution (replayed here
with :func:`pyapp.core.game.replay` before it is reported), ``impossible`` with its reason, or
``unknown`` with how far it got when the per-problem budget ran out.  The per-problem budget is
read from the caller's budget's clock (``table --cpu-time``: CPU seconds, so a loaded machine
gives the same table as a quiet one).

:func:`table_steps` is a step generator (see :mod:`pyapp.core.budget`): it yields a
:class:`TableProgress` (note ``"d2 -> f5 (12 of 54)"``, and the same as numbers: problems done,
total, the current problem) between and during problems, so the command line prints progress and
the web worker can report and cancel; it returns a :class:`Table`.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import dataclass, field

from ..core.board import Board
from ..core.budget import Budget, Progress
from ..core.game import replay
from ..core.goal import Goal
from ..core.moves import Jump
from ..core.notation import format_moves
from ..core.problem import Problem
from ..search.solver import search

DEFAULT_PROBLEM_SECONDS = 10.0
"""Time budget of one start/finish problem unless the caller gives another."""


@dataclass(frozen=True)
class TableProgress(Progress):
    """:class:`~pyapp.core.budget.Progress` of a table: also the problems finished, their total and the
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
        twins = _Twins(board, vacancy, table)
        for finish in board.names:
            done += 1
            note = f"{vacancy} -> {finish} ({done} of {total})"
            if budget.over():
                table.cancelled = budget.cancelled
                table.seconds = time.perf_counter() - t0
                return table
            derived = twins.derive(finish)
            if derived is not None:
                table.cells.append(derived)
                yield TableProgress(0, 0, time.perf_counter() - t0, 0, note, done, total, f"{vacancy} -> {finish}")
                continue
            left = budget.remaining_seconds()
            seconds = problem_seconds if left is None else max(min(problem_seconds, left), 1e-3)
            share = Budget(seconds, None, budget.max_bytes, slice_seconds=budget.slice_seconds, clock=budget.clock)
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
                err = replay(board, start, moves).not_one_peg_on(board.hole(finish))
                if err:  # pragma: no cover - a solver bug
                    raise AssertionError(f"table: the solution of {note} does not replay: {err}")
            cell = Cell(vacancy, finish, result.status, result.reason, moves, result.method,
                        round(result.seconds, 6), result.nodes)
            table.cells.append(cell)
            twins.answered(cell, result.jumps)
            yield TableProgress(0, 0, time.perf_counter() - t0, 0, note, done, total, f"{vacancy} -> {finish}")
    table.seconds = time.perf_counter() - t0
    return table


class _Twins:
    """Finishes of one start that a symmetry of the board fixing the start maps onto each other: the
    same problem up to symmetry, so one searched answer settles the others (its solution mapped by
    the symmetry and replayed; its proof of impossibility holds for the image).  A cell derives only
    from a searched one (``nodes > 0``); the instant proofs (position class, pagodas) are recomputed.

    The searches of two twins are not alike (tie-breaks depend on the goal), so one can be unknown
    where the other is answered: measured on the German table, e1 -> h4 and d4 -> d1 were unknown
    at 10 s while their twins e1 -> b4 and d4 -> a4 were solved in 4 s.  An unknown cell is
    therefore replaced as soon as a later twin is answered (before the start's last cell is reported)."""

    def __init__(self, board: Board, vacancy: str, table: Table) -> None:
        self.board, self.vacancy, self.table = board, vacancy, table
        start = board.start(vacancy)
        self.syms = [k for k in range(1, len(board.symmetries)) if board.transform(start, k) == start]
        self.done: dict[str, tuple[Cell, list[Jump]]] = {}
        self.first = len(table.cells)

    def _image(self, k: int, name: str) -> str:
        return self.board.name_of[self.board.permutation(k)[self.board.hole(name)]]

    def derive(self, finish: str) -> Cell | None:
        """``finish``'s cell from an answered twin, or None."""
        for k in self.syms:
            for name, (cell, jumps) in self.done.items():
                if name != finish and self._image(k, name) == finish:
                    return self._mapped(k, cell, jumps, finish)
        return None

    def answered(self, cell: Cell, jumps: list[Jump]) -> None:
        """Remember a searched cell; replace its unknown twins of this start."""
        if cell.status == "unknown" or not cell.nodes:
            return
        self.done[cell.finish] = (cell, jumps)
        cells = self.table.cells
        for i in range(self.first, len(cells)):
            other = cells[i]
            if other.status == "unknown":
                for k in self.syms:
                    if self._image(k, cell.finish) == other.finish:
                        cells[i] = self._mapped(k, cell, jumps, other.finish)
                        break

    def _mapped(self, k: int, cell: Cell, jumps: list[Jump], finish: str) -> Cell:
        b, vacancy = self.board, self.vacancy
        why = f"the image of {vacancy} -> {cell.finish} under a symmetry of the board that fixes {vacancy}"
        if cell.status != "solved":
            return Cell(vacancy, finish, cell.status, f"{cell.reason} ({why})", [], cell.method, 0.0, 0)
        moves = format_moves(b, b.map_jumps(jumps, k))
        err = replay(b, b.start(vacancy), moves).not_one_peg_on(b.hole(finish))
        if err:  # pragma: no cover - a symmetry bug
            raise AssertionError(f"table: the image of {vacancy} -> {cell.finish} does not replay: {err}")
        return Cell(vacancy, finish, "solved", None, moves, f"{cell.method}, mapped by symmetry ({why})", 0.0, 0)
