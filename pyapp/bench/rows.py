"""A benchmark row's types and the checks every answer must pass, shared by every module of rows.

Each row's answer is checked outside the timed part: solutions are replayed jump by jump
against the board's lines (:func:`replay_error`), impossibility proofs are re-derived (position
classes), and on boards small enough for it (up to :data:`ORACLE_MAX_HOLES` holes) finishes
tables, exact counts and fewest-move answers are compared with :class:`Oracle`, a small memoised
exhaustive enumeration written here, independent of the solver.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.board import Board
from ..core.budget import Budget
from ..core.catalogue import get_board
from ..core.moves import Jump
from ..core.problem import Problem, make_problem

ORACLE_MAX_HOLES = 21
"""Boards with at most this many holes get exhaustive cross-checks (2^21 positions at most)."""
SEEDS = 20
"""Seeds of a seed row in a full run (a quick run uses the first few)."""


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` as the rows and reports quote it: the value at rank ``int(q * n)`` of the
    sorted values (the last for ``q`` near 1); 0.0 for no values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


@dataclass
class Outcome:
    """The verified answer of one run."""

    status: str
    answer: str
    nodes: int = 0
    entries: int = 0
    wrong: str | None = None
    """Why the answer is wrong (None when it checked out)."""
    unanswered: str | None = None
    """Why there is no answer (budget spent), when there is none."""
    peak_bytes: int | None = None
    """The analysis's own estimate of the memory it held (rows that are not traced)."""


@dataclass(frozen=True)
class Case:
    """One benchmark row: timed work, and an untimed check of what the work returned."""

    name: str
    title: str
    work: Callable[[int, Budget], Any]
    """``work(run_index, budget)``: the timed part (a seed row uses the index as the seed), under a
    fresh :class:`~pyapp.core.budget.Budget` per run."""
    check: Callable[[int, Any], Outcome]
    """``check(run_index, raw)``: verify the answer and summarise it."""
    expected: str
    """The known answer and where it comes from."""
    quick: bool = False
    seeds: int = 0
    """When > 0 the row runs once per seed ``0..seeds-1`` instead of ``repeat`` times."""
    target: str = ""
    """The goal of issue 4 for this row (measured in Pyodide in Chromium)."""
    limits: tuple[float | None, float | None] = (None, None)
    """Targets in seconds: (median, worst)."""
    tags: tuple[str, ...] = field(default=())
    runs: int | None = None
    """At most this many runs (rows of minutes run once)."""
    traced: bool = True
    """False: no tracemalloc run (it would take several times as long); the peak is the analysis's estimate."""


# ---------------------------------------------------------------------------- checking helpers

def _line_set(board: Board) -> set[tuple[int, int]]:
    pairs = set()
    for a, _, c in board.lines:
        pairs.add((a, c))
        pairs.add((c, a))
    return pairs


def replay_error(board: Board, start: int, jumps: Sequence[Jump]) -> tuple[str | None, int]:
    """Replay ``jumps`` from ``start`` against the board's lines; return (error or None, final position)."""
    lines = _line_set(board)
    pos = start
    for i, jump in enumerate(jumps, 1):
        a, b, c = jump
        if (a, c) not in lines or 2 * b != a + c:
            return f"jump {i} {jump} is not along a line of three holes", pos
        if not (pos >> a & 1 and pos >> b & 1) or pos >> c & 1:
            return f"jump {i} ({board.name_of.get(a)}-{board.name_of.get(c)}) is illegal in its position", pos
        pos ^= (1 << a) | (1 << b) | (1 << c)
    return None, pos


def _check_solution(problem: Problem, jumps: Sequence[Jump], final: int | None = None) -> str | None:
    err, pos = replay_error(problem.board, problem.start, jumps)
    if err:
        return f"solution does not replay: {err}"
    if final is not None and pos != final:
        return "replayed final position differs from the reported one"
    if not problem.goal.reached(pos):
        return f"replay ends with {pos.bit_count()} pegs, not at the goal"
    return None


def _class_proof(problem: Problem) -> bool:
    """True when position classes alone prove ``problem`` impossible (re-derived here, not read from the answer)."""
    return problem.goal.obstacle(problem.board, problem.start) is not None


class Oracle:
    """Exhaustive, memoised answers for small boards: the independent check of the analyses."""

    def __init__(self, board: Board) -> None:
        if len(board) > ORACLE_MAX_HOLES:
            raise ValueError(f"board {board.id!r} is too large for the exhaustive oracle")
        self.board = board
        self.moves: list[tuple[int, int, int]] = []
        for a, b, c in board.lines:
            self.moves.append((a, b, c))
            self.moves.append((c, b, a))
        self._finish: dict[int, int] = {}
        self._count: dict[tuple[int, int], int] = {}
        self._fewest: dict[tuple[int, int, int], float] = {}

    def children(self, pos: int) -> Iterator[tuple[int, int, int]]:
        """``(child, src, dst)`` for each legal jump."""
        for a, b, c in self.moves:
            if pos >> a & 1 and pos >> b & 1 and not pos >> c & 1:
                yield pos ^ ((1 << a) | (1 << b) | (1 << c)), a, c

    def finishes(self, pos: int) -> int:
        """Mask of the holes where a single last peg can stand, starting from ``pos``."""
        memo = self._finish
        if pos in memo:
            return memo[pos]
        out = pos if pos.bit_count() == 1 else 0
        for child, _, _ in self.children(pos):
            out |= self.finishes(child)
        memo[pos] = out
        return out

    def count(self, pos: int, goal: int) -> int:
        """Number of jump sequences from ``pos`` to one peg (at ``goal``, or anywhere when ``goal`` is 0)."""
        key = (pos, goal)
        memo = self._count
        if key in memo:
            return memo[key]
        if pos.bit_count() == 1:
            n = 1 if goal in (0, pos) else 0
        else:
            n = sum(self.count(child, goal) for child, _, _ in self.children(pos))
        memo[key] = n
        return n

    def fewest(self, pos: int, goal: int, last: int = -1) -> float:
        """Fewest moves (a peg's chain of jumps is one move) from ``pos`` to one peg; inf if none."""
        key = (pos, goal, last)
        memo = self._fewest
        if key in memo:
            return memo[key]
        if pos.bit_count() == 1:
            best = 0.0 if goal in (0, pos) else float("inf")
        else:
            best = float("inf")
            for child, src, dst in self.children(pos):
                cost = (0 if src == last else 1) + self.fewest(child, goal, dst)
                if cost < best:
                    best = cost
        memo[key] = best
        return best


_ORACLES: dict[str, Oracle] = {}


def oracle(board: Board) -> Oracle:
    """The (cached) oracle of a catalogue board."""
    if board.id not in _ORACLES:
        _ORACLES[board.id] = Oracle(board)
    return _ORACLES[board.id]


def _bit(board: Board, key: int) -> int:
    """A hole's bit index from an analysis key (a bit index, or a one-bit mask)."""
    if key in board.name_of:
        return key
    if key > 0 and key & (key - 1) == 0 and key.bit_length() - 1 in board.name_of:
        return key.bit_length() - 1
    raise ValueError(f"analysis returned {key!r}, which is not a hole of {board.id}")


# ---------------------------------------------------------------------------- the cases

def _goal_name(problem: Problem) -> str:
    return problem.goal.short(problem.board)


def _problem(board_id: str, start: str, goal: str) -> Problem:
    return make_problem(get_board(board_id), start=start, goal=goal)
