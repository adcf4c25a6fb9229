"""Bench rows of the exact analyses (see :mod:`pyapp.bench`): full-size published figures, checked.

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

These rows take minutes, so they run once each (no repeats) and are not in the quick
suite; their peak memory is the analysis's own estimate of what it holds (a traced run
would take several times as long), and under Pyodide the row also carries the size of the
WebAssembly heap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..bench_cases import Case, Outcome, _check_solution, _problem
from ..budget import Budget
from ..moves import count_moves
from .count import count_exact
from .fewest import fewest_exact
from .levels import level_table

ENGLISH_SOLUTIONS = 40_861_647_040_079_968
"""Durango Bill, "Peg solitaire: the number of solutions"; George I. Bell, "English peg solitaire"."""
ENGLISH_FEWEST = 18
"""Bergholt 1912 (an 18-move solution); Beasley 1964 (no solution has fewer)."""
ENGLISH_WINNABLE = 1_679_072
"""Positions reachable from the centre start that can still finish at the centre, up to symmetry
(George I. Bell, "English peg solitaire" pages): the set the search by moves is confined to."""
ENGLISH_REACHABLE = 23_475_688
"""Positions reachable from the centre start, up to symmetry (G. I. Bell, arXiv:0903.3696)."""
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
                source: str, target: str, winnable: int | None = None) -> Case:
    problem = _problem(board_id, start, goal)

    def check(i: int, r) -> Outcome:
        out = Outcome(r.status, f"{r.status}, {r.moves} moves, proven ({r.winnable:,} winnable positions)"
                      if r.status == "solved" else f"{r.status}: {r.reason}", nodes=r.positions)
        if r.status == "solved":
            err = _check_solution(problem, r.jumps)
            if err:
                out.wrong = err
            elif count_moves(r.jumps) != r.moves or r.lower_bound != r.moves:
                out.wrong = f"reports {r.moves} moves (bound {r.lower_bound}), its solution has {count_moves(r.jumps)}"
            elif expected is not None and r.moves != expected:
                out.wrong = f"{r.moves} moves, published minimum {expected} ({source})"
            elif winnable is not None and r.winnable != winnable:
                out.wrong = f"{r.winnable:,} positions can still win, published {winnable:,} (G. I. Bell)"
        elif r.status == "impossible":
            out.wrong = f"answered impossible for a solvable problem: {r.reason}"
        else:
            out.unanswered = r.reason
        return out

    return _row(name, title, lambda budget: fewest_exact(problem, budget), check,
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
                   "< 30 s CPython"),
        _fewest_row("exact-fewest-triangle7", "Triangle 7: vacancy 4 -> one peg, fewest moves proven",
                    "triangle7", "4", "any", None, "exhaustive search by moves (solution replayed here)",
                    "< 30 s CPython"),
    ]
