"""Custom boards: a board and its position from a text grid (links, the command line, the page's editor) or from
cells in lattice coordinates (the puzzle generator, the catalogue's tests).

A module of its own beside :mod:`.board`, which compiles any board's geometry: this one only reads what a user typed
and names what is wrong with it.
"""

from __future__ import annotations

from .board import Board
from .errors import BoardError, BoardLimitError
from .lattice import LATTICES, SQUARE, Cell
from .limits import grid_rows


def board_from_text(text: str, lattice: str = "square", board_id: str = "custom") -> tuple[Board, int]:
    """A custom board and its position from a text grid.

    Square lattice: one character per cell; ``o``/``x`` a peg, ``.`` an empty hole, a space
    (or ``_``) no hole.  Triangular lattice: cells of a row are two characters apart and
    neighbouring rows are offset by one, as the triangle is usually drawn::

            o
           o o
          o . o

    Rows may also be separated by ``/`` (handy in links and command lines).
    Returns ``(board, position)``.
    """
    lat = LATTICES.get(lattice)
    if lat is None:
        raise BoardError(f"unknown lattice {lattice!r}: expected 'square' or 'triangle'")
    rows = grid_rows(text, "custom board", error=BoardLimitError)
    if not rows:
        raise BoardError("custom board text is empty: expected rows of 'o' (peg), '.' (empty) and ' ' (no hole)")
    raw: list[tuple[int, int, bool]] = []
    for r, line in enumerate(rows):
        for x, ch in enumerate(line.rstrip()):
            if ch in " _":
                continue
            if ch in "oOxX*":
                raw.append((r, x, True))
            elif ch in ".-":
                raw.append((r, x, False))
            else:
                raise BoardError(
                    f"unexpected character {ch!r} in row {r + 1} of custom board {line!r}: "
                    "expected 'o' (peg), '.' (empty hole) or ' ' (no hole)"
                )
    if len(raw) < 3:
        raise BoardError(f"custom board {text!r} has {len(raw)} holes: at least 3 are needed for a jump")
    if lat is SQUARE:
        cells = [(r, x) for r, x, _ in raw]
    else:
        parities = {(r + x) & 1 for r, x, _ in raw}
        if len(parities) != 1:
            raise BoardError(
                f"custom triangular board {text!r} is not on one lattice: cells of a row must be two "
                "characters apart and each row offset by one from the next"
            )
        # doubled coordinates -> skewed lattice coordinates: (r, x) -> (r, (x + r) / 2)
        cells = [(r, (x + r) // 2) for r, x, _ in raw]
    return board_from_cells({cell: peg for cell, (_, _, peg) in zip(cells, raw)}, lat.name, board_id)


def board_from_cells(grid: dict[Cell, bool], lattice: str = "square",
                     board_id: str = "custom") -> tuple[Board, int]:
    """A custom board from its cells in lattice coordinates (triangles skewed: row ``r`` has
    columns up to ``r`` on a full triangle), each with True for a peg; returns ``(board, position)``.

    The cells are shifted so that the top row and the leftmost column are 0, so the bit of
    a given cell ``(r, c)`` is ``(r - top) * board.stride + (c - left)``.

    >>> b, pos = board_from_cells({(5, 5): True, (5, 6): True, (5, 7): False})
    >>> b.cells, pos.bit_count()
    (((0, 0), (0, 1), (0, 2)), 2)
    """
    lat = LATTICES.get(lattice)
    if lat is None:
        raise BoardError(f"unknown lattice {lattice!r}: expected 'square' or 'triangle'")
    if len(grid) < 3:
        raise BoardError(f"custom board has {len(grid)} holes: at least 3 are needed for a jump")
    top = min(r for r, _ in grid)
    left = min(c for _, c in grid)
    board = Board.from_cells(board_id, "Custom board", lat, [(r - top, c - left) for r, c in grid])
    pos = 0
    for (r, c), peg in grid.items():
        if peg:
            pos |= 1 << ((r - top) * board.stride + c - left)
    return board, pos
