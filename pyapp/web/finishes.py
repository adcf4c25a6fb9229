""""Where can one peg finish?" on the page's pool of workers: the plan, a share, the merge.

The ``finishes`` request (:func:`pyapp.web.jobs.finishes_job`) answers in one worker.  The page can
spread its solver method over its pool instead (``static/panels/finishpool.mjs``), as the command line
does (:mod:`pyapp.analysis.spread`), in three steps:

1. ``finishes`` with ``workers`` N, in the page's engine worker (:func:`plan_steps`): the position class
   and the exhaustive method first (one sweep answers every hole: splitting it would only repeat it).
   When they answer, or the solver's holes make fewer than two shares, or the request was cancelled,
   it goes on exactly as the one-worker request and gives its answer.  Otherwise it answers
   :func:`shares_answer`: ``shares`` (hole names, whole symmetry classes:
   :func:`~pyapp.analysis.finishes.split_holes`), ``seconds`` spent, and ``pending``: the answer as it
   stands before the solver (every hole the position class allows unknown, ``cancelled``), which the page
   shows if it is cancelled before the pool answers.
2. ``finishes`` with ``holes`` (a share's names), in a pool worker: the solver method on those holes only
   (:func:`~pyapp.analysis.finishes.solver_steps`); :func:`share_answer` lists only them.
3. ``finishes_merge``, in the page's engine worker (:func:`merge_request`): the shares' answers checked
   (every hole the board's and one the position class allows, none twice, every solution replayed to
   exactly one peg on its hole), the holes the position class forbids added, and the answer given as the
   one-worker request gives it (``possible``, ``impossible``, ``unknown``, ``cancelled``, ``groups``).

What the pool gives up: the engine worker's table of proved positions (:mod:`pyapp.analysis.proven`),
filled by never-lose, Hint and earlier finishes of this game, lives in the engine worker only; a pool
worker has its own, filled by what it searched itself.  So a hole the game proved already is searched
again in a pool worker.  The answers stay right either way (a proof holds whatever table it came
through); the merge, which runs in the engine worker, answers a hole the shares left unknown from the
engine's table when it holds a proof, and records the replayed solutions there for Hint and never-lose.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ..analysis.finishes import Finishes, class_reason, exhaustive_steps, solver_steps, split_holes
from ..analysis.proven import table_for
from ..core import fields
from ..core.board import Board
from ..core.budget import Budget, Progress
from ..core.errors import PegError
from ..core.game import replay
from ..core.goal import Goal
from ..core.moves import Jump
from ..core.notation import format_moves
from ..core.problem import Problem, Result
from ..core.request import from_request
from .play import finish_groups

MAX_WORKERS = 64
"""The most shares a plan deals (the page's pool has at most 16 workers)."""
MAX_REASON_CHARS = 4000
CANCELLED = "cancelled"
"""The reason of a hole left undecided by a cancel (as the one-worker request says it)."""


def answer(board: Board, possible: dict, impossible: dict, unknown: dict, cancelled: bool) -> dict:
    """The ``finishes`` answer: holes by name, reasons grouped (:func:`pyapp.web.play.finish_groups`)."""
    return {"possible": possible, "impossible": impossible, "unknown": unknown, "cancelled": cancelled,
            "groups": finish_groups(board, possible, impossible, unknown)}


def named(board: Board, found: Finishes) -> tuple[dict, dict, dict]:
    """A :class:`~pyapp.analysis.finishes.Finishes` by hole name, solutions as move text."""
    return ({board.name_of[k]: format_moves(board, v) for k, v in found.possible.items()},
            {board.name_of[k]: v for k, v in found.impossible.items()},
            {board.name_of[k]: v for k, v in found.unknown.items()})


def plan_steps(board: Board, position: int, budget: Budget,
               workers: int) -> Generator[Progress, None, Finishes | list[list[int]]]:
    """Step 1 (module docstring): the answer, as :func:`~pyapp.analysis.finishes.finishes_steps` gives
    it, or the solver method's shares (hole bits) for ``workers`` pool workers."""
    out = yield from exhaustive_steps(board, position, budget=budget)
    if out is not None:
        return out
    shares = split_holes(board, position, workers)
    if len(shares) < 2 or budget.cancelled:
        return (yield from solver_steps(board, position, budget=budget))
    return shares


def class_impossible(board: Board, position: int) -> dict[str, str]:
    """The holes the position class forbids from ``position``, by name, with the reason (every share and
    the plan answer these at once)."""
    reasons = {board.name_of[h]: class_reason(board, position, h) for h in board.bits}
    return {name: why for name, why in reasons.items() if why}


def shares_answer(board: Board, position: int, shares: list[list[int]], seconds: float) -> dict:
    """The plan's answer when the pool is to run the solver method (step 1 of the module docstring)."""
    unknown = {board.name_of[h]: CANCELLED for share in shares for h in share}
    return {"shares": [[board.name_of[h] for h in share] for share in shares], "seconds": round(seconds, 3),
            "pending": answer(board, {}, class_impossible(board, position), unknown, True)}


def requested_holes(board: Board, position: int, args: dict) -> list[int] | None:
    """The ``holes`` of a share request, as bits in reading order (None: every hole, the usual request):
    holes of the board the position class allows, each once."""
    names = fields.text_list(args, "holes", limit=len(board))
    if names is None:
        return None
    wrong = [n for n in names if n not in board.bit_of]
    if wrong or not names:
        raise PegError(f"'holes' must name holes of this board, not {', '.join(wrong)[:200] or 'none'}")
    if len(set(names)) != len(names):
        raise PegError("'holes' names a hole twice")
    forbidden = [n for n in names if class_reason(board, position, board.bit_of[n])]
    if forbidden:
        raise PegError(f"'holes' must be holes the position class allows (the others are settled at once), "
                       f"not {', '.join(forbidden)[:200]}")
    wanted = {board.bit_of[n] for n in names}
    return [b for b in board.bits if b in wanted]


def share_answer(board: Board, holes: list[int], found: Finishes, cancelled: bool) -> dict:
    """A pool worker's share (step 2): its own holes only, by name."""
    mine = {board.name_of[h] for h in holes}
    possible, impossible, unknown = named(board, found)
    return {"possible": {k: v for k, v in possible.items() if k in mine},
            "impossible": {k: v for k, v in impossible.items() if k in mine},
            "unknown": {k: v for k, v in unknown.items() if k in mine}, "cancelled": cancelled}


def _reasons(raw: Any, what: str) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise PegError(f"a share's {what!r} must be an object (hole -> answer), not {fields.kind(raw)}")
    return raw


def merge_request(args: dict) -> dict:
    """``finishes_merge`` (step 3): ``board``, ``start``/``position``, ``goal``, ``moves`` as for ``finishes``;
    ``parts``: the shares' answers (``{possible, impossible, unknown}``, null for a share not answered);
    ``cancelled``: true when the run was cancelled (a hole no share answered is then unknown, cancelled)."""
    args = fields.request(args)
    s = from_request(args)
    board, position = s.board, s.position
    parts = args.get("parts")
    if not isinstance(parts, list) or len(parts) > len(board):
        raise PegError(f"'parts' must be a list of at most {len(board)} share answers, not {fields.kind(parts)}"
                       + (f" of {len(parts)}" if isinstance(parts, list) else ""))
    cancelled = fields.flag(args, "cancelled", False)
    allowed = [h for h in board.bits if class_reason(board, position, h) is None]
    seen: set[str] = set()
    possible: dict[str, list[str]] = {}
    jumps: dict[str, list[Jump]] = {}  # the checked solutions, as jumps
    impossible: dict[str, str] = {}
    unknown: dict[str, str] = {}
    for part in parts:
        if part is None:
            continue
        if not isinstance(part, dict):
            raise PegError(f"a share's answer must be an object, not {fields.kind(part)}")
        for what in ("possible", "impossible", "unknown"):
            for name, value in _reasons(part.get(what), what).items():
                if name not in board.bit_of or board.bit_of[name] not in allowed:
                    raise PegError(f"a share answered {str(name)[:40]!r}, which is not a hole of this board the "
                                   "position class allows")
                if name in seen:
                    raise PegError(f"two shares answered the hole {name}")
                seen.add(name)
                if what == "possible":
                    jumps[name] = _checked(board, position, name, value)
                    possible[name] = value
                else:
                    (impossible if what == "impossible" else unknown)[name] = _reason(name, value)
    missing = [board.name_of[h] for h in allowed if board.name_of[h] not in seen]
    if missing and not cancelled:
        raise PegError(f"no share answered {', '.join(missing)[:200]} (and the run was not cancelled)")
    for name in missing:
        unknown[name] = CANCELLED
    _with_engine_table(board, position, jumps, possible, impossible, unknown)
    impossible.update(class_impossible(board, position))
    order = {name: i for i, name in enumerate(board.names)}

    def ordered(table: dict) -> dict:
        return dict(sorted(table.items(), key=lambda kv: order[kv[0]]))

    return answer(board, ordered(possible), ordered(impossible), ordered(unknown), cancelled)


def _checked(board: Board, position: int, name: str, moves: Any) -> list[Jump]:
    """A share's solution for ``name``, as its jumps: moves as text that replay from ``position`` to one
    peg there."""
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise PegError(f"the solution ending on {name} must list its moves as text")
    rep = replay(board, position, moves)
    err = rep.not_one_peg_on(board.bit_of[name])
    if err:
        raise PegError(f"the solution ending on {name} does not replay: {err}")
    return rep.jumps


def _reason(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_REASON_CHARS:
        raise PegError(f"the reason given for {name} must be text of 1 to {MAX_REASON_CHARS} characters")
    return value


def _problem(board: Board, position: int, name: str) -> Problem:
    return Problem(board, position, Goal("hole", 1 << board.bit_of[name]))


def _with_engine_table(board: Board, position: int, jumps: dict[str, list[Jump]], possible: dict,
                       impossible: dict, unknown: dict) -> None:
    """The engine's table of proved positions and the merged shares, each told what the other knows:
    a hole left unknown that the table has proved takes its answer; every checked solution (``jumps``, by
    hole name) is recorded."""
    for name in list(unknown):
        problem = _problem(board, position, name)
        known = table_for(problem).answer(problem)
        if known is None:
            continue
        del unknown[name]
        if known.status == "solved":
            possible[name] = format_moves(board, known.jumps)
        else:
            impossible[name] = known.reason or "impossible"
    for name, solution in jumps.items():
        problem = _problem(board, position, name)
        table_for(problem).record(problem, Result("solved", None, solution, 1 << board.bit_of[name]))
