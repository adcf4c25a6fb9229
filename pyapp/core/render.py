"""SVG and text rendering of a board and position, pure Python.

Every hole is one ``<g>`` element with ``data-hole="NAME"``, its centre in ``data-x`` and
``data-y`` (user units, for animation and keyboard navigation), and the classes ``hole``,
plus ``peg`` when filled, ``selected``/``target``/``goal``/``last-from``/``last-over``/
``last-to`` when asked.  Inside it: a transparent ``rect.hit`` covering the hole's whole
cell (a large touch target), a ``circle.socket`` (the hole) and a ``circle.pin`` (the peg,
shown by CSS only when the group has the class ``peg``).  The JS layer only toggles these
classes and moves pins, so the page never parses positions itself.  Coordinates are in
hole units (``unit`` px apart) inside a ``viewBox``.

Coordinates (on by default) are ``text.coord`` elements in one ``g.coords`` drawn after the
holes, outside every hole group and ignored by pointers and screen readers (each hole's
``<title>`` already names it).  On square boards the column letters run along the
bottom edge and the row numbers along the left edge, in a thin strip (``COORD_MARGIN``)
added by widening the ``viewBox`` to negative x (hole coordinates do not move), spelling the
notation's names (``d4``); on triangles each hole carries its number (no strip).
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from .board import Board
from .moves import Jump
from .position import format_position

UNIT = 40.0
RADIUS = 0.34
PIN_RADIUS = 0.29
ROW_HEIGHT_TRIANGLE = 0.8660254037844386
COORD_MARGIN = 0.35
"""Width of the strip (in hole units) added left of and below a square board for its coordinates."""


def hole_xy(board: Board, bit: int, unit: float = UNIT) -> tuple[float, float]:
    """Centre of a hole in SVG user units: square grid, or a centred equilateral triangle."""
    r, c = board.cell_of[bit]
    if board.lattice.name == "square":
        return (c + 0.5) * unit, (r + 0.5) * unit
    h = board.height
    x = (h - 1 - r) / 2 + c + 0.5
    y = r * ROW_HEIGHT_TRIANGLE + 0.5
    return x * unit, y * unit


def hole_coordinates(board: Board, unit: float = UNIT) -> dict[str, tuple[float, float]]:
    """Centre of every hole by name, rounded as in the SVG (what the page animates with)."""
    return {name: tuple(round(v, 1) for v in hole_xy(board, bit, unit))  # type: ignore[misc]
            for bit, name in zip(board.bits, board.names)}


def coordinate_labels(board: Board, unit: float = UNIT) -> list[tuple[str, float, float, str]]:
    """``(text, x, y, kind)`` of every coordinate label; ``kind`` is ``file`` (a column letter,
    along the bottom edge), ``rank`` (a row number, along the left edge) or ``number`` (a
    triangle hole's number, on the hole).  Square boards take the letters and numbers from the
    hole names themselves, so labels and notation always agree."""
    labels: list[tuple[str, float, float, str]] = []
    if board.lattice.name != "square":
        for bit, name in zip(board.bits, board.names):
            x, y = hole_xy(board, bit, unit)
            labels.append((name, x, y, "number"))
        return labels
    files: dict[int, tuple[str, float]] = {}
    ranks: dict[int, tuple[str, float]] = {}
    bottom = 0.0
    for bit, name in zip(board.bits, board.names):
        r, c = board.cell_of[bit]
        x, y = hole_xy(board, bit, unit)
        files[c] = (name.rstrip("0123456789"), x)
        ranks[r] = (name.lstrip("abcdefghijklmnopqrstuvwxyz"), y)
        bottom = max(bottom, y)
    # in a strip of COORD_MARGIN units added below and left of the board
    for c in sorted(files):
        text, x = files[c]
        labels.append((text, x, bottom + (0.5 + COORD_MARGIN / 2) * unit, "file"))
    for r in sorted(ranks):
        text, y = ranks[r]
        labels.append((text, -COORD_MARGIN / 2 * unit, y, "rank"))
    return labels


def _coords_group(board: Board, unit: float) -> str:
    size = 0.27 * unit if board.lattice.name == "square" else 0.3 * unit
    anchor = {"file": "middle", "rank": "middle", "number": "middle"}
    baseline = {"file": "central", "rank": "central", "number": "central"}
    parts = [f'<g class="coords" aria-hidden="true" font-size="{size:.1f}">']
    for text, x, y, kind in coordinate_labels(board, unit):
        parts.append(f'<text class="coord coord-{kind}" x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor[kind]}" '
                     f'dominant-baseline="{baseline[kind]}">{escape(text)}</text>')
    parts.append("</g>")
    return "".join(parts)


def render_svg(board: Board, pos: int, *, selected: Iterable[int] = (), targets: Iterable[int] = (),
               last: Jump | None = None, goal: int | None = None, unit: float = UNIT,
               title: str | None = None, coordinates: bool = True) -> str:
    """An ``<svg>`` element drawing ``board`` with the pegs of ``pos``.

    Keyword-only options:
      selected: bits to mark with class ``selected`` (the peg the player picked).
      targets: bits to mark with class ``target`` (legal destinations).
      last: the last jump, marked ``last-from``/``last-over``/``last-to``.
      goal: the bit of the goal hole, marked ``goal`` (None: no mark).
      unit: distance between neighbouring holes in user units.
      title: an accessible title (defaults to the board's title).
      coordinates: draw the coordinate labels (``text.coord``; the page can hide them with CSS).
    """
    sel, tgt = set(selected), set(targets)
    marks: dict[int, str] = {}
    if last is not None:
        marks = {last[0]: "last-from", last[1]: "last-over", last[2]: "last-to"}
    xs, ys = zip(*(hole_xy(board, b, unit) for b in board.bits))
    width = max(xs) + unit / 2
    height = max(ys) + unit / 2
    left = 0.0
    if coordinates and board.lattice.name == "square":
        left = -COORD_MARGIN * unit
        width -= left
        height -= left
    # a full unit square even on triangles, whose rows are 0.87 apart: a touch target no smaller than
    # the spacing of holes (the overlap lies outside every drawn hole; the lower row is drawn on top)
    cell_h = unit
    label = escape(title if title is not None else board.title)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="{left:.1f} 0 {width:.1f} {height:.1f}" '
        f'role="img" aria-label="{label}" data-board="{escape(board.id)}" data-lattice="{board.lattice.name}">',
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
        if goal is not None and bit == goal:
            classes.append("goal")
        if bit in marks:
            classes.append(marks[bit])
        n = escape(name)
        parts.append(
            f'<g class="{" ".join(classes)}" data-hole="{n}" data-x="{x:.1f}" data-y="{y:.1f}">'
            f"<title>{n}</title>"
            f'<rect class="hit" x="{x - unit / 2:.1f}" y="{y - cell_h / 2:.1f}" '
            f'width="{unit:.1f}" height="{cell_h:.1f}"/>'
            f'<circle class="socket" cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS * unit:.1f}"/>'
            f'<circle class="pin" cx="{x:.1f}" cy="{y:.1f}" r="{PIN_RADIUS * unit:.1f}"/></g>'
        )
    if coordinates:
        parts.append(_coords_group(board, unit))
    parts.append("</svg>")
    return "\n".join(parts)


def render_text(board: Board, pos: int) -> str:
    """The canonical position text (see :mod:`pyapp.core.position`)."""
    return format_position(board, pos)
