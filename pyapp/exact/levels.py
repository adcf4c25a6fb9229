"""The level histogram of a problem: per peg count, the positions reachable and those that can still win.

One forward sweep of every level from the start (reachability only, no weights), then the
winnable sets (:mod:`pyapp.exact.winnable`), which reuse the stored levels.  Counts are up
to the problem's symmetries (symmetries fixing the start and the goal).  For the English
central game the totals are 23,475,688 reachable and 1,679,072 that can still finish at
the centre (George I. Bell, "English peg solitaire" pages); ``tests/test_exact.py`` and the
bench compare our computed totals with them.
"""

from __future__ import annotations

from array import array
from collections.abc import Generator
from dataclasses import dataclass, field

from ..core.budget import Budget, drive
from ..core.problem import Problem
from .setup import Cancelled, OutOfTime, sides, stop_if_over
from .sharded import Parallel, sweeper
from .sweep import Level, MemoryCeiling, Progress
from .winnable import winnable_steps


@dataclass
class LevelTable:
    """The answer of :func:`levels_steps`."""

    status: str
    """'counted' or 'unknown' (see ``reason``)."""
    rows: list[dict] = field(default_factory=list)
    """One row per peg count, most pegs first: ``{"pegs", "reachable", "winnable"}``."""
    reason: str | None = None
    symmetries: int = 1
    seconds: float = 0.0
    peak_bytes: int = 0

    @property
    def reachable(self) -> int:
        return sum(row["reachable"] for row in self.rows)

    @property
    def winnable(self) -> int:
        return sum(row["winnable"] or 0 for row in self.rows)


def level_table(problem: Problem, budget: Budget | None = None, parallel: Parallel | None = None) -> LevelTable:
    """Run :func:`levels_steps` to the end."""
    return drive(levels_steps(problem, budget, parallel))


def levels_steps(problem: Problem, budget: Budget | None = None, parallel: Parallel | None = None
                 ) -> Generator[Progress, None, LevelTable]:
    """Sweep every level of ``problem`` (sharded on ``parallel``'s pool when given); yields :class:`Progress`,
    returns :class:`LevelTable`."""
    budget = budget or Budget()
    s = sides(problem)
    out = LevelTable("counted", symmetries=len(s.codec.group))
    reach: dict[int, array] = {}
    stored = [0]
    try:
        for item in sweeper(parallel)(s.codec, [s.start], s.last_pegs, weights=False, stage="reachable",
                          kept_bytes=lambda: stored[0], max_bytes=budget.max_bytes):
            if isinstance(item, Level):
                reach[item.pegs] = item.keys
                stored[0] += item.nbytes
            else:
                out.peak_bytes = max(out.peak_bytes, item.bytes)
                stop_if_over(budget)
                yield item
        if problem.goal.obstacle(problem.board, problem.start) or s.first_pegs < s.last_pegs:
            win_counts: dict[int, int] = {}
        else:
            win = yield from winnable_steps(problem, budget, forward=reach, wide=False, parallel=parallel)
            win_counts = win.counts()
    except (Cancelled, OutOfTime, MemoryCeiling) as stop:
        out.status, out.reason = "unknown", str(stop)
        win_counts = {}
    out.rows = [{"pegs": pegs, "reachable": len(keys), "winnable": win_counts.get(pegs, 0)}
                for pegs, keys in sorted(reach.items(), reverse=True)]
    out.seconds = budget.elapsed()
    return out
