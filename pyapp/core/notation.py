"""Standard notation for jumps and moves: ``f4-d4``, ``e7-c7-c5``; triangles ``4-1``.

A move lists the holes its peg visits, so ``e7-c7-c5`` is the two jumps ``e7-c7`` and
``c7-c5``.  Parsing checks geometry (each step is a jump along a line of the board) but
not legality in a position: see :mod:`pyapp.core.game` for that.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .board import Board
from .errors import HoleError, NotationError
from .limits import MAX_MOVES_CHARS, check_moves, check_text
from .moves import Jump, group_moves

_SEPARATORS = re.compile(r"\s*[-\u2013:]\s*")


def format_jump(board: Board, jump: Jump) -> str:
    """``'f4-d4'``."""
    return f"{board.name_of[jump[0]]}-{board.name_of[jump[2]]}"


def format_move(board: Board, move: Sequence[Jump]) -> str:
    """A move (jumps by one peg): ``'e7-c7-c5'``."""
    return "-".join([board.name_of[move[0][0]]] + [board.name_of[j[2]] for j in move])


def format_moves(board: Board, jumps: Sequence[Jump]) -> list[str]:
    """Jumps grouped into moves, each in notation."""
    return [format_move(board, m) for m in group_moves(jumps)]


def jump_between(board: Board, src: int, dst: int) -> Jump | None:
    """The jump from ``src`` to ``dst`` (bit indices) if they are two steps apart on a line."""
    for a, b, c in board.lines:
        if (a, c) == (src, dst):
            return (a, b, c)
        if (c, a) == (src, dst):
            return (c, b, a)
    return None


def parse_move(board: Board, text: str) -> list[Jump]:
    """Read a move (``'f4-d4'`` or ``'e7-c7-c5'``) into its jumps."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError(f"empty move {text!r}: expected holes joined by '-', like {_example(board)}")
    check_text(text, "a move", MAX_MOVES_CHARS)
    parts = _SEPARATORS.split(text.strip())
    if len(parts) < 2:
        raise NotationError(
            f"move {text!r} names one hole: expected at least two joined by '-', like {_example(board)}"
        )
    try:
        bits = [board.hole(p) for p in parts]
    except HoleError as err:
        raise NotationError(f"move {text!r}: {err}") from None
    jumps = []
    for a, c in zip(bits, bits[1:]):
        j = jump_between(board, a, c)
        if j is None:
            raise NotationError(
                f"move {text!r}: {board.name_of[a]}-{board.name_of[c]} is not a jump "
                "(the holes must be two apart on a line, with a hole between)"
            )
        jumps.append(j)
    return jumps


def parse_moves(board: Board, texts: Sequence[str] | str) -> list[Jump]:
    """Read several moves (a list, or one string separated by spaces or commas)."""
    if isinstance(texts, str):
        texts = [t for t in re.split(r"[\s,;]+", check_text(texts, "moves", MAX_MOVES_CHARS)) if t]
    jumps: list[Jump] = []
    for t in check_moves(texts):
        jumps.extend(parse_move(board, t))
    return jumps


def _example(board: Board) -> str:
    if board.lines:
        a, _, c = board.lines[0]
        return f"'{board.name_of[a]}-{board.name_of[c]}'"
    return "'a1-c1'"
