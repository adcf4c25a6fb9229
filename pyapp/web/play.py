"""The worker's answers for the analysis-board features of the page: puzzles, never-lose
checks and the finishes map with its reasons grouped.

Kept apart from :mod:`pyapp.web.api` (which resolves requests and drives jobs): each
function here takes resolved values (a board, a position, a goal) and returns plain JSON
data, holes by name, so it can be tested without the worker.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Sequence
from typing import Any

from ..analysis.hint import DEFAULT_HINT_SECONDS
from ..analysis.neverlose import NeverLose, never_lose_steps
from ..analysis.neverlose_exact import SEARCH_FLOOR, never_lose_prepared, prepare_steps
from ..analysis.puzzle import MAX_SEED, make_puzzle
from ..core.board import Board
from ..core.errors import PegError
from ..core.game import replay
from ..core.moves import Jump
from ..core.notation import format_moves
from ..core.position import format_position
from ..core.problem import Problem
from ..search.solver import Progress

NEVER_LOSE_SECONDS = DEFAULT_HINT_SECONDS
"""Never-lose checks use the Hint budget (issue 12: "uses the same budget as Hint")."""


def _names(board: Board, jump: Jump) -> list[str]:
    return [board.name_of[b] for b in jump]


def _count(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PegError(f"{what} must be a whole number from {low} to {high}, not {str(value)[:20]!r}")
    return value


def puzzle_json(board: Board, spec: str, args: dict) -> dict:
    """A puzzle for ``args`` ``pegs`` (required) and ``seed`` (optional): what the page loads.

    ``position`` is one line of rows joined by ``/`` (as in links), ``goal`` the finishing hole,
    ``solution`` the generator's witness in notation (the page keeps it for "Show solution").
    """
    pegs = _count(args.get("pegs"), "the number of pegs", 2, max(2, len(board) - 1))
    seed = args.get("seed")
    seed = None if seed in (None, "") else _count(seed, "the seed", 0, MAX_SEED)
    p = make_puzzle(board, pegs, seed=seed)
    return {"board": spec, "pegs": p.pegs, "seed": p.seed,
            "position": format_position(board, p.position).replace("\n", "/"),
            "goal": board.name_of[p.finish], "solution": format_moves(board, list(p.solution))}


def never_lose_job(problem: Problem, max_seconds: float | None,
                   history: Sequence[int] = (), line: bool = True) -> Generator[Progress, None, dict]:
    """The never-lose analysis as a step generator returning the page's JSON.

    ``history`` is the game's positions so far, ending with ``problem.start``: when the exact
    analyses already hold a winnable set computed from one of them, the answer is one lookup
    per jump (:mod:`pyapp.analysis.neverlose_exact`) and no search runs; a position the goal's
    endgame table answers (:mod:`pyapp.exact.endgame`, few pegs) is exact too.  ``line`` False: the caller shows
    no line, so a set whose lines cost searches gives none (:func:`pyapp.analysis.neverlose_exact.exact_lines`)."""
    t0 = time.perf_counter()
    ready = yield from prepare_steps(problem.board, problem.goal, history, max_seconds, line)
    exact = never_lose_prepared(problem.board, problem.goal, history, ready, max_seconds, t0, line)
    if exact is not None:
        return never_lose_json(problem.board, exact, max_seconds, method="exact")
    # the search gets what the set's preparation left of the budget (a set over a table may settle for a while)
    left = None if max_seconds is None else max(SEARCH_FLOOR, max_seconds - (time.perf_counter() - t0))
    result: NeverLose = yield from never_lose_steps(problem, max_seconds=left)
    if result.solutions is not None:  # counted here: the earlier positions' counts are not known
        result.history = [*([None] * (len(history) - 1)), result.solutions]
    # an exact answer without a set of this game: the goal's endgame table (pyapp.exact.endgame)
    return never_lose_json(problem.board, result, max_seconds, method="exact" if result.answered else "search")


def never_lose_json(board: Board, r: NeverLose, max_seconds: float | None, method: str = "search") -> dict:
    """``status`` (winnable / lost / unknown / over), ``reason``, ``line`` (moves to the goal; empty from an exact
    set when the request said ``line`` false and lines cost it searches),
    the legal jumps as ``good`` / ``bad`` / ``unknown`` (each bad or unknown one with its reason),
    and ``method``: ``search`` (the solver, on the Hint budget) or ``exact`` (the winnable set)."""
    h = r.jumps
    return {
        "method": method,
        "status": r.status, "reason": r.reason, "line": format_moves(board, r.line),
        "good": [_names(board, j) for j in h.good],
        "bad": [{"jump": _names(board, j), "reason": h.reasons.get(j, "")} for j in h.bad],
        "unknown": [{"jump": _names(board, j), "reason": h.reasons.get(j, "budget spent")} for j in h.unknown],
        "nodes": r.nodes, "seconds": round(r.seconds, 3), "budget": max_seconds,
        # the survival funnel (None where not known): solutions left here, through each legal jump, and
        # after each move of the game so far; big ints cross as strings (pyapp.web.wire)
        "solutions": r.solutions,
        "through": [{"jump": _names(board, j), "solutions": n} for j, n in r.through.items()],
        "history": r.history,
        "answered": r.answered,
    }


def finish_groups(board: Board, possible: dict[str, Any], impossible: dict[str, str],
                  unknown: dict[str, str]) -> list[dict]:
    """One entry per verdict and reason, listing its holes in reading order: the 28 holes
    ruled out by the rule of three become one line, not 28."""
    order = {name: i for i, name in enumerate(board.names)}
    groups: list[dict] = []
    if possible:
        groups.append({"verdict": "yes", "reason": "one peg can finish here (click a hole to play its solution)",
                       "holes": sorted(possible, key=lambda n: order.get(n, len(order)))})
    for verdict, table in (("no", impossible), ("unknown", unknown)):
        by_reason: dict[str, list[str]] = {}
        for hole in sorted(table, key=lambda n: order.get(n, len(order))):
            by_reason.setdefault(table[hole], []).append(hole)
        groups += [{"verdict": verdict, "reason": why, "holes": holes} for why, holes in by_reason.items()]
    return groups



def legal_prefix(board: Board, start: int, moves: list[str]) -> tuple[list[str], dict | None]:
    """The moves of a link up to the first one that cannot be played, and that one: ``refused``
    is ``{"index": n (from 1), "move": text, "reason": why}`` or None when every move plays.

    A shared link whose last move is a typo then still opens the game up to that move,
    and the page can name the move it refused."""
    pos = start
    for n, text in enumerate(moves, 1):
        step = replay(board, pos, [text])
        if not step.valid:
            why = (step.error or "").split(": ", 1)[-1]
            return moves[:n - 1], {"index": n, "move": text, "reason": why}
        pos = step.final
    return moves, None
