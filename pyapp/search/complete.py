"""The portfolio's complete phases: the depth-first search and the level search, side by side.

Both searches are complete, and each is better at something: the depth-first search
(:mod:`pyapp.search.dfs`) dives, so it still finds solutions the fast phases missed; the
level search (:mod:`pyapp.search.levels`) grows both ends breadth first with pruning and
symmetry, so it proves impossibility with far fewer positions when the two ends stay
small.  :class:`Complete` runs them in alternating slices (each until its next pause; the
level search gets :data:`LEVEL_SLICES` slices to the depth-first search's one) and
answers with whichever settles the question first; if the level search reaches the
memory ceiling (half of the budget's, or of :data:`~pyapp.core.budget.DEFAULT_MAX_BYTES`)
the depth-first search goes on alone.  :class:`CompleteFewest` does the same for the
fewest-pegs goal once the class's lower bound is ruled out, the level search proving the
minimum (:func:`pyapp.search.decide.decide` with the best game found so far).

Nodes of the level search (positions expanded) count in the shared node counter, so a
node budget covers both.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, replace
from typing import Any

from ..core.goal import Goal
from ..core.problem import Problem
from .compiled import reseed
from .decide import Decision, decide
from .dfs import dfs
from .levels import LevelResult, LevelStats, level_search
from .phases import FewestPegs, _dfs_outcome
from .runstate import Outcome, Run
from .table import BoundedTable

LEVEL_SLICES = 3
"""Slices of the level search per slice of the depth-first search.

By then the fast phases have failed, and the level search is what proves impossibility:
measured on the issue's 24-peg German position (goal any), 16.1 s CPU with three slices
to one instead of 25.3 s with one to one (the level search alone needs 12.5 s); the
German and Diamond 41 tables gave the same answers either way.  The fewest-pegs search
does the same since its level search learns pagodas (:mod:`pyapp.search.cuts`): the
random German position #2 of the bench (23 pegs, 3 at best), 10.1 s CPU instead of 14.1 s."""


def how_far(stats) -> str:
    """What an unknown answer says of the level search (``LevelStats`` of levels or decide)."""
    return (f"level search: {stats.forward_levels} forward and {stats.backward_levels} backward levels "
            f"completed, {stats.stored:,} positions stored ({stats.bytes // 2**20} MB), "
            f"fewest pegs reached {stats.fewest_pegs}")


def _level_bytes(run: Run) -> int:
    return run.budget.ceiling() // 2


def _alternate(run: Run, deep: Generator[Any, None, Any], levels: Generator[Any, None, Any] | None,
               settle: Callable[[Any], Outcome | None],
               share: Callable[[Any], int] = lambda stats: 1) -> Generator[None, None, Outcome | None]:
    """Alternate ``deep`` (a depth-first search) and ``levels``: one slice of ``deep``, then ``share(stats)``
    slices of ``levels`` (``stats``: its last progress, None at first); ``settle(value)`` turns the level
    search's answer into an Outcome, or None to let the depth-first search go on."""
    st = run.st
    level_nodes = 0
    current = None  # the LevelStats being reported (decide runs several level searches, each counting from 0)
    while True:
        try:
            next(deep)
        except StopIteration as stop:
            if levels is not None:
                levels.close()
            return stop.value
        yield
        for _ in range(share(current)):
            if levels is None:
                break
            try:
                stats = next(levels)
                if stats is not current:
                    current, level_nodes = stats, 0
                st.nodes += stats.nodes - level_nodes
                level_nodes = stats.nodes
                st.how_far = how_far(stats)
            except StopIteration as stop:
                answer = settle(stop.value)
                if answer is not None:
                    deep.close()
                    return answer
                levels = None
            yield


@dataclass(frozen=True)
class Complete:
    """The complete search for a definite goal (see the module docstring)."""

    goal: Goal
    name: str = "complete (depth-first and level search)"

    def run(self, run: Run, number: int) -> Generator[None, None, Outcome | None]:
        reseed(run.tables, run.seed)
        board = run.tables.board
        deep = _wrap_dfs(dfs(run.tables, run.start, run.table, run.st, final_pegs=run.final_pegs,
                             target=run.target, stop_at=run.node_cap))
        levels = level_search(board, run.start, run.finishes, run.final_pegs or 1, list(self.goal.symmetries(board)),
                              max_bytes=_level_bytes(run), slice_seconds=run.budget.slice_seconds)

        def settle(res: LevelResult) -> Outcome | None:
            if res.status == "solved":
                return Outcome("found", res.path, "level search")
            if res.status == "impossible":
                return Outcome("exhausted", [], res.reason)
            return None

        return (yield from _alternate(run, deep, levels, settle, lambda stats: LEVEL_SLICES))


@dataclass(frozen=True)
class CompleteFewest:
    """The fewest-pegs search once the class's lower bound is ruled out (see the module docstring)."""

    lower_bound: int
    problem: Problem
    name: str = "fewest pegs (depth-first and level search)"

    def run(self, run: Run, number: int) -> Generator[None, None, Outcome | None]:
        # a fresh table: earlier phases aimed at a fixed peg count, and a position they proved
        # unable to reach it may still lead to the fewest pegs (the search shares only ``st``)
        run = replace(run, table=BoundedTable(run.table.cap, run.table.images))
        best = run.st.best_path if len(run.st.best_path) > 1 else None
        levels = decide(self.problem, upper=best, max_bytes=_level_bytes(run),
                        slice_seconds=run.budget.slice_seconds)

        def settle(res: Decision) -> Outcome | None:
            if res.status == "solved":
                return Outcome("found", res.path, f"level search ({res.reason})")
            return None

        deep = FewestPegs(self.lower_bound).run(run, number)
        return (yield from _alternate(run, deep, levels, settle, _fewest_share))


def _fewest_share(stats: LevelStats | None) -> int:
    """Level-search slices per depth-first slice for the fewest pegs: :data:`LEVEL_SLICES` while the level
    search runs from both ends (goal sets, pruned by learned pagodas: it usually settles first), one
    while it lists every reachable position alone, where the depth-first search is as complete and
    cheaper per position (random German #8 of the bench, 5 pegs: 3.8 s CPU, 4.7 s at three to one throughout)."""
    return LEVEL_SLICES if stats is None or stats.sides > 1 else 1


def _wrap_dfs(gen: Generator[Any, None, Any]) -> Generator[None, None, Outcome]:
    value = yield from gen
    return _dfs_outcome(value)
