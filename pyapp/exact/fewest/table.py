"""Fewest moves for every single-vacancy problem of a board: one proof per start and finish.

A *single-vacancy problem* starts with every hole filled but one and ends with one peg on a
given hole.  Only finishes in the start's position class can be reached (Conway's rule of
three), so those are the candidates; symmetric problems have the same answer, so the table
holds one start per class of holes under the board's symmetries and, for each, one finish
per class under the symmetries fixing that start.  Every candidate is then proved by
:func:`pyapp.exact.fewest.fewest_steps` (a search by moves over the positions that can still
win): solved with a minimal solution, impossible with its proof, or unknown with the bound
reached when the budget ran out.  Each row says how many problems of the board it stands
for (the size of its class), so the rows add up to every solvable-class pair of the board.

Impossibility carries over to the reverse problem: read backwards, with pegs and holes
swapped, a jump sequence from vacancy ``s`` to a peg on ``f`` is one from vacancy ``f`` to a
peg on ``s`` (the same jumps in reverse order), so a row whose reverse is, up to symmetry, a
row already proven impossible is impossible too, without a second sweep.  Fewest moves do
not carry over: reversed, a chain of jumps by one peg becomes jumps by several pegs (on the
15-hole triangle, 1 -> 13 takes 10 moves and 13 -> 1 takes 9), so solvable rows are searched.

Problems with the same start and the same symmetry group (the finish's) share the sweep from
the start: its reachable levels are kept while that start's rows run (:func:`winnable_steps`
reuses them), so a start with two finishes of one group sweeps forward once.

The budget is the caller's: each problem may use the seconds left (or ``each_seconds``,
whichever is less), so a problem the budget cuts short answers 'unknown' with its bound and
the problems not reached are listed as pending; the memory ceiling and cancel apply to each.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field

from ...core.board import Board
from ...core.budget import Budget
from ...core.errors import PegError
from ...core.goal import Goal, singles_in_class, stabilizer
from ...core.problem import Problem
from ..setup import sides
from ..sweep import Progress
from .levels import ExactFewest, fewest_steps


@dataclass
class FewestRow:
    """One problem of the table and its answer."""

    start: str
    finish: str
    problems: int
    """How many (start, finish) pairs of the board this row stands for (its symmetry class)."""
    problem: Problem
    answer: ExactFewest
    cpu_seconds: float = 0.0
    reverse_of: tuple[str, str] | None = None
    """The impossible row whose reverse this one is (None: searched)."""


@dataclass
class FewestTable:
    """The answer of :func:`fewest_all_steps`."""

    board: Board
    rows: list[FewestRow] = field(default_factory=list)
    pending: list[tuple[str, str]] = field(default_factory=list)
    """Problems not started (the budget ran out or was cancelled before them)."""
    seconds: float = 0.0


def _orbit(board: Board, pos: int, group: Iterable[int]) -> frozenset[int]:
    return frozenset(board.transform(pos, g) for g in group)


def single_vacancy_problems(board: Board, starts: Iterable[str] | None = None) -> list[tuple[Problem, int]]:
    """``(problem, class size)`` for one start per class of holes and one finish per class under the
    start's symmetries, finishes limited to the start's position class; ``starts`` (hole names) keeps
    only the classes of those holes."""
    everyone = range(len(board.symmetries))
    wanted = None
    if starts is not None:
        wanted = {_orbit(board, 1 << board.hole(name), everyone) for name in starts}
    seen: set[frozenset[int]] = set()
    out = []
    for hole in board.bits:
        orbit = _orbit(board, 1 << hole, everyone)
        if orbit in seen or (wanted is not None and orbit not in wanted):
            continue
        seen.add(orbit)
        start = board.start(board.name_of[hole])
        fixed = stabilizer(board, start)
        finishes: set[frozenset[int]] = set()
        for end in singles_in_class(board, start):
            mine = _orbit(board, end, fixed)
            if mine in finishes:
                continue
            finishes.add(mine)
            both = set(fixed) & set(stabilizer(board, end))
            out.append((Problem(board, start, Goal("hole", end)), len(board.symmetries) // len(both)))
    return out


def fewest_all_steps(board: Board, budget: Budget | None = None, *, each_seconds: float | None = None,
                     starts: Iterable[str] | None = None, method: str = "levels",
                     on_row: Callable[[FewestRow], object] | None = None) -> Generator[Progress, None, FewestTable]:
    """Prove the fewest moves of every single-vacancy problem of ``board`` (see the module docstring);
    yields each problem's :class:`Progress` (its ``stage`` names the problem), returns :class:`FewestTable`.
    ``method`` is :func:`pyapp.exact.fewest.fewest_steps`'s; ``on_row`` is called with each row searched as
    soon as it is answered (a long table run keeps its answers even if it is stopped later)."""
    budget = budget or Budget()
    problems = single_vacancy_problems(board, starts)
    if not problems:
        raise PegError(f"no single-vacancy problem on {board.id!r} for the starts given")
    table = FewestTable(board)
    impossible: dict[tuple[int, int], FewestRow] = {}
    forwards: dict[tuple[int, tuple[int, ...]], dict[int, array]] = {}
    for index, (problem, size) in enumerate(problems):
        start, finish = _names(problem)
        group = sides(problem).wide_codec.group
        if not any(first == problem.start for first, _ in forwards):
            forwards.clear()  # a new start: the last one's sweeps are not needed any more
        reverse = impossible.get(_pair_key(board, problem.goal.target, board.mask ^ problem.start))
        if reverse is not None:
            table.rows.append(FewestRow(start, finish, size, problem, _reversed(reverse), 0.0,
                                        (reverse.start, reverse.finish)))
            continue
        left = budget.remaining_seconds()
        if budget.cancelled or (left is not None and left <= 0):
            table.pending = [_names(p) for p, _ in problems[index:]]
            break
        limits = [x for x in (left, each_seconds) if x is not None]
        seconds = min(limits) if limits else None
        part = budget.share(len(problems) - index, seconds=seconds)
        label = f"{start} -> {finish} ({index + 1} of {len(problems)})"
        cpu = time.process_time()
        steps = fewest_steps(problem, part, method=method,
                             forward=forwards.setdefault((problem.start, group), {}))
        try:
            while True:
                item = next(steps)
                item.stage = f"{label}: {item.stage}"
                yield item
        except StopIteration as stop:
            answer: ExactFewest = stop.value
        row = FewestRow(start, finish, size, problem, answer, time.process_time() - cpu)
        table.rows.append(row)
        if on_row is not None:
            on_row(row)
        if answer.status == "impossible":
            impossible[_pair_key(board, board.mask ^ problem.start, problem.goal.target)] = row
    table.seconds = budget.elapsed()
    return table


def _names(problem: Problem) -> tuple[str, str]:
    board = problem.board
    vacancy = board.mask ^ problem.start
    return board.name_of[vacancy.bit_length() - 1], problem.goal.text(board)


def _pair_key(board: Board, vacancy: int, end: int) -> tuple[int, int]:
    """The least image of (vacancy, end) under the board's symmetries: equal for symmetric problems."""
    return min((board.transform(vacancy, g), board.transform(end, g)) for g in range(len(board.symmetries)))


def _reversed(row: FewestRow) -> ExactFewest:
    """The answer of the reverse of ``row``, a row proven impossible: impossible too."""
    return ExactFewest("impossible", reason=f"the reverse of {row.start} -> {row.finish} is impossible "
                       f"({row.answer.reason}); a solution read backwards would solve it", seconds=0.0)


def merge_tables(board: Board, parts: list[FewestTable]) -> FewestTable:
    """One table from tables of single starts run apart (in order): a row whose reverse an earlier row
    proved impossible becomes that row's reverse, as :func:`fewest_all_steps` would have made it."""
    table = FewestTable(board)
    impossible: dict[tuple[int, int], FewestRow] = {}
    for part in parts:
        for row in part.rows:
            p = row.problem
            reverse = impossible.get(_pair_key(board, p.goal.target, board.mask ^ p.start))
            if reverse is not None and row.reverse_of is None:
                row = FewestRow(row.start, row.finish, row.problems, p, _reversed(reverse), 0.0,
                                (reverse.start, reverse.finish))
            table.rows.append(row)
            if row.answer.status == "impossible" and row.reverse_of is None:
                impossible[_pair_key(board, board.mask ^ p.start, p.goal.target)] = row
        table.pending.extend(part.pending)
        table.seconds = max(table.seconds, part.seconds)
    return table
