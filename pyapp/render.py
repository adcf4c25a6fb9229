"""SVG and text rendering of a board and position, pure Python.

Every hole is one ``<circle>`` with ``data-hole="NAME"`` and the classes ``hole``, plus
``peg`` when filled, ``selected``/``target``/``last-from``/``last-over``/``last-to``
when asked; the JS layer only toggles these classes, so the page never parses positions
itself.  Coordinates are in hole units (``unit`` px apart) inside a ``viewBox``.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from .board import Board
from .moves import Jump
from .position import format_position

UNIT = 40.0
RADIUS = 0.34


def hole_xy(board: Board, bit: int, unit: float = UNIT) -> tuple[float, float]:
    """Centre of a hole in SVG user units: square grid, or a centred equilateral triangle."""
    r, c = board.cell_of[bit]
    if board.lattice.name == "square":
        return (c + 0.5) * unit, (r + 0.5) * unit
    h = board.height
    x = (h - 1 - r) / 2 + c + 0.5
    y = r * 0.8660254037844386 + 0.5
    return x * unit, y * unit


def render_svg(board: Board, pos: int, *, selected: Iterable[int] = (), targets: Iterable[int] = (),
               last: Jump | None = None, unit: float = UNIT, title: str | None = None) -> str:
    """An ``<svg>`` element drawing ``board`` with the pegs of ``pos``.

    Keyword-only options:
      selected: bits to mark with class ``selected`` (the peg the player picked).
      targets: bits to mark with class ``target`` (legal destinations).
      last: the last jump, marked ``last-from``/``last-over``/``last-to``.
      unit: distance between neighbouring holes in user units.
      title: an accessible title (defaults to the board's title).
    """
    sel, tgt = set(selected), set(targets)
    marks: dict[int, str] = {}
    if last is not None:
        marks = {last[0]: "last-from", last[1]: "last-over", last[2]: "last-to"}
    xs, ys = zip(*(hole_xy(board, b, unit) for b in board.bits))
    width = max(xs) + unit / 2
    height = max(ys) + unit / 2
    label = escape(title if title is not None else board.title)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {width:.1f} {height:.1f}" '
        f'role="img" aria-label="{label}" data-board="{escape(board.id)}">',
        f"<title>{label}</title>",
    ]
    for bit, name in zip(board.bits, board.names):
        x, y = hole_xy(board, bit, unit)
        classes = ["hole"]
        if pos >> bit & 1:
            classes.append("peg")
        if bit in sel:
            classes.append("selected")
        if bit in tgt:
            classes.append("target")
        if bit in marks:
            classes.append(marks[bit])
        parts.append(
            f'<circle class="{" ".join(classes)}" data-hole="{escape(name)}" '
            f'cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS * unit:.1f}"><title>{escape(name)}</title></circle>'
        )
    parts.append("</svg>")
    return "\n".join(parts)


def render_text(board: Board, pos: int) -> str:
    """The canonical position text (see :mod:`pyapp.position`)."""
    return format_position(board, pos)
