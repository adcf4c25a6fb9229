"""The classic games' winnable sets, shipped with the site so never-lose answers from the first move.

``build.py`` computes the set of every game in :data:`SHIPPED` once per engine version
(:func:`pyapp.exact.store.engine_version`), writes it into ``dist/sets/`` in the checked compact format
of :mod:`pyapp.exact.store`, and lists the files in ``dist/sets/index.json`` (:func:`index_entry`).  The
worker fetches a game's file the first time never-lose or Hint asks about that game and hands the bytes
to :func:`load` (``pyapp.web.api.load_set``): from then on :func:`pyapp.exact.winnable.cached` holds the
set, and every never-lose verdict, losing jump and hint of that game is one lookup
(:mod:`pyapp.analysis.neverlose_exact`).  A file that fails its checks is refused with the reason, and
the worker drops it from its caches and fetches it once more; until a good one arrives the search
answers, so a damaged file is never trusted.

Left out: triangle 7 (about 500 CPU s to compute, too long for a build) and the other boards' standard
games (French: over 10 minutes); the English single-vacancy games other than the central one.
"""

from __future__ import annotations

import time
from typing import Any

from ..core.catalogue import get_board, get_entry
from ..core.errors import PegError
from ..core.position import parse_position
from ..core.problem import Problem, default_problem
from ..exact.store import decode, decode_ways, engine_version, identity, read_header
from ..exact.winnable import cached, is_loaded, register

SHIPPED = ("english", "triangle5", "triangle6")
"""Catalogue boards whose default game ships its winnable set (sizes in ``index.json``)."""


def file_name(board_id: str, kind: str = "winnable") -> str:
    """The file of a shipped board's default game (``kind``: ``winnable`` the set, ``ways`` the solutions
    left per position), as written into ``dist/sets/``."""
    entry = get_entry(board_id)
    return f"{board_id}-{entry.start}-{entry.goal}{'.ways' if kind == 'ways' else ''}.bin"


def index_entry(board_id: str, data: bytes, ways: bytes) -> dict:
    """What the worker needs to match a game to its file: board, start hole and goal as the page's game
    holds them (``default``: the board's default game, also when the page leaves start and goal out)."""
    entry = get_entry(board_id)
    header, _ = read_header(data)
    return {"board": board_id, "start": entry.start, "goal": entry.goal, "default": True,
            "file": file_name(board_id), "bytes": len(data), "keys": sum(n for _, n in header["levels"]),
            "ways": file_name(board_id, "ways"), "ways_bytes": len(ways), "engine": header["engine"]}


def problem_of(header: dict) -> Problem:
    """The problem a set file speaks for, from its header (a catalogue board, a start, a goal)."""
    board_id = header.get("board")
    if board_id not in SHIPPED:
        raise PegError(f"winnable set file: board {board_id!r} is not one whose sets are shipped")
    board = get_board(board_id)
    problem = default_problem(board_id)
    start = parse_position(board, str(header.get("start", "")))
    if start != problem.start or header.get("goal") != problem.goal.text(board):
        raise PegError(f"winnable set file: not the default game of {board_id}")
    return problem


def load(data: Any) -> dict:
    """Check and register a set file's bytes (a ``bytes``-like or a Pyodide proxy of a ``Uint8Array``);
    ``{"board", "keys", "bytes", "seconds"}``, or :class:`PegError` naming why the file is refused."""
    raw = data.to_bytes() if hasattr(data, "to_bytes") else bytes(data)
    started = time.perf_counter()
    header, _ = read_header(raw)
    problem = problem_of(header)
    if header.get("kind") == "ways":  # the solutions left per position: after the set they belong to
        win = cached(problem)
        if win is None or not is_loaded(problem):
            raise PegError("winnable set file: solution counts arrived before their winnable set")
        win.ways = decode_ways(raw, win)
    else:
        win = decode(raw, problem)
        register(win)
    return {"board": header["board"], "kind": header.get("kind", "winnable"), "keys": len(win), "bytes": len(raw),
            "engine": engine_version(), "seconds": round(time.perf_counter() - started, 4),
            "goal": identity(win.problem)["goal"]}
