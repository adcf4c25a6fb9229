"""Equivalent formulations of a single-vacancy problem, and a phase that searches them.

A problem "every hole filled but ``s``, finish with one peg on ``f``" has up to 16
formulations with the same answer:

* **symmetry**: for a board symmetry ``g``, the problem ``g(s) -> g(f)``; a solution of it
  is mapped back through ``g``'s inverse;
* **duality** (time reversal: backward play is forward play on complemented positions, as in
  G. Bell, "Notes on solving and playing peg solitaire on a computer", arXiv:0903.3696): the
  problem ``f -> s``.  If the jumps ``j1 .. jn`` take "all but
  ``s``" to "only ``f``" through the positions ``P0 .. Pn``, then the same jumps in reverse
  order ``jn .. j1`` take "all but ``f``" to "only ``s``" through the complements
  ``~Pn .. ~P0`` (a jump ``a`` over ``b`` into ``c`` turns pegs on ``a, b`` and a hole on
  ``c`` into the reverse; on the complements it is the same jump, played the other way in
  time).  So a solution of the dual, read backwards and complemented, solves the problem.

The heuristic searches (beam, short depth-first runs) order jumps by scores and tie-breaks
that are not symmetric, so one formulation can be far easier for them than another.
Measured (CPython, busy machine): German ``d2 -> a5`` stays unknown after 30 s, but the
solver solves its formulations ``b6 -> e9`` and ``b4 -> e1`` in 0.25 s and 1.1 s CPU.
:class:`Formulations` runs the cheap phases of the portfolio on every formulation, and
:class:`Alongside` runs those rounds beside the solver's complete phase: German ``d2 -> a5``,
``d4 -> d1`` and ``e1 -> h4`` (issue 9, unknown before) are solved in 6-7.3 s CPU in all.
Every solution found this way is mapped back and replayed (:func:`replays`) before it is used.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, replace
from functools import lru_cache

from ..core.board import BOARD_CACHE_SIZE, Board
from ..core.game import illegal_reason
from ..core.goal import stabilizer
from ..core.moves import apply_jump
from ..proofs.pagoda import pagodas_for
from .compiled import Tables, build_tables, reseed
from .phases import Beam, Restart
from .runstate import Outcome, Phase, Run
from .table import BoundedTable

ROUND_RESTARTS = (300,) * 12
"""Node limits of the short depth-first runs of the first round (as in the portfolio)."""

FORMULATION_TABLE_CAP = 1 << 16
"""Most dead positions the table of one formulation holds (about 4 MB each on CPython)."""


@dataclass(frozen=True)
class Formulation:
    """The problem ``start -> target`` (a single vacancy, one peg) seen through symmetry ``sym``
    (an index into :attr:`pyapp.core.board.Board.symmetries`) and, when ``dual``, time reversal."""

    board: Board
    sym: int
    dual: bool
    start: int
    target: int

    def text(self) -> str:
        """``'b4 -> e1'``: the vacancy and the finishing hole of this formulation."""
        b = self.board
        vac = (b.mask ^ self.start).bit_length() - 1
        return f"{b.name_of[vac]} -> {b.name_of[self.target.bit_length() - 1]}"

    def back(self, path: list[int]) -> list[int]:
        """A path of positions solving this formulation, as a path solving the original problem."""
        b = self.board
        if self.dual:
            path = [b.mask ^ p for p in reversed(path)]
        inv = inverse(b, self.sym)
        return [b.transform(p, inv) for p in path]


def inverse(board: Board, sym: int) -> int:
    """The index of the inverse of symmetry ``sym``."""
    for j in range(len(board.symmetries)):
        if all(board.transform(board.transform(1 << h, sym), j) == 1 << h for h in board.bits):
            return j
    raise ValueError(f"symmetry {sym} of {board.id!r} has no inverse")  # pragma: no cover - a group


def formulations(board: Board, start: int, target: int | None) -> list[Formulation]:
    """The formulations of ``start -> target`` other than itself, each problem once (in a fixed
    order: by symmetry, direct before dual); empty unless ``start`` has one vacancy and
    ``target`` one peg."""
    vacancy = board.mask ^ start
    if target is None or vacancy.bit_count() != 1 or target.bit_count() != 1:
        return []
    seen = {(start, target)}
    out = []
    for sym in range(len(board.symmetries)):
        s, f = board.transform(vacancy, sym), board.transform(target, sym)
        for dual, (v, t) in ((False, (s, f)), (True, (f, s))):
            key = (board.mask ^ v, t)
            if key not in seen:
                seen.add(key)
                out.append(Formulation(board, sym, dual, key[0], t))
    return out


def replays(board: Board, path: list[int], start: int, target: int) -> bool:
    """True when ``path`` runs from ``start`` to ``target``, each step a legal jump on ``board``."""
    if not path or path[0] != start or path[-1] != target:
        return False
    for p, q in zip(path, path[1:]):
        gone, came = p & ~q, q & ~p
        if gone.bit_count() != 2 or came.bit_count() != 1:
            return False
        x, y, c = (gone & -gone).bit_length() - 1, gone.bit_length() - 1, came.bit_length() - 1
        jump = (x, y, c) if 2 * y == x + c else (y, x, c)
        lines = _line_set(board)
        if (jump not in lines and jump[::-1] not in lines) or illegal_reason(board, p, jump) \
                or apply_jump(p, jump) != q:
            return False
    return True


@lru_cache(maxsize=BOARD_CACHE_SIZE)
def _line_set(board: Board) -> frozenset[tuple[int, int, int]]:
    return frozenset(board.lines)


@lru_cache(maxsize=4 * BOARD_CACHE_SIZE)
def _tables(board: Board, target: int) -> Tables:
    """Compiled tables toward one finishing position (pagodas toward it, its stabilizer's symmetries)."""
    return build_tables(board, pagodas_for(board, [target]), list(stabilizer(board, target)), None)


@dataclass(frozen=True)
class Formulations:
    """Round ``round`` of :func:`rounds` (the cheap phases of the portfolio) run on every other
    formulation of a single-vacancy, one-peg problem in turn; the first solution found, mapped back
    and checked by :func:`replays`, answers (an exhaustive run on a formulation is a proof too).
    Does nothing for other problems."""

    round: int
    name: str = "search of an equivalent problem"

    def run(self, run: Run, number: int) -> Generator[None, None, Outcome | None]:
        board = run.tables.board
        target = run.target
        forms = formulations(board, run.start, target) if target is not None else []
        phases = rounds()[self.round] if forms else []
        for form in forms:
            sub = _sub_run(run, form)
            for k, phase in enumerate(phases):
                outcome = yield from phase.run(sub, k)
                if outcome is None:
                    continue
                how = f"the equivalent problem {form.text()} ({'time reversal' if form.dual else 'symmetry'})"
                if outcome.status == "found":
                    mapped = form.back(outcome.path)
                    if target is not None and replays(board, mapped, run.start, target):
                        return Outcome("found", mapped, f"{outcome.method} on {how}")
                elif outcome.status == "exhausted":
                    return Outcome("exhausted", [], f"exhaustive search of {how}: {run.st.nodes} nodes")
        return None


def rounds() -> list[list[Phase]]:
    """The rounds of :class:`Formulations`: 12 short depth-first runs and beams of 128 and 256, then
    a beam of 1024 and a 4000-node run, then a beam of 4096 and a 16000-node run."""
    first: list[Phase] = [Restart(n) for n in ROUND_RESTARTS]
    return [first + [Beam(128), Beam(256)], [Beam(1024), Restart(4000)], [Beam(4096), Restart(16000)]]


@dataclass(frozen=True)
class Alongside:
    """The solver's complete phase (``complete``) with the rounds of :class:`Formulations` beside it,
    one slice each in turn; whichever settles the question first answers.

    Beside, not before: run before it, the rounds (15 formulations, beams up to 4096 wide) took the
    whole 10-20 s that Diamond 41 e1 -> e3, e1 -> e6 and e3 -> e1 need for the level search's proof of
    impossibility (3.7-4.1 s CPU alone; unknown at 20 s behind the rounds); run after it, they would
    never run, as the complete phase only stops when it settles the question."""

    complete: Phase
    name: str = "complete search, with the equivalent problems beside it"

    def run(self, run: Run, number: int) -> Generator[None, None, Outcome | None]:
        main = self.complete.run(run, number)
        side: Generator[None, None, Outcome | None] | None = _all_rounds(run, number)
        while True:
            try:
                next(main)
            except StopIteration as stop:
                if side is not None:
                    side.close()
                return stop.value
            yield
            if side is None:
                continue
            try:
                next(side)
            except StopIteration as stop:
                side = None
                if stop.value is not None:
                    main.close()
                    return stop.value
            yield


def _all_rounds(run: Run, number: int) -> Generator[None, None, Outcome | None]:
    for r in range(len(rounds())):
        outcome = yield from Formulations(r).run(run, number)
        if outcome is not None:
            return outcome
    return None


def _sub_run(run: Run, form: Formulation) -> Run:
    """A :class:`~pyapp.search.runstate.Run` for one formulation, sharing the node counter and budget."""
    base = _tables(form.board, form.target)
    tables = replace(base, ties=list(base.ties))
    reseed(tables, run.seed)
    table = BoundedTable(min(run.table.cap, FORMULATION_TABLE_CAP), tables.images)
    return replace(run, tables=tables, table=table, start=form.start, final_pegs=1, target=form.target,
                   finishes=[form.target])
