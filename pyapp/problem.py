"""Problems (a board, a start position, a goal) and the answers the engine gives.

A goal is one of: one peg at a given hole (``hole``), one peg anywhere (``any``), an
exact target position (``target``), or as few pegs as possible (``min``).  Every answer
is explicit: ``solved`` with the jumps, ``impossible`` with the reason, or ``unknown``
(budget spent or cancelled).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .board import Board
from .catalogue import get_board, get_entry
from .errors import PegError
from .limits import MAX_GOAL_CHARS, check_text
from .moves import Jump
from .position import parse_position

GoalKind = Literal["hole", "any", "target", "min"]
Status = Literal["solved", "impossible", "unknown"]


@dataclass(frozen=True)
class Goal:
    """What counts as finished."""

    kind: GoalKind
    target: int = 0
    """The peg bits wanted at the end: one bit for ``hole``, a position for ``target``."""

    def reached(self, pos: int) -> bool:
        """True when ``pos`` satisfies a ``hole``/``any``/``target`` goal."""
        if self.kind == "any":
            return pos.bit_count() == 1
        return pos == self.target

    @property
    def final_pegs(self) -> int | None:
        """Pegs left when this goal is met (None for ``min``)."""
        if self.kind == "min":
            return None
        if self.kind == "target":
            return self.target.bit_count()
        return 1


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


def parse_goal(board: Board, text: str | None, default: str = "any") -> Goal:
    """Read a goal: a hole name, ``any``, ``min``, or (with ``target:``) position text."""
    value = check_text(text if text is not None else default, "goal", MAX_GOAL_CHARS).strip()
    low = value.lower()
    if low in ("any", "min"):
        return Goal(low)  # type: ignore[arg-type]
    if low.startswith("target:"):
        return Goal("target", parse_position(board, value[7:]))
    return Goal("hole", 1 << board.hole(value))


def default_problem(board_id: str) -> Problem:
    """The catalogue's default problem for ``board_id``."""
    board = get_board(board_id)
    entry = get_entry(board_id)
    return Problem(board, board.start(entry.start), parse_goal(board, entry.goal))


def make_problem(board: Board, *, start: str | None = None, position: str | None = None,
                 goal: str | None = None, target: str | None = None, default_start: str | None = None,
                 default_goal: str = "any") -> Problem:
    """Build a problem from user-facing strings (the command line and the web worker use this)."""
    if start is not None and position is not None:
        raise PegError("give either a start hole or a position, not both")
    if position is not None:
        pos = parse_position(board, position)
    else:
        hole = start if start is not None else default_start
        pos = board.start(hole) if hole is not None else board.full()
    if target is not None:
        g = Goal("target", parse_position(board, target))
    else:
        g = parse_goal(board, goal, default_goal)
    return Problem(board, pos, g)
