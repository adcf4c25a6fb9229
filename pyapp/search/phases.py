"""The solver's portfolio as a list of phases with one interface, and the loop that runs them.

A phase is an object with a ``name`` and ``run(run: Run, number: int)``: a generator that
yields at every pause (about every slice, and whenever a node limit of its own is reached)
and returns an :class:`Outcome`, or None when it ended without settling the question (the
next phase then starts).  :func:`run_phases` drives the phases one after the other: between
two pauses it charges the nodes spent to the budget, stops everything when the budget is
spent or cancelled, and yields a :class:`~pyapp.core.budget.Progress` when one is due.

Every phase of one search shares a :class:`~pyapp.search.runstate.Run`: the compiled tables, the transposition
table of dead positions, the node counter (:class:`~pyapp.search.dfs.Stats`) and the
budget, so what one phase learns (dead positions) the next one uses.

To add a phase, write a class with ``name`` and ``run`` and put an instance in the list
built by :func:`portfolio`.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, replace
from functools import lru_cache

from ..core.budget import Progress
from ..proofs.jumpcounts import counts_reason, counts_steps
from ..proofs.lp import Solution
from ..proofs.pagoda import find_pagoda_steps
from ..proofs.separation import each_reason, separate_each, separation_steps
from .beam import beam
from .compiled import reseed
from .dfs import dfs
from .runstate import Outcome, Phase, Run, derive_seed
from .tablebeam import WIDTHS as TABLE_BEAM_WIDTHS
from .tablebeam import TableBeam

EARLY_RESTARTS = 12
"""How many of the short depth-first runs come before the first (narrow) beam; the rest follow the second beam."""

DEFAULT_RESTARTS = (300,) * 12
"""Node limits of the short depth-first runs (all 12 of them before the first beam)."""

DEFAULT_BEAM_WIDTHS = (128, 256, 256, 1024, 4096)
"""Widths of the beams, in order; from the third on each is followed by a longer depth-first run."""

JUMP_COUNT_SECONDS = 1.0
"""The jump-count programme's time limit (0.01-0.3 s on the classic boards)."""

PROVER_BEAMS = 2
"""A portfolio of at most this many beams is a prover's (never-lose's second, :mod:`pyapp.analysis.neverlose`: its
complete search comes early to prove lost positions): the jump counts run in it right after the first short runs,
before the beams.  Measured on never-lose (10 CPU s a position, the same positions before and after): 29 positions of
23-32 pegs of three seeded asymmetric d5 -> d5 games, jump verdicts left unknown 101 -> 93 (98 in a second run of the
same code: the turns end on CPU time, so the count varies by about 5 between runs); 15 French d2 -> d6
positions of 23-31 pegs, unknown 2 -> 2, median 1.27 -> 1.05 s.  In the solver's own portfolio they stay after the
pagoda programmes: there they cost 0.1-0.3 s on each winnable position the beams would find (with the counts first
in both portfolios, a French 28-peg position of 12 winnable jumps took 10 s instead of 6.6 s and left 2 unknown)."""

LP_MAX_HOLES = 64
"""The linear-programming pagoda phase runs on boards of at most this many holes."""


@dataclass(frozen=True)
class Restart:
    """A short depth-first run of at most ``nodes`` nodes with new tie-breaks (the first run
    keeps the search's own seed); dead positions it proves stay in the shared table."""

    nodes: int
    name: str = "restart"

    def run(self, run: Run, number: int) -> Generator[None, None, Outcome | None]:
        if number:
            reseed(run.tables, derive_seed(run.seed, number))
        stop = min(run.node_cap, run.st.nodes + self.nodes)
        gen = dfs(run.tables, run.start, run.table, run.st, final_pegs=run.final_pegs, target=run.target,
                  stop_at=stop)
        try:
            while True:
                next(gen)
                if run.st.at_limit:
                    if stop >= run.node_cap:
                        yield  # the budget's limit, not this run's: the runner sees it (st.at_limit is set)
                    run.st.at_limit = False
                    gen.close()
                    return None
                yield
        except StopIteration as stop_:
            return _dfs_outcome(stop_.value)


@dataclass(frozen=True)
class Beam:
    """A beam search of ``width`` positions per level with depth-first endgames (:mod:`pyapp.search.beam`)."""

    width: int
    name: str = "beam"

    def run(self, run: Run, number: int) -> Generator[None, None, Outcome | None]:
        reseed(run.tables, derive_seed(run.seed, number))
        path = yield from beam(run.tables, run.start, run.table, run.st, self.width, final_pegs=run.final_pegs,
                               target=run.target, stop_at=run.node_cap)
        return Outcome("found", path, "beam search") if path is not None else None


@dataclass(frozen=True)
class Scout:
    """A beam of ``width`` aimed at ``pegs`` pegs that only records the fewest pegs it reaches (as
    ``st.best_path``, the upper bound the complete fewest-pegs search then has to prove) and never
    ends the search itself: ``pegs`` may be more than the fewest reachable."""

    width: int
    pegs: int
    name: str = "beam (scouting for the fewest pegs)"

    def run(self, run: Run, number: int) -> Generator[None, None, Outcome | None]:
        path = yield from Beam(self.width).run(replace(run, final_pegs=self.pegs), number)
        if path is not None and len(path.path) > len(run.st.best_path):
            run.st.best_path = path.path
        return None


@dataclass(frozen=True)
class PagodaProgram:
    """A linear programme looking for a pagoda function that proves the goal out of reach
    (:func:`pyapp.proofs.pagoda.find_pagoda_steps`): hard problems are often impossible, and
    exhausting them would take far longer.  Toward one goal position, when no pagoda
    separates the start from it, small programmes look for one separating the positions a
    jump or two after the start from those a jump or two before the goal
    (:mod:`pyapp.proofs.separation`; Diamond 41 e1 -> e9 in one programme, where the level
    search could not finish); toward one peg anywhere, such a programme for each finish the
    class allows (Diamond 41 e1 -> any: five finishes, each separated).  Without a back end
    (:mod:`pyapp.proofs.lp`) the phase says why among the proofs tried and the search goes on."""

    name: str = "linear programming"

    def run(self, run: Run, number: int) -> Generator[None, None, Outcome | None]:
        board = run.tables.board
        solutions: list[Solution] = []
        weights = yield from find_pagoda_steps(board, run.start, run.finishes, solutions=solutions)
        if weights is not None:
            return Outcome("pagoda", [], lp_reason(run, weights))
        if solutions and solutions[0].status == "unavailable":
            run.st.tried.append(f"no linear programming: {solutions[0].message}")
            return None
        run.st.tried.append("a pagoda by linear programming")
        if run.target is None:
            if run.final_pegs != 1 or not run.finishes:
                return None
            each = yield from separate_each(board, run.start, run.finishes)
            if each is not None:
                return Outcome("pagoda", [], each_reason(board, each))
            run.st.tried.append("pagoda separation of each one-peg finish")
            return None
        attempts: list[str] = []
        proof = yield from separation_steps(board, run.start, run.target, attempts=attempts)
        if proof is not None:
            return Outcome("pagoda", [], proof.reason(board))
        if attempts:
            run.st.tried.append(f"pagoda separation ({'; '.join(attempts)})")
        return None


@dataclass(frozen=True)
class JumpCounts:
    """The jump-count integer programme (:mod:`pyapp.proofs.jumpcounts`): whole numbers of plays of each jump
    that take every hole from the start to a finish.  None is a proof stronger than any pagoda's.  In a prover's
    portfolio (:data:`PROVER_BEAMS`) it runs right after the first short depth-first runs, so a lost position pays
    no beam search first; when it proves the position there, a pagoda found by linear programming is looked for
    too (a few milliseconds): when one exists it is the shorter reason, and the answer gives it."""

    name: str = "jump counts"

    def run(self, run: Run, number: int) -> Generator[None, None, Outcome | None]:
        if (run.target is None and run.final_pegs != 1) or not run.finishes:  # a definite finish, or one peg
            return None
        left = run.budget.remaining_seconds()
        seconds = JUMP_COUNT_SECONDS if left is None else min(JUMP_COUNT_SECONDS, max(left, 0.01))
        sol = yield from counts_steps(run.tables.board, run.start, run.finishes, seconds)
        if sol.status == "infeasible":
            weights = yield from find_pagoda_steps(run.tables.board, run.start, run.finishes)
            if weights is not None:
                return Outcome("pagoda", [], lp_reason(run, weights))
            return Outcome("proof", [], counts_reason(sol), "jump counts (integer programming)")
        run.st.tried.append("jump counts by integer programming" if sol.status == "optimal"
                            else f"no jump counts ({sol.message or sol.status})")
        return None


@dataclass(frozen=True)
class Exhaustive:
    """The complete depth-first search with the search's own seed: it runs until it finds a
    solution or has seen every position (then the answer is a proof of impossibility)."""

    name: str = "exhaustive"

    def run(self, run: Run, number: int) -> Generator[None, None, Outcome | None]:
        reseed(run.tables, run.seed)
        found = yield from dfs(run.tables, run.start, run.table, run.st, final_pegs=run.final_pegs,
                               target=run.target, stop_at=run.node_cap)
        return _dfs_outcome(found)


@dataclass(frozen=True)
class Ended:
    """The last phase of a portfolio without a complete search: it settles nothing and ends the search at once.

    Never-lose runs such a portfolio beside a prover's (:mod:`pyapp.analysis.neverlose`): its wide beams find
    winnable lines soonest, and its own complete search would start seconds after the prover's, the same search
    a few seconds behind, taking half the time the prover needs on a lost position."""

    name: str = "end of the portfolio"

    def run(self, run: Run, number: int) -> Generator[None, None, Outcome | None]:
        return Outcome("ended")
        yield  # a generator, as every phase is


@dataclass(frozen=True)
class FewestPegs:
    """For the fewest-pegs goal once the class's bound is out of reach: a complete depth-first
    search for the fewest pegs, stopping early if it reaches ``lower_bound`` pegs."""

    lower_bound: int
    name: str = "fewest pegs"

    def run(self, run: Run, number: int) -> Generator[None, None, Outcome | None]:
        found, path = yield from dfs(run.tables, run.start, run.table, run.st, final_pegs=None, target=None,
                                     lower_bound=self.lower_bound, stop_at=run.node_cap)
        if len(path) < len(run.st.best_path):
            path = run.st.best_path
        how = "the next peg count up from the class bound" if found else "exhaustive: minimum proven"
        return Outcome("found", path, f"depth-first search ({how})")


def _dfs_outcome(value: tuple[bool, list[int]]) -> Outcome:
    found, path = value
    # a depth-first run that ends by itself (no node limit reached) has seen everything
    return Outcome("found", path, "depth-first search") if found else Outcome("exhausted")


def lp_reason(run: Run, weights: dict[int, int]) -> str:
    """The reason a pagoda found by linear programming gives."""
    board = run.tables.board
    v = sum(x for b, x in weights.items() if run.start >> b & 1)
    t = min(sum(x for b, x in weights.items() if f >> b & 1) for f in run.finishes)
    shown = " ".join(f"{board.name_of[b]}:{x}" for b, x in sorted(weights.items()))
    return (f"pagoda function: a pagoda found by linear programming is worth {v} at the start, "
            f"less than the {t} the goal needs (weights {shown})")


def portfolio(restarts: tuple[int, ...], beam_widths: tuple[int, ...], linear_program: bool,
              complete: Phase | None = None, table_beams: bool = False) -> list[Phase]:
    """The phases, cheapest first: the first :data:`EARLY_RESTARTS` short runs, a beam of the
    first width, a beam of the second, the remaining short runs, the pagoda programmes and the jump
    counts (when ``linear_program``; a prover's portfolio, :data:`PROVER_BEAMS`, runs the jump counts before the
    first beam), then each further beam followed by a depth-first run of 4000, 16000,
    ... nodes, and finally the complete search (``complete``, by default :class:`Exhaustive`;
    the solver passes :class:`pyapp.search.complete.Complete`, depth-first and level search).

    ``table_beams`` (the caller hands the search the goal's endgame table, :attr:`Run.finisher`): a beam to the
    table (:class:`~pyapp.search.tablebeam.TableBeam`) of each of :data:`~pyapp.search.tablebeam.WIDTHS` right after
    the first short runs, in every portfolio of more than :data:`PROVER_BEAMS` beams (a prover's spends its time on
    proofs of loss, which these cannot give)."""
    before = _phases_before(restarts, beam_widths, linear_program,
                            table_beams and len(beam_widths) > PROVER_BEAMS)
    return [*before, complete if complete is not None else Exhaustive()]


@lru_cache(maxsize=16)
def _phases_before(restarts: tuple[int, ...], beam_widths: tuple[int, ...],
                   linear_program: bool, table_beams: bool = False) -> tuple[Phase, ...]:
    """:func:`portfolio`'s phases before the complete search, made once per plan: they are frozen (a run keeps
    its state in the :class:`Run`), so every search may share them, and a search that ends in its first short
    run (most small positions) no longer pays for making twenty of them."""
    prover = linear_program and len(beam_widths) <= PROVER_BEAMS
    phases: list[Phase] = [Restart(n) for n in restarts[:EARLY_RESTARTS]]
    if table_beams:
        phases += [TableBeam(width) for width in TABLE_BEAM_WIDTHS]
    if prover:
        phases.append(JumpCounts())
    for i, width in enumerate(beam_widths):
        phases.append(Beam(width))
        if i == 1:
            phases += [Restart(n) for n in restarts[EARLY_RESTARTS:]]
            if linear_program:
                phases += [PagodaProgram()] if prover else [PagodaProgram(), JumpCounts()]
        if i > 1:
            phases.append(Restart(4000 * 4 ** (i - 2)))
    return tuple(phases)


def run_phases(run: Run, phases: list[Phase]) -> Generator[Progress, None, Outcome]:
    """Run ``phases`` in order until one settles the question; yield progress, enforce the budget."""
    if run.budget.cancelled:
        return Outcome("budget")
    for number, phase in enumerate(phases):
        gen = phase.run(run, number)
        try:
            while True:
                next(gen)
                if run.over():
                    gen.close()
                    return Outcome("budget")
                if run.budget.report_due():
                    yield run.budget.progress(run.st.nodes, len(run.table), run.st.depth)
                    if run.over():  # cancelled while paused: stop now, not after one more slice
                        gen.close()
                        return Outcome("budget")
        except StopIteration as stop:
            if stop.value is not None:
                return stop.value
        if run.over():
            return Outcome("budget")
        # between phases too: twelve short runs that each end below the slice would otherwise
        # run back to back without a pause (0.24 s on a 400-hole board in CPython)
        if run.budget.report_due():
            yield run.budget.progress(run.st.nodes, len(run.table), run.st.depth)
            if run.over():
                return Outcome("budget")
    return Outcome("budget")  # pragma: no cover - the complete search always ends the list
