"""Integer programming as a decision procedure: the time-indexed programme of Kiyomi and Matsui.

A problem whose goal leaves a fixed number of pegs (a hole, one peg anywhere, a target) takes exactly
``T`` = pegs at the start - pegs at the end jumps.  The programme (M. Kiyomi and T. Matsui, "Integer
programming based algorithms for peg solitaire problems", Computers and Games 2000) has

* a binary ``x[t, j]`` per step ``t = 1..T`` and jump ``j`` (a peg from ``a`` over ``b`` into ``c``),
  exactly one per step;
* the position after each step, ``p[t, h]`` in ``[0, 1]`` per hole (continuous: the jumps fix it),
  ``p[0]`` the start and ``p[T]`` the goal (for one peg anywhere: a one-peg finish its position class
  allows);
* ``p[t, h] = p[t-1, h] + (jumps of step t into h) - (jumps of step t from or over h)``;
* preconditions, summed per hole (one jump per step makes the sums as strong as the single ones):
  the jumps of step ``t`` from or over ``h`` are at most ``p[t-1, h]``, those into ``h`` at most
  ``1 - p[t-1, h]``;
* cheap cuts: every known pagoda (parity, the board's library) is worth at least its threshold
  toward the finishes at every step (:func:`pyapp.proofs.pagoda.pagodas_for`);
* unless ``cuts=False`` (or only those of :data:`ALL_CUTS` named), the additions of
  :mod:`pyapp.search.ilp_cuts`: symmetry breaking (the board symmetries fixing start and goal) and time
  reversal (a problem ``s -> s``), an integer count per jump with the holes' balances, and columns fixed by
  the positions reachable in the first and last few jumps.

No objective: HiGHS (:mod:`pyapp.proofs.lp`) either finds a point, which is decoded to jumps and
replayed from the start before it is reported ``solved``, or proves the programme infeasible
(``impossible``: "integer programme infeasible (HiGHS, N nodes, T s)"), or runs out of time
(``unknown``, with the nodes and the gap).  Measured on this machine (CPython, highspy, one thread; see
BENCHMARKS.md): Diamond 41 d2 -> f8, which no other proof settles, proved infeasible in 221 s (2,558 nodes)
without the additions, at the root (1 node, 9.8-10.4 CPU s) with them; German e1 -> e1 stays open with them
after 75 minutes (22,160 nodes, 2,794 CPU s).  The English central game is found at the root by one of
HiGHS's sub-MIP heuristics, with or without the additions, after 38-75 CPU s (38.5 with all four, 47.9
without any, 51.5 at the commit that introduced the programme): a wall-clock budget of 120 s on a loaded
machine may not give it that much (the budget's node count is HiGHS's, ``mip_max_nodes``, the same on any
machine).

:func:`ilp_steps` is a step generator: it pauses while the reachable positions are enumerated and before the
programme (and while the WebAssembly back end loads); the programme itself is one call bounded by the
budget's seconds and nodes.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Generator, Iterable
from dataclasses import dataclass

from ..core.budget import CPU_CLOCK, Budget, budget_of, drive
from ..core.errors import PegError
from ..core.game import replay
from ..core.moves import Jump
from ..core.notation import format_jump
from ..core.problem import Problem, Result
from ..proofs.lp import Model, Solution, describe, solve_steps
from ..proofs.pagoda import pagodas_for
from .ilp_cuts import LEVEL_POSITIONS
from .runstate import Outcome, Run

ILP_SECONDS = 60.0
"""The programme's time limit when the budget sets no seconds."""

MAX_COLUMNS = 100_000
"""The largest programme built (columns: steps x (jumps + holes)); Diamond 41 single vacancy has 5,540, a
20 x 20 board 400 times as many, which Python alone would take minutes and gigabytes to write down."""

ALL_CUTS = ("counts", "symmetry", "reversal", "levels")
"""The additions of :mod:`pyapp.search.ilp_cuts` an :class:`IlpFormulation` may get (``cuts=True``: all)."""

CPU_WALL_SLACK = 10.0
"""A programme limited in CPU seconds (a budget on the CPU clock) may take this many times as many wall seconds:
HiGHS stops at the CPU limit, the wall limit only guards against a stalled machine."""

PHASE_MIN_SECONDS = 120.0
"""The solver's portfolio runs the programme (:class:`IntegerProgram`) only when at least this many seconds
are left before its complete search: Diamond 41 d2 -> f8 needs minutes, and shorter budgets (the page's, the
bench's) are better spent on the level search."""

PHASE_SHARE = 0.5
"""The share of the seconds left that the portfolio's programme may take."""


class IlpFormulation:
    """The programme of one problem and the layout of its columns (see the module docstring)."""

    def __init__(self, problem: Problem, time_limit: float = ILP_SECONDS, *, cuts: bool | Iterable[str] = True,
                 level_positions: int = LEVEL_POSITIONS, budget: Budget | None = None) -> None:
        board, goal, start = problem.board, problem.goal, problem.start
        end = goal.final_pegs
        if end is None:
            raise PegError("the integer programme needs a goal with a fixed number of pegs at the end "
                           "(a hole, one peg anywhere or a target), not 'min'")
        self.problem = problem
        self.steps = steps = start.bit_count() - end
        self.jumps: list[Jump] = [j for a, b, c in board.lines for j in ((a, b, c), (c, b, a))]
        columns = steps * len(self.jumps) + (steps + 1) * len(board.bits)
        if columns > MAX_COLUMNS:
            raise PegError(f"the integer programme of this problem would have {columns:,} columns "
                           f"(at most {MAX_COLUMNS:,}): {steps} jumps on a board of {len(board.bits)} holes")
        holes = self.holes = list(board.bits)
        col = {h: i for i, h in enumerate(holes)}
        m = self.model = Model(sense="min", time_limit=time_limit)
        # p[t][i]: the peg on hole i after t jumps (t = 0..steps), fixed at both ends
        exact = goal.exact
        finishes = goal.pagoda_targets(board, start)
        allowed = 0
        for f in finishes:
            allowed |= f
        self.exact, self.allowed = exact, allowed
        self.p: list[list[int]] = []
        for t in range(steps + 1):
            layer = []
            for h in holes:
                if t == 0:
                    v = start >> h & 1
                    layer.append(m.add_var(v, v))
                elif t == steps and exact is not None:
                    v = exact >> h & 1
                    layer.append(m.add_var(v, v))
                elif t == steps and finishes and end == 1:
                    layer.append(m.add_var(0, allowed >> h & 1))
                else:
                    layer.append(m.add_var(0, 1))
            self.p.append(layer)
        # x[t][j]: jump j is step t (t = 1..steps)
        self.x: list[list[int]] = [[]] + [[m.add_var(0, 1, integer=True) for _ in self.jumps]
                                          for _ in range(steps)]
        leaving: list[list[int]] = [[] for _ in holes]  # jumps from or over each hole
        entering: list[list[int]] = [[] for _ in holes]
        for j, (a, b, c) in enumerate(self.jumps):
            leaving[col[a]].append(j)
            leaving[col[b]].append(j)
            entering[col[c]].append(j)
        pagodas = self.pagodas = pagodas_for(board, finishes) if finishes else []
        for t in range(1, steps + 1):
            xs, now, before = self.x[t], self.p[t], self.p[t - 1]
            m.add_row({x: 1 for x in xs}, lower=1, upper=1)
            for i in range(len(holes)):
                row: dict[int, float] = {now[i]: 1, before[i]: -1}
                for j in entering[i]:
                    row[xs[j]] = -1
                for j in leaving[i]:
                    row[xs[j]] = 1
                m.add_row(row, lower=0, upper=0)
                out = {xs[j]: 1 for j in leaving[i]}
                out[before[i]] = -1
                m.add_row(out, upper=0)
                into = {xs[j]: 1 for j in entering[i]}
                into[before[i]] = 1
                m.add_row(into, upper=1)
            for pagoda, threshold in pagodas:
                m.add_row({now[col[h]]: w for h, w in pagoda.weights if h in col}, lower=threshold)
        self.notes: list[str] = []
        chosen = chosen_cuts(cuts)
        self._strengthen(chosen - {"levels"})
        if "levels" in chosen:
            drive(self.level_steps(level_positions, budget))

    def _strengthen(self, cuts: frozenset[str]) -> None:
        """The additions of :mod:`pyapp.search.ilp_cuts` named in ``cuts`` but the reachability fixings (see
        :meth:`level_steps`)."""
        from .ilp_cuts import add_count_columns, add_reversal_row, add_symmetry_rows

        if "counts" in cuts:
            add_count_columns(self)
        if "symmetry" in cuts and (late := add_symmetry_rows(self)):
            self.notes.append(f"symmetry breaking on {late} jumps")
        if "reversal" in cuts and add_reversal_row(self):
            self.notes.append("time reversal broken")

    def level_steps(self, positions: int = LEVEL_POSITIONS,
                    budget: Budget | None = None) -> Generator[None, None, None]:
        """Add the reachability fixings (:func:`pyapp.search.ilp_cuts.level_fixings_steps`: at most ``positions`` a
        side, within ``budget``), pausing while the positions are enumerated."""
        from .ilp_cuts import level_fixings_steps

        fixed_x, fixed_p, depth = yield from level_fixings_steps(self, positions, budget)
        self.notes.append(f"{fixed_x + fixed_p} columns fixed by {depth} levels of reachable positions")

    def decode(self, x: tuple[float, ...]) -> list[Jump]:
        """The jumps of an integer point, step by step (the one ``x[t, j]`` at 1 in each step)."""
        out = []
        for t in range(1, self.steps + 1):
            chosen = [j for j, v in enumerate(self.x[t]) if x[v] > 0.5]
            if len(chosen) != 1:
                raise PegError(f"the integer programme's point has {len(chosen)} jumps at step {t}")
            out.append(self.jumps[chosen[0]])
        return out


def chosen_cuts(cuts: bool | Iterable[str]) -> frozenset[str]:
    """The additions ``cuts`` names (True: :data:`ALL_CUTS`, False: none); an unknown name is a clear error."""
    chosen = frozenset(ALL_CUTS if cuts is True else () if cuts is False else cuts)
    if unknown := chosen - set(ALL_CUTS):
        raise PegError(f"unknown additions to the integer programme: {', '.join(sorted(unknown))} "
                       f"(known: {', '.join(ALL_CUTS)})")
    return chosen


def programme_steps(problem: Problem, budget: Budget, seconds: float, nodes: int | None = None,
                    level_positions: int = LEVEL_POSITIONS
                    ) -> Generator[None, None, tuple[IlpFormulation, Solution | None]]:
    """Build the programme with every addition and run it within ``seconds`` (on the budget's clock: CPU seconds
    when it reads :data:`~pyapp.core.budget.CPU_CLOCK`, with :data:`CPU_WALL_SLACK` times as many wall seconds)
    and ``nodes`` (HiGHS's branch-and-bound nodes; None: no limit); returns the formulation and HiGHS's solution
    (None: cancelled before the run).  Pauses while the reachable positions are enumerated (at most
    ``level_positions`` a side, within ``budget``'s time, memory ceiling and cancel), before the run and while the
    back end loads."""
    t0 = budget.clock()
    f = IlpFormulation(problem, seconds, cuts=[c for c in ALL_CUTS if c != "levels"])
    yield from f.level_steps(level_positions, budget)
    yield
    if budget.cancelled:
        return f, None
    left = max(0.1, seconds - (budget.clock() - t0))
    m = f.model
    if budget.clock is CPU_CLOCK:
        m.time_limit, m.cpu_limit = CPU_WALL_SLACK * left, left
    else:
        m.time_limit = left
    if nodes is not None:
        m.options["mip_max_nodes"] = nodes
    return f, (yield from solve_steps(m))


def ilp_steps(problem: Problem, budget: Budget | None = None,
              level_positions: int = LEVEL_POSITIONS) -> Generator[None, None, Result]:
    """Answer ``problem`` by the integer programme (see the module docstring and :func:`programme_steps`), as a
    step generator; the budget's nodes are HiGHS's branch-and-bound nodes."""
    t0 = time.perf_counter()
    budget = budget_of(budget, None)
    board, goal, start = problem.board, problem.goal, problem.start
    end = goal.final_pegs
    if end is not None and start.bit_count() < end:
        return Result("impossible", "the start has fewer pegs than the goal", final=start, method="count")
    if reason := goal.obstacle(board, start):
        return Result("impossible", reason, final=start, seconds=time.perf_counter() - t0, method="position class")
    left = budget.remaining_seconds()
    seconds = ILP_SECONDS if left is None else max(0.1, left)
    formulation, solution = yield from programme_steps(problem, budget, seconds, budget.remaining_nodes(),
                                                       level_positions)
    if solution is None or budget.cancelled:
        return Result("unknown", "cancelled", final=start, seconds=time.perf_counter() - t0, method="budget")
    return _answer(formulation, solution, t0)


def _answer(f: IlpFormulation, s: Solution, t0: float) -> Result:
    problem, model = f.problem, f.model
    size = f"{model.columns} columns ({sum(model.integer)} binary), {model.rows} rows"
    size += "".join(f"; {note}" for note in f.notes)
    method = f"integer programming ({s.backend})" if s.backend else "integer programming"
    seconds = time.perf_counter() - t0
    if s.status == "infeasible":
        nodes = f"{s.nodes} node{'' if s.nodes == 1 else 's'}"
        return Result("impossible", f"integer programme infeasible (HiGHS, {nodes}, {s.seconds:.1f} s; "
                      f"{f.steps} steps, {size})", final=problem.start, nodes=s.nodes, seconds=seconds,
                      method=method)
    if s.x is not None and s.status in ("optimal", "time limit", "node limit"):
        jumps = f.decode(s.x)
        board = problem.board
        check = replay(board, problem.start, [format_jump(board, j) for j in jumps])
        if not check.valid or not problem.goal.reached(check.final):
            raise PegError(f"the integer programme's solution does not replay: {check.error or 'goal missed'}")
        return Result("solved", None, jumps, check.final, s.nodes, 0, seconds, method)
    if s.status in ("time limit", "node limit"):
        return Result("unknown", f"budget spent: integer programme unsettled ({describe(s)}; {size})",
                      final=problem.start, nodes=s.nodes, seconds=seconds, method=method)
    return Result("unknown", f"integer programme not solved: {describe(s) if s.message == '' else s.message}",
                  final=problem.start, nodes=s.nodes, seconds=seconds, method=method)


def integer_program_applies(problem: Problem, budget: Budget) -> bool:
    """Whether the solver's portfolio gets an :class:`IntegerProgram` phase: a goal with a fixed end, a
    budget of at least :data:`PHASE_MIN_SECONDS`, and CPython (in the page one call of minutes could not be
    cancelled: there the programme is ``solve --engine ilp``'s only)."""
    left = budget.remaining_seconds()
    return (problem.goal.final_pegs is not None and left is not None and left >= PHASE_MIN_SECONDS
            and sys.platform != "emscripten")


@dataclass(frozen=True)
class IntegerProgram:
    """A phase of the solver's portfolio (:mod:`pyapp.search.phases`): the programme on :data:`PHASE_SHARE`
    of the seconds left, when at least :data:`PHASE_MIN_SECONDS` are; an infeasible programme is a proof, a
    point a replayed solution; anything else leaves the question to the complete search."""

    problem: Problem
    name: str = "integer programming"

    def run(self, run: Run, number: int) -> Generator[None, None, Outcome | None]:
        left = run.budget.remaining_seconds()
        if left is None or left < PHASE_MIN_SECONDS or run.start != self.problem.start:
            return None
        try:
            formulation, solution = yield from programme_steps(self.problem, run.budget, PHASE_SHARE * left)
        except PegError as err:  # too big: the complete search goes on alone
            run.st.tried.append(f"no integer programme ({err})")
            return None
        if solution is None:  # cancelled
            return None
        answer = _answer(formulation, solution, time.perf_counter())
        if answer.status == "impossible":
            return Outcome("proof", [], answer.reason or "", answer.method)
        if answer.status == "solved":
            path = [self.problem.start]
            for a, b, c in answer.jumps:
                path.append(path[-1] ^ (1 << a | 1 << b | 1 << c))
            return Outcome("found", path, answer.method)
        run.st.tried.append(f"the integer programme ({answer.reason})")
        return None


def solve_ilp(problem: Problem, *, budget: Budget | None = None, max_seconds: float | None = None,
              level_positions: int = LEVEL_POSITIONS) -> Result:
    """:func:`ilp_steps` run to the end."""
    return drive(ilp_steps(problem, budget_of(budget, max_seconds), level_positions))
