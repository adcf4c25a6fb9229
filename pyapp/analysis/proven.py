"""What a game has proved so far: positions known to win (with a line to the goal) or known lost (with why).

Never-lose and Hint ask the solver about the position after every legal jump, after every move.  Most
of those questions were answered before: the position one move back (after an undo), every position on
a line the solver already found (the player following a hint), a jump proved losing a move ago.  So the
answers live in one table per board and goal, kept for as long as the engine runs, and every
search goes through :func:`decide_steps`:

* a position on a known winning line is winnable at once, with the rest of that line;
* a position proved lost is lost at once, with the proof's reason, and so is every position one jump after it
  (:data:`FOLLOWS`: a line from there would be a line from the lost one), which is then recorded in its turn: once
  a game has gone wrong and one position on it is proved lost, every later one is answered at once;
* a position the game's opening book decides (:mod:`pyapp.exact.openingbook`, shipped: many pegs) is answered at once;
* a position next to one with a known line (one jump before it, or another jump from there) is winnable at once
  when that line, adapted (:mod:`.repair`), still reaches the goal;
* a position the goal's endgame table answers (:mod:`pyapp.exact.endgame`, when never-lose or Hint has built it:
  few pegs) is decided exactly at once, and recorded;
* otherwise the solver runs on its share of the budget, and what it proves is recorded: every position
  along a solution (each with its own continuation) and the position of an impossibility proof.

Keys are exact positions (a line is a sequence of concrete jumps: no symmetry mapping is needed), and
only answers that hold whatever the budget are kept (``solved`` and ``impossible`` for goals with a
definite end).  The table holds at most ``max_entries`` positions (caller-set; about 200 bytes each);
when full, the oldest half is dropped.

>>> from pyapp.core.problem import default_problem
>>> from pyapp.core.budget import Budget, drive
>>> problem = default_problem("triangle5")
>>> table = Proven()
>>> first = drive(decide_steps(problem, Budget(10), table))
>>> first.status, len(table) == len(first.jumps) + 1
('solved', True)
>>> again = drive(decide_steps(problem, Budget(10), table))
>>> again.method, again.nodes, again.jumps == first.jumps
('proved earlier in this game', 0, True)
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field

from ..core.budget import Budget, Progress
from ..core.moves import Jump, apply_jump, undo_jump
from ..core.problem import Problem, Result
from ..exact.endgame import Endgame, TableFinisher, endgame_for
from ..exact.openingbook import NAME as BOOK
from ..exact.openingbook import book_for
from ..search.solver import search
from .puzzle import reverse_jumps
from .repair import repaired

DEFAULT_ENTRIES = 250_000
"""Positions kept per board and goal by default (about 50 MB)."""
HIT = "proved earlier in this game"
TABLE_SHARE = 0.6
"""The part of a question's time left that the goal's endgame table may search before the solver takes over (what
the table searched stays in its memo for the next question)."""
REPAIRED = "a neighbouring position's line, adapted"
"""How a line made by :func:`pyapp.analysis.repair.repaired` is named (its method)."""
FOLLOWS = "it follows a position proved lost"
"""The reason of a position one jump after a position proved lost, before that position's own reason (the page's
never-lose note names it "after a lost position", ``static/panels/neverlose.mjs``)."""
ENDGAME = "endgame table"
"""How an answer of the goal's endgame table is named (its method; a loss's reason starts with it)."""


@dataclass
class Proven:
    """Positions of one board and goal: winnable ones with a line to the goal, lost ones with why."""

    max_entries: int = DEFAULT_ENTRIES
    won: dict[int, tuple[Jump, ...]] = field(default_factory=dict)
    lost: dict[int, str] = field(default_factory=dict)
    hits: int = 0
    learned: int = 0
    """Solutions recorded so far (:meth:`adapted` tries a position again only after new ones)."""
    tried: dict[int, int] = field(default_factory=dict)
    """Positions :meth:`adapted` could not answer, with :attr:`learned` at the time."""

    def __len__(self) -> int:
        return len(self.won) + len(self.lost)

    def answer(self, problem: Problem) -> Result | None:
        """The recorded answer for ``problem.start``, as a :class:`Result` with no search, or None."""
        pos = problem.start
        line = self.won.get(pos)
        if line is not None:
            self.hits += 1
            return _solved(pos, line, HIT)
        why = self.lost_reason(problem)
        if why is not None:
            self.hits += 1
            return Result("impossible", why, [], pos, 0, 0, 0.0, HIT)
        book = book_for(problem.board, problem.goal)
        found = None if book is None else book.answer(pos)
        if found is None:
            return None
        self.hits += 1
        if not found.won:
            return Result("impossible", found.why, [], pos, 0, 0, 0.0, BOOK)
        result = _solved(pos, found.line, BOOK)
        self.record(problem, result)  # the positions along the book's line, below its deepest level, are known too
        return result

    def lost_reason(self, problem: Problem) -> str | None:
        """Why ``problem.start`` is lost, when it is recorded lost or follows a position recorded lost; else None."""
        why = self.lost.get(problem.start)
        if why is None and self.lost and problem.goal.definite:
            why = self._after_lost(problem)
        return why

    def _after_lost(self, problem: Problem) -> str | None:
        """The reason ``problem.start`` is lost when a position one jump before it (each jump into it undone:
        :func:`.puzzle.reverse_jumps`) is recorded lost (recorded too, so the next position finds it), or None."""
        pos = problem.start
        for jump in reverse_jumps(problem.board, pos):
            why = self.lost.get(undo_jump(pos, jump))
            if why is not None:
                why = f"{FOLLOWS}: {why.removeprefix(FOLLOWS + ': ')}"
                self.record(problem, Result("impossible", why, [], pos))
                return why
        return None

    def adapted(self, problem: Problem) -> Result | None:
        """A line for ``problem.start`` adapted from a neighbouring position's known line (:mod:`.repair`), recorded;
        None when none works (tried again only once the table has recorded new solutions)."""
        pos = problem.start
        if not problem.goal.definite or self.tried.get(pos) == self.learned:
            return None
        book = book_for(problem.board, problem.goal)

        def line_of(near: int) -> tuple[Jump, ...] | None:
            line = self.won.get(near)
            return book.line(near) if line is None and book is not None else line

        endgame = endgame_for(problem.board, problem.goal, pos)
        line = repaired(problem.board, problem.goal, pos, line_of, endgame)
        if line is None:
            if len(self.tried) >= self.max_entries:
                self.tried.clear()
            self.tried[pos] = self.learned
            return None
        result = _solved(pos, tuple(line), REPAIRED)
        self.record(problem, result)
        return result

    def record(self, problem: Problem, result: Result) -> None:
        """Keep what ``result`` proves about ``problem.start`` (and, for a solution, every position on it)."""
        if not problem.goal.definite or result.status not in ("solved", "impossible"):
            return
        if len(self) + len(result.jumps) + 1 > self.max_entries:
            self._shrink()
        if result.status == "impossible":
            self.lost[problem.start] = result.reason or "impossible"
            return
        self.learned += 1
        pos, jumps = problem.start, tuple(result.jumps)
        for i, jump in enumerate(jumps):
            self.won.setdefault(pos, jumps[i:])
            pos = apply_jump(pos, jump)
        self.won.setdefault(pos, ())

    def _shrink(self) -> None:
        for table in (self.won, self.lost):
            for key in list(table)[: len(table) // 2 + 1]:  # dicts keep insertion order: the oldest first
                del table[key]


def _solved(pos: int, line: tuple[Jump, ...], method: str) -> Result:
    """A known solution from ``pos`` as a :class:`Result` with no search."""
    final = pos
    for jump in line:
        final = apply_jump(final, jump)
    return Result("solved", None, list(line), final, 0, 0, 0.0, method)


_TABLES: dict[tuple, Proven] = {}


def table_for(problem: Problem) -> Proven:
    """The engine's table of the problem's board and goal (created on first use)."""
    key = (problem.board.id, problem.board.mask, problem.goal)
    if key not in _TABLES:
        _TABLES[key] = Proven()
    return _TABLES[key]


def decide_steps(problem: Problem, budget: Budget, table: Proven | None = None,
                 beam_widths: tuple[int, ...] | None = None, complete: bool = True
                 ) -> Generator[Progress, None, Result]:
    """The solver's answer for ``problem``, from ``table`` when it was proved before, else searched on
    ``budget`` and recorded (``table`` defaults to the engine's table for the problem; ``beam_widths``:
    the solver's beams, by default its own; ``complete``: False ends the search before its complete search,
    :func:`pyapp.search.solver.search`).  When the goal's endgame table is built, the search's beams may stop at it
    and ask it (:class:`~pyapp.exact.endgame.TableFinisher`, :mod:`pyapp.search.tablebeam`)."""
    table = table_for(problem) if table is None else table
    known = table.answer(problem) or table.adapted(problem)
    if known is not None:
        return known
    endgame = endgame_for(problem.board, problem.goal, problem.start)
    result = yield from _from_endgame_steps(problem, budget, endgame)
    if result is not None:
        table.record(problem, result)
        return result
    finisher = None if endgame is None else TableFinisher(endgame, budget)
    result = yield from search(problem, budget=budget, beam_widths=beam_widths, complete=complete, finisher=finisher)
    table.record(problem, result)
    return result


def settle_on_time(endgame: Endgame, positions: list[int], budget: Budget, nodes: int, *, floor: float
                   ) -> Generator[Progress, None, bool]:
    """:meth:`Endgame.settle_steps` on :data:`TABLE_SHARE` of ``budget``'s time left (at least ``floor`` s), so a
    question never holds its worker past its time; whether every one of ``positions`` was settled."""
    left = budget.remaining_seconds()
    part = budget.share(1, seconds=None if left is None else max(left * TABLE_SHARE, floor))
    return (yield from endgame.settle_steps(positions, part, nodes))


def _from_endgame_steps(problem: Problem, budget: Budget, endgame: Endgame | None
                        ) -> Generator[Progress, None, Result | None]:
    """The answer of the goal's endgame table (:mod:`pyapp.exact.endgame`; ``endgame``, the one built for the
    problem's goal and class, or None), when it settles the position on its share of ``budget``
    (:func:`settle_on_time`: yielding progress, stopped by cancel)."""
    if endgame is None or not endgame.covers(problem.start):
        return None
    if not (yield from settle_on_time(endgame, [problem.start], budget, endgame.limit, floor=0.05)):
        return None
    return _from_endgame(problem, endgame)


def _from_endgame(problem: Problem, endgame: Endgame) -> Result | None:
    """The answer of ``endgame`` for the problem's position, when it answers (from its memo, once settled)."""
    pos = problem.start
    found = endgame.answer(pos, settled=True)
    if found is None:
        return None
    wins, line = found
    if not wins:
        return Result("impossible", f"{ENDGAME}: {endgame.why_not(pos)}", [], pos, 0, 0, 0.0, ENDGAME)
    final = pos
    for jump in line:
        final = apply_jump(final, jump)
    return Result("solved", None, line, final, 0, 0, 0.0, ENDGAME)
