"""Playing a game: replaying moves against the rules, jump by jump, and how a game ends."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .board import Board
from .errors import PegError
from .goal import Goal
from .limits import check_moves
from .moves import Jump, apply_jump, count_moves, has_jump
from .notation import format_jump, parse_move


@dataclass
class Replay:
    """The outcome of replaying moves: how far it got and why it stopped."""

    valid: bool
    error: str | None
    jumps: list[Jump] = field(default_factory=list)
    final: int = 0

    @property
    def moves(self) -> int:
        return count_moves(self.jumps)

    def not_one_peg_on(self, hole: int) -> str | None:
        """Why this game does not end with one peg on the hole bit ``hole`` (its first bad move, or that
        it ends elsewhere); None when it does.  The one check of a solution claimed for a finishing hole."""
        if not self.valid:
            return self.error
        return None if self.final == 1 << hole else "it ends elsewhere"


def illegal_reason(board: Board, pos: int, jump: Jump) -> str | None:
    """Why ``jump`` is illegal in ``pos`` (None when it is legal)."""
    a, b, c = jump
    if not pos >> a & 1:
        return f"no peg on {board.name_of[a]}"
    if not pos >> b & 1:
        return f"no peg on {board.name_of[b]} to jump over"
    if pos >> c & 1:
        return f"{board.name_of[c]} is not empty"
    return None


def replay(board: Board, start: int, moves: Sequence[str]) -> Replay:
    """Play ``moves`` (notation strings) from ``start``; stop at the first bad one."""
    pos = start
    done: list[Jump] = []
    for i, text in enumerate(check_moves(moves), 1):
        try:
            jumps = parse_move(board, text)
        except PegError as err:
            return Replay(False, f"move {i} ({text}): {err}", done, pos)
        for j in jumps:
            why = illegal_reason(board, pos, j)
            if why:
                return Replay(False, f"move {i} ({text}): jump {format_jump(board, j)} is illegal: {why}", done, pos)
            pos = apply_jump(pos, j)
            done.append(j)
    return Replay(True, None, done, pos)


def game_over(board: Board, pos: int) -> bool:
    """True when no jump is legal."""
    return not has_jump(board, pos)


def ending(board: Board, pos: int, goal: Goal) -> tuple[bool, bool, str]:
    """``(game over, goal reached, message)`` for a game at ``pos``: over when no jump is legal;
    for the 'as few pegs as possible' goal, ending with one peg counts as reached."""
    if has_jump(board, pos):
        return False, False, ""
    pegs = pos.bit_count()
    where = board.name_of[pos.bit_length() - 1] if pegs == 1 else ""
    if goal.reached(pos):
        return True, True, f"Solved! One peg left, on {where}." if where else "Solved! The target position is reached."
    if not goal.definite:
        return True, pegs == 1, f"Game over: {pegs} peg{'s' if pegs != 1 else ''} left."
    if where:
        return True, False, f"Game over: one peg left on {where}, but the goal was {goal.text(board)}."
    return True, False, f"Game over: {pegs} pegs left, no jump possible."
