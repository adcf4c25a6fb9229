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

:func:`answer` is the ``table`` request's answer, whether one worker computed every start or the
page's pool computed them start by start (``table`` with ``starts``, then ``table_merge``:
:func:`merge_request` checks the cells the pool sent back, replays every solution, and answers
from them as one worker would).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any

from ..analysis.table import DEFAULT_PROBLEM_SECONDS, Cell, Table, single_vacancy_starts
from ..core import fields
from ..core.board import Board
from ..core.budget import wasm_heap_bytes
from ..core.errors import PegError
from ..core.game import replay
from ..core.limits import MAX_SPEC_CHARS
from ..core.spec import resolve_board
from .play import finish_groups

STATUSES = ("solved", "impossible", "unknown")

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
    return {"board": board.id, "version": code_version(), "starts": len(starts), "start_holes": starts,
            "holes": len(board),
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


def answer(board: Board, table: Table, problem_seconds: float, share: bool = False) -> dict:
    """The ``table`` request's answer: counts, every cell, every hole as a start (:func:`by_start`),
    the code version, and the WebAssembly heap where there is one (the page's memory figure).

    ``share`` (a pool worker's share of the starts): ``starts`` holds only the classes of the starts
    it finished, so that a cancelled share answers at once (the whole board's :func:`by_start` costs
    a few hundred ms in Pyodide; :func:`merge_request` computes it once for the whole table)."""
    heap = wasm_heap_bytes()
    if share:
        done: dict[str, int] = {}
        for c in table.cells:
            done[c.start] = done.get(c.start, 0) + 1
        starts = {}
        for start in (s for s, n in done.items() if n == len(board)):
            starts.update(by_start(board, table, only=start))
    else:
        starts = by_start(board, table)
    return {"board": board.id, "counts": table.counts(), "cancelled": table.cancelled,
            "wasm_heap_mb": None if heap is None else round(heap / 2**20, 1),
            "seconds": round(table.seconds, 3), "problem_seconds": problem_seconds, "version": code_version(),
            "cells": [{"start": c.start, "finish": c.finish, "status": c.status, "reason": c.reason,
                       "moves": c.moves, "method": c.method, "seconds": c.seconds, "nodes": c.nodes}
                      for c in table.cells],
            "starts": starts}


def requested_starts(board: Board, args: dict) -> list[str] | None:
    """The ``starts`` of a ``table`` request (a pool worker's share), each a start the table computes
    (the first hole of its symmetry class, as in :func:`info`'s ``start_holes``); None: all of them."""
    wanted = fields.text_list(args, "starts", limit=len(board))
    if wanted is None:
        return None
    computed = single_vacancy_starts(board)
    wrong = [w for w in wanted if w not in computed]
    if wrong or not wanted:
        raise PegError(f"'starts' must name starts the table computes ({', '.join(computed)}), "
                       f"not {', '.join(wrong) or 'none'}")
    return [c for c in computed if c in wanted]


def _cell(board: Board, raw: object, starts: list[str]) -> Cell:
    if not isinstance(raw, dict):
        raise PegError(f"a table cell must be an object, not {fields.kind(raw)}")
    start, finish = raw.get("start"), raw.get("finish")
    status, moves = raw.get("status"), raw.get("moves")
    if start not in starts or finish not in board.name_of.values() or status not in STATUSES:
        raise PegError(f"a table cell must have a computed start, a hole of {board.id} and a status, "
                       f"not {start!r} -> {finish!r} ({status!r})")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise PegError(f"the cell {start} -> {finish} must list its moves as text")
    start, finish = str(start), str(finish)
    if status == "solved":
        err = replay(board, board.start(start), moves).not_one_peg_on(board.hole(finish))
        if err:
            raise PegError(f"the solution of {start} -> {finish} does not replay: {err}")
    return Cell(start, finish, str(status), fields.text(raw, "reason", 4000), moves,
                fields.text(raw, "method", 1000, "") or "", fields.number(raw, "seconds", 0.0, low=-1.0),
                fields.integer(raw, "nodes", 0) or 0)


def merge_request(args: dict) -> dict:
    """``table_merge``: the answer of a table the page's pool computed start by start: ``board``,
    ``problem_seconds``, ``cells`` (every pool worker's cells), ``cancelled``, ``seconds`` (wall)."""
    args = fields.request(args)
    board = resolve_board(fields.text(args, "board", MAX_SPEC_CHARS, "english") or "english").board
    raw = args.get("cells")
    starts = single_vacancy_starts(board)
    if not isinstance(raw, list) or len(raw) > len(starts) * len(board):
        raise PegError(f"'cells' must be a list of at most {len(starts) * len(board)} cells, not {fields.kind(raw)}"
                       + (f" of {len(raw)}" if isinstance(raw, list) else ""))
    cells = [_cell(board, c, starts) for c in raw]
    if len({(c.start, c.finish) for c in cells}) != len(cells):
        raise PegError("'cells' lists a start/finish problem twice")
    order = {name: i for i, name in enumerate(board.names)}
    cells.sort(key=lambda c: (starts.index(c.start), order[c.finish]))
    table = Table(board.id, cells, fields.number(args, "seconds", 0.0, low=-1.0),
                  fields.flag(args, "cancelled", False))
    return answer(board, table, fields.number(args, "problem_seconds", DEFAULT_PROBLEM_SECONDS))
