"""Input size limits: one set of caps for the command line, the web API and share links.

Every user-supplied text (a board spec, a position, a goal, moves, a link) is measured here
on the raw text, before anything is built from it, so a short hostile input can never make
the engine allocate a huge grid: the cost of compiling a board grows with its bounding box
(rows x columns), not with its number of holes, so rows and columns are capped as well as holes.

The caps fit together: any board within :data:`MAX_ROWS`, :data:`MAX_COLUMNS` and
:data:`MAX_HOLES` is written by the engine's own canonical spec in at most
:data:`MAX_SPEC_CHARS` characters, and a whole game on it (board, position, goal and every
move) fits in a share link of at most :data:`MAX_LINK_CHARS` characters, so whatever the
engine accepts it can also write back and read again.  The page's link reader uses the same
numbers (``static/play/limits.mjs``, generated from this module by :func:`as_js`; a test keeps the
two equal).

>>> check_text("square:ooo", "board", MAX_SPEC_CHARS)
'square:ooo'
>>> check_text("o" * 5000, "board", MAX_SPEC_CHARS)
Traceback (most recent call last):
...
pyapp.core.errors.LimitError: board is too long (5000 characters, at most 2063)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from .errors import BoardLimitError, LimitError

MAX_ROWS = 26
"""Rows of a board (square boards name rows by number; 26 keeps every board drawable and clickable)."""
MAX_COLUMNS = 26
"""Columns of a board's grid: letters ``a``..``z`` on square boards; skewed columns on triangles."""
MAX_HOLES = 400
"""Holes of a board."""
MAX_ROW_CHARS = 2 * MAX_COLUMNS + MAX_ROWS
"""Characters in one row of board or position text: a triangle drawn centred needs
``(rows - 1) + 2 * (columns - 1) + 1`` characters, which is less than this."""
MAX_TEXT_CHARS = MAX_ROWS * (MAX_ROW_CHARS + 1)
"""Board grid or position text (rows joined by ``/`` or newlines)."""
MAX_SPEC_CHARS = len("triangle:") + MAX_TEXT_CHARS
"""A board spec: a catalogue id or ``square:``/``triangle:`` and a grid."""
MAX_GOAL_CHARS = len("target:") + MAX_TEXT_CHARS
"""A goal: a hole name, ``any``, ``min`` or ``target:`` and position text."""
MAX_HOLE_CHARS = 10
"""A hole name (``d4``, ``351``)."""
MAX_MOVES = MAX_HOLES
"""Moves in a game: every jump removes a peg, so a game has fewer jumps than the board has holes."""
MAX_MOVES_CHARS = 8 * MAX_HOLES
"""All the moves of a game in notation, separators included (a jump is at most ``z26-x26,``)."""
MAX_LINK_CHARS = (len("board=") + MAX_SPEC_CHARS + len("&pos=") + MAX_TEXT_CHARS
                  + len("&goal=") + MAX_GOAL_CHARS + len("&moves=") + MAX_MOVES_CHARS)
"""A share link's fragment: a whole game at the limits above fits."""
MAX_CNF_JUMP_VARIABLES = 200_000
"""The CNF the page may download: jumps to make x possible jumps (one variable each).  The 12 x 12
square (143 jumps x 480) is about 69,000 and 9 MB of text; a 400-hole board would be 87 MB and 5 s of
processor time in one call that cannot be cancelled: the command line writes those to a file."""
MAX_SECONDS = 7 * 24 * 3600.0
"""The largest time budget accepted (a week); budgets must be finite and positive."""

_NO_HOLE = frozenset(" _\t\r")


def check_text(text: str, what: str, limit: int, error: type[LimitError] = LimitError) -> str:
    """``text`` itself when it is a string of at most ``limit`` characters, else ``error``."""
    if not isinstance(text, str):
        raise error(f"{what} must be text, not {type(text).__name__}")
    if len(text) > limit:
        raise error(f"{what} is too long ({len(text)} characters, at most {limit})")
    return text


def grid_rows(text: str, what: str, separators: str = "/\n", error: type[LimitError] = LimitError) -> list[str]:
    """The rows of board or position text (blank rows at either end dropped), after checking
    the text's length, the number of rows and each row's length on the raw text."""
    check_text(text, what, MAX_TEXT_CHARS, error)
    for sep in separators[1:]:
        text = text.replace(sep, separators[0])
    rows = text.split(separators[0])
    start, end = 0, len(rows)
    while start < end and not rows[start].strip():
        start += 1
    while end > start and not rows[end - 1].strip():
        end -= 1
    rows = rows[start:end]
    if len(rows) > MAX_ROWS:
        raise error(f"{what} has {len(rows)} rows: at most {MAX_ROWS} rows are supported")
    for i, row in enumerate(rows, 1):
        if len(row.rstrip()) > MAX_ROW_CHARS:
            raise error(f"row {i} of {what} is too long ({len(row.rstrip())} characters, "
                             f"at most {MAX_ROW_CHARS})")
    holes = sum(1 for row in rows for ch in row if ch not in _NO_HOLE)
    if holes > MAX_HOLES:
        raise error(f"{what} has {holes} holes: at most {MAX_HOLES} holes are supported")
    return rows


def check_cells(cells: Sequence[tuple[int, int]], what: str = "board") -> None:
    """Refuse a hole list whose count or bounding box is over the limits (before compiling it)."""
    if len(cells) > MAX_HOLES:
        raise BoardLimitError(f"{what} has {len(cells)} holes: at most {MAX_HOLES} holes are supported")
    if not cells:
        return
    rows = max(r for r, _ in cells) - min(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) - min(c for _, c in cells) + 1
    if rows > MAX_ROWS:
        raise BoardLimitError(f"{what} spans {rows} rows: at most {MAX_ROWS} rows are supported")
    if cols > MAX_COLUMNS:
        raise BoardLimitError(f"{what} spans {cols} columns: at most {MAX_COLUMNS} columns are supported")


def check_moves(moves: Iterable[str], what: str = "moves") -> list[str]:
    """The moves as a list after checking their number and total length (moves must be text)."""
    out: list[str] = []
    total = 0
    for move in moves:
        if not isinstance(move, str):
            raise LimitError(f"{what} must be text in notation, not {type(move).__name__}")
        out.append(move)
        total += len(move) + 1
        if len(out) > MAX_MOVES:
            raise LimitError(f"too many {what} (more than {MAX_MOVES})")
        if total > MAX_MOVES_CHARS:
            raise LimitError(f"{what} are too long (more than {MAX_MOVES_CHARS} characters)")
    return out


def check_seconds(value: float, what: str = "time budget") -> float:
    """A time budget: a finite number of seconds, more than 0 and at most :data:`MAX_SECONDS`."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise LimitError(f"{what} must be a number of seconds, not {type(value).__name__}")
    if not math.isfinite(value) or value <= 0:
        raise LimitError(f"{what} must be a finite number of seconds > 0, got {value!r}")
    if value > MAX_SECONDS:
        raise LimitError(f"{what} of {value:g} s is over the limit of {MAX_SECONDS:g} s (one week)")
    return float(value)


def as_dict() -> dict[str, int]:
    """Every limit by name (what the page reads)."""
    return {name: int(value) for name, value in globals().items()
            if name.startswith("MAX_") and isinstance(value, int | float)}


def as_js() -> str:
    """The text of ``static/play/limits.mjs``: the same limits for the page's link reader."""
    lines = ["// Generated from pyapp/core/limits.py by `python -m pyapp.core.limits > static/play/limits.mjs`;"
             " do not edit.",
             "// tests/test_limits.py checks that this file equals what pyapp generates."]
    lines += [f"export const {name} = {value};" for name, value in as_dict().items()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(as_js(), end="")
