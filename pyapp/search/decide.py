"""Decide a problem completely with the level search: every goal kind as one or more level searches.

:func:`decide` turns a :class:`~pyapp.core.problem.Problem` into calls of
:func:`pyapp.search.levels.level_search` and returns a :class:`Decision`:

* ``hole`` / ``target``: one search toward that position (symmetries that fix it);
* ``any``: one search toward every one-peg position the start's class allows (all the
  board's symmetries, which map that set onto itself);
* ``min``: searches "reach some position with ``k`` pegs" for ``k`` upward from the class's
  lower bound, while the goal set (every ``k``-peg position of the start's class) is small
  enough to list (``k <= MAX_GOAL_PEGS``), so the backward side runs too, pruned by the
  pagodas it learns toward the start.  Every jump removes one peg, so an impossible ``k``
  proves the minimum is above ``k``, and the first reachable ``k`` is the minimum.  A known
  game (``upper``, e.g. from the fast phases) ending with ``u`` pegs stops the climb at
  ``u``.  Past ``MAX_GOAL_PEGS``, one forward search without pruning lists every position
  reachable from the start down to the fewest pegs (its deepest level is the answer).

The budget (seconds, expanded positions, bytes) covers all the searches of one call.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import dataclass
from itertools import combinations

from ..core.goal import fewest_in_class
from ..core.problem import Problem
from .levels import DEFAULT_MAX_BYTES, LevelResult, LevelStats, level_search

MAX_GOAL_PEGS = 3
"""For ``min``: goal sets of all ``k``-peg positions are listed up to this ``k`` (C(n, k) positions, at most
41,664 on a 64-hole board): with them the backward side runs, pruned toward the start by learned pagodas
(:mod:`pyapp.search.cuts`).  A random 23-peg Diamond 41 position (bench seed, #9) has its 3-peg minimum
proven in 0.5 s this way; a forward search down to 3 pegs sees 720k positions (5 s)."""


@dataclass
class Decision(LevelResult):
    """A level search's answer to a goal: :class:`LevelResult`'s fields plus ``lower`` for ``min``."""

    lower: int | None = None
    """``min`` only: the proven lower bound on the pegs left (the answer when ``solved``)."""
    searches: int = 0


def _positions_with(board, start: int, k: int) -> list[int]:
    """Every position with ``k`` pegs in the start's position class."""
    cls = board.position_class(start)
    out = []
    for combo in combinations(board.bits, k):
        pos = sum(1 << b for b in combo)
        if board.position_class(pos) == cls:
            out.append(pos)
    return out


def decide(problem: Problem, *, max_seconds: float | None = None, max_nodes: int | None = None,
           max_bytes: int = DEFAULT_MAX_BYTES, upper: list[int] | None = None,
           slice_seconds: float = 0.05) -> Generator[LevelStats, None, Decision]:
    """Answer ``problem`` by level search (see the module docstring); yields progress."""
    t0 = time.perf_counter()
    board, start, goal = problem.board, problem.start, problem.goal
    nodes_used = 0

    def sub(goals, final_pegs, syms) -> Generator[LevelStats, None, LevelResult]:
        left = None if max_seconds is None else max(0.0, max_seconds - (time.perf_counter() - t0))
        nodes_left = None if max_nodes is None else max(0, max_nodes - nodes_used)
        return level_search(board, start, goals, final_pegs, list(syms), max_seconds=left, max_nodes=nodes_left,
                            max_bytes=max_bytes, slice_seconds=slice_seconds)

    if goal.definite:
        obstacle = goal.obstacle(board, start)
        if obstacle:
            return Decision("impossible", reason=obstacle)
        goals: list[int] | None = goal.pagoda_targets(board, start)
        res = yield from sub(goals, goal.final_pegs, goal.symmetries(board))
        return Decision(res.status, res.path, res.reason, res.stats, searches=1)

    # min: the fewest pegs, counts upward from the class's bound while goal sets are listed
    lower = fewest_in_class(board, start)
    best = upper if upper else None
    searches = 0
    stats = LevelStats()
    k = lower
    why = ""
    while best is None or best[-1].bit_count() > lower:
        if k > MAX_GOAL_PEGS or k < 1:
            break
        res = yield from sub(_positions_with(board, start, k), k, range(len(board.symmetries)))
        nodes_used += res.stats.nodes
        searches += 1
        stats = res.stats
        if res.status == "unknown":
            return _unknown(res, lower, best, searches)
        if res.status == "solved":
            return Decision("solved", res.path, f"fewest pegs: {k}, proven: every smaller count was ruled out",
                            stats, k, searches)
        lower = k = k + 1
        why = f"{k - 1} pegs cannot be reached ({res.reason})"
    else:
        if searches:
            return Decision("solved", best, f"fewest pegs: {lower}, proven: {why}", stats, lower, searches)
        return Decision("solved", best, f"fewest pegs: {lower}, the position class's lower bound",
                        stats, lower, searches)
    # beyond listed goal sets: one forward search down to the fewest pegs reachable
    res = yield from sub(None, max(lower, 1), range(len(board.symmetries)))
    searches += 1
    if res.status == "unknown":
        return _unknown(res, lower, best, searches)
    fewest = res.path[-1].bit_count()
    how = ("every smaller count was ruled out" if res.status == "solved"
           else f"every position reachable from the start was listed ({res.reason})")
    return Decision("solved", res.path, f"fewest pegs: {fewest}, proven: {how}", res.stats, fewest, searches)


def _unknown(res: LevelResult, lower: int, best: list[int] | None, searches: int) -> Decision:
    reason = res.reason + f"; fewest pegs proven at least {lower}"
    if best is not None:
        reason += f", a game leaving {best[-1].bit_count()} found"
    return Decision("unknown", best or [], reason, res.stats, lower, searches)
