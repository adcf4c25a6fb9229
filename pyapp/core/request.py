"""Problems as users give them, and answers as users get them: the one builder and serialiser.

:func:`build` turns user-facing strings (a board spec, a start hole or position text, a
goal or a target, moves played since the start) into a validated :class:`Setup`;
:func:`from_request` does the same for a web worker request dict after checking its
types and sizes.  The command line (:mod:`pyapp.cli.commands._common`), the web API
(:mod:`pyapp.web.api`), the analyses and the bench all build problems this way
(:func:`pyapp.core.problem.make_problem` underneath), so they accept the same strings.

:func:`result_json` is the one JSON form of a :class:`~pyapp.core.problem.Result`: ``jumps``
is the number of jumps everywhere, ``jump_list`` the jumps as ``[from, over, to]`` hole
names, ``moves`` the solution in notation.

>>> s = build("english", start="d4", moves=["f4-d4"])
>>> s.problem.start.bit_count(), [[s.board.name_of[b] for b in j] for j in s.jumps], s.goal.text(s.board)
(31, [['f4', 'e4', 'd4']], 'd4')
>>> build("square:ooo/o.o/ooo").spec
'square:ooo/o.o/ooo'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import fields
from .board import Board
from .catalogue import CATALOGUE
from .errors import PegError
from .game import replay
from .goal import Goal
from .limits import (
    MAX_GOAL_CHARS,
    MAX_HOLE_CHARS,
    MAX_MOVES_CHARS,
    MAX_SPEC_CHARS,
    MAX_TEXT_CHARS,
    check_moves,
    check_text,
)
from .moves import Jump, count_moves
from .notation import format_moves
from .position import format_position
from .problem import Problem, Result, make_problem
from .spec import resolve_board


@dataclass(frozen=True)
class Setup:
    """A problem as the user described it: the board, the start, the goal and the moves played since."""

    board: Board
    spec: str
    """The spec that recreates the board with its own start (a catalogue id or a custom grid)."""
    start: int
    """The position before the moves."""
    goal: Goal
    default_goal: str
    """The board's default goal text (the catalogue's, or ``min`` for custom boards)."""
    jumps: list[Jump]
    """The moves played, as jumps."""
    position: int
    """The position after the moves."""

    @property
    def problem(self) -> Problem:
        """The problem from the current position (after the moves)."""
        return Problem(self.board, self.position, self.goal)


def board_spec(board: Board, pos: int) -> str:
    """The spec that recreates ``board`` with ``pos`` as its start (a catalogue id or ``square:oo_/...``)."""
    if board.id in CATALOGUE:
        return board.id
    # '_' marks "no hole" (board_from_text reads it like a space) and keeps links readable
    rows = [row.replace(" ", "_") for row in format_position(board, pos).split("\n")]
    return f"{board.lattice.name}:" + "/".join(rows)


def build(board: str, *, start: str | None = None, position: str | None = None, goal: str | None = None,
          target: str | None = None, moves: Sequence[str] = ()) -> Setup:
    """The setup the strings describe; defaults (start, goal) from the catalogue or the custom grid."""
    spec = resolve_board(board)  # sizes checked on the raw text first (pyapp.core.limits)
    problem = make_problem(spec.board, start=start, position=position, goal=goal, target=target,
                           default_position=spec.start, default_goal=spec.goal)
    rep = replay(spec.board, problem.start, list(moves))
    if not rep.valid:
        raise PegError(f"the moves do not replay: {rep.error}")
    return Setup(spec.board, board_spec(spec.board, spec.start), problem.start, problem.goal, spec.goal,
                 rep.jumps, rep.final)


def text_arg(value: Any, what: str, limit: int = MAX_SPEC_CHARS) -> str:
    """``value`` checked to be text of at most ``limit`` characters (``what`` names the field)."""
    return check_text(value, what, limit)


def move_list(moves: Any) -> list[str]:
    """A request's moves: a list of notation strings, or one string separated by spaces or commas."""
    if moves is None:
        return []
    if isinstance(moves, str):
        moves = [m for m in check_text(moves, "'moves'", MAX_MOVES_CHARS).replace(",", " ").split() if m]
    if not isinstance(moves, list | tuple) or not all(isinstance(m, str) for m in moves):
        raise PegError("'moves' must be a list of moves in notation, like ['f4-d4', 'd2-d4']")
    return check_moves(moves, "'moves'")


def from_request(args: Any) -> Setup:
    """The setup of a web request: ``board`` (default ``english``), ``start`` or ``position``,
    ``goal`` (default the board's), ``moves``; every value type- and size-checked first
    (:mod:`pyapp.core.fields`, :mod:`pyapp.core.limits`), each message naming its field."""
    args = fields.request(args)
    return build(fields.text(args, "board", MAX_SPEC_CHARS, "english") or "english",
                 start=fields.text(args, "start", MAX_HOLE_CHARS),
                 position=fields.text(args, "position", MAX_TEXT_CHARS),
                 goal=fields.text(args, "goal", MAX_GOAL_CHARS), moves=move_list(args.get("moves")))


def result_json(board: Board, result: Result) -> dict:
    """The JSON form of a solver answer, shared by the command line and the web worker."""
    return {
        "status": result.status,
        "reason": result.reason,
        "moves": format_moves(board, result.jumps),
        "jumps": len(result.jumps),
        "jump_list": [[board.name_of[b] for b in j] for j in result.jumps],
        "move_count": count_moves(result.jumps),
        "pegs_left": result.pegs_left,
        "final": format_position(board, result.final),
        "nodes": result.nodes,
        "entries": result.entries,
        "seconds": round(result.seconds, 6),
        "method": result.method,
    }
