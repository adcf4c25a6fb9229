"""Positions as text: one line per row, ``o`` a peg, ``.`` an empty hole.

The canonical form written by :func:`format_position` draws square boards on their grid
(a space where the board has no hole) and triangles centred, cells one space apart.
:func:`parse_position` reads that and common variants: ``x``/``X``/``O``/``*``/``1`` for a
peg, ``.``/``_``/``-``/``0`` for an empty hole, rows separated by newlines or ``/``, with
or without the alignment spaces (the symbols of a row are given to its holes in order).

>>> from pyapp.core.catalogue import get_board
>>> b = get_board("triangle4")
>>> print(format_position(b, b.start("1")))
   .
  o o
 o o o
o o o o
>>> parse_position(b, "./oo/ooo/oooo") == b.start("1")
True
"""

from __future__ import annotations

from functools import lru_cache

from .board import BOARD_CACHE_SIZE, Board
from .errors import PositionError
from .limits import grid_rows

PEG_CHARS = frozenset("oOxX*1")
EMPTY_CHARS = frozenset("._-0")


@lru_cache(maxsize=BOARD_CACHE_SIZE)
def _rows(board: Board) -> tuple[tuple[tuple[int, tuple[tuple[int, int], ...]], ...], tuple[tuple[int, ...], ...]]:
    """``board``'s rows, worked out once per board (a solve request formats and parses a position each
    time): for drawing, each row's width and its holes as ``(x, bit)``; for reading, each row's bits."""
    by_row: dict[int, list[tuple[int, int]]] = {}
    for (r, c), bit in zip(board.cells, board.bits):
        by_row.setdefault(r, []).append((c, bit))
    height = board.height
    drawn = []
    for r in range(height):
        cells = by_row.get(r, [])
        if board.lattice.name == "square":
            xs = cells
        else:
            # skewed (r, c) is drawn at x = (height - 1 - r) + 2c: the usual centred triangle
            xs = [(height - 1 - r + 2 * c, bit) for c, bit in cells]
        drawn.append((max((x for x, _ in xs), default=-1) + 1, tuple(xs)))
    return tuple(drawn), tuple(tuple(bit for _, bit in by_row.get(r, [])) for r in range(height))


def format_position(board: Board, pos: int) -> str:
    """Canonical text of ``pos``: one line per row, no trailing spaces."""
    lines = []
    for width, cells in _rows(board)[0]:
        line = [" "] * width
        for x, bit in cells:
            line[x] = "o" if pos >> bit & 1 else "."
        lines.append("".join(line).rstrip())
    return "\n".join(lines)


def parse_position(board: Board, text: str) -> int:
    """Read position text for ``board``; raise :class:`PositionError` quoting what is wrong."""
    if not isinstance(text, str):
        raise PositionError(f"position must be text, not {type(text).__name__}")
    rows = grid_rows(text.replace("\r", ""), "position", "\n/|")
    row_bits = _rows(board)[1]
    height = len(row_bits)
    if len(rows) != height:
        raise PositionError(
            f"expected {height} rows for board {board.id!r}, got {len(rows)} in position {text!r}"
        )
    pos = 0
    for r, line in enumerate(rows):
        symbols = [ch for ch in line if not ch.isspace()]
        holes = row_bits[r]
        if len(symbols) != len(holes):
            raise PositionError(
                f"row {r + 1} of position {line.strip()!r} has {len(symbols)} cells, "
                f"board {board.id!r} has {len(holes)} holes in that row"
            )
        for ch, bit in zip(symbols, holes):
            if ch in PEG_CHARS:
                pos |= 1 << bit
            elif ch not in EMPTY_CHARS:
                raise PositionError(
                    f"unexpected character {ch!r} in row {r + 1} of position {line.strip()!r}: "
                    "expected 'o' (peg) or '.' (empty hole)"
                )
    return pos


def count_pegs(pos: int) -> int:
    """Number of pegs in ``pos``."""
    return pos.bit_count()
