"""Problems (a board, a start position, a goal) and the answers the engine gives.

Goals live in :mod:`pyapp.core.goal`.  Every answer is explicit: ``solved`` with the jumps,
``impossible`` with the reason, or ``unknown`` (budget spent or cancelled).
:func:`make_problem` is the one place a problem is built from user-facing strings
(:mod:`pyapp.core.request` adds board specs, moves and request dicts on top of it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .board import Board
from .catalogue import get_board, get_entry
from .errors import PegError
from .goal import Goal, GoalKind, parse_goal
from .moves import Jump
from .position import parse_position

__all__ = ["Goal", "GoalKind", "Problem", "Result", "Status", "default_problem", "make_problem", "parse_goal"]

Status = Literal["solved", "impossible", "unknown"]


@dataclass(frozen=True)
class Problem:
    """A board, a start position and a goal."""

    board: Board
    start: int
    goal: Goal

    def __post_init__(self) -> None:
        if self.start & ~self.board.mask:
            raise PegError("start position has pegs outside the board")
        if self.goal.target & ~self.board.mask:
            raise PegError("goal has pegs outside the board")


@dataclass
class Result:
    """The answer to a problem, with statistics."""

    status: Status
    reason: str | None = None
    jumps: list[Jump] = field(default_factory=list)
    final: int = 0
    nodes: int = 0
    entries: int = 0
    seconds: float = 0.0
    method: str = ""
    """Which part of the solver answered (e.g. "position class", "beam search")."""

    @property
    def pegs_left(self) -> int:
        return self.final.bit_count()


def default_problem(board_id: str) -> Problem:
    """The catalogue's default problem for ``board_id``."""
    board = get_board(board_id)
    entry = get_entry(board_id)
    return Problem(board, board.start(entry.start), parse_goal(board, entry.goal))


def make_problem(board: Board, *, start: str | None = None, position: str | None = None,
                 goal: str | None = None, target: str | None = None, default_start: str | None = None,
                 default_position: int | None = None, default_goal: str = "any") -> Problem:
    """Build a problem from user-facing strings: a start hole or position text, a goal or target text.

    Without a start or a position the start is ``default_position``, else the board with
    ``default_start`` vacant, else the full board.
    """
    if start is not None and position is not None:
        raise PegError("give either a start hole or a position, not both")
    if goal is not None and target is not None:
        raise PegError("give either a goal or a target position, not both")
    if position is not None:
        pos = parse_position(board, position)
    elif start is None and default_position is not None:
        pos = default_position
    else:
        hole = start if start is not None else default_start
        pos = board.start(hole) if hole is not None else board.full()
    if target is not None:
        g = Goal("target", parse_position(board, target))
    else:
        g = parse_goal(board, goal, default_goal)
    return Problem(board, pos, g)
