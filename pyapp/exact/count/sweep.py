"""Counting every solution exactly by meeting two level sweeps in the middle.

The number of jump sequences solving a problem is the sum, over the positions ``x`` of
one middle level, of (sequences from the start to ``x``) x (sequences from ``x`` to the
goal).  The first factor comes from a forward sweep of the start (class weights ``T``,
see :mod:`pyapp.exact.sweep`); the second from a sweep of the complement game from the
goal's complement (see :mod:`pyapp.exact.setup`), read at ``complement(x)``.  With
symmetry classes ``C`` of the middle level::

    solutions = sum over C of T_forward(C) * T_backward(complement C) / |C|

which is exact: both weights are ``|C|`` times a per-position count.  The forward sweep may
use every symmetry of the goal even when the start is fixed by fewer (``Sides.wide_codec``):
pushing class weights stays exact (every member of a class has as many children in each other
class), ``T_forward(C)`` is then the number of sequences from the start to any member of ``C``,
and the ways on to the goal are the same from every member of ``C`` (the goal is invariant), so
they are read at whichever image the backward sweep reached (one per coset of its group).
On triangle7 vacancy 4 (no symmetry fixes the start) this makes the forward sweep about six
times smaller.  When the goal is
the start's complement (the English central game) the two sweeps are one and the same,
so a single sweep down to the middle gives both halves; sharded on a pool, that sweep's own steps
sum them where the classes lie (:mod:`pyapp.exact.pairs`) and no level is gathered here.  More generally,
when a symmetry of the goal maps the start onto one of the backward sweep's sources (a single vacancy to one
peg anywhere, on every board in the catalogue), the backward sweep carries the forward weights too and the
count is that one sweep (:mod:`.joint`; triangle7 vacancy 4: 8,966,402 classes instead of 14,875,929, in
this process or sharded on a pool).  Otherwise, in
this process, the forward side stops one level above the middle and the sum is taken over its jumps into
the middle level (:mod:`.edge`): the forward middle level, the costliest of the sweep on triangle7, is never
built.  A forced middle level (the bench's recount) is built by both sides and summed class by class.

Sources: the English central game has 40,861,647,040,079,968 solutions (Durango Bill,
"Peg solitaire: the number of solutions"; George I. Bell, "English peg solitaire" pages);
``tests/test_exact.py`` and the bench compare our computed figure with it.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

from ...core.budget import Budget, drive
from ...core.codec.compiled import Codec
from ...core.problem import Problem
from ..setup import Cancelled, OutOfTime, Sides, sides, stop_if_over
from ..sharded import Pairing, Parallel, sweeper
from ..sweep import CHUNK, DICT_ENTRY_BYTES, Level, MemoryCeiling, Progress
from ..sweep import sweep as _plain_sweep
from ..twosided import two_sided
from .both import both_steps
from .combine import combine_part
from .edge import coset_groups, edge_function, ways_search, ways_table
from .joint import joint_start, joint_sweep, meeting_levels


@dataclass
class ExactCount:
    """The answer of :func:`count_exact`: ``solutions`` is None when the budget stopped it."""

    status: str
    """'counted' or 'unknown' (budget spent, memory ceiling, cancelled: see ``reason``)."""
    solutions: int | None
    reason: str | None
    positions: int
    """Canonical positions stored by the sweeps (each symmetry class once)."""
    meet: int
    """The peg count of the level where the two sweeps met."""
    symmetries: int
    """Size of the symmetry group used (symmetries fixing the start and the goal)."""
    seconds: float
    peak_bytes: int = 0
    """Largest estimated memory held at a progress report."""


def count_exact(problem: Problem, budget: Budget | None = None, meet: int | None = None,
                parallel: Parallel | None = None) -> ExactCount:
    """Run :func:`count_steps` to the end (no progress reports)."""
    return drive(count_steps(problem, budget, meet, parallel))


def count_steps(problem: Problem, budget: Budget | None = None, meet: int | None = None,
                parallel: Parallel | None = None) -> Generator[Progress, None, ExactCount]:
    """Count the jump sequences solving ``problem``; yields :class:`Progress`, returns :class:`ExactCount`.

    ``meet`` forces the level (pegs) where the sweeps meet; by default the complement problem meets
    in the middle and any other extends the smaller frontier first (a check may recount elsewhere).
    ``parallel`` runs the sweeps on its pool: on a local pool of two workers the two sides at once, each
    whole in a worker (:mod:`.both`), else sharded (:mod:`pyapp.exact.sharded`); without it, in this process.
    """
    budget = budget or Budget()
    s = sides(problem)
    group = len((s.codec if s.complement_problem and meet is None else s.wide_codec).group)
    forced = meet
    meet = s.meet() if meet is None else meet
    obstacle = problem.goal.obstacle(problem.board, problem.start)
    if obstacle or s.first_pegs < s.last_pegs:
        why = obstacle or "the start has fewer pegs than the goal"
        return ExactCount("counted", 0, why, 0, meet, group, budget.elapsed())
    kept: dict[str, Level] = {}
    state = {"positions": 0, "peak": 0}

    def held() -> int:
        return sum(level.nbytes for level in kept.values())

    def run(stage: str, sources: dict[int, int], keep: tuple[int, ...], **pairing):
        last = min(keep)
        for item in sweeper(parallel)(s.codec, sources, last, weights=True, stage=stage, kept_bytes=held,
                                      max_bytes=budget.max_bytes, keep=lambda pegs: pegs in keep, **pairing):
            if isinstance(item, Level):
                state["positions"] += len(item)
                if item.pegs in keep:
                    kept[f"{stage}{item.pegs}"] = item
                continue
            state["peak"] = max(state["peak"], item.bytes)
            item.total = state["positions"]
            stop_if_over(budget)
            yield item

    try:
        if s.complement_problem and forced is None and _pairs_on_pool(s, parallel, meet):
            # the shards sum the halves where they lie (pyapp.exact.pairs): no level is gathered
            pairing = Pairing(meet, s.holes - meet)
            yield from run("forward", {s.start: 1}, (meet, pairing.settle), pairing=pairing)
            if pairing.total is None:  # the sweep died out before the middle
                return ExactCount("counted", 0, "no position of the middle level is reachable from both ends",
                                  state["positions"], meet, group, budget.elapsed(), state["peak"])
            return ExactCount("counted", pairing.total, None, state["positions"], meet, group, budget.elapsed(),
                              state["peak"])
        if s.complement_problem and forced is None:
            back_meet = s.holes - meet
            yield from run("forward", {s.start: 1}, (meet, back_meet))
            forward, backward = kept.get(f"forward{meet}"), kept.get(f"forward{back_meet}")
        elif forced is None and (joint := joint_start(s)) is not None:
            # the start is (up to a symmetry) among the backward sources: one sweep carries both sides (.joint)
            meet, group = meeting_levels(s)[0], len(s.back_codec.group)
            total = yield from joint_sweep(s, *joint, budget, state, held, parallel)
            if total is None:
                return ExactCount("counted", 0, "no position of the middle level is reachable from both ends",
                                  state["positions"], meet, group, budget.elapsed(), state["peak"])
            return ExactCount("counted", total, None, state["positions"], meet, group, budget.elapsed(),
                              state["peak"])
        elif two_sided(parallel):
            assert parallel is not None
            total = yield from both_steps(s, parallel, budget, state, meet)
            if total is None:
                return ExactCount("counted", 0, "no position of the middle level is reachable from both ends",
                                  state["positions"], meet, group, budget.elapsed(), state["peak"])
            return ExactCount("counted", total, None, state["positions"], meet, group, budget.elapsed(),
                              state["peak"])
        else:
            # the forward side stops one level above the middle and sums over its jumps (.edge); a forced middle
            # level (a recount) is built by both sides and summed class by class (.combine)
            gap = 1 if forced is None and s.first_pegs > s.last_pegs else 0
            forward, backward = yield from _meet(s, budget, state, held, forced, sweeper(parallel), gap)
            if gap and len(forward) and len(backward):
                meet = forward.pegs - 1
                total = yield from _edges(s, forward, backward, budget, state)
                return ExactCount("counted", total, None, state["positions"], meet, group, budget.elapsed(),
                                  state["peak"])
        if forward is None or backward is None or not len(forward) or not len(backward):
            # a sweep died out before the middle: no position there, no solution
            return ExactCount("counted", 0, "no position of the middle level is reachable from both ends",
                              state["positions"], meet, group, budget.elapsed(), state["peak"])
        meet = forward.pegs
        fcd = s.codec if s.complement_problem and forced is None else s.wide_codec
        total = yield from _combine(s, forward, backward, budget, state, fcd)
    except (Cancelled, OutOfTime, MemoryCeiling) as stop:
        return ExactCount("unknown", None, f"{stop} (after {state['positions']:,} positions)",
                          state["positions"], meet, group, budget.elapsed(), state["peak"])
    return ExactCount("counted", total, None, state["positions"], meet, group, budget.elapsed(), state["peak"])


def _pairs_on_pool(s: Sides, parallel: Parallel | None, meet: int) -> bool:
    """Whether the sharded sweep can run the final combination itself: a pool without a checkpoint (a resumed
    sweep has no pairs to send), one symmetry group on both sides, and the halves on two successive levels
    (an odd number of holes; with an even one both halves are the same level, combined in this process)."""
    return (parallel is not None and parallel.checkpoint is None and s.back_codec is s.codec
            and meet == s.holes - meet + 1)


def _meet(s: Sides, budget: Budget, state: dict, held, forced: int | None = None, sweep=None, gap: int = 0
          ) -> Generator[Progress, None, tuple[Level, Level]]:
    """Sweep from both ends, always extending the side with the smaller frontier (or the side short
    of the ``forced`` middle level), until they meet: at the same level, or with ``gap`` 1 the forward side
    one level above the backward one's (:mod:`.edge` then sums over the jumps between them, so the forward
    side never builds the middle level)."""
    sweep = sweep or _plain_sweep
    lazy = {"keep": lambda pegs: False} if sweep is not _plain_sweep else {}  # sharded: only the fronts are loaded
    gens = {"forward": sweep(s.wide_codec, {s.start: 1}, s.last_pegs, weights=True, stage="forward",
                             kept_bytes=held, max_bytes=budget.max_bytes, **lazy),
            "backward": sweep(s.back_codec, s.backward, s.holes - s.first_pegs, weights=True, stage="backward",
                              kept_bytes=held, max_bytes=budget.max_bytes, **lazy)}
    front: dict[str, Level] = {}
    growth = [1.0]  # the forward side's last growth (level size over the one above)

    def advance(side: str):
        for item in gens[side]:
            if isinstance(item, Level):
                state["positions"] += len(item)
                if side == "forward" and side in front:
                    growth[0] = len(item) / max(1, len(front[side]))
                front[side] = item
                return
            state["peak"] = max(state["peak"], item.bytes)
            item.total = state["positions"]
            stop_if_over(budget)
            yield item

    yield from advance("forward")
    yield from advance("backward")
    while front["forward"].pegs != s.holes - front["backward"].pegs + gap:
        if forced is not None:
            side = "forward" if front["forward"].pegs > forced + gap else "backward"
        elif gap and front["forward"].pegs + front["backward"].pegs == s.holes + 2:
            # the last step: a backward level, then the sum over the forward front's jumps; or a forward level,
            # then the sum over its jumps (about growth times more parents): the cheaper of the two
            side = "backward" if len(front["backward"]) <= growth[0] * len(front["forward"]) else "forward"
        else:
            side = "forward" if len(front["forward"]) <= len(front["backward"]) else "backward"
        yield from advance(side)
        if not len(front[side]):
            break
    return front["forward"].load(), front["backward"].load()


def _edges(s: Sides, forward: Level, backward: Level, budget: Budget, state: dict) -> Generator[Progress, None, int]:
    """:func:`.edge.edge_function` over the whole forward level above the middle, a chunk at a time, against
    the backward middle level as a dict (:func:`.edge.ways_table`), or its arrays searched when the dict would
    pass the memory ceiling (:func:`.edge.ways_search`)."""
    fcd = s.wide_codec
    assert forward.weights is not None and backward.weights is not None
    held = forward.nbytes + backward.nbytes + DICT_ENTRY_BYTES * len(backward)
    if budget.max_bytes is not None and held > budget.max_bytes:  # a dict would not fit: search the arrays
        held = forward.nbytes + 2 * backward.nbytes
        get = ways_search(s.back_codec, backward.keys, backward.weights)
    else:
        get = ways_table(s.back_codec, backward.keys, backward.weights).get
    edge = edge_function(fcd, coset_groups(s, fcd))
    state["peak"] = max(state["peak"], held)
    total = 0
    n = len(forward.keys)
    for lo in range(0, n, CHUNK):
        total += edge(forward.keys, forward.weights, lo, min(n, lo + CHUNK), get)
        stop_if_over(budget)
        yield Progress("combine", forward.pegs - 1, min(n, lo + CHUNK), n, 0, state["positions"], held,
                       budget.elapsed())
    return total


def _combine(s: Sides, forward: Level, backward: Level, budget: Budget, state: dict, fcd: Codec
             ) -> Generator[Progress, None, int]:
    """:func:`combine_part` over the whole middle level, a chunk at a time."""
    lanes = [lane * fcd.holes for lane in s.coset_lanes(fcd)]
    assert forward.weights is not None and backward.weights is not None
    total = 0
    n = len(forward.keys)
    for lo in range(0, n, CHUNK):
        total += combine_part(fcd, s.back_codec, lanes, forward.keys, forward.weights, backward.keys,
                              backward.weights, lo, min(n, lo + CHUNK))
        stop_if_over(budget)
        yield Progress("combine", forward.pegs, min(n, lo + CHUNK), n, 0, state["positions"],
                       forward.nbytes + backward.nbytes, budget.elapsed())
    return total
