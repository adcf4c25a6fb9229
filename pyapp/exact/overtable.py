"""A winnable set held from some level up, the goal's endgame table answering every level below.

The big boards' games (French d2 -> d6) are neither own-hole games, whose low levels the complements answer
(:mod:`.partial`), nor small enough to ship their low levels too.  But each of them has its goal's endgame table
(:mod:`.endgame`), exact for any position with up to its ceiling's pegs (a lookup of the complement up to ``L``
pegs, a search down to it above).  So such a game ships only its winnable levels from ``K`` pegs up, ``K`` at most
one above the table's ceiling, or :data:`LIFT` levels more (the table is then asked to search that high), and
:class:`OverTable` answers:

* a position with at least ``K`` pegs by one lookup: reachable from the start and able to reach the goal;
* one with fewer by the table: a position reached in play is reachable, so it can still win exactly when it
  can reach the goal, which the table decides for any position.

Every answer is exact.  The table's search runs on a per-question limit (:attr:`.endgame.Endgame.limit`); past
it, or when the table is not loaded, :class:`~.subtree.Overrun` is raised and the caller searches as it would
without the set.  :meth:`OverTable.settle_steps` runs those searches beforehand in chunks, pausing, so the
answer that follows (every jump and a line to the goal) reads them from the table's memo.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

from ..core.budget import Budget, Progress
from ..core.moves import apply_jump, legal_jumps
from .endgame import Endgame, endgame_for
from .partial import PartialWinnable
from .subtree import Overrun
from .winnable import Winnable

LIFT = 1
"""Levels above its own ceiling (:data:`.endgame.SEARCH_LEVELS` above its held levels) the goal's table is asked to
search under a set's floor: French d2 -> d6 ships from 24 pegs over a table whose ceiling is 22, its learned pagodas
(:mod:`.pagoda_prune`) keeping a 23-peg question to 0.1-2 CPython s."""
FIRST_LOOK = 1_000
"""Classes :meth:`OverTable._settle_line` first gives each child of a line's edge (about 5 CPython ms)."""
GROWTH = 4
"""How many times more classes each of :meth:`OverTable._settle_line`'s rounds gives an unsettled child."""


@dataclass
class OverTable(PartialWinnable):
    """The levels of a winnable set with at least :attr:`floor` pegs; the goal's endgame table below them."""

    def __post_init__(self) -> None:
        self._prepare()

    @property
    def low(self) -> int:
        return self.floor - 1

    @property
    def search_ready(self) -> bool:
        return True  # no search of its own: the table's filter is made when the table loads

    def table(self, pos: int) -> Endgame:
        """The goal's endgame table for the class of ``pos``, its search raised to the level under the floor (by
        at most :data:`LIFT`); :class:`Overrun` when it is not loaded or does not reach that level."""
        board, goal = self.problem.board, self.problem.goal
        table = endgame_for(board, goal, pos)
        if table is None:
            raise Overrun("the goal's endgame table, which answers the levels under the set's floor, is not loaded")
        if table.ceiling < self.floor - 1:
            if self.floor - 1 > table.ceiling + LIFT:
                raise Overrun(f"the goal's endgame table answers up to {table.ceiling} pegs, the set from {self.floor}")
            table.ceiling = self.floor - 1  # each question stays within the table's limit of classes
        return table

    def via(self, pegs: int) -> str:
        return "lookup" if pegs >= self.floor else "table"

    def can_win(self, pos: int) -> bool:
        if pos.bit_count() >= self.floor:
            return self.lookup(pos)
        table = self.table(pos)
        table.question(keep=True)  # a fresh limit for this position; the memo kept (it holds what was settled)
        return table.can_win(pos)

    def settled(self, pos: int) -> bool | None:
        """The verdict of ``pos`` without a search: a lookup, or what the table's memo holds; None when the table
        has not settled it (or is not loaded)."""
        if pos.bit_count() >= self.floor:
            return self.lookup(pos)
        try:
            table = self.table(pos)
        except Overrun:
            return None
        return table.can_win(pos) if pos.bit_count() <= table.low else table.memo.get(table.codec.canon(pos))

    def known(self, pos: int) -> bool:
        return pos.bit_count() < self.floor and self.table(pos).known(pos)

    def settle_steps(self, pos: int, budget: Budget, line: bool = True) -> Generator[Progress, None, bool]:
        """Settle in the table, in chunks (:meth:`.endgame.Endgame.settle_steps`, yielding progress), what a
        never-lose answer or Hint for ``pos`` asks it (:func:`~pyapp.analysis.neverlose_exact.file_jumps` with
        one line): the position's verdict when it is under the floor; if it can still win, those of the positions
        after its jumps under the floor (above it they are lookups), and, when ``line`` asks for the answer's line
        and the first good jump's position is held by the set, the first step under the floor of that line
        (:meth:`_settle_line`), so the line is read from the memo.  Only that one line: the other good jumps' lines
        would each cost table searches too (1.5-18 CPython s a position on French d2 -> d6 for all of them, before
        the table's pagodas), and no answer gives them (:func:`~pyapp.analysis.neverlose_exact.exact_lines`).  A
        lost position files no jump, so nothing more is asked.  False when the table is missing or ``budget`` or
        the table's limit runs out first."""
        board, floor = self.problem.board, self.floor
        try:
            table = self.table(pos)
        except Overrun:
            return False
        if pos.bit_count() <= table.low:  # a lookup, and so is every position after it
            return True

        def settled(p: int) -> Generator[Progress, None, bool | None]:
            """The verdict of ``p`` (under the floor) once settled, None when the search did not end."""
            if not (yield from table.settle_steps([p], budget, table.limit)):
                return None
            table.question(keep=True)
            return table.can_win(p)  # read from the memo (or a lookup)

        if pos.bit_count() < floor:
            won = yield from settled(pos)
            if won is None:
                return False
        else:
            won = self.lookup(pos)
        if not won:
            return True
        lined = not line  # the first good jump's line is settled (or, under the floor, its verdict), or not asked
        for after in (apply_jump(pos, jump) for jump in legal_jumps(board, pos)):
            if after.bit_count() < floor:
                verdict = yield from settled(after)
                if verdict is None:
                    return False
                lined = lined or verdict
            elif not lined and self.lookup(after):
                lined = True
                if not (yield from self._settle_line(table, self._edge(after), budget)):
                    return False
        return True

    def _settle_line(self, table: Endgame, edge: int, budget: Budget) -> Generator[Progress, None, bool]:
        """Settle a winning child of the held ``edge`` (:attr:`floor` pegs) in the table, so
        :func:`~.winnable.line_from` steps to it (:meth:`known`) without searching the others.  Which child wins
        is known (the set holds ``edge``), but not how much each costs: a lost one is proved only by searching
        its whole subtree down to the table's levels (up to the table's limit on French from 22 pegs).  So the
        children share growing rounds: each unsettled one gets :data:`FIRST_LOOK` classes, then
        :data:`GROWTH` times as many, up to the table's limit, until one is found to win.  A search resumed in a
        later round keeps the subtrees it finished (:meth:`.endgame.Endgame.settle_steps`), so the rounds cost
        little more than searching the cheapest winning child alone, once per child.  False when ``budget`` or
        the limit runs out first."""
        children = [apply_jump(edge, jump) for jump in legal_jumps(self.problem.board, edge)]
        look = min(FIRST_LOOK, table.limit)
        while children:
            for child in list(children):
                done = yield from table.settle_steps([child], budget, look)
                if budget.over():
                    return False
                if done:
                    table.question(keep=True)
                    if table.can_win(child):  # read from the memo
                        return True
                    children.remove(child)
            if look >= table.limit:
                return False
            look = min(look * GROWTH, table.limit)
        return False  # pragma: no cover - a held position always has a child that can win

    def _edge(self, pos: int) -> int:
        """The position with :attr:`floor` pegs that :func:`~.winnable.line_from` reaches from the held ``pos``:
        each step to the first child the set holds."""
        board = self.problem.board
        while pos.bit_count() > self.floor:
            pos = next(p for p in (apply_jump(pos, j) for j in legal_jumps(board, pos)) if self.lookup(p))
        return pos

    @property
    def held(self) -> str:
        return f"from {self.floor} pegs up"

    def answered(self, pos: int) -> str:
        how = {"lookup": "by lookup", "table": "by the goal's endgame table (shipped with the site)"}
        here, after = self.via(pos.bit_count()), self.via(pos.bit_count() - 1)
        parts = f"this position and its jumps {how[here]}" if here == after else \
            f"this position {how[here]}, its jumps {how[after]}"
        return f"the exact winnable set of this game, shipped {self.held}: {parts}"

    def why_not(self, pos: int) -> str:
        if pos.bit_count() >= self.floor:
            return f"not among the {len(self):,} positions with at least {self.floor} pegs that can still win"
        return self.table(pos).why_not(pos)


def over_table(win: Winnable, floor: int) -> OverTable:
    """The levels of the whole set ``win`` with at least ``floor`` pegs, as an :class:`OverTable`."""
    out = OverTable(win.problem, win.codec, floor=floor)
    out.levels = {pegs: keys for pegs, keys in win.levels.items() if pegs >= floor}
    return out
