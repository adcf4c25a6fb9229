"""Decide a problem completely with the level search: every goal kind as one or more level searches.

:func:`decide` turns a :class:`~pyapp.problem.Problem` into calls of
:func:`pyapp.search.levels.level_search` and returns a :class:`Decision`:

* ``hole`` / ``target``: one search toward that position (symmetries that fix it);
* ``any``: one search toward every one-peg position the start's class allows (all the
  board's symmetries, which map that set onto itself);
* ``min``: a search "reach some position with ``k`` pegs" per ``k``.  Every jump removes
  one peg, so reaching ``k`` pegs is impossible exactly when every smaller count is too:
  one impossible ``k`` proves the minimum is above ``k``.  Given a known game (``upper``,
  e.g. from the fast phases) ending with ``u`` pegs, only ``u - 1`` needs a proof (and if it
  turns out reachable, the next count down); without one, the counts are tried upward from
  the class's lower bound.  The goal set for ``k`` pegs is every ``k``-peg position of the
  start's class when there are few (``k <= MAX_GOAL_PEGS``), so the backward side runs too;
  beyond that, the forward side alone explores down to ``k`` pegs.

The budget (seconds, expanded positions, bytes) covers all the searches of one call.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import dataclass
from itertools import combinations

from ..goal import fewest_in_class
from ..problem import Problem
from .levels import DEFAULT_MAX_BYTES, LevelResult, LevelStats, level_search

MAX_GOAL_PEGS = 2
"""For ``min``: goal sets of all ``k``-peg positions are listed up to this ``k`` (C(n, k) positions)."""


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

    # min: the fewest pegs
    lower = fewest_in_class(board, start)
    best = upper if upper else None
    searches = 0
    stats = LevelStats()
    tried_down = best is not None
    k = best[-1].bit_count() - 1 if best else lower
    while True:
        if best is not None and best[-1].bit_count() <= lower:
            return Decision("solved", best, f"fewest pegs: {lower}, the position class's lower bound",
                            stats, lower, searches)
        if k < lower or k < 1:
            return Decision("solved", best or [start], "fewest pegs", stats, lower, searches)
        goals = _positions_with(board, start, k) if k <= MAX_GOAL_PEGS else None
        res = yield from sub(goals, k, range(len(board.symmetries)))
        nodes_used += res.stats.nodes
        searches += 1
        stats = res.stats
        if res.status == "unknown":
            reason = res.reason + f"; fewest pegs proven at least {lower}"
            if best is not None:
                reason += f", a game leaving {best[-1].bit_count()} found"
            return Decision("unknown", best or [], reason, stats, lower, searches)
        if res.status == "impossible":
            lower = k + 1
            if best is not None and best[-1].bit_count() == lower:
                return Decision("solved", best, f"fewest pegs: {lower}, proven: {k} pegs cannot be reached "
                                f"({res.reason})", stats, lower, searches)
            k += 1
        else:
            best = res.path
            if not tried_down:
                lower = k
                return Decision("solved", best, f"fewest pegs: {k}, proven: every smaller count was ruled out",
                                stats, lower, searches)
            k -= 1
