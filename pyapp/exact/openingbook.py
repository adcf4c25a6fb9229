"""An opening book: the exact never-lose verdict of every position class a game can reach from its start down
to a level, computed offline once, shipped, and looked up by the engine.

Above about 24 pegs on the French, German, asymmetric and Diamond boards a never-lose check searches every
jump's position and often spends its whole budget (the goal's endgame table answers only the endgame).  Those
positions are few near the start: French d2 -> d6 reaches 891 classes at 31 pegs (up to its mirror symmetry,
which fixes the start and the goal) and 1,108 with 31 pegs or more.  So the book decides them once:

* :func:`frontier` sweeps the classes reachable from the start down to the deepest level (the symmetries fixing
  the start and the goal, :attr:`pyapp.exact.setup.Sides.codec`); given the book one level up (``under``), the
  deepest level keeps only the children of that book's winnable classes: every child of a lost class is lost, and
  the game's table of proved positions answers it from its parent (:data:`pyapp.analysis.proven.FOLLOWS`), so a
  level under the winnable classes costs a fraction of the whole level (Diamond 41 d2: 1,450 of the 26,490 classes
  of 33 pegs are children of the 168 winnable ones of 34);
* :func:`decide` asks the solver about one class of the deepest level on a CPU budget: ``solved`` (its jumps,
  replayed from the class's representative), ``impossible`` (the proof's reason) or ``unknown`` (left out);
* :func:`assemble` takes those records and every level above follows exactly: a class is winnable when one of
  its jumps leads to a winnable class (its line is that jump, then the child's line moved onto the child by the
  symmetry relating them), lost when every jump leads to a lost class; a class with an undecided child and no
  winnable one is left out.

What is left out is asked of the search as before, so the book is exact wherever it answers.  The file and its
checks are in :mod:`.openingbook_files`; ``scripts/opening_book.py`` computes it (minutes to an hour of CPU per game).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.board import Board
from ..core.budget import CPU_CLOCK, Budget
from ..core.codec.compiled import Codec
from ..core.game import replay
from ..core.goal import Goal
from ..core.moves import Jump, apply_jump, legal_jumps
from ..core.notation import format_jump
from ..core.problem import Problem
from ..search.solver import solve
from .endgame import TableFinisher, endgame_for
from .setup import sides
from .sweep import Level, sweep

LOST_CHILDREN = "every jump from it leads to a position proved lost"
NAME = "opening book"
"""How the book's answers are named (a loss's reason starts with it, and the page names the proof from that)."""


@dataclass(frozen=True)
class Verdict:
    """A class's verdict: ``won`` with ``line`` (a solution), or lost with ``why`` (the proof)."""

    won: bool
    line: tuple[Jump, ...] = ()
    why: str = ""


@dataclass
class Book:
    """Verdicts of the classes of ``problem`` with at least ``deepest`` pegs (canonical keys of ``codec``)."""

    problem: Problem
    codec: Codec
    deepest: int
    won: dict[int, tuple[Jump, ...]] = field(default_factory=dict)
    """Winnable classes: a solution from the class's representative (``codec.layout(key)``)."""
    lost: dict[int, str] = field(default_factory=dict)
    """Lost classes: the proof (the solver's reason at the deepest level, :data:`LOST_CHILDREN` above)."""
    reached: dict[int, int] = field(default_factory=dict)
    """Classes reachable per level (peg count), decided or not."""

    def __len__(self) -> int:
        return len(self.won) + len(self.lost)

    def answered(self) -> str:
        """What answered, for the page's note."""
        return (f"the {NAME} of this game ({len(self):,} classes of {self.deepest} pegs or more that the start "
                f"reaches, each solved or proved lost once by the engine, shipped with the site), no search")

    def answer(self, pos: int) -> Verdict | None:
        """The verdict on ``pos`` (a solution from it, or the proof naming the book), or None when the book does
        not hold it (fewer pegs than its deepest level, a class the start cannot reach, or one left undecided)."""
        if pos.bit_count() < self.deepest:
            return None
        key = self.codec.canon(pos)
        line = self.won.get(key)
        if line is not None:
            return Verdict(True, moved(self.problem, self.codec, key, pos, line))
        why = self.lost.get(key)
        return None if why is None else Verdict(False, why=f"{NAME}: {why}")

    def line(self, pos: int) -> tuple[Jump, ...] | None:
        """A solution from ``pos`` when the book holds it as winnable, else None (lost, or not held)."""
        found = self.answer(pos)
        return found.line if found is not None and found.won else None


def frontier(problem: Problem, deepest: int, under: Book | None = None) -> tuple[Codec, dict[int, list[int]]]:
    """The codec of the symmetries fixing the start and the goal, and the canonical keys of every class reachable
    from the start, by level from the start's down to ``deepest`` pegs; with ``under``, a book of this game whose
    deepest level is one above, the deepest level holds only the children of its winnable classes there, and so does
    every level ``under`` held that way itself (fewer classes than the level reached)."""
    cd = sides(problem).codec
    if under is not None and under.deepest != deepest + 1:
        raise ValueError(f"opening book: a level under the winnable classes of {under.deepest} pegs is "
                         f"{under.deepest - 1} pegs, not {deepest}")
    levels: dict[int, list[int]] = {}
    for item in sweep(cd, [problem.start], deepest, weights=False):
        if isinstance(item, Level):
            levels[item.pegs] = list(item.keys)
    if under is not None:
        for pegs, keys in levels.items():
            if pegs == deepest or under.reached.get(pegs, len(keys)) < len(keys):
                kids = won_children(problem, cd, under, pegs + 1)
                levels[pegs] = [key for key in keys if key in kids]
    return cd, levels


def won_children(problem: Problem, cd: Codec, book: Book, pegs: int) -> set[int]:
    """The classes one jump after the winnable classes of ``book`` with ``pegs`` pegs (canonical keys of ``cd``)."""
    kids: set[int] = set()
    for key in book.won:
        rep = cd.layout(key)
        if rep.bit_count() == pegs:
            kids.update(cd.canon(apply_jump(rep, jump)) for jump in legal_jumps(problem.board, rep))
    return kids


def decide(problem: Problem, cd: Codec, key: int, seconds: float, engine: str = "solver") -> dict:
    """The solver's verdict on the class ``key`` within ``seconds`` of CPU: a record with ``key``, ``status``,
    ``line`` (jumps in notation from ``cd.layout(key)``), ``why`` (a loss's proof), ``method`` and ``cpu``.
    ``engine="ilp"`` asks the integer programme alone (:mod:`pyapp.search.ilp`: its point replayed, or infeasible),
    for the classes the solver's portfolio leaves undecided (Diamond 41 at 33 pegs: lost positions no pagoda proves,
    which the programme often proves at its root in a few seconds).  When the goal's endgame table is built or
    installed, the solver's beams finish at it (:class:`~.endgame.TableFinisher`), as never-lose's do."""
    board = problem.board
    pos = cd.layout(key)
    budget = Budget(seconds, clock=CPU_CLOCK)
    if engine == "ilp":
        from ..search.ilp import solve_ilp

        result = solve_ilp(Problem(board, pos, problem.goal), budget=budget)
    else:
        table = endgame_for(board, problem.goal, pos)
        finisher = None if table is None else TableFinisher(table, budget)
        result = solve(Problem(board, pos, problem.goal), budget=budget, finisher=finisher)
    record: dict[str, object] = {"key": key, "pegs": pos.bit_count(), "status": result.status,
                                 "method": result.method, "cpu": round(budget.elapsed(), 3)}
    if result.status == "solved":
        record["line"] = [format_jump(board, j) for j in result.jumps]
    elif result.status == "impossible":
        record["why"] = result.reason or "impossible"
    return record


_BOOKS: dict[tuple[str, str], Book] = {}


def install(book: Book) -> None:
    """Keep ``book`` for every question toward its goal on its board (its verdicts hold from any position)."""
    _BOOKS[(book.problem.board.id, book.problem.goal.text(book.problem.board))] = book


def book_for(board: Board, goal: Goal) -> Book | None:
    """The installed opening book toward ``goal`` on ``board``, if any."""
    return _BOOKS.get((board.id, goal.text(board))) if _BOOKS else None


def clear() -> None:
    _BOOKS.clear()


def moved(problem: Problem, cd: Codec, key: int, pos: int, line: tuple[Jump, ...]) -> tuple[Jump, ...]:
    """``line``, a solution from the representative of ``key``'s class, moved onto ``pos`` (a member of it) by the
    symmetry of ``cd``'s group that maps the one onto the other."""
    board, rep = problem.board, cd.layout(key)
    g = next(g for g in cd.group if board.transform(rep, g) == pos)
    return line if g == 0 else tuple(board.map_jumps(line, g))


def assemble(problem: Problem, cd: Codec, levels: dict[int, list[int]], records: list[dict]) -> Book:
    """The book from the solver's ``records`` (:func:`decide`; any level), every level above the deepest following
    from the one below it.  A record that disagrees with what its children's verdicts imply, or a line that does
    not replay to the goal, raises :class:`ValueError`: the book is never built on a wrong verdict."""
    board, goal = problem.board, problem.goal
    book = Book(problem, cd, min(levels), reached={p: len(keys) for p, keys in levels.items()})
    given: dict[int, dict] = {r["key"]: r for r in records if r["status"] in ("solved", "impossible")}
    for pegs in sorted(levels):
        for key in levels[pegs]:
            rep = cd.layout(key)
            verdict = _from_children(problem, cd, book, rep) if pegs > book.deepest else None
            record = given.get(key)
            if record is not None:
                won = record["status"] == "solved"
                if verdict is not None and verdict.won != won:
                    raise ValueError(f"opening book: the solver and the verdicts below disagree on class {key}")
                if verdict is None:
                    verdict = Verdict(True, _replayed(board, rep, record["line"])) if won else \
                        Verdict(False, why=_any_member(record["why"]))
            if verdict is None:
                continue
            if verdict.won:
                end = rep
                for jump in verdict.line:
                    end = apply_jump(end, jump)
                if not goal.reached(end):
                    raise ValueError(f"opening book: the line of class {key} does not end at the goal")
                book.won[key] = verdict.line
            else:
                book.lost[key] = verdict.why
    return book


def _any_member(why: str) -> str:
    """A proof's statement, which holds for every member of the class: the details after it (a pagoda's weights,
    given for the representative and mirrored on its image; the finishes one by one; the search's counts) are left
    out, and so the book holds a few distinct proofs, not one per class."""
    return why.split(" (")[0]


def _from_children(problem: Problem, cd: Codec, book: Book, rep: int) -> Verdict | None:
    """A class's verdict from its children's (one level down, all in the book or not): won with the first winning
    jump and its child's line, lost when every child is lost, else None."""
    if problem.goal.reached(rep):
        return Verdict(True)
    lost = True
    for jump in legal_jumps(problem.board, rep):
        child = apply_jump(rep, jump)
        key = cd.canon(child)
        line = book.won.get(key)
        if line is not None:
            return Verdict(True, (jump, *moved(problem, cd, key, child, line)))
        lost = lost and key in book.lost
    return Verdict(False, why=LOST_CHILDREN) if lost else None


def _replayed(board: Board, rep: int, moves: list[str]) -> tuple[Jump, ...]:
    """Jumps in notation (``'f4-d4'`` each) from ``rep``, each checked legal as it is played (:func:`replay`)."""
    played = replay(board, rep, moves)
    if not played.valid:
        raise ValueError(f"opening book: {played.error}")
    return tuple(played.jumps)
