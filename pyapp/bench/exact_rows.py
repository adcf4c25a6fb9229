"""Bench rows of the exact analyses (see :mod:`pyapp.bench.suite`): full-size published figures, checked.

* English central game, count: our computed number must equal 40,861,647,040,079,968, the
  published figure (Durango Bill, "Peg solitaire: the number of solutions"; George I. Bell).
* English central game, fewest moves: must be a proven 18 (Bergholt 1912; proved minimal
  by Beasley 1964), with a solution that replays to one peg on d4.
* English central game, level histogram (``count --levels``): its totals must equal 23,475,688
  positions reachable and 1,679,072 that can still finish at the centre, up to symmetry
  (George I. Bell, "Notes on solving and playing peg solitaire on a computer", arXiv:0903.3696).
* Triangle 7 (vacancy 4, one peg anywhere), count: no published figure we can name, so the
  check recomputes it meeting at a different level (another split of every solution into a
  first and a second half: a wrong weight or orbit size would not survive that).
* Triangle 7, fewest moves: proven by the search, solution replayed.
* Every single-vacancy problem, fewest moves (``fewest BOARD --all``): the 15-hole triangle's
  table must equal George I. Bell's catalogue (:data:`BELL_T15`); triangle 6 is checked problem
  by problem against the bounded search by moves of :mod:`pyapp.analysis` where it proves its
  answer; the English table (hours in CPython) has its central game checked against 18 and
  every solution replayed with its bound equal to it.

These rows take minutes, so they run once each (no repeats) and are not in the quick
suite; their peak memory is the analysis's own estimate of what it holds (a traced run
would take several times as long), and under Pyodide the row also carries the size of the
WebAssembly heap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.budget import Budget, drive
from ..core.catalogue import get_board
from ..core.moves import count_moves
from ..exact.count import count_exact
from ..exact.fewest import FewestTable, fewest_all_steps, fewest_exact, fewest_moves
from ..exact.levels import level_table
from .rows import Case, Outcome, _check_solution, _problem

ENGLISH_SOLUTIONS = 40_861_647_040_079_968
"""Durango Bill, "Peg solitaire: the number of solutions"; George I. Bell, "English peg solitaire"."""
ENGLISH_FEWEST = 18
"""Bergholt 1912 (an 18-move solution); Beasley 1964 (no solution has fewer)."""
TRIANGLE7_SHORTEST = 12
"""OEIS A127500 (G. I. Bell, "Solving triangular peg solitaire", JIS 11 (2008) 08.4.8): no single-vacancy
to one-peg problem on the 28-hole triangle is solved in fewer moves; a lower bound for every start."""
ENGLISH_WINNABLE = 1_679_072
"""Positions reachable from the centre start that can still finish at the centre, up to symmetry
(George I. Bell, "English peg solitaire" pages): the set the search by moves is confined to."""
ENGLISH_REACHABLE = 23_475_688
"""Positions reachable from the centre start, up to symmetry (G. I. Bell, arXiv:0903.3696)."""
BELL_T15 = {
    ("1", "1"): 10, ("5", "1"): None, ("2", "11"): 10, ("4", "15"): 9, ("1", "5"): None, ("5", "5"): None,
    ("2", "8"): None, ("4", "9"): 10, ("1", "13"): 10, ("5", "13"): 11, ("2", "6"): 10, ("4", "4"): 9,
    ("1", "7"): 11, ("5", "7"): None, ("2", "2"): 11, ("2", "14"): 11, ("4", "3"): 10,
}
"""Fewest moves of every single-vacancy problem of the 15-hole triangle (None: impossible): George I. Bell,
"15 Hole Triangular Board: Single Vacancy to Single Survivor Problems" (gibell.net/pegsolitaire/Catalogs/
Triangular15/), column "Length of Shortest Solution".  Bell names holes ``(x, -row)``: his a1, b3, a4, d4
and c5 are our 1, 5, 7, 10 and 13; each of his 17 problems is put here on our table's representative of
its class (his a4 -> a1 is our 2 -> 11 by the reflection taking 7 to 2; c5 -> a1 is 4 -> 15 by the
rotation taking 13 to 4; and so on)."""
OTHER_SECONDS = 20.0
"""Budget of the bounded search that checks a table row (untimed)."""
SECONDS = 7200.0
"""Budget of one exact row (the rows are measured, not capped: a long run is still an answer)."""


def _budget(budget: Budget) -> Budget:
    """The bench's own budget is a solver's (seconds); an exact row gets :data:`SECONDS` and its memory ceiling."""
    return Budget(SECONDS, None, budget.max_bytes)


def _row(name: str, title: str, run: Callable[[Budget], Any], check: Callable[[int, Any], Outcome], expected: str,
         target: str) -> Case:
    """A row run once, untraced, with the exact analyses' own budget (see :func:`_budget`)."""
    return Case(name, title, lambda i, budget: run(_budget(budget)), check, expected, target=target, runs=1,
                traced=False)


def _count_row(name: str, title: str, board_id: str, start: str, goal: str, expected: int | None,
               source: str, target: str) -> Case:
    problem = _problem(board_id, start, goal)

    def check(i: int, r) -> Outcome:
        out = Outcome(r.status, f"{r.solutions:,} solutions (meet at {r.meet} pegs, {r.positions:,} positions)"
                      if r.solutions is not None else f"unknown: {r.reason}", nodes=r.positions,
                      peak_bytes=r.peak_bytes)
        if r.solutions is None:
            out.unanswered = r.reason
        elif expected is not None and r.solutions != expected:
            out.wrong = f"counted {r.solutions:,}, published {expected:,} ({source})"
        elif expected is None:
            again = count_exact(problem, _budget(Budget()), meet=r.meet + 1)
            if again.solutions != r.solutions:
                out.wrong = f"meeting at {r.meet} pegs gives {r.solutions:,}, at {r.meet + 1} gives {again.solutions}"
        return out

    return _row(name, title, lambda budget: count_exact(problem, budget), check,
                f"{expected:,} ({source})" if expected else source, target)


def _fewest_row(name: str, title: str, board_id: str, start: str, goal: str, expected: int | None,
                source: str, target: str, winnable: int | None = None, at_least: int | None = None) -> Case:
    """``at_least``: a published lower bound on the moves (the shortest solution of any problem on the board).
    With ``winnable`` (a published count to compare) the proof runs over the winnable set (``method="levels"``),
    else by the costs swept from both ends (``"meet"``, no winnable set built)."""
    method = "levels" if winnable is not None else "meet"
    problem = _problem(board_id, start, goal)

    def check(i: int, r) -> Outcome:
        size = (f"{r.winnable:,} winnable positions" if r.winnable is not None
                else f"{r.positions:,} classes costed from both ends")
        out = Outcome(r.status, f"{r.status}, {r.moves} moves, proven ({size})"
                      if r.status == "solved" else f"{r.status}: {r.reason}", nodes=r.positions)
        if r.status == "solved":
            err = _check_solution(problem, r.jumps)
            if err:
                out.wrong = err
            elif count_moves(r.jumps) != r.moves or r.lower_bound != r.moves:
                out.wrong = f"reports {r.moves} moves (bound {r.lower_bound}), its solution has {count_moves(r.jumps)}"
            elif expected is not None and r.moves != expected:
                out.wrong = f"{r.moves} moves, published minimum {expected} ({source})"
            elif at_least is not None and r.moves < at_least:
                out.wrong = f"{r.moves} moves, fewer than the published {at_least} for any problem (OEIS A127500)"
            elif winnable is not None and r.winnable != winnable:
                out.wrong = f"{r.winnable:,} positions can still win, published {winnable:,} (G. I. Bell)"
        elif r.status == "impossible":
            out.wrong = f"answered impossible for a solvable problem: {r.reason}"
        else:
            out.unanswered = r.reason
        return out

    return _row(name, title, lambda budget: fewest_exact(problem, budget, method), check,
                f"{expected} moves ({source})" if expected else source, target)


def _levels_row(name: str, title: str, board_id: str, start: str, goal: str, reachable: int, winnable: int,
                source: str, target: str) -> Case:
    problem = _problem(board_id, start, goal)

    def check(i: int, r) -> Outcome:
        out = Outcome(r.status, f"{r.reachable:,} reachable, {r.winnable:,} can still win ({len(r.rows)} levels)"
                      if r.status == "counted" else f"unknown: {r.reason}", nodes=r.reachable,
                      peak_bytes=r.peak_bytes)
        if r.status != "counted":
            out.unanswered = r.reason
        elif (r.reachable, r.winnable) != (reachable, winnable):
            out.wrong = (f"{r.reachable:,} reachable / {r.winnable:,} can win, published {reachable:,} / "
                         f"{winnable:,} ({source})")
        return out

    return _row(name, title, lambda budget: level_table(problem, budget), check,
                f"{reachable:,} / {winnable:,} ({source})", target)


def _table_row(name: str, title: str, board_id: str, expected: str, target: str,
               published: dict[tuple[str, str], int | None] | None = None,
               fixed: dict[tuple[str, str], int] | None = None) -> Case:
    """``fewest BOARD --all``: every row's solution replayed (bound = moves), then compared with
    ``published`` (the whole table), ``fixed`` (some rows) or else the bounded search by moves of
    :func:`pyapp.analysis.fewest_moves` (a separate implementation), on every row it proves."""
    board = get_board(board_id)

    def check(i: int, t: FewestTable) -> Outcome:
        solved = [r for r in t.rows if r.answer.status == "solved"]
        unknown = [r for r in t.rows if r.answer.status == "unknown"]
        out = Outcome("solved" if not unknown and not t.pending else "unknown",
                      f"{len(t.rows)} problems: {len(solved)} proven ("
                      + ", ".join(f"{r.start}->{r.finish} {r.answer.moves}" for r in solved)
                      + f"), {len(t.rows) - len(solved) - len(unknown)} impossible, {len(unknown)} unknown, "
                      f"{len(t.pending)} not run", nodes=sum(r.answer.positions for r in t.rows))
        got = {(r.start, r.finish): r.answer.moves if r.answer.status == "solved" else None for r in t.rows}
        for r in solved:
            err = _check_solution(r.problem, r.answer.jumps)
            if err or not count_moves(r.answer.jumps) == r.answer.moves == r.answer.lower_bound:
                out.wrong = f"{r.start} -> {r.finish}: {err or 'moves, bound and solution disagree'}"
                return out
        if published is not None:
            open_rows = {(r.start, r.finish) for r in unknown}
            bad = sorted(k for k in got if k not in open_rows and published.get(k, -1) != got[k])
            if not unknown and not t.pending:
                bad += sorted(set(published) - set(got))
            if bad:
                out.wrong = f"differs from the published table at {bad}"
        for key, moves in (fixed or {}).items():
            if key in got and got[key] is not None and got[key] != moves:
                out.wrong = f"{key[0]} -> {key[1]}: {got[key]} moves, published {moves}"
        if published is None and fixed is None:
            for r in t.rows:  # the bounded search by moves of pyapp.analysis: separate code, proven answers only
                other = fewest_moves(r.problem, max_seconds=OTHER_SECONDS)
                if r.answer.status == "unknown" or not (other.proven or other.status == "impossible"):
                    continue
                if (other.status, other.moves if other.status == "solved" else 0) != (
                        r.answer.status, r.answer.moves if r.answer.status == "solved" else 0):
                    out.wrong = (f"{r.start} -> {r.finish}: {r.answer.status} {r.answer.moves}, the bounded search "
                                 f"says {other.status} {other.moves}")
        if unknown or t.pending:
            out.unanswered = f"{len(unknown)} problems unknown, {len(t.pending)} not run (budget)"
        return out

    return _row(name, title, lambda budget: drive(fewest_all_steps(board, budget)), check, expected, target)


def cases() -> list[Case]:
    """The exact rows, in suite order."""
    return [
        _count_row("exact-count-english", "English 33: every solution of the central game, counted",
                   "english", "d4", "d4", ENGLISH_SOLUTIONS, "Durango Bill; G. I. Bell", "< 120 s CPython, < 5 min"),
        _fewest_row("exact-fewest-english", "English 33: fewest moves of the central game, proven",
                    "english", "d4", "d4", ENGLISH_FEWEST, "Bergholt 1912; Beasley 1964", "< 120 s CPython, < 5 min",
                    winnable=ENGLISH_WINNABLE),
        _levels_row("exact-levels-english", "English 33: positions reachable / can still win, per level",
                    "english", "d4", "d4", ENGLISH_REACHABLE, ENGLISH_WINNABLE, "G. I. Bell, arXiv:0903.3696",
                    "< 120 s CPython"),
        _count_row("exact-count-triangle7", "Triangle 7: vacancy 4 -> one peg, every solution counted",
                   "triangle7", "4", "any", None, "recounted meeting at another level (checked here)",
                   "< 60 s CPython"),
        _fewest_row("exact-fewest-triangle7", "Triangle 7: vacancy 4 -> one peg, fewest moves proven",
                    "triangle7", "4", "any", None,
                    "exhaustive search by moves (solution replayed here); at least 12, OEIS A127500",
                    "< 120 s CPython", at_least=TRIANGLE7_SHORTEST),
        _table_row("exact-fewest-all-triangle5", "Triangle 5: fewest moves of every single-vacancy problem",
                   "triangle5", "Bell's catalogue (17 problems: 12 solvable, 5 impossible)", "(none)",
                   published=BELL_T15),
        _table_row("exact-fewest-all-triangle6", "Triangle 6: fewest moves of every single-vacancy problem",
                   "triangle6", "pyapp.analysis.fewest_moves, problem by problem", "(none)"),
        _table_row("exact-fewest-all-english", "English 33: fewest moves of every single-vacancy problem",
                   "english", "d4 -> d4: 18 (Beasley 1964); every solution replayed, bound = moves", "(none)",
                   fixed={("d4", "d4"): ENGLISH_FEWEST}),
    ]
