"""The page's whole-board table (issue 9): what the worker sends for it, by start hole.

:mod:`pyapp.analysis.table` solves one start per symmetry class; the page shows every hole as a
start.  :func:`by_start` maps each computed start's finishes onto the other starts of its class
(the same board symmetry maps the start, the finishing holes and every hole of the solution),
sums each start up (``verdict``: every finish the position class allows solved, some, none, some
undecided, or not computed yet) and groups its reasons as the finishes map does
(:func:`pyapp.web.play.finish_groups`), so ``static/panels/table.mjs`` only draws and caches.

:func:`info` is what the page says before it starts: how many problems, how many need a search
(the position class settles the others at once), the budget, and the code version the page keys
its browser cache with (:func:`code_version`: a hash of ``pyapp``'s sources, so a build that
changes the engine never shows an old table).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any

from ..analysis.table import Cell, Table, single_vacancy_starts
from ..core.board import Board
from .play import finish_groups

NOT_COMPUTED = "not computed: the table was cancelled before this problem"


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """16 hex digits of a SHA-256 over every ``pyapp`` source file (names and bytes)."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _allowed(board: Board, start: int) -> list[str]:
    """The finishing holes the start's position class allows (the others are settled at once)."""
    cls = board.position_class(start)
    return [n for n in board.names if board.position_class(1 << board.bit_of[n]) == cls]


def info(board: Board, problem_seconds: float) -> dict:
    """The table's size before it starts: starts up to symmetry, problems, those needing a search,
    and the longest it can take (each such problem using its whole budget)."""
    starts = single_vacancy_starts(board)
    searched = sum(len(_allowed(board, board.start(s))) for s in starts)
    return {"board": board.id, "version": code_version(), "starts": len(starts), "holes": len(board),
            "problems": len(starts) * len(board), "searched": searched, "problem_seconds": problem_seconds,
            "worst_seconds": round(searched * problem_seconds, 1)}


def symmetric_starts(board: Board) -> dict[str, tuple[str, int]]:
    """Every hole as a start: ``(computed start of its class, symmetry index mapping it there)``."""
    out: dict[str, tuple[str, int]] = {}
    for rep in single_vacancy_starts(board):
        bit = board.bit_of[rep]
        for i in range(len(board.symmetries)):
            out.setdefault(board.name_of[board.permutation(i)[bit]], (rep, i))
    return out


def _mapper(board: Board, index: int):
    names = {board.name_of[a]: board.name_of[b] for a, b in board.permutation(index).items()}

    def move(text: str) -> str:
        return "-".join(names[h] for h in text.split("-"))

    return names, move


def _summary(board: Board, start: str, possible: dict, impossible: dict, unknown: dict, missing: int) -> dict:
    allowed = len(_allowed(board, board.start(start)))
    solved = len(possible)
    if missing:
        verdict = "pending"
    elif unknown:  # (the cells not computed are among them: none here)
        verdict = "unknown"
    elif solved and solved == allowed:
        verdict = "all"
    else:
        verdict = "some" if solved else "none"
    return {"verdict": verdict, "solved": solved, "impossible": len(impossible), "unknown": len(unknown) - missing,
            "allowed": allowed, "missing": missing}


def by_start(board: Board, table: Table, only: str | None = None) -> dict[str, Any]:
    """Every hole as a start: ``{summary, finishes: {possible, impossible, unknown, groups}}``,
    computed starts as answered, the others mapped by symmetry; cells a cancel left undone are
    unknown with :data:`NOT_COMPUTED`.  ``only``: just the starts of that computed start's class."""
    cells: dict[str, dict[str, Cell]] = {}
    for cell in table.cells:
        cells.setdefault(cell.start, {})[cell.finish] = cell
    out: dict[str, Any] = {}
    for hole, (rep, index) in symmetric_starts(board).items():
        if only is not None and rep != only:
            continue
        names, move = _mapper(board, index)
        done = cells.get(rep, {})
        possible: dict[str, list[str]] = {}
        impossible: dict[str, str] = {}
        unknown: dict[str, str] = {}
        for finish in board.names:
            c = done.get(finish)
            where = names[finish]
            if c is None:
                unknown[where] = NOT_COMPUTED
            elif c.status == "solved":
                possible[where] = [move(m) for m in c.moves]
            elif c.status == "impossible":
                impossible[where] = c.reason or "impossible"
            else:
                unknown[where] = f"{c.reason or 'budget spent'} (stopped after {c.nodes:,} nodes, {c.seconds:.1f} s)"
        missing = len(board.names) - len(done)
        out[hole] = {"computed": rep, "summary": _summary(board, hole, possible, impossible, unknown, missing),
                     "finishes": {"possible": possible, "impossible": impossible, "unknown": unknown,
                                  "groups": finish_groups(board, possible, impossible, unknown)}}
    return out
