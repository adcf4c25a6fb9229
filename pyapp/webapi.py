"""The Python side of the web worker protocol: JSON in, JSON out.

The worker (``static/worker.mjs``) calls :func:`call` for one-shot requests and
:func:`start` for long ones (``solve``, ``bench``), which return a :class:`Job` that the
worker drives slice by slice, giving the browser's event loop a turn between slices so
that a cancel message is seen at once.  Every value crossing to JavaScript is plain JSON
(a ``str``): positions travel as position text, holes by name, never as big ints.

Errors on bad input are :class:`~pyapp.errors.PegError` with a message meant for the
user; the worker turns them into ``{type: "error", message}`` replies.
"""

from __future__ import annotations

import importlib
import inspect
import json
import time
from collections.abc import Callable, Generator, Iterator
from typing import Any

from . import fields
from .board import Board, board_from_text
from .catalogue import CATALOGUE, ENTRIES, get_board
from .errors import PegError
from .game import replay
from .limits import (
    MAX_GOAL_CHARS,
    MAX_HOLE_CHARS,
    MAX_HOLES,
    MAX_MOVES_CHARS,
    MAX_SPEC_CHARS,
    MAX_TEXT_CHARS,
    check_cells,
    check_moves,
)
from .moves import Jump, count_moves, has_jump, legal_jumps
from .notation import format_moves
from .position import format_position, parse_position
from .problem import Goal, Problem, Result, parse_goal
from .render import hole_coordinates, render_svg
from .spec import resolve_board

DEFAULT_SOLVE_SECONDS = 60.0
SLICE_SECONDS = 0.05


class FeatureMissing(PegError):
    """A feature whose module is not part of this build."""


# ---------------------------------------------------------------- helpers
def _optional(module: str, feature: str):
    """Import ``pyapp.<module>`` lazily; a clear message when it is absent."""
    try:
        return importlib.import_module(f"pyapp.{module}")
    except ImportError as err:
        raise FeatureMissing(f"{feature} is not available in this build (pyapp.{module}: {err})") from None


def _text(value: Any, what: str, limit: int = MAX_SPEC_CHARS) -> str:
    got = fields.text({what: value}, what, limit)
    if got is None:
        raise PegError(f"{what!r} is empty")
    return got


def _names(board: Board, jump: Jump) -> list[str]:
    return [board.name_of[b] for b in jump]


def _move_list(moves: Any) -> list[str]:
    if moves is None:
        return []
    if isinstance(moves, str):
        moves = [m for m in _text(moves, "moves", MAX_MOVES_CHARS).replace(",", " ").split() if m]
    if not isinstance(moves, list | tuple) or not all(isinstance(m, str) for m in moves):
        raise PegError("'moves' must be a list of moves in notation, like ['f4-d4', 'd2-d4']")
    return check_moves(moves, "'moves'")


def board_spec(board: Board, pos: int) -> str:
    """The spec string that recreates a custom board with ``pos`` as its start (``square:oo_/...``)."""
    if board.id in CATALOGUE:
        return board.id
    text = format_position(board, pos)
    # '_' marks "no hole" (board_from_text reads it like a space) and keeps links readable
    rows = [row.replace(" ", "_") for row in text.split("\n")]
    return f"{board.lattice.name}:" + "/".join(rows)


def _goal_dict(board: Board, goal: Goal) -> dict:
    if goal.kind == "hole":
        name = board.name_of[goal.target.bit_length() - 1]
        return {"kind": "hole", "hole": name, "text": name}
    if goal.kind == "target":
        # without alignment spaces (parse_position reads a row's symbols in order): short in a link
        text = "/".join(row.replace(" ", "") for row in format_position(board, goal.target).split("\n"))
        return {"kind": "target", "hole": None, "text": "target:" + text}
    return {"kind": goal.kind, "hole": None, "text": goal.kind}


class _Setup:
    """A resolved request: board, start, goal and the moves played so far (validated)."""

    def __init__(self, args: dict) -> None:
        args = fields.request(args)
        # sizes are checked on the raw text (pyapp.limits) before any board is compiled
        spec = resolve_board(fields.text(args, "board", MAX_SPEC_CHARS, "english") or "english")
        board = spec.board
        start = fields.text(args, "start", MAX_HOLE_CHARS)
        position = fields.text(args, "position", MAX_TEXT_CHARS)
        if start and position:
            raise PegError("give either a start hole or a position, not both")
        if position:
            pos = parse_position(board, position)
        elif start:
            pos = board.start(start)
        else:
            pos = spec.start
        goal = parse_goal(board, fields.text(args, "goal", MAX_GOAL_CHARS), spec.goal)
        moves = _move_list(args.get("moves"))
        rep = replay(board, pos, moves)
        if not rep.valid:
            raise PegError(f"the moves do not replay: {rep.error}")
        self.board, self.start, self.goal = board, pos, goal
        self.default_goal = spec.goal
        self.spec = board_spec(board, spec.start)
        self.jumps = rep.jumps
        self.pos = rep.final

    def problem(self) -> Problem:
        return Problem(self.board, self.pos, self.goal)


def _single_vacancy(board: Board, pos: int) -> str | None:
    empty = board.mask ^ pos
    if empty and empty & (empty - 1) == 0:
        return board.name_of[empty.bit_length() - 1]
    return None


def _end_message(board: Board, pos: int, goal: Goal) -> tuple[bool, bool, str]:
    """(game over, goal reached, message)."""
    pegs = pos.bit_count()
    if has_jump(board, pos):
        return False, False, ""
    if goal.kind in ("hole", "any", "target") and goal.reached(pos):
        where = board.name_of[pos.bit_length() - 1] if pegs == 1 else ""
        return True, True, f"Solved! One peg left, on {where}." if where else "Solved! The target position is reached."
    if goal.kind == "min":
        return True, pegs == 1, f"Game over: {pegs} peg{'s' if pegs != 1 else ''} left."
    if pegs == 1:
        where = board.name_of[pos.bit_length() - 1]
        want = _goal_dict(board, goal)["text"]
        return True, False, f"Game over: one peg left on {where}, but the goal was {want}."
    return True, False, f"Game over: {pegs} pegs left, no jump possible."


def _result_dict(board: Board, result: Result) -> dict:
    return {
        "status": result.status,
        "reason": result.reason,
        "moves": format_moves(board, result.jumps),
        "jumps": [_names(board, j) for j in result.jumps],
        "jump_count": len(result.jumps),
        "move_count": count_moves(result.jumps),
        "pegs_left": result.pegs_left,
        "final": format_position(board, result.final),
        "nodes": result.nodes,
        "entries": result.entries,
        "seconds": round(result.seconds, 4),
    }


# ---------------------------------------------------------------- one-shot requests
def boards(args: dict | None = None) -> list[dict]:
    """The catalogue: id, title, lattice, holes and default problem of every board."""
    return [{"id": e.id, "title": e.title, "lattice": e.lattice, "holes": len(get_board(e.id)),
             "start": e.start, "goal": e.goal, "source": e.source} for e in ENTRIES]


def state(args: dict) -> dict:
    """Everything the page shows for a game: SVG, pegs, legal jumps, counters, end message.

    ``args``: ``board`` (id or custom spec), ``start`` (vacant hole) or ``position`` (text),
    ``goal`` (hole, ``any``, ``min``; default the board's), ``moves`` (list in notation).
    """
    s = _Setup(args)
    board, pos = s.board, s.pos
    over, won, message = _end_message(board, pos, s.goal)
    coords = hole_coordinates(board)
    goal = _goal_dict(board, s.goal)
    goal_bit = board.bit_of[goal["hole"]] if goal["hole"] else None
    return {
        "board": {"id": board.id, "title": board.title, "lattice": board.lattice.name, "spec": s.spec,
                  "catalogue": board.id in CATALOGUE, "holes": len(board), "default_goal": s.default_goal},
        "svg": render_svg(board, pos, goal=goal_bit,
                          last=s.jumps[-1] if s.jumps else None),
        "cells": [{"name": n, "r": r, "c": c, "x": coords[n][0], "y": coords[n][1]}
                  for (r, c), n in zip(board.cells, board.names)],
        "start_text": format_position(board, s.start),
        "start_hole": _single_vacancy(board, s.start),
        "position": format_position(board, pos),
        "pegs": [board.name_of[b] for b in board.pegs(pos)],
        "legal": [_names(board, j) for j in legal_jumps(board, pos)],
        "played": [_names(board, j) for j in s.jumps],
        "moves": format_moves(board, s.jumps),
        "peg_count": pos.bit_count(),
        "jump_count": len(s.jumps),
        "move_count": count_moves(s.jumps),
        "goal": goal,
        "over": over,
        "won": won,
        "message": message,
    }


def custom_board(args: dict) -> dict:
    """Turn editor cells into request arguments: a catalogue board plus a position when the
    holes are exactly a catalogue board's, else a custom spec; and the goal hole's name.

    ``args``: ``lattice`` (``square``/``triangle``), ``cells``: list of ``[row, col, peg]``
    (triangles in skewed coordinates: row ``r`` has columns ``0..r``), optional ``goal``:
    ``[row, col]`` of the goal hole.
    """
    args = fields.request(args)
    lattice = fields.text(args, "lattice", 10, "square")
    if lattice not in ("square", "triangle"):
        raise PegError(f"'lattice' must be 'square' or 'triangle', not {lattice!r}")
    cells = args.get("cells")
    if cells is None or cells == []:
        raise PegError("the editor has no holes: add at least three")
    if not isinstance(cells, list):
        raise PegError(f"'cells' must be a list of [row, column, peg], not {fields._kind(cells)}")
    grid: dict[tuple[int, int], bool] = {}
    for cell in cells[:MAX_HOLES + 1]:
        if not (isinstance(cell, list) and len(cell) == 3
                and all(isinstance(v, int) and not isinstance(v, bool) for v in cell[:2])
                and isinstance(cell[2], bool | int)):
            raise PegError(f"bad editor cell {str(cell)[:60]}: expected [row, column, peg]")
        grid[(cell[0], cell[1])] = bool(cell[2])
    # the grid's size, not just its number of holes, is what costs: check before drawing it
    check_cells(list(grid) if len(cells) <= MAX_HOLES else cells, "the edited board")
    top = min(r for r, _ in grid)
    left = min(c for _, c in grid)
    height = max(r for r, _ in grid) - top + 1
    lines = []
    for r in range(top, top + height):
        row = sorted((c - left, peg) for (rr, c), peg in grid.items() if rr == r)
        if lattice == "square":
            xs = dict(row)
        else:
            # skewed (r, c) is drawn at x = (height - 1 - r) + 2c, as board_from_text expects
            xs = {(height - 1 - (r - top)) + 2 * c: peg for c, peg in row}
        line = ["_"] * (max(xs, default=-1) + 1)
        for x, peg in xs.items():
            line[x] = "o" if peg else "."
        lines.append("".join(line))
    board, pos = board_from_text("/".join(lines), lattice)
    goal_name = None
    goal = args.get("goal")
    if goal is not None:
        if not (isinstance(goal, list | tuple) and len(goal) == 2 and tuple(goal) in grid):
            raise PegError(f"the goal {goal!r} is not one of the editor's holes")
        # board_from_text shifts cells so the top row and leftmost column are 0
        rows_used = [r for r, _ in grid]
        cols = [c for _, c in grid]
        cell = (goal[0] - min(rows_used), goal[1] - min(cols))
        bit = {v: k for k, v in board.cell_of.items()}.get(cell)
        goal_name = board.name_of.get(bit) if bit is not None else None
    for entry in ENTRIES:
        known = get_board(entry.id)
        if known.lattice is board.lattice and known.cells == board.cells:
            return {"board": entry.id, "position": format_position(known, pos).replace("\n", "/"), "goal": goal_name}
    return {"board": board_spec(board, pos), "goal": goal_name}


def hint(args: dict) -> dict:
    """The legal jumps from the current position sorted into good (the goal stays reachable),
    bad (proven unreachable, with the reason) and unknown (budget spent)."""
    s = _Setup(args)
    analysis = _optional("analysis", "Hints")
    found = analysis.hint(s.problem(), max_seconds=fields.number(args, "max_seconds", 10.0))
    reasons = getattr(found, "reasons", {})
    return {
        "good": [_jump_names(s.board, j) for j in getattr(found, "good", [])],
        "bad": [{"jump": _jump_names(s.board, j), "reason": str(reasons.get(j, ""))}
                for j in getattr(found, "bad", [])],
        "unknown": [_jump_names(s.board, j) for j in getattr(found, "unknown", [])],
        "legal": len(legal_jumps(s.board, s.pos)),
    }


def finishes(args: dict) -> dict:
    """For the current position: holes where one peg can finish (with a solution), where it
    cannot (why), and where the budget ran out."""
    s = _Setup(args)
    analysis = _optional("analysis", "Finishes")
    found = analysis.finishes(s.board, s.pos, max_seconds=fields.number(args, "max_seconds", 20.0))
    return {
        "possible": {_hole_name(s.board, k): format_moves(s.board, [_jump_bits(s.board, j) for j in v])
                     for k, v in getattr(found, "possible", {}).items()},
        "impossible": {_hole_name(s.board, k): str(v) for k, v in getattr(found, "impossible", {}).items()},
        "unknown": {_hole_name(s.board, k): str(v) for k, v in getattr(found, "unknown", {}).items()},
    }


def cnf(args: dict) -> dict:
    """The problem from the current position as DIMACS CNF text (rule-based encoding)."""
    s = _Setup(args)
    sat = _optional("sat", "CNF export")
    text = sat.to_dimacs(s.problem())
    name = f"{s.board.id}-{len(s.jumps)}.cnf" if s.board.id in CATALOGUE else "custom.cnf"
    return {"dimacs": text, "filename": name}


def _hole_name(board: Board, key: Any) -> str:
    if isinstance(key, int) and key in board.name_of:
        return board.name_of[key]
    return str(key)


def _jump_bits(board: Board, j: Any) -> Jump:
    if isinstance(j, str):
        from .notation import parse_move
        return parse_move(board, j)[0]
    return tuple(j)  # type: ignore[return-value]


def _jump_names(board: Board, j: Any) -> list[str]:
    return _names(board, _jump_bits(board, j))


# ---------------------------------------------------------------- long requests
class Job:
    """A long request driven slice by slice: :meth:`step` returns JSON of
    ``{"done": false, "progress": {...}}`` or ``{"done": true, "result": ...}``."""

    def __init__(self, gen: Iterator, finish: Callable[[Any], Any], progress: Callable[[Any], Any],
                 cancelled: Callable[[], Any]) -> None:
        self._gen, self._finish, self._progress, self._cancelled = gen, finish, progress, cancelled
        self.done = False

    def step(self) -> str:
        try:
            item = next(self._gen)
        except StopIteration as stop:
            self.done = True
            return json.dumps({"done": True, "result": self._finish(stop.value)}, default=str)
        except PegError as err:
            self.done = True
            return json.dumps({"done": True, "error": str(err)})
        except Exception as err:  # a bug, not bad input: still a message, never a dead worker
            self.done = True
            return json.dumps({"done": True, "error": f"internal error ({type(err).__name__}): {err}"})
        return json.dumps({"done": False, "progress": self._progress(item)}, default=str)

    def cancel(self) -> str:
        """Stop the work (closes the generator) and return the 'cancelled' answer as JSON."""
        close = getattr(self._gen, "close", None)
        if close is not None:
            close()
        self.done = True
        return json.dumps({"done": True, "result": self._cancelled()}, default=str)


def _solve_job(args: dict) -> Job:
    from . import solver

    s = _Setup(args)
    problem = s.problem()
    options: dict[str, Any] = {"max_seconds": fields.number(args, "max_seconds", DEFAULT_SOLVE_SECONDS),
                               "slice_seconds": SLICE_SECONDS}
    seed = fields.integer(args, "seed", None)
    if seed is not None:
        options["seed"] = seed
    accepted = inspect.signature(solver.search).parameters
    options = {k: v for k, v in options.items() if k in accepted}
    t0 = time.perf_counter()
    last = {"nodes": 0, "entries": 0}

    def progress(p: Any) -> dict:
        seconds = getattr(p, "seconds", time.perf_counter() - t0)
        last["nodes"], last["entries"] = getattr(p, "nodes", 0), getattr(p, "entries", 0)
        return {"nodes": last["nodes"], "entries": last["entries"], "seconds": round(seconds, 3),
                "depth": getattr(p, "depth", None),
                "rate": round(last["nodes"] / seconds) if seconds > 0 else 0}

    def finish(result: Result) -> dict:
        return _result_dict(s.board, result)

    def cancelled() -> dict:
        res = Result("unknown", "cancelled", [], s.pos, last["nodes"], last["entries"], time.perf_counter() - t0)
        return _result_dict(s.board, res)

    return Job(solver.search(problem, **options), finish, progress, cancelled)


def _bench_job(args: dict) -> Job:
    args = fields.request(args)
    bench = _optional("bench", "The benchmark")
    quick = fields.flag(args, "quick", True)
    repeat = fields.integer(args, "repeat", 1, low=1, high=1000) or 1
    only = fields.text_list(args, "only")
    rows: list[Any] = []

    def gen() -> Generator[Any, None, list]:
        extra = {"only": only} if only else {}
        for row in bench.iter_suite(quick=quick, repeat=repeat, **extra):
            rows.append(row)
            yield row
        return rows

    return Job(gen(), lambda value: value, lambda row: row, lambda: {"cancelled": True, "rows": rows})


ONE_SHOT: dict[str, Callable[[dict], Any]] = {
    "boards": boards, "state": state, "render": state, "custom_board": custom_board,
    "hint": hint, "finishes": finishes, "cnf": cnf,
}
STREAMING: dict[str, Callable[[dict], Job]] = {"solve": _solve_job, "bench": _bench_job}


def call(fn: str, args_json: str) -> str:
    """Run a one-shot request; returns JSON ``{"ok": value}`` or ``{"error": message}``."""
    try:
        args = json.loads(args_json) if args_json else {}
        if fn not in ONE_SHOT:
            raise PegError(f"unknown request {fn!r}: expected one of {', '.join([*ONE_SHOT, *STREAMING])}")
        return json.dumps({"ok": ONE_SHOT[fn](args)}, default=str)
    except PegError as err:
        return json.dumps({"error": str(err)})
    except (ValueError, TypeError, KeyError) as err:
        return json.dumps({"error": f"bad request {fn!r}: {err}"})
    except Exception as err:  # a bug, not bad input: report it as a message
        return json.dumps({"error": f"internal error in {fn!r} ({type(err).__name__}): {err}"})


def start(fn: str, args_json: str) -> Job:
    """Start a long request (``solve``, ``bench``).  Bad arguments give a Job whose first
    step reports the error, so the worker has one path for every outcome."""
    try:
        args = json.loads(args_json) if args_json else {}
        if fn not in STREAMING:
            raise PegError(f"unknown long request {fn!r}: expected one of {', '.join(STREAMING)}")
        return STREAMING[fn](args)
    except (ValueError, TypeError) as err:
        message = str(err) if isinstance(err, PegError) else f"bad request {fn!r}: {err}"

        def failing() -> Generator[Any, None, None]:
            raise PegError(message)
            yield

        return Job(failing(), lambda value: value, lambda item: item, lambda: None)


def is_streaming(fn: str) -> bool:
    return fn in STREAMING


def apply(args: dict) -> dict:
    """``state`` after one more move (``args['move']`` in notation): a convenience for the page."""
    args = fields.request(args)
    moves = _move_list(args.get("moves")) + [_text(args.get("move", ""), "move", MAX_MOVES_CHARS)]
    return state({**args, "moves": moves})


def legal(args: dict) -> dict:
    """Just the legal jumps of the current position."""
    s = _Setup(args)
    return {"legal": [_names(s.board, j) for j in legal_jumps(s.board, s.pos)]}


def warm(args: dict | None = None) -> dict:
    """Import the solver and the analyses ahead of time (the page calls this once it is idle),
    so the first Solve does not pay for compiling their modules."""
    started = time.perf_counter()
    loaded = []
    for module in ("solver", "analysis"):
        try:
            importlib.import_module(f"pyapp.{module}")
            loaded.append(module)
        except ImportError:
            pass
    return {"modules": loaded, "seconds": round(time.perf_counter() - started, 4)}


ONE_SHOT.update({"apply": apply, "legal": legal, "warm": warm})

__all__ = ["call", "start", "is_streaming", "Job", "state", "boards", "custom_board", "hint", "finishes", "cnf"]
