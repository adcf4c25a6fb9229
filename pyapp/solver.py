"""The search engine: one portfolio with pluggable goals and pruning.

``search(problem)`` is a generator: it works in slices of about ``slice_seconds``, yields a
:class:`Progress` after each, and finally returns the :class:`~pyapp.problem.Result` (as
``StopIteration.value``).  A caller that stops iterating (``close()``) cancels the search,
so a web worker can report progress and stop it without killing Pyodide.
:func:`solve` drives the generator to the end, with optional callbacks.

The portfolio, cheapest first:

1. **Proofs at once.** Conway's position class (rule of three) and pagoda functions
   (:mod:`pyapp.pagoda`): if the start is in another class than every finish, or worth
   less than the goal under a pagoda, the answer is ``impossible`` with that reason.
2. **Short depth-first runs** (:mod:`pyapp.search.dfs`, runs of ~300 nodes, each with
   new tie-breaks; restarts cut the heavy tail of a bad early choice): best-scored jump
   first, bit-parallel pagoda pruning toward the goal, a bounded table of dead positions
   keyed by symmetry class (only the symmetries that fix the goal), shared by every run.
   This solves the English central game in a few hundred nodes.
3. **Beam search** (:mod:`pyapp.search.beam`) of growing widths, each level-by-level beam
   finished by small exhaustive searches over its last ~11 jumps: finds solutions on big
   boards where one bad early move would trap the depth-first search.  Order: 4 short
   runs, beams of 128 and 256, 8 more short runs, then a **linear program** looks for a
   pagoda function proving the goal out of reach (:func:`pyapp.pagoda.find_pagoda_steps`),
   then wider beams alternate with longer depth-first runs.
4. **Depth-first search to the end**: complete, so running out of positions proves
   ``impossible`` (the reason gives its size).

A ``seed`` changes only the order of equally scored jumps, so each seed gives its own
solution while the search stays as well guided as without it (no seed: a fixed default).

Memory: the transposition table holds at most ``table_cap`` positions (each dead
position is stored with its images under the symmetries that fix the goal, so a lookup
is one probe).  At the cap nothing more is stored and the search goes on: answers stay
correct (an ``impossible`` from exhaustion is still a proof), only re-exploration gets
slower.  The beam keeps ``width`` positions per level.  ``Result.method`` names the part
of the portfolio that answered.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, replace
from functools import lru_cache

from .board import BOARD_CACHE_SIZE, Board
from .moves import Jump
from .pagoda import Pagoda, find_pagoda_steps, pagoda_proof, pagodas_for, parity_pagodas
from .problem import Problem, Result
from .search.beam import beam
from .search.compiled import Tables, build_tables, reseed
from .search.dfs import Stats, dfs
from .search.table import BoundedTable

EARLY_RESTARTS = 12
"""Short depth-first runs before the first (narrow) beam; the other restarts follow it."""

DEFAULT_TABLE_CAP = 2_000_000
"""Default entry cap of the transposition table (about 130 MB of CPython ints at most)."""


@dataclass(frozen=True)
class Progress:
    """A progress report: work done so far."""

    nodes: int
    entries: int
    seconds: float
    depth: int


def class_proof(problem: Problem) -> str | None:
    """Why the position class rules the goal out, or None (:meth:`pyapp.goal.Goal.obstacle`)."""
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


def search(problem: Problem, *, seed: int | None = None, max_nodes: int | None = None,
           max_seconds: float | None = None, table_cap: int = DEFAULT_TABLE_CAP,
           slice_seconds: float = 0.05, beam_widths: tuple[int, ...] | None = None,
           restarts: tuple[int, ...] | None = None) -> Generator[Progress, None, Result]:
    """Search for a solution; yield progress about every ``slice_seconds``; return a Result.

    ``max_nodes``/``max_seconds``: budgets (answer ``unknown`` when spent).  ``table_cap``:
    the most positions the transposition table holds (see :mod:`pyapp.search.table`).
    ``restarts`` (node limits of short depth-first runs, each with new tie-breaks: the
    first few before any beam, the rest after the second) and ``beam_widths`` (from the
    third beam on, each followed by a depth-first run of 4000, 16000, ... nodes) tune the
    portfolio.

    The ``min`` goal first looks for a position with as few pegs as the position class
    allows (usually one), with the whole portfolio: success proves the minimum at once.
    Only if that is impossible does an exhaustive search for the minimum follow.
    """
    t0 = time.perf_counter()
    board, goal, start = problem.board, problem.goal, problem.start
    definite = goal.definite

    def done(status: str, reason: str | None, path: list[int] | None = None, method: str = "",
             nodes: int = 0, entries: int = 0) -> Result:
        path = path or [start]
        return Result(status, reason, jumps_of(path), path[-1], nodes, entries, time.perf_counter() - t0,
                      method=method)

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
    # ``min`` looks first for the fewest pegs its position class allows (``pegs_at_best``)
    final_pegs = goal.pegs_at_best(board, start)
    finishes = goal.pagoda_targets(board, start)
    pagoda_dead = False  # for ``min``: a pagoda rules out the class lower bound
    if finishes:
        # the parity pagodas first: they need no library loading, so these proofs are immediate
        for p in parity_pagodas(board):
            v, thr = p.value(start), min(p.value(f) for f in finishes)
            if v < thr:
                if definite:
                    return done("impossible", f"pagoda function: {p.name} is worth {v} at the start, "
                                f"less than the {thr} the goal needs", method="pagoda")
                pagoda_dead = True
    pagodas = _pagodas_for(board, tuple(finishes)) if finishes else []
    for p, thr in pagodas:
        v = p.value(start)
        if v < thr:
            if definite:
                return done("impossible", f"pagoda function: {p.name} is worth {v} at the start, "
                            f"less than the {thr} the goal needs", method="pagoda")
            pagoda_dead = True

    tables = _tables_for(board, goal.symmetries(board), tuple(finishes))
    reseed(tables, seed)
    table = BoundedTable(table_cap, tables.images)
    st = Stats(slice_seconds=slice_seconds)
    target = goal.exact
    deadline = t0 + max_seconds if max_seconds is not None else None
    node_cap = max_nodes if max_nodes is not None else 1 << 62
    if restarts is None:
        restarts = (300,) * 12
    if beam_widths is None:
        beam_widths = (128, 256, 256, 1024, 4096)
    clock = _Clock(t0, slice_seconds, node_cap, deadline)

    def spent() -> Result:
        if not definite:
            return done("unknown", "budget spent: fewest pegs found so far, minimality not proven",
                        st.best_path, "budget", st.nodes, len(table))
        return done("unknown", "budget spent", None, "budget", st.nodes, len(table))

    if not pagoda_dead:
        outcome, path, method = yield from _portfolio(tables, table, st, clock, start, final_pegs, target,
                                                      restarts, beam_widths, seed, finishes)
        if outcome == "budget":
            return spent()
        if outcome == "pagoda" and definite:
            return done("impossible", method, None, "pagoda (linear programming)", st.nodes, len(table))
        if outcome == "found":
            if not definite:
                method += f" (reached the class lower bound, {final_pegs} peg{'s' if final_pegs > 1 else ''})"
            return done("solved", None, path, method, st.nodes, len(table))
        if definite:
            return done("impossible", f"exhaustive search: {st.nodes} nodes, {len(table)} table entries "
                        f"(pagoda pruning with {len(pagodas)} pagodas)", None, "exhaustive search",
                        st.nodes, len(table))
    # min goal, the class lower bound is out of reach: search everything for the fewest pegs
    tables = _tables_for(board, goal.symmetries(board), ())
    reseed(tables, seed)
    table = BoundedTable(table_cap, tables.images)
    gen = dfs(tables, start, table, st, final_pegs=None, target=None, lower_bound=final_pegs + 1)
    st.pause_at = node_cap
    try:
        while True:
            next(gen)
            if clock.over(st):
                gen.close()
                return spent()
            prog = clock.report(st, len(table))
            if prog is not None:
                yield prog
    except StopIteration as stop:
        found, path = stop.value
    if len(path) < len(st.best_path):
        path = st.best_path
    how = "the next peg count up from the class bound" if found else "exhaustive: minimum proven"
    return done("solved", None, path, f"depth-first search ({how})", st.nodes, len(table))


class _Clock:
    """Budgets and progress reports shared by the phases of one search."""

    def __init__(self, t0: float, slice_seconds: float, node_cap: int, deadline: float | None) -> None:
        self.t0 = t0
        self.slice = slice_seconds
        self.node_cap = node_cap
        self.deadline = deadline
        self.last = t0

    def over(self, st: Stats) -> bool:
        return st.nodes >= self.node_cap or (self.deadline is not None and time.perf_counter() >= self.deadline)

    def report(self, st: Stats, entries: int) -> Progress | None:
        now = time.perf_counter()
        if now - self.last >= self.slice * 0.9:
            self.last = now
            return Progress(st.nodes, entries, now - self.t0, st.depth)
        return None


def _portfolio(tables: Tables, table: BoundedTable, st: Stats, clock: _Clock, start: int, final_pegs: int,
               target: int | None, restarts: tuple[int, ...], beam_widths: tuple[int, ...],
               seed: int | None, finishes: list[int]) -> Generator[Progress, None, tuple[str, list[int], str]]:
    """Short depth-first runs, then beams alternating with longer runs, then the complete search.

    After the first beam fails, the linear program of :func:`pyapp.pagoda.find_pagoda_steps`
    looks for a pagoda function ruling the goal out (boards of up to 64 holes): a hard
    problem is often impossible, and exhaustion would take far longer.

    Returns ``("found", path, method)``, ``("exhausted", [], "")`` (a proof that no position
    with ``final_pegs`` pegs, equal to ``target`` unless None, is reachable),
    ``("pagoda", [], reason)`` or ``("budget", [], "")``.
    """
    node_cap = clock.node_cap
    deep = dfs(tables, start, table, st, final_pegs=final_pegs, target=target)
    phases: list[tuple[str, int]] = [("restart", n) for n in restarts[:EARLY_RESTARTS]]
    for i, w in enumerate(beam_widths):
        phases.append(("beam", w))
        if i == 1:
            phases += [("restart", n) for n in restarts[EARLY_RESTARTS:]]
            if finishes and len(tables.board.bits) <= 64:
                phases.append(("lp", 0))
        if i > 1:
            phases.append(("restart", 4000 * 4 ** (i - 2)))
    phases.append(("dfs", 0))
    for number, (name, arg) in enumerate(phases):
        if name == "lp":
            gen = find_pagoda_steps(tables.board, start, finishes)
            st.pause_at = node_cap
        elif name == "restart":
            if number:
                reseed(tables, _derive(seed, number))
            gen = dfs(tables, start, table, st, final_pegs=final_pegs, target=target)
            st.pause_at = min(node_cap, st.nodes + arg)
        elif name == "dfs":
            reseed(tables, seed)
            gen = deep
            st.pause_at = node_cap
        else:
            reseed(tables, _derive(seed, number))
            st.pause_at = node_cap
            gen = beam(tables, start, table, st, arg, final_pegs=final_pegs, target=target)
        try:
            while True:
                next(gen)
                if clock.over(st):
                    gen.close()
                    deep.close()
                    return "budget", [], ""
                if name == "restart" and st.nodes >= st.pause_at:
                    gen.close()
                    break
                prog = clock.report(st, len(table))
                if prog is not None:
                    yield prog
        except StopIteration as stop:
            value = stop.value
            if name == "lp":
                if value is not None:
                    deep.close()
                    return "pagoda", [], _lp_reason(tables.board, start, finishes, value)
                continue
            if name == "beam":
                if value is not None:
                    deep.close()
                    return "found", value, "beam search"
                continue
            found, path = value
            deep.close()
            if found:
                return "found", path, "depth-first search"
            return "exhausted", [], ""  # a depth-first run that ends by itself has seen everything
    return "budget", [], ""  # pragma: no cover - the last phase always ends the search


@lru_cache(maxsize=BOARD_CACHE_SIZE)
def _pagodas_for(board: Board, finishes: tuple[int, ...]) -> list[tuple[Pagoda, int]]:
    """:func:`pyapp.pagoda.pagodas_for`, remembered for the last few boards (keyed by the board's
    canonical spec, so a board rebuilt by every request still hits) and finishes."""
    return pagodas_for(board, list(finishes))


@lru_cache(maxsize=BOARD_CACHE_SIZE)
def _base_tables(board: Board, syms: tuple[int, ...], finishes: tuple[int, ...]) -> Tables:
    pagodas = _pagodas_for(board, finishes) if finishes else []
    return build_tables(board, pagodas, list(syms), None)


def _tables_for(board: Board, syms: tuple[int, ...], finishes: tuple[int, ...]) -> Tables:
    """The compiled tables for a board, the goal's symmetries and its pagoda targets, kept for the last
    few (keyed by the board's canonical spec; a fresh copy of the tie-breaks each call)."""
    base = _base_tables(board, syms, finishes)
    return replace(base, ties=list(base.ties))


def _lp_reason(board: Board, start: int, finishes: list[int], weights: dict[int, int]) -> str:
    v = sum(x for b, x in weights.items() if start >> b & 1)
    t = min(sum(x for b, x in weights.items() if f >> b & 1) for f in finishes)
    shown = " ".join(f"{board.name_of[b]}:{x}" for b, x in sorted(weights.items()))
    return (f"pagoda function: a pagoda found by linear programming is worth {v} at the start, "
            f"less than the {t} the goal needs (weights {shown})")


def _derive(seed: int | None, number: int) -> int:
    """The tie-break seed of restart ``number``: a fixed function of the user's seed."""
    return (0 if seed is None else seed + 1) * 1_000_003 + number


def explain_pagoda(problem: Problem) -> str | None:
    """A pagoda-function reason the problem is impossible (known pagodas, then linear programming);
    None for ``min``, which always has an answer."""
    if not problem.goal.definite:
        return None
    finishes = problem.goal.pagoda_targets(problem.board, problem.start)
    return pagoda_proof(problem.board, problem.start, finishes)


def solve(problem: Problem, *, on_progress: Callable[[Progress], object] | None = None,
          should_stop: Callable[[], bool] | None = None, **options) -> Result:
    """Run :func:`search` to the end; ``should_stop`` returning True cancels (answer ``unknown``)."""
    gen = search(problem, **options)
    try:
        while True:
            prog = next(gen)
            if on_progress is not None:
                on_progress(prog)
            if should_stop is not None and should_stop():
                gen.close()
                return Result("unknown", "cancelled", [], problem.start, prog.nodes, prog.entries, prog.seconds,
                              method="cancelled")
    except StopIteration as stop:
        return stop.value
