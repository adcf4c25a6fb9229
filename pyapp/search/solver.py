"""The search engine: one portfolio with pluggable goals and pruning.

``search(problem, budget=...)`` is a step generator (see :mod:`pyapp.core.budget`): it yields a
:class:`~pyapp.core.budget.Progress` about every slice of the budget and returns the
:class:`~pyapp.core.problem.Result` (as ``StopIteration.value``).  Cancelling the budget makes it
answer ``unknown`` (``cancelled``) at its next pause; closing the generator abandons it, so
a web worker can report progress and stop it without killing Pyodide.  :func:`solve` drives
the generator to the end, with optional callbacks.

The portfolio, cheapest first (its phases are objects of :mod:`pyapp.search.phases`):

1. **Proofs at once.** Conway's position class (rule of three), the book of results proved in minutes
   (:mod:`pyapp.proofs.book`) and pagoda functions (:mod:`pyapp.proofs.pagoda`): if the start is in
   another class than every finish, in the book, or worth less than the goal under a pagoda, the answer
   is ``impossible`` with that reason.
2. **Short depth-first runs** (:mod:`pyapp.search.dfs`, 12 runs of 300 nodes, each with
   new tie-breaks; a run stops at the first 128-node check past its limit, i.e. after 384
   nodes; restarts cut the heavy tail of a bad early choice): best-scored jump
   first, bit-parallel pagoda pruning toward the goal, a bounded table of dead positions
   keyed by symmetry class (only the symmetries that fix the goal), shared by every run.
   This solves the English central game in a few hundred nodes.
3. **Beam search** (:mod:`pyapp.search.beam`) of growing widths, each level-by-level beam
   finished by small depth-first searches (1000 nodes each) over its last 11 jumps: finds solutions on big
   boards where one bad early move would trap the depth-first search.  Order: the 12
   short runs, beams of 128 and 256, then a **linear program** looks for a pagoda function
   proving the goal out of reach (:func:`pyapp.proofs.pagoda.find_pagoda_steps`) and, toward one goal
   position, for one separating the positions a jump or two after the start from those a jump
   or two before the goal (:mod:`pyapp.proofs.separation`), then the **jump counts**, an integer
   programme no pagoda replaces (:mod:`pyapp.proofs.jumpcounts`), then wider
   beams (256, 1024, 4096) alternate with longer depth-first runs (4000, 16000, 64000 nodes).
   With 120 s or more left (CPython), the time-indexed **integer programme** (:mod:`pyapp.search.ilp`)
   takes half of what is left.
4. **The complete search** (:class:`pyapp.search.complete.Complete`): the depth-first search
   to the end and the bidirectional level search (:mod:`pyapp.search.levels`) in alternating
   slices; whichever settles the question answers, and an ``impossible`` names its proof and
   size.  For ``min`` once the class's bound is ruled out, a beam scouts for few pegs
   (:data:`FEWEST_SCOUTS`), then :class:`~pyapp.search.complete.CompleteFewest` (depth-first
   search for the fewest pegs beside level searches proving the count below).

A ``seed`` changes only the order of equally scored jumps, so each seed gives its own
solution while the search stays as well guided as without it (no seed: a fixed default).

Memory: no fixed cap.  The budget's memory ceiling (default
:data:`~pyapp.core.budget.DEFAULT_MAX_BYTES`) is split in two: half for the level search's
stored levels, half for the transposition table, which holds that many bytes' worth of
positions (at about :data:`TABLE_ENTRY_BYTES` each; ``table_cap`` overrides it).  Each dead
position is stored with its images under the symmetries that fix the goal, so a lookup
is one probe.  At the cap nothing more is stored and the search goes on: answers stay
correct (an ``impossible`` from exhaustion is still a proof), only re-exploration gets
slower.  The beam keeps ``width`` positions per level.  ``Result.method`` names the part
of the portfolio that answered.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import replace
from functools import lru_cache

from ..core.board import BOARD_CACHE_SIZE, Board
from ..core.budget import Budget, Progress, budget_of, drive
from ..core.codec.keyset import MAX_HOLES
from ..core.goal import Goal
from ..core.moves import Jump
from ..core.problem import Problem, Result, Status
from ..proofs.book import book_proof, book_solution
from ..proofs.pagoda import Pagoda, pagoda_proof, pagodas_for, parity_pagodas
from .compiled import Tables, build_tables, reseed
from .complete import Complete, CompleteFewest
from .dfs import NO_LIMIT, Stats
from .finisher import Finisher
from .formulations import Alongside
from .ilp import IntegerProgram, integer_program_applies
from .phases import (
    DEFAULT_BEAM_WIDTHS,
    DEFAULT_RESTARTS,
    EARLY_RESTARTS,
    LP_MAX_HOLES,
    Ended,
    FewestPegs,
    Run,
    Scout,
    portfolio,
    run_phases,
)
from .table import BoundedTable

__all__ = ["EARLY_RESTARTS", "Progress", "class_proof", "explain_pagoda", "jumps_of",
           "search", "solve"]

FEWEST_SCOUTS = (1024,)
"""Beam widths run for ``min`` once the class's bound ``b`` is ruled out, before the complete search, aimed at
``b + 2`` pegs (:class:`~pyapp.search.phases.Scout`): they only record the fewest pegs they reach, which the
level search then has to prove (or beat).  Measured on the random German position #1 of the bench (26 pegs,
one peg impossible): the earlier phases, pruned toward one peg, reach 5 pegs; a beam of 1024 aimed at 3 pegs
without that pruning reaches 3 (the minimum) in 0.3 s, and with that game known the level search only has to
rule out 2 pegs (0.4 s) instead of also searching for a 3-peg game (18 s)."""

TABLE_ENTRY_BYTES = 65
"""About what one transposition-table entry costs on CPython (an int in a set)."""


def class_proof(problem: Problem) -> str | None:
    """Why the position class rules the goal out, or None (:meth:`pyapp.core.goal.Goal.obstacle`)."""
    return problem.goal.obstacle(problem.board, problem.start)


def jumps_of(path: list[int]) -> list[Jump]:
    """The jumps ``(src, over, dst)`` leading along a path of positions."""
    out = []
    for p, q in zip(path, path[1:]):
        diff = p ^ q
        dst = (diff & q).bit_length() - 1
        gone = diff & p
        x = (gone & -gone).bit_length() - 1
        y = gone.bit_length() - 1
        src, over = (x, y) if abs(x - dst) > abs(y - dst) else (y, x)
        out.append((src, over, dst))
    return out


def search(problem: Problem, *, seed: int | None = None, budget: Budget | None = None,
           max_nodes: int | None = None, max_seconds: float | None = None, table_cap: int | None = None,
           slice_seconds: float = 0.05, beam_widths: tuple[int, ...] | None = None,
           restarts: tuple[int, ...] | None = None, use_book: bool = True,
           complete: bool = True, finisher: Finisher | None = None) -> Generator[Progress, None, Result]:
    """Search for a solution; yield progress as the budget asks; return a Result.

    ``budget`` (or the older ``max_nodes``/``max_seconds``/``slice_seconds``): the limits; the
    answer is ``unknown`` when they are spent or the budget is cancelled.  ``table_cap``: the
    most positions the transposition table holds (see :mod:`pyapp.search.table`), lowered to
    fit the budget's memory ceiling (None: half of that ceiling's worth).  ``restarts`` (node
    limits of the short depth-first runs, each with new tie-breaks: the first
    :data:`EARLY_RESTARTS` before any beam, the rest after the second) and ``beam_widths``
    tune the portfolio (:func:`pyapp.search.phases.portfolio`).  ``use_book``: False searches without the
    book (:mod:`pyapp.proofs.book`), as its entries' commands (``solve --no-book``) do to find them again.
    ``complete``: False ends a definite goal's portfolio before its complete search (and its integer programme),
    ``unknown`` when nothing before found a line or a proof (:class:`pyapp.search.phases.Ended`).
    ``finisher``: the goal's endgame table, which beams of the solver's own portfolio (not a prover's, of at most
    :data:`~pyapp.search.phases.PROVER_BEAMS` beams) stop at and ask (:mod:`pyapp.search.tablebeam`).

    The ``min`` goal first looks for a position with as few pegs as the position class
    allows (usually one), with the whole portfolio: success proves the minimum at once.
    Only if that is impossible does an exhaustive search for the minimum follow.
    """
    t0 = time.perf_counter()
    budget = budget_of(budget, max_seconds, max_nodes, slice_seconds)
    board, goal, start = problem.board, problem.goal, problem.start
    definite = goal.definite

    def done(status: Status, reason: str | None, path: list[int] | None = None, method: str = "",
             nodes: int = 0, entries: int = 0) -> Result:
        path = path or [start]
        return Result(status, reason, jumps_of(path), path[-1], nodes, entries, time.perf_counter() - t0,
                      method=method)

    if budget.cancelled:
        return done("unknown", "cancelled", method="budget")
    final_pegs = goal.final_pegs
    if final_pegs is not None and start.bit_count() < final_pegs:
        return done("impossible", "the start has fewer pegs than the goal", method="count")
    if final_pegs is not None and start.bit_count() == final_pegs:
        if goal.reached(start):
            return done("solved", None, method="start")
        return done("impossible", "the start has as few pegs as the goal but is not the goal", method="count")
    reason = goal.obstacle(board, start)
    if reason:
        return done("impossible", reason, method="position class")
    if use_book and goal.exact is not None and (reason := book_proof(board, start, goal.exact)):
        return done("impossible", reason, method="book")
    if use_book and goal.exact is not None and (found := book_solution(board, start, goal.exact)):
        path = [start]
        for a, b, c in found[0]:
            path.append(path[-1] ^ (1 << a | 1 << b | 1 << c))
        return done("solved", found[1], path, method="book")
    # ``min`` looks first for the fewest pegs its position class allows (``pegs_at_best``)
    final_pegs = goal.pegs_at_best(board, start)
    finishes = goal.pagoda_targets(board, start)
    # the set-up pauses between its stages too (tens of ms each on a 400-hole board in CPython,
    # about 2.5 times that in Pyodide), so a cancel is seen during set-up as during the search
    if (yield from _pause(budget)):
        return done("unknown", "cancelled", method="budget")
    pagoda_dead = False  # for ``min``: a pagoda rules out the class lower bound
    if finishes:
        # the parity pagodas first: they need no library loading, so these proofs are immediate
        for p, thr in _parity_thresholds(board, tuple(finishes)):
            v = p.value(start)
            if v < thr:
                if definite:
                    return done("impossible", f"pagoda function: {p.name} is worth {v} at the start, "
                                f"less than the {thr} the goal needs", method="pagoda")
                pagoda_dead = True
    # the tables hold the goal's pagodas packed (the same list as _pagodas_for), so one packed check says
    # whether every pagoda allows the start; only when one does not are they valued one by one, for its name
    tables = _tables_for(board, _symmetries(board, goal), tuple(finishes))
    pagodas = tables.pagodas
    if (yield from _pause(budget)):
        return done("unknown", "cancelled", method="budget")
    if pagodas and not (tables.lanes_exact and tables.alive(tables.pack(start))):
        for p, thr in pagodas:
            v = p.value(start)
            if v < thr:
                if definite:
                    return done("impossible", f"pagoda function: {p.name} is worth {v} at the start, "
                                f"less than the {thr} the goal needs", method="pagoda")
                pagoda_dead = True

    if table_cap is None:
        table_cap = budget.room(TABLE_ENTRY_BYTES, 2)
    elif table_cap >= 0:
        table_cap = budget.entries(table_cap, TABLE_ENTRY_BYTES)
    reseed(tables, seed)
    if (yield from _pause(budget)):
        return done("unknown", "cancelled", method="budget")
    left = budget.remaining_nodes()
    run = Run(tables, BoundedTable(table_cap, tables.images), Stats(slice_seconds=budget.slice_seconds), budget,
              start, final_pegs, goal.exact, finishes, seed, NO_LIMIT if left is None else left, finisher=finisher)
    st = run.st

    def spent() -> Result:
        why = budget.why() + (f"; {st.how_far}" if st.how_far else "")
        if not definite:
            return done("unknown", f"{why}: fewest pegs found so far, minimality not proven",
                        st.best_path, "budget", st.nodes, len(run.table))
        if budget.cancelled:
            return done("unknown", why, None, "budget", st.nodes, len(run.table))
        if st.best_path and st.best_path[0] == start:  # a path of this problem's own (not a beam's endgame)
            why += f"; fewest pegs reached by the depth-first searches {st.best_path[-1].bit_count()}"
        tried = ["position class", f"{len(pagodas)} known pagoda{'s' if len(pagodas) != 1 else ''}", *st.tried]
        return done("unknown", f"{why}; proofs tried: {', '.join(tried)}", None, "budget", st.nodes, len(run.table))

    if not pagoda_dead:
        full = complete or not definite  # the complete search ends the portfolio (always for the fewest pegs)
        widths = DEFAULT_BEAM_WIDTHS if beam_widths is None else beam_widths
        restarts = DEFAULT_RESTARTS if restarts is None else restarts
        phases = portfolio(restarts, widths,
                           bool(finishes) and len(board.bits) <= LP_MAX_HOLES,
                           _complete(problem, bool(finishes)) if full else Ended(),
                           table_beams=finisher is not None and definite)
        # the integer programme comes before the complete search, on long budgets only
        if full and integer_program_applies(problem, budget):
            phases.insert(len(phases) - 1, IntegerProgram(problem))
        outcome = yield from run_phases(run, phases)
        entries = len(run.table)
        if outcome.status == "budget":
            return spent()
        if outcome.status == "ended":
            return done("unknown", "no line found by the short searches and the beams, and this portfolio has no "
                        "complete search", None, "budget", st.nodes, entries)
        if outcome.status == "pagoda" and definite:
            return done("impossible", outcome.method, None, "pagoda (linear programming)", st.nodes, entries)
        if outcome.status == "proof" and definite:
            return done("impossible", outcome.method, None, outcome.engine, st.nodes, entries)
        if outcome.status == "found":
            method = outcome.method
            if not definite and outcome.path[-1].bit_count() <= final_pegs:
                method += f" (reached the class lower bound, {final_pegs} peg{'s' if final_pegs > 1 else ''})"
            return done("solved", None, outcome.path, method, st.nodes, entries)
        if definite:
            if outcome.method:  # the level search's proof says how far it went
                return done("impossible", outcome.method, None, "level search", st.nodes, entries)
            return done("impossible", f"exhaustive search: {st.nodes} nodes, {entries} table entries "
                        f"(pagoda pruning with {len(pagodas)} pagodas)", None, "exhaustive search",
                        st.nodes, entries)
    # min goal, the class lower bound is out of reach: search everything for the fewest pegs
    tables = _tables_for(board, _symmetries(board, goal), ())
    reseed(tables, seed)
    run = replace(run, tables=tables, table=BoundedTable(table_cap, tables.images))
    last = (CompleteFewest(final_pegs + 1, problem) if len(board.bits) <= MAX_HOLES
            else FewestPegs(final_pegs + 1))
    scouts = [Scout(w, final_pegs + 2) for w in FEWEST_SCOUTS] if len(board.bits) <= MAX_HOLES else []
    outcome = yield from run_phases(run, [*scouts, last])
    if outcome.status == "budget":
        return spent()
    return done("solved", None, outcome.path, outcome.method, st.nodes, len(run.table))


def _pause(budget: Budget) -> Generator[Progress, None, bool]:
    """A pause between two stages of the set-up: a progress report when one is due (so the caller
    may cancel); True when the budget has been cancelled."""
    if budget.report_due():
        yield budget.progress(note="preparing the search")
    return budget.cancelled


def _complete(problem: Problem, finishes: bool) -> Alongside | Complete | CompleteFewest | None:
    """The complete phase: depth-first and level search (boards of up to 64 holes).  For ``min``
    the first stage asks for one peg (the class bound, when it is one peg) like the ``any`` goal;
    when the class bound is more than one peg (no pagoda targets), the fewest-pegs search runs at
    once (:class:`~pyapp.search.complete.CompleteFewest`: its level search proves the minimum,
    where a depth-first search toward the bound alone had to see every position first: a random
    23-peg German position, class bound 2, was unknown at 150 s, and is answered 3 pegs, proven).
    For a definite goal the equivalent problems (symmetric, time-reversed) are searched beside it
    (:class:`~pyapp.search.formulations.Alongside`)."""
    board, goal = problem.board, problem.goal
    if len(board.bits) > MAX_HOLES:
        return None
    if goal.definite:
        return Alongside(Complete(goal))
    if finishes:
        return Complete(Goal("any"))
    return CompleteFewest(goal.pegs_at_best(board, problem.start), problem)


GOAL_CACHE_SIZE = 4 * BOARD_CACHE_SIZE
"""Goals (a board, its symmetries kept and its finishing holes) whose pagodas and search tables are kept: every
single-hole goal of a catalogue board fits (English: 33 holes), so a batch of states with varied goals builds each
goal's tables once (about 0.16 ms a goal on English) instead of once every few states."""


@lru_cache(maxsize=GOAL_CACHE_SIZE)
def _symmetries(board: Board, goal: Goal) -> tuple[int, ...]:
    """:meth:`pyapp.core.goal.Goal.symmetries`, remembered per board and goal (a few microseconds a call)."""
    return goal.symmetries(board)


@lru_cache(maxsize=GOAL_CACHE_SIZE)
def _parity_thresholds(board: Board, finishes: tuple[int, ...]) -> tuple[tuple[Pagoda, int], ...]:
    """Each parity pagoda of the board with the least it is worth at the finishes: the start must be worth at
    least that (remembered per board and finishes, so a search values only its start)."""
    return tuple((p, min(p.value(f) for f in finishes)) for p in parity_pagodas(board))


@lru_cache(maxsize=GOAL_CACHE_SIZE)
def _pagodas_for(board: Board, finishes: tuple[int, ...]) -> list[tuple[Pagoda, int]]:
    """:func:`pyapp.proofs.pagoda.pagodas_for`, remembered for the last few boards (keyed by the board's
    canonical spec, so a board rebuilt by every request still hits) and finishes."""
    return pagodas_for(board, list(finishes))


@lru_cache(maxsize=GOAL_CACHE_SIZE)
def _base_tables(board: Board, syms: tuple[int, ...], finishes: tuple[int, ...]) -> Tables:
    pagodas = _pagodas_for(board, finishes) if finishes else []
    return build_tables(board, pagodas, list(syms), None)


def _tables_for(board: Board, syms: tuple[int, ...], finishes: tuple[int, ...]) -> Tables:
    """The compiled tables for a board, the goal's symmetries and its pagoda targets, kept for the last
    few (keyed by the board's canonical spec; a fresh copy of the tie-breaks each call)."""
    base = _base_tables(board, syms, finishes)
    return replace(base, ties=list(base.ties))


def explain_pagoda(problem: Problem) -> str | None:
    """A pagoda-function reason the problem is impossible (known pagodas, then linear programming);
    None for ``min``, which always has an answer."""
    if not problem.goal.definite:
        return None
    finishes = problem.goal.pagoda_targets(problem.board, problem.start)
    return pagoda_proof(problem.board, problem.start, finishes)


def solve(problem: Problem, *, on_progress: Callable[[Progress], object] | None = None,
          should_stop: Callable[[], bool] | None = None, **options) -> Result:
    """Run :func:`search` to the end; ``should_stop`` returning True cancels (answer ``unknown``,
    ``cancelled``, after the nodes searched so far)."""
    budget = budget_of(options.pop("budget", None), options.pop("max_seconds", None),
                       options.pop("max_nodes", None), options.pop("slice_seconds", 0.05))
    return drive(search(problem, budget=budget, **options), on_progress, should_stop, budget)
