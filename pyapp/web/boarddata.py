"""The data the page needs to draw and play every catalogue board without Python.

``build.py`` writes :func:`catalogue_data` to ``dist/boards.json``; ``static/play/rules.mjs`` reads
it and plays jumps in the page (selection, legal targets, apply, undo, redo, the address) from
the first paint, while Python starts in the worker.  The rules are not written twice: the page
only looks up what is generated here from :mod:`pyapp` itself (hole names, cells, drawing
coordinates, the position-text layout, every jump as three hole indices in the order of
:func:`pyapp.core.moves.legal_jumps`, the goals as the web API describes them, the default problem and
its drawing), and
``tests/browser/test_rules.py`` plays random games on every board in the page and compares
each legal-jump set, position and end message with :func:`pyapp.web.api.state`.
"""

from __future__ import annotations

from ..core.board import Board
from ..core.catalogue import ENTRIES, get_board
from ..core.goal import Goal
from ..core.render import hole_coordinates, render_svg
from .api import _goal_dict  # the page's goal object: written once, in the web API

FORMAT = 1
"""Bumped when the shape below changes (``rules.mjs`` refuses other formats)."""


def _text_columns(board: Board) -> list[list[int]]:
    """``[row, column]`` of each hole in the position text (see :func:`pyapp.core.position.format_position`)."""
    height = board.height
    if board.lattice.name == "square":
        return [[r, c] for r, c in board.cells]
    return [[r, height - 1 - r + 2 * c] for r, c in board.cells]


def _jumps(board: Board) -> list[list[int]]:
    """Every jump in both directions as hole indices, sorted by source then destination
    (the order :func:`pyapp.core.moves.legal_jumps` lists them in)."""
    index = {bit: i for i, bit in enumerate(board.bits)}
    out = []
    for a, b, c in board.lines:
        out.append([index[a], index[b], index[c]])
        out.append([index[c], index[b], index[a]])
    return sorted(out, key=lambda j: (j[0], j[2]))


def board_data(board_id: str) -> dict:
    """One catalogue board: what ``rules.mjs`` needs to draw it and play on it."""
    entry = next(e for e in ENTRIES if e.id == board_id)
    board = get_board(board_id)
    start = board.start(entry.start)
    goal = Goal.parse(board, None, entry.goal)
    hole = goal.hole_name(board)
    coords = hole_coordinates(board)
    return {
        "id": board.id,
        "title": board.title,
        "lattice": board.lattice.name,
        "default_start": entry.start,
        "default_goal": entry.goal,
        "names": list(board.names),
        "cells": [[r, c] for r, c in board.cells],
        "xy": [list(coords[n]) for n in board.names],
        "text": _text_columns(board),
        "rows": board.height,
        "jumps": _jumps(board),
        # every goal the page can set without Python, as the engine describes it
        "goals": {text: _goal_dict(board, Goal.parse(board, text)) for text in ("any", "min", *board.names)},
        "svg": render_svg(board, start, goal=board.bit_of[hole] if hole else None),
    }


def catalogue_data() -> dict:
    """Every catalogue board, in the catalogue's order."""
    return {"format": FORMAT, "boards": [board_data(e.id) for e in ENTRIES]}
