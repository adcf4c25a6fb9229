"""Endgame tables: every position with few pegs that can still reach a goal, whatever the start.

Exact never-lose ships whole or partial winnable sets where they fit (the English games, triangle 7).  On the
bigger boards (French, German, asymmetric, Diamond 41, triangle 8) those sets run to hundreds of millions of
positions, but their low levels come cheap from the goal's side: a position ``p`` can reach the goal ``G``
exactly when ``comp(p)`` is reachable from ``comp(G)`` (a jump read on complements is a jump, see
:mod:`.partial`).  So the first levels of the complement game's sweep from the goal's complement hold every
position with few pegs that can reach the goal.  They depend on the board and the goal alone (for the goal
"one peg anywhere", on the one-peg ends the position's class allows), so one table serves every game and every
posed position toward that goal.

:func:`endgame_steps` sweeps those levels (keys canonical under the goal's symmetries that keep its ends) until
the next level is predicted to pass :data:`MAX_CLASSES` classes.  Measured in CPython 3.11 (the last level's
pegs and classes, the sweep's CPU): French d2 -> d6 10 pegs, 315,494 classes, 0.7 s; German e5 -> e5 11 pegs,
438,445, 1.7 s; asymmetric d5 -> d5 10, 265,511, 0.6 s; Diamond 41 d2 -> one peg 9, 211,484, 0.4 s; triangle 8
from 1 -> one peg 8, 431,758, 0.9 s.  An :class:`Endgame` then answers a position with at most ``L`` pegs by one
lookup of its complement, and one with up to :data:`SEARCH_LEVELS` pegs more by the exhaustive search of
:class:`.partial.PartialWinnable` down to ``L`` pegs (each class searched once, its verdict kept), within
:data:`SEARCH_NODES` classes per question: past that, or above its ceiling, it raises :class:`Overrun` and the
caller searches as before.  Every answer it gives is exact and holds for any position, reachable or posed.
"""

from __future__ import annotations

from array import array
from collections.abc import Generator
from dataclasses import dataclass, field

from ..core.board import Board
from ..core.budget import Budget, Progress
from ..core.codec.keyset import MAX_HOLES
from ..core.goal import Goal
from ..core.moves import Jump, apply_jump
from ..core.problem import Problem
from ..proofs.table_pagodas import table_pagodas
from .pagoda_prune import PackedPagodas, pack
from .partial import MEMO_ENTRIES, PartialWinnable
from .setup import Sides, sides
from .subtree import Overrun
from .sweep import Level, MemoryCeiling, sweep
from .winnable import line_from

MAX_CLASSES = 800_000
"""The sweep stops before a level predicted (the last level times its growth) to hold more classes than this:
about 2 CPU s in CPython at most on the classic boards, 6 MB of keys."""
SEARCH_LEVELS = 10
"""How many pegs above the table's last level a position may have for the table to answer it by search (the
search grows about 3.5-fold a level: German e5 -> e5, 11 pegs held, a 20-peg question about 200,000 classes, a
21-peg one 700,000)."""
SEARCH_NODES = 450_000
"""Classes one question may search (about 2.3 CPU s in CPython, 5 us a class: :mod:`.subtree`)."""
CHUNK = 5_000
"""Classes :meth:`Endgame.settle_steps` searches between two yields (about 25 ms in CPython, 60 ms in Pyodide; a
page's worker under load took 0.2-1.4 s for 20,000, and a cancel waited that long)."""
FIRST_PEGS = 20
"""At or below this many pegs never-lose and Hint build the table (once per board and goal) before they search: it
answers such a position or the positions after its jumps (its ceiling is 16-19 pegs on the classic boards)."""
BUILD_PEGS = 26
"""From this many pegs down to :data:`FIRST_PEGS` never-lose builds the table after its search, on what is left of the
budget (0.4-1.7 CPU s in CPython, 0.9-4.1 s in Pyodide on the classic boards), so a position it cannot answer yet
gives the search none of its time, and the table is ready a few jumps later."""
MIN_HOLES = 33
"""Boards with fewer holes do without the table: the search decides their positions in milliseconds."""
CACHE_ENTRIES = 4
"""Tables kept per process (one per board, goal and class of ends; the oldest dropped)."""


@dataclass
class Endgame(PartialWinnable):
    """Every position with at most :attr:`low` pegs that can reach the goal (its complement's class in the
    complement game's levels), and the positions up to :attr:`ceiling` pegs by search (module docstring)."""

    ceiling: int = 0
    """The most pegs of a position the table answers."""
    limit: int = SEARCH_NODES
    """Classes a question may search (:meth:`question`)."""
    ends: list[int] = field(default_factory=list)
    """The goal's positions the table's positions may end in (the class of ends it was swept for)."""
    shipped: bool = False
    """True for a table loaded from the site's file (:mod:`.endgame_files`), False for one swept here."""
    _stop: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        self._prepare()

    def pagodas(self) -> PackedPagodas | None:
        """The board's table pagodas that can prune a search toward :attr:`ends`
        (:func:`pyapp.proofs.table_pagodas.table_pagodas`), packed; None without any."""
        found = table_pagodas(self.problem.board, tuple(sorted(self.ends)))
        return pack(self.problem.board, found) if found else None

    def covers(self, pos: int) -> bool:
        """Whether ``pos`` has few enough pegs for the table to answer it (it may still overrun its limit)."""
        return pos.bit_count() <= self.ceiling

    def question(self, keep: bool = False) -> None:
        """Start a question: the next :attr:`limit` searched classes are its own.  A full memo is emptied here,
        between questions, never during one (:meth:`settle_steps` resumes a question on the verdicts it kept), nor
        when ``keep`` says the question only reads what the settling before it found."""
        if len(self.memo) >= MEMO_ENTRIES and not keep:
            self.memo.clear()
        self._stop = self.searched + self.limit

    def settle_steps(self, positions: list[int], budget: Budget, nodes: int) -> Generator[Progress, None, bool]:
        """Search until the table knows the verdict of each of ``positions`` (each then answered from the memo),
        :data:`CHUNK` classes at a time, yielding between chunks (progress, and cancel within about 25 ms of CPython);
        False when ``budget`` or ``nodes`` classes run out first (checked after each chunk, and again when resumed
        after a yield: a budget expired meanwhile gets no chunk more).  A search stopped at a chunk's end resumes at
        the next: the subtrees it finished keep their verdicts, so only the path it was on is searched again."""
        self.question()  # a full memo is emptied here, once: the chunks resume on what it keeps
        spent = 0
        for pos in positions:
            if not self.covers(pos):
                return False
            while True:
                before = self.searched
                self._stop = before + min(CHUNK, nodes - spent)
                try:
                    self.can_win(pos)
                    break
                except Overrun:
                    pass
                finally:
                    spent += self.searched - before
                    budget.spend(self.searched - before)
                if spent >= nodes or budget.over():
                    return False
                yield budget.progress()
                if budget.over():  # expired while paused here (a scheduler's last call for what it has): no chunk more
                    return False
        return True

    def can_win(self, pos: int) -> bool:
        """Whether ``pos`` can reach the goal; :class:`Overrun` when the table cannot say within the question."""
        pegs = pos.bit_count()
        if pegs <= self.low:
            return self._below(pos, pegs)
        if pegs > self.ceiling:
            raise Overrun(f"{pegs} pegs: the endgame table answers up to {self.ceiling}")
        return self._search(pos, pegs)

    def _search(self, pos: int, pegs: int) -> bool:
        self.subtree().limit(self._stop, self.limit)
        return super()._search(pos, pegs)

    def answer(self, pos: int, settled: bool = False) -> tuple[bool, list[Jump]] | None:
        """Whether ``pos`` can reach the goal and, if so, jumps that reach it; None when the table cannot say
        (above its ceiling, or past a question's limit).  ``settled``: just settled by :meth:`settle_steps`, so
        the memo is kept even when full (it holds the verdicts this answer reads)."""
        if not self.covers(pos):
            return None
        self.question(keep=settled)
        try:
            return (True, line_from(self, pos)) if self.can_win(pos) else (False, [])
        except Overrun:
            return None

    @property
    def held(self) -> str:
        return f"every position of up to {self.low} pegs that can reach the goal"

    def via(self, pegs: int) -> str:
        return "lookup" if pegs <= self.low else "search"

    def answered(self, pos: int) -> str:
        how = {"lookup": "by lookup",
               "search": f"by an exhaustive search down to {self.low} pegs, where the table answers"}
        here, after = self.via(pos.bit_count()), self.via(pos.bit_count() - 1)
        parts = f"this position and its jumps {how[here]}" if here == after else \
            f"this position {how[here]}, its jumps {how[after]}"
        made = "shipped with the site" if self.shipped else "when first needed"
        return (f"the endgame table of this goal ({self.held}, {len(self):,} classes swept back from the goal, "
                f"{made}): {parts}")

    def why_not(self, pos: int) -> str:
        if pos.bit_count() <= self.low:
            return f"not among the {len(self):,} classes of the endgame table, {self.held}"
        return (f"no position with {self.low} pegs it leads to can reach the goal: an exhaustive search down to "
                f"that level, each looked up in the endgame table ({self.held})")


FINISH_ABOVE = 3
"""A table beam (:mod:`pyapp.search.tablebeam`) stops this many pegs above the table's held levels, where a question
is settled in a few thousand classes (measured on German, Diamond 41 and asymmetric: 2 and 4 pegs above found as many
winnable positions at the same width; 5 above found a few more at 4-5 times the CPU)."""
FINISH_CLASSES = 20_000
"""Classes a table beam's question may search (about 0.1 CPU s in CPython), settled :data:`CHUNK` at a time."""


@dataclass
class TableFinisher:
    """The table as a search's :class:`~pyapp.search.tablebeam.Finisher`: it settles one position at a time on
    ``budget`` (the search's own), within :data:`FINISH_CLASSES` classes."""

    table: Endgame
    budget: Budget

    @property
    def pegs(self) -> int:
        return min(self.table.low + FINISH_ABOVE, self.table.ceiling)

    def finish_steps(self, pos: int) -> Generator[None, None, list[int] | None]:
        settle = self.table.settle_steps([pos], self.budget, FINISH_CLASSES)
        while True:
            try:
                next(settle)
            except StopIteration as stop:
                if not stop.value:
                    return None
                break
            yield
        found = self.table.answer(pos, settled=True)
        if found is None or not found[0]:
            return None
        path = [pos]
        for jump in found[1]:
            path.append(apply_jump(path[-1], jump))
        return path


_CACHE: dict[tuple, Endgame] = {}
_SHIPPED: dict[tuple, Endgame] = {}
"""Tables loaded from the site's files (:mod:`.endgame_files`): kept for the whole session, never evicted."""


def when_to_build(problem: Problem) -> str | None:
    """When never-lose builds the goal's table for ``problem``: ``first`` (before its search), ``after`` (on what the
    search leaves of the budget) or None (:data:`FIRST_PEGS`, :data:`BUILD_PEGS`, :data:`MIN_HOLES`; not past 64
    holes, the sweep's key width)."""
    pegs = problem.start.bit_count()
    if not problem.goal.definite or not MIN_HOLES <= len(problem.board) <= MAX_HOLES or pegs > BUILD_PEGS:
        return None  # (the sweep keys positions in 64 bits)
    return "first" if pegs <= FIRST_PEGS else "after"


def _key(board: Board, goal: Goal, ends: list[int]) -> tuple:
    return board.id, board.mask, goal, frozenset(ends)


def endgame_for(board: Board, goal: Goal, pos: int) -> Endgame | None:
    """The table already built for ``goal`` and the class of ``pos``, or None."""
    if not goal.definite:
        return None
    key = _key(board, goal, goal.pagoda_targets(board, pos))
    return _SHIPPED.get(key) or _CACHE.get(key)


def endgame_steps(board: Board, goal: Goal, pos: int, budget: Budget, max_classes: int = MAX_CLASSES
                  ) -> Generator[Progress, None, Endgame | None]:
    """The table for ``goal`` and the class of ``pos``: from the cache, else swept now and kept (None for the
    goal ``min``, or when the budget's time or memory ceiling ends before the sweep stops; what was swept is then
    dropped)."""
    if not goal.definite:
        return None
    ends = goal.pagoda_targets(board, pos)
    key = _key(board, goal, ends)
    if key in _SHIPPED or key in _CACHE or not ends:
        return _SHIPPED.get(key) or _CACHE.get(key)
    back = sides(Problem(board, pos, goal))  # the complement game's sources and codec, as the exact sweeps have them
    cd = back.back_codec
    levels: dict = {}
    sizes: list[int] = []
    steps = sweep(cd, back.backward, 1, weights=False, stage="endgame table", max_bytes=budget.ceiling(),
                  kept_bytes=lambda: sum(keys.itemsize * len(keys) for keys in levels.values()))
    try:
        for item in steps:
            if isinstance(item, Level):
                levels[item.pegs] = item.keys
                sizes.append(len(item))
                grows = sizes[-1] / sizes[-2] if len(sizes) > 1 and sizes[-2] else 1.0
                if not sizes[-1] or sizes[-1] * grows > max_classes:
                    break
            yield budget.progress()
            if budget.over():
                return None
    except MemoryCeiling:
        return None
    table = made(back, levels, ends)
    if len(_CACHE) >= CACHE_ENTRIES:
        del _CACHE[next(iter(_CACHE))]
    _CACHE[key] = table
    return table


def made(back: Sides, levels: dict[int, array], ends: list[int], *, shipped: bool = False) -> Endgame:
    """The table of the complement game's ``levels`` (complement pegs -> sorted canonical keys under
    ``back.back_codec``), for the goal of ``back.problem`` and the class of ``ends``."""
    low = len(back.problem.board) - min(levels)
    return Endgame(back.problem, back.back_codec, levels, floor=len(back.problem.board) - low,
                   ceiling=low + SEARCH_LEVELS, ends=list(ends), shipped=shipped)


def install(table: Endgame) -> None:
    """Keep a table loaded from a file for the rest of the session (:func:`endgame_for` finds it first)."""
    problem = table.problem
    _SHIPPED[_key(problem.board, problem.goal, table.ends)] = table


def clear() -> None:
    """Forget every table, loaded ones too (tests; a benchmark's cold run)."""
    _CACHE.clear()
    _SHIPPED.clear()
