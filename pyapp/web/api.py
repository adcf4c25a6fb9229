"""The Python side of the web worker protocol: JSON in, JSON out.

This docstring is the one description of the protocol on the Python side; the JavaScript
side (message envelopes, ids, cancel, JSDoc types) is ``static/engine/protocol.mjs``.

* ``call(fn, args_json) -> str``: one-shot requests (:data:`ONE_SHOT`: ``boards``, ``state``, ``puzzle``,
  ``apply``, ``legal``, ``custom_board``, ``cnf``, ``warm``, ``table_info``, ``table_merge``,
  ``finishes_merge``, ``never_lose_merge``; ``hint`` and ``finishes`` too, run to the end).  Answer:
  ``{"ok": value}`` or ``{"error": message}``.
* ``start(fn, args_json) -> Job`` and ``is_streaming(fn)``: long requests
  (:data:`pyapp.web.jobs.STREAMING`: ``solve``, ``hint``, ``finishes``, ``never_lose``, ``count``,
  ``fewest``, ``table``, ``bench``, ``study``; built in :mod:`pyapp.web.jobs`).  The worker calls ``job.step()`` (about
  ``slice_seconds`` of work each, then its event loop gets a turn, so a cancel message is
  seen at once) until it answers ``{"done": true, "result": value}`` or ``{"done": true,
  "error": message}``; before that each step answers ``{"done": false, "progress": p}`` with
  ``p = {nodes, entries, seconds, depth, rate, note}`` (bench: one finished row; study: one run).
  ``job.cancel()`` cancels the request's :class:`~pyapp.core.budget.Budget`: the call answers
  with what it has (``solve``: status ``unknown``, reason ``cancelled``; ``hint``/``finishes``:
  ``cancelled: true`` and the undecided jumps or holes as unknown), as ``{"done": true,
  "result": ...}``.

* ``load_set(bytes) -> str``: a shipped winnable set (``dist/sets/*.bin``, :mod:`pyapp.web.sets`), checked
  and kept, so never-lose and Hint on that game answer by lookup: ``{"ok": {board, keys, bytes, seconds}}``
  or ``{"error": why}`` (stale, truncated or damaged: the worker drops it and fetches it again).  A ``ways``
  file (the solutions left per position, the survival funnel) is loaded after its set the same way.
  ``load_set_steps(bytes) -> Job``: the same, stepped as a long request is (the worker's loader: an endgame table
  takes seconds to decode in Pyodide, and the worker takes its messages between the steps).
* ``shard_step(spec_json, keys, weights, expand_it, keep, pairs_out, pairs_in)``: one shard step of a sweep run
  on the page's pool (:func:`pyapp.exact.relay.run_step`; this worker is then a pool worker): ``keys``/``weights``
  the incoming buckets' bytes (typed arrays), ``weights`` None for reachability; ``pairs_out``/``pairs_in`` the
  final combination of a complement count (:mod:`pyapp.exact.pairs`).  Answer: a tuple ``(info_json,
  kept_keys, kept_weights, buckets)`` of bytes (``kept_*`` None unless kept; ``buckets`` flat: keys then
  weights of bucket 0, then of bucket 1...), which the worker transfers as ``ArrayBuffer`` s.
* Answers while the player moves (both with ``board``, ``start`` or the default game, ``goal``, ``moves``: the
  history lets a loaded set speak for the current position):

  - ``never_lose`` (streaming): progress ``{nodes, seconds}``, once ``verdict`` (``winnable``/``lost``/
    ``unknown``/``over``) before the per-jump detail; result :func:`pyapp.web.play.never_lose_json`:
    ``method`` (``exact``: a loaded set, no search; ``search``), ``status``, ``reason`` (why lost, or how far
    the search got), ``line``, ``good``, ``bad`` and ``unknown`` (each with its reason), ``nodes``,
    ``seconds``, and the funnel: ``solutions`` (here), ``through`` (``[{jump, solutions}]``, every legal
    jump, 0 for a losing one) and ``history`` (one per position of the game, None where not known), as
    decimal strings above 2**53 (:mod:`.wire`); all None or empty where not counted.  On the page's pool
    (:mod:`pyapp.web.neverpool`): with ``workers`` N the plan (the answer itself, or ``shares``: the
    questions to decide side by side, ``decided``, and ``items``: what each pool worker runs), with ``decide`` a pool
    worker's share (:mod:`pyapp.web.neverpool_shares`: ``group`` with ``group``, ``shared`` and ``portfolio``: those
    questions in turns, their ``answers``; ``jumps`` with ``decided``: every class at once, its ``answers``; news of
    questions decided meanwhile taken by ``Job.tell``), then ``never_lose_merge``
    (``parts``, ``cancelled``, ``workers``, ``seconds``) checks and records them and answers as the one-worker
    request, with ``workers``.
  - ``hint``: ``good``, ``bad`` (with reasons), ``unknown``, ``legal``, ``cancelled`` and ``method``
    (``exact`` from a loaded set by lookup, ``search`` through the game's table of proved positions).
  - ``finishes``: ``possible`` (hole -> solution), ``impossible`` and ``unknown`` (hole -> reason),
    ``cancelled``, ``groups`` (one per verdict and reason).  On the page's pool (:mod:`pyapp.web.finishes`):
    with ``workers`` N the plan (the exhaustive method here; ``shares`` of hole names when the solver
    method is to run on the pool, else the answer itself), with ``holes`` a pool worker's share (solver
    method, only those holes answered), then ``finishes_merge`` (``parts``: the shares' answers,
    ``cancelled``) checks them and answers as the one-worker request.

Request arguments (every value type- and size-checked by :func:`pyapp.core.request.from_request`):
``board`` (catalogue id or custom spec), ``start`` (vacant hole) or ``position`` (text),
``goal`` (hole, ``any``, ``min``, ``target:ROWS``), ``moves`` (list in notation); long
requests also ``max_seconds`` and ``max_nodes``, ``solve`` a ``seed``.  Results of ``solve``
are :func:`pyapp.core.request.result_json` (``jumps`` the count, ``jump_list`` the jumps as
``[from, over, to]`` names).  Every value crossing to JavaScript is plain JSON (a ``str``):
positions travel as position text, holes by name, never as big ints.  Errors on bad input
are :class:`~pyapp.core.errors.PegError` messages meant for the user.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Generator
from typing import Any

from ..core import fields
from ..core.board import Board
from ..core.catalogue import CATALOGUE, ENTRIES, get_board
from ..core.custom import board_from_cells
from ..core.errors import PegError
from ..core.game import ending
from ..core.goal import Goal
from ..core.limits import MAX_CNF_JUMP_VARIABLES, MAX_HOLES, MAX_MOVES_CHARS, MAX_SPEC_CHARS
from ..core.moves import Jump, count_moves, legal_jumps
from ..core.notation import format_moves
from ..core.position import format_position
from ..core.render import hole_coordinates, render_svg
from ..core.request import board_spec, from_request, move_list, text_arg
from ..core.spec import resolve_board
from . import play as webplay
from . import sets
from .jobs import STREAMING, Job, finishes_job, hint_job
from .wire import dumps


def _names(board: Board, jump: Jump) -> list[str]:
    return [board.name_of[b] for b in jump]


def _goal_dict(board: Board, goal: Goal) -> dict:
    """The goal for the page: ``text`` (as :meth:`Goal.parse` reads it, also the goal picker's value),
    ``hole`` (or None), ``label``, ``word`` (one word for the counter) and ``description`` to show,
    ``definite`` (False for 'as few pegs as possible'), ``final_pegs`` (pegs left when it is met, None
    for 'as few as possible'), so the page asks instead of testing ``kind`` (``boards.json`` carries
    the same dicts for ``static/play/rules.mjs``)."""
    return {"kind": goal.kind, "hole": goal.hole_name(board), "text": goal.text(board), "label": goal.short(board),
            "description": goal.describe(board), "definite": goal.definite, "final_pegs": goal.final_pegs,
            "word": goal.word(board)}


def _single_vacancy(board: Board, pos: int) -> str | None:
    empty = board.mask ^ pos
    if empty and empty & (empty - 1) == 0:
        return board.name_of[empty.bit_length() - 1]
    return None


# ---------------------------------------------------------------- one-shot requests
def boards(args: dict | None = None) -> list[dict]:
    """The catalogue: id, title, lattice, holes and default problem of every board."""
    return [{"id": e.id, "title": e.title, "lattice": e.lattice, "holes": len(get_board(e.id)),
             "start": e.start, "goal": e.goal, "source": e.source} for e in ENTRIES]


def state(args: dict) -> dict:
    """Everything the page shows for a game: SVG, pegs, legal jumps, counters, end message.

    ``args``: ``board`` (id or custom spec), ``start`` (vacant hole) or ``position`` (text),
    ``goal`` (hole, ``any``, ``min``; default the board's), ``moves`` (list in notation),
    ``coordinates`` (default true: draw the coordinate labels), ``legal_prefix`` (true: play the
    moves up to the first one that cannot be played and name it under ``refused``, as links want).
    """
    args = fields.request(args)
    refused = None
    if args.get("legal_prefix") and args.get("moves"):
        first = from_request({**args, "moves": []})
        kept, refused = webplay.legal_prefix(first.board, first.start, move_list(args.get("moves")))
        args = {**args, "moves": kept}
    s = from_request(args)
    board, pos = s.board, s.position
    over, won, message = ending(board, pos, s.goal)
    coords = hole_coordinates(board)
    goal = _goal_dict(board, s.goal)
    goal_bit = board.bit_of[goal["hole"]] if goal["hole"] else None
    return {
        "board": {"id": board.id, "title": board.title, "lattice": board.lattice.name, "spec": s.spec,
                  "catalogue": board.id in CATALOGUE, "holes": len(board), "default_goal": s.default_goal},
        "svg": render_svg(board, pos, goal=goal_bit, last=s.jumps[-1] if s.jumps else None,
                          coordinates=args.get("coordinates", True) is not False),
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
        "refused": refused,
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
        raise PegError(f"'cells' must be a list of [row, column, peg], not {fields.kind(cells)}")
    if len(cells) > MAX_HOLES:
        raise PegError(f"the edited board has {len(cells)} holes: at most {MAX_HOLES} holes are supported")
    grid: dict[tuple[int, int], bool] = {}
    for cell in cells:
        if not (isinstance(cell, list) and len(cell) == 3
                and all(isinstance(v, int) and not isinstance(v, bool) for v in cell[:2])
                and isinstance(cell[2], bool | int)):
            raise PegError(f"bad editor cell {str(cell)[:60]}: expected [row, column, peg]")
        grid[(cell[0], cell[1])] = bool(cell[2])
    # the grid's bounding box (not just its number of holes) is checked by Board.from_cells first
    board, pos = board_from_cells(grid, lattice)
    goal_name = None
    goal = args.get("goal")
    if goal is not None:
        if not (isinstance(goal, list | tuple) and len(goal) == 2 and tuple(goal) in grid):
            raise PegError(f"the goal {goal!r} is not one of the editor's holes")
        top, left = min(r for r, _ in grid), min(c for _, c in grid)
        goal_name = board.name_of[(goal[0] - top) * board.stride + goal[1] - left]
    for entry in ENTRIES:
        known = get_board(entry.id)
        if known.lattice is board.lattice and known.cells == board.cells:
            return {"board": entry.id, "position": format_position(known, pos).replace("\n", "/"), "goal": goal_name}
    return {"board": board_spec(board, pos), "goal": goal_name}


def hint(args: dict) -> Any:
    """The legal jumps from the current position sorted into good (the goal stays reachable),
    bad (proven unreachable, with the reason) and unknown (budget spent or cancelled)."""
    return hint_job(args).run()


def finishes(args: dict) -> Any:
    """For the current position: holes where one peg can finish (with a solution), where it
    cannot (why), and where the budget ran out."""
    return finishes_job(args).run()


def puzzle(args: dict) -> dict:
    """A random solvable position: ``board``, ``pegs`` and optional ``seed`` (see :mod:`pyapp.analysis.puzzle`)."""
    args = fields.request(args)
    spec = resolve_board(fields.text(args, "board", MAX_SPEC_CHARS, "english") or "english")
    return webplay.puzzle_json(spec.board, board_spec(spec.board, spec.start), args)


def cnf(args: dict) -> dict:
    """The problem from the current position as DIMACS CNF text (rule-based encoding)."""
    from ..sat import to_dimacs
    from ..sat.encode import fixed_steps

    s = from_request(args)
    # its size is known before it is built: refuse one too large for a page (and uncancellable)
    steps, _ = fixed_steps(s.problem)
    size = steps * 2 * len(s.board.lines)
    if size > MAX_CNF_JUMP_VARIABLES:
        raise PegError(f"this CNF would have about {size:,} jump variables ({steps} jumps x "
                       f"{2 * len(s.board.lines)} possible jumps), too large to download from the page (at most "
                       f"{MAX_CNF_JUMP_VARIABLES:,}): write it with 'python -m pyapp cnf BOARD -o FILE'")
    name = f"{s.board.id}-{len(s.jumps)}.cnf" if s.board.id in CATALOGUE else "custom.cnf"
    return {"dimacs": to_dimacs(s.problem), "filename": name}


def exact_estimate(args: dict) -> dict:
    """How big an exact analysis of the request's problem is likely to be (the page asks before starting):
    ``analysis`` is ``count`` (default), ``levels`` or ``fewest``."""
    from .exact import page_estimate

    kind = fields.text(args if isinstance(args, dict) else {}, "analysis", 10, "count") or "count"
    if kind not in ("count", "levels", "fewest"):
        raise PegError(f"unknown exact analysis {kind!r}: expected count, levels or fewest")
    return page_estimate(from_request(args).problem, kind)


def table_info(args: dict) -> dict:
    """The whole-board table's size and code version before it starts (:func:`pyapp.web.table.info`):
    ``board`` and ``problem_seconds`` as for the ``table`` request."""
    from ..analysis.table import DEFAULT_PROBLEM_SECONDS
    from . import table as webtable

    args = fields.request(args)
    board = resolve_board(fields.text(args, "board", MAX_SPEC_CHARS, "english") or "english").board
    return webtable.info(board, fields.number(args, "problem_seconds", DEFAULT_PROBLEM_SECONDS))


def table_merge(args: dict) -> dict:
    """A whole-board table the page's pool computed start by start, answered as the ``table`` request
    answers (:func:`pyapp.web.table.merge_request`: every solution replayed first)."""
    from . import table as webtable

    return webtable.merge_request(args)


def finishes_merge(args: dict) -> dict:
    """The finishes the page's pool answered share by share, checked (every solution replayed) and
    answered as the one-worker ``finishes`` request (:func:`pyapp.web.finishes.merge_request`)."""
    from . import finishes as webfinishes

    return webfinishes.merge_request(args)


def never_lose_merge(args: dict) -> dict:
    """Never-lose verdicts the page's pool decided question by question, checked (every solution replayed,
    every proof named), kept in the engine's table of proved positions and answered as the one-worker
    ``never_lose`` request (:func:`pyapp.web.neverpool.merge_request`)."""
    from . import neverpool

    return neverpool.merge_request(args)


ONE_SHOT: dict[str, Callable[[dict], Any]] = {
    "boards": boards, "state": state, "render": state, "custom_board": custom_board,
    "hint": hint, "finishes": finishes, "cnf": cnf, "puzzle": puzzle, "exact_estimate": exact_estimate,
    "table_info": table_info, "table_merge": table_merge, "finishes_merge": finishes_merge,
    "never_lose_merge": never_lose_merge,
}
def call(fn: str, args_json: str) -> str:
    """Run a one-shot request; returns JSON ``{"ok": value}`` or ``{"error": message}``."""
    try:
        args = json.loads(args_json) if args_json else {}
        if fn not in ONE_SHOT:
            raise PegError(f"unknown request {fn!r}: expected one of {', '.join([*ONE_SHOT, *STREAMING])}")
        return dumps({"ok": ONE_SHOT[fn](fields.request(args))})
    except PegError as err:
        return json.dumps({"error": str(err)})
    except (ValueError, TypeError, KeyError) as err:
        return json.dumps({"error": f"bad request {fn!r}: {err}"})
    except Exception as err:  # a bug, not bad input: report it as a message
        return json.dumps({"error": f"internal error in {fn!r} ({type(err).__name__}): {err}"})


def load_set(data: Any) -> str:
    """Register a shipped winnable set (the bytes of a ``sets/*.bin`` file, :mod:`pyapp.web.sets`): JSON
    ``{"ok": {board, keys, bytes, seconds}}``, or ``{"error": why}`` for a file that must not be used."""
    try:
        return dumps({"ok": sets.load(data)})
    except PegError as err:
        return json.dumps({"error": str(err)})
    except Exception as err:  # a bug, not a bad file: still a message
        return json.dumps({"error": f"internal error in 'load_set' ({type(err).__name__}): {err}"})


def load_set_steps(data: Any) -> Job:
    """:func:`load_set` slice by slice, for the worker: a :class:`~.job.Job` whose steps pause while an endgame
    table decodes (:func:`pyapp.web.sets.load_steps`: seconds in Pyodide, when a cancel must still get through)
    and whose last step answers ``{"done": true, "result": {board, keys, bytes, seconds}}`` or ``{"done": true,
    "error": why}``."""
    raw = data.to_bytes() if hasattr(data, "to_bytes") else bytes(data)  # the caller's buffer may not outlive the call
    return Job(sets.load_steps(raw), lambda value: value, lambda _: {})


def start(fn: str, args_json: str) -> Job:
    """Start a long request (``solve``, ``bench``).  Bad arguments give a Job whose first
    step reports the error, so the worker has one path for every outcome."""
    try:
        args = json.loads(args_json) if args_json else {}
        if fn not in STREAMING:
            raise PegError(f"unknown long request {fn!r}: expected one of {', '.join(STREAMING)}")
        return STREAMING[fn](fields.request(args))
    except (ValueError, TypeError) as err:
        message = str(err) if isinstance(err, PegError) else f"bad request {fn!r}: {err}"

        def failing() -> Generator[Any, None, None]:
            raise PegError(message)
            yield

        return Job(failing(), lambda value: value, lambda item: item, cancelled=lambda: None)


def shard_step(spec_json: str, keys: Any, weights: Any, expand_it: bool, keep: bool, pairs_out: bool = False,
               pairs_in: int = 0) -> tuple:
    """One step of a sharded sweep for the page's pool (see the module docstring)."""
    from ..exact.relay import run_step

    out = run_step(json.loads(spec_json), list(keys), None if weights is None else list(weights),
                   expand_it=bool(expand_it), keep=bool(keep), pairs_out=bool(pairs_out), pairs_in=int(pairs_in or 0))
    kept = out["kept"] or (None, None)
    flat: list[bytes | None] = [part for bucket in out["buckets"] for part in bucket]
    return json.dumps(out["info"]), kept[0], kept[1], flat


def is_streaming(fn: str) -> bool:
    return fn in STREAMING


def apply(args: dict) -> dict:
    """``state`` after one more move (``args['move']`` in notation): a convenience for the page."""
    args = fields.request(args)
    moves = move_list(args.get("moves")) + [text_arg(args.get("move", ""), "'move'", MAX_MOVES_CHARS)]
    return state({**args, "moves": moves})


def legal(args: dict) -> dict:
    """Just the legal jumps of the current position."""
    s = from_request(args)
    return {"legal": [_names(s.board, j) for j in legal_jumps(s.board, s.position)]}


def warm(args: dict | None = None) -> dict:
    """Import the solver and the analyses ahead of time (the page calls this once it is idle),
    so the first Solve does not pay for compiling their modules."""
    started = time.perf_counter()
    from ..search import solver  # noqa: F401  (imported for their side effect: compiled and cached)

    return {"modules": ["solver", "analysis"], "seconds": round(time.perf_counter() - started, 4)}


ONE_SHOT.update({"apply": apply, "legal": legal, "warm": warm})

__all__ = ["call", "start", "is_streaming", "Job", "state", "boards", "custom_board", "hint", "finishes", "cnf"]
