"""Board specs as users type them: a catalogue id (``english``) or a custom grid.

A custom spec is ``square:ROWS`` or ``triangle:ROWS`` with rows separated by ``/``
(``square:ooo/o.o/ooo``); the grid's pegs are the start position.  Used by the command
line and by the web worker, so both accept the same strings.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board
from .catalogue import get_board, get_entry
from .custom import board_from_text
from .errors import BoardLimitError
from .limits import MAX_SPEC_CHARS, check_text


@dataclass(frozen=True)
class BoardSpec:
    """A resolved board with the start position and goal to use when none is given."""

    board: Board
    start: int
    goal: str


def resolve_board(spec: str) -> BoardSpec:
    """Resolve a catalogue id or a ``square:``/``triangle:`` custom grid."""
    text = check_text(spec, "board", MAX_SPEC_CHARS, BoardLimitError).strip()
    for lattice in ("square", "triangle"):
        if text.lower().startswith(lattice + ":"):
            board, pos = board_from_text(text[len(lattice) + 1:], lattice)
            return BoardSpec(board, pos, "min")
    board = get_board(text)
    entry = get_entry(text)
    return BoardSpec(board, board.start(entry.start), entry.goal)
