"""Fewest moves, proven: every position on a solution costed move by move.

A move is a chain of one or more jumps by one peg.  Three searches prove the minimum:

* ``method="meet"`` (the default, :mod:`pyapp.exact.fewest.meet`): the fewest moves from the start and
  the fewest moves to the goal (the complement game) swept over every level, each side keeping only the
  classes within its cap, the caps raised round by round until a join at some level is within their sum;
  no winnable set is built (triangle7 vacancy 4: 6.8 million classes costed instead of 17.8 million by
  sweeping both sides whole to the middle level; see BENCHMARKS.md);
* ``method="levels"`` (:mod:`pyapp.exact.fewest.dp`): over the winnable set
  (:mod:`pyapp.exact.winnable`, exact: built from level sweeps of the whole game graph from both
  ends, and cached, so never-lose and hints answer by lookup afterwards), a sweep by peg count that
  gives every winnable position its fewest moves from the start and the landing holes of the last
  jumps achieving them, examining every jump between two winnable levels once (English central
  game: 1.7 million positions instead of 23 million; 21.8 s of CPU after the winnable sets, against
  33.8 s for chains);
* ``method="chains"``: breadth-first search by moves over the winnable set, layer ``d`` holding the
  positions first reached after ``d`` moves, each expanded into every chain of jumps that stays
  winnable (:mod:`pyapp.exact.fewest.chains`); the first layer holding the goal gives the minimum.
  Kept as an independent check of the others (the tests compare them).

Each answer is a proof resting on the sweeps being exact and exhaustive; the solution returned is an
actual jump sequence (it replays).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from functools import partial

from ...core.budget import Budget, drive
from ...core.codec.canonical import jump_table
from ...core.moves import Jump, count_moves
from ...core.problem import Problem
from ..lookup import Marked, index_bytes
from ..setup import Cancelled, OutOfTime, sides, stop_if_over
from ..sharded import Parallel
from ..sweep import MemoryCeiling, Progress
from ..twosided import two_sided
from ..winnable import Winnable, winnable_steps
from .chains import LayerFn, chain_layer
from .dp import costs_steps, rebuild
from .meet import meet_steps
from .split import costs_on_pool


@dataclass
class ExactFewest:
    """The answer of :func:`fewest_exact`."""

    status: str
    """'solved' (proven minimal), 'impossible' (proven) or 'unknown' (budget; see ``reason``)."""
    moves: int = 0
    jumps: list[Jump] = field(default_factory=list)
    reason: str | None = None
    lower_bound: int = 0
    """Every solution has at least this many moves (proven by the layers searched)."""
    positions: int = 0
    """Positions reached by the search by moves (canonical)."""
    winnable: int | None = None
    """Size of the winnable set the search was confined to (None: the method built none, as ``meet``)."""
    seconds: float = 0.0


METHODS = ("meet", "levels", "chains")


def fewest_exact(problem: Problem, budget: Budget | None = None, method: str | None = None) -> ExactFewest:
    """Run :func:`fewest_steps` to the end."""
    return drive(fewest_steps(problem, budget, method=method))


def fewest_steps(problem: Problem, budget: Budget | None = None, *, method: str | None = None,
                 forward: dict[int, array] | None = None, parallel: Parallel | None = None
                 ) -> Generator[Progress, None, ExactFewest]:
    """Prove the fewest moves of ``problem``; yields :class:`Progress`, returns :class:`ExactFewest`.

    ``method`` picks the search (see the module docstring); by default ``"meet"`` in this process or on a
    local pool of two (each side raised cap after cap in its own worker), ``"levels"`` on any other pool
    (its winnable sweeps sharded over it, where the two sides of ``"meet"`` could use only two workers).
    ``forward``, a dict shared between problems with the same start and symmetry group, keeps the reachable levels swept
    from the start (:func:`pyapp.exact.winnable.winnable_steps`) so the next problem reuses them;
    ``parallel`` runs those sweeps on its pool (on a local pool of two workers the two sides at once,
    :mod:`pyapp.exact.twosided`, and the dynamic programme's levels split over it, :mod:`.split`; else
    sharded, :mod:`pyapp.exact.sharded`)."""
    if method is None:
        method = "meet" if parallel is None or two_sided(parallel) else "levels"
    if method not in METHODS:
        raise ValueError(f"unknown fewest method {method!r}: expected one of {', '.join(METHODS)}")
    budget = budget or Budget()
    goal, start = problem.goal, problem.start
    obstacle = problem.goal.obstacle(problem.board, problem.start)
    if obstacle:
        return ExactFewest("impossible", reason=obstacle, seconds=budget.elapsed())
    if goal.reached(start):
        return ExactFewest("solved", 0, [], None, 0, 1, 0, budget.elapsed())
    if method == "meet":
        return (yield from _meet(problem, budget, parallel))
    depth = 0
    positions = 0
    last: Progress | None = None
    try:
        sweeps = winnable_steps(problem, budget, forward, parallel=parallel)
        while True:  # the winnable sets, remembering where they stand (for an answer cut short)
            try:
                last = next(sweeps)
            except StopIteration as done:
                win = done.value
                break
            yield last
        if not win.can_win(start):
            return ExactFewest("impossible", reason="exhaustive level sweeps: no position reachable from the start "
                               "can reach the goal", winnable=len(win), seconds=budget.elapsed())
        if method == "levels":
            bound = [0]
            try:
                costs = yield from (costs_on_pool(win, parallel, budget, bound) if two_sided(parallel) and parallel
                                    else costs_steps(win, budget, bound))
            except (Cancelled, OutOfTime, MemoryCeiling) as stop:
                why = (f"{stop}: every solution has at least {bound[0]} moves (the fewest moves to any winnable "
                       "position of the last level costed)")
                return ExactFewest("unknown", reason=why, lower_bound=bound[0], winnable=len(win),
                                   seconds=budget.elapsed())
            if costs.moves is None:  # pragma: no cover - a non-empty winnable set reaches the goal
                return ExactFewest("impossible", reason="no goal position reached", winnable=len(win),
                                   seconds=budget.elapsed())
            jumps = _on_start(win.problem, win.codec.group, *rebuild(win.codec, costs.levels, costs.masks, costs.goal))
            return ExactFewest("solved", costs.moves, jumps, None, costs.moves, costs.reached, len(win),
                               budget.elapsed())
        levels = yield from _marked(win, budget)
        first = win.codec.canon(start)
        levels[start.bit_count()].marks[levels[start.bit_count()].find(first)] = 1
        table = [level.as_tuple() for level in levels]
        frontier = array("Q", [first])
        expand = chain_layer(win.codec, goal.final_pegs or 1, goal.reached)
        positions = 1
        while frontier:
            found, frontier = yield from _layer(expand, table, frontier, depth, positions, budget)
            depth += 1
            positions += len(frontier)
            if found is not None:
                jumps = _rebuild(win, levels, depth, found)
                return ExactFewest("solved", depth, jumps, None, depth, positions, len(win), budget.elapsed())
        return ExactFewest("impossible", reason=f"exhaustive search by moves over {len(win):,} winnable positions "
                           "found no solution", lower_bound=depth, positions=positions, winnable=len(win),
                           seconds=budget.elapsed())
    except (Cancelled, OutOfTime, MemoryCeiling) as stop:
        if depth:
            why = f"{stop}: every solution has at least {depth + 1} moves (searched {depth} moves deep)"
        elif last is not None and not last.stage.startswith("moves"):
            why = (f"{stop} before the search by moves, in the level sweeps ({last.stage}, level {last.pegs}: "
                   f"{last.positions:,} positions there, {last.total:,} in the levels before)")
        else:
            why = str(stop)
        return ExactFewest("unknown", reason=why, lower_bound=depth + 1, positions=positions,
                           seconds=budget.elapsed())


def _meet(problem: Problem, budget: Budget, parallel: Parallel | None) -> Generator[Progress, None, ExactFewest]:
    """``method="meet"``: the costs swept from both ends under caps and joined at every level (:mod:`.meet`; on
    a local pool of two, the sides a round raises each in a worker)."""
    bound = [0]
    stage: list[Progress] = []
    try:
        steps = meet_steps(problem, budget, bound, parallel)
        while True:
            try:
                item = next(steps)
            except StopIteration as done:
                met = done.value
                break
            stage[:] = [item]
            yield item
    except (Cancelled, OutOfTime, MemoryCeiling) as stop:
        where = f" in {stage[0].stage} (level {stage[0].pegs})" if stage else ""
        return ExactFewest("unknown", reason=f"{stop}{where}: every solution has at least {bound[0]} moves (the "
                           "caps of the rounds finished joined nothing within them)", lower_bound=bound[0],
                           seconds=budget.elapsed())
    if met.moves is None:
        return ExactFewest("impossible", reason="exhaustive sweeps of the move costs from both ends: no position "
                           "reachable from the start can reach the goal", positions=met.positions,
                           seconds=budget.elapsed())
    jumps = _on_start(problem, sides(problem).wide_codec.group, met.first, met.jumps)
    assert count_moves(jumps) == met.moves
    return ExactFewest("solved", met.moves, jumps, None, met.moves, met.positions, None, budget.elapsed())


LAYER_CHUNK = 4096
"""Positions of a layer expanded between two progress reports."""


def _marked(win: Winnable, budget: Budget) -> Generator[Progress, None, list[Marked]]:
    """Every winnable level with its radix index and marks (:class:`.lookup.Marked`), indexed by pegs;
    raises :class:`MemoryCeiling` first if they would pass the budget's ceiling."""
    extra = sum(index_bytes(len(keys)) for keys in win.levels.values())
    if budget.max_bytes is not None and win.nbytes + extra > budget.max_bytes:
        raise MemoryCeiling(f"the search by moves over {len(win):,} winnable positions needs about "
                            f"{(win.nbytes + extra) / 1e6:,.0f} MB, over the memory ceiling of "
                            f"{budget.max_bytes / 1e6:,.0f} MB")
    levels = []
    for pegs in range(len(win.problem.board) + 1):
        levels.append(Marked(win.levels.get(pegs, array("Q"))))
        stop_if_over(budget)
    yield Progress("moves 0", 0, 0, 0, 1, 0, win.nbytes + extra, budget.elapsed())
    return levels


def _layer(expand: LayerFn, table: list, frontier: array, depth: int, positions: int, budget: Budget
           ) -> Generator[Progress, None, tuple[int | None, array]]:
    """Every winnable position one move after ``frontier`` not reached before (marked ``depth + 2``), or a
    goal position found (``expand`` from :func:`.chains.chain_layer`, ``table[pegs]`` a marked level)."""
    nxt = array("Q")
    n = len(frontier)
    for lo in range(0, n, LAYER_CHUNK):
        found = expand(frontier[lo:lo + LAYER_CHUNK], table, depth + 2, nxt)
        if found is not None:
            return found, nxt
        stop_if_over(budget)
        yield Progress(f"moves {depth + 1}", depth + 1, min(n, lo + LAYER_CHUNK), n, len(nxt),
                       positions + len(nxt), 0, budget.elapsed())
    return None, nxt


def _rebuild(win: Winnable, levels: list[Marked], moves: int, goal_pos: int) -> list[Jump]:
    """Jumps from the start to ``goal_pos`` (``moves`` moves, one per layer), found backwards: the
    position one move back is a marked one of the layer before (mark = layer + 1)."""
    cd = win.codec
    board = win.problem.board
    table = jump_table(board)
    canon = cd.canon

    def in_layer(q: int, *, layer: int) -> bool:
        level = levels[q.bit_count()]
        i = level.find(canon(q))
        return i >= 0 and level.marks[i] == layer + 1

    steps: list[list[Jump]] = []
    pos = goal_pos
    for layer in range(moves - 1, -1, -1):
        pos, move = _one_move_back(board, table, pos, partial(in_layer, layer=layer))
        steps.append(move)
    jumps = _on_start(win.problem, win.codec.group, pos, [j for move in reversed(steps) for j in move])
    assert count_moves(jumps) == moves
    return jumps


def _on_start(problem: Problem, group: tuple[int, ...], first: int, jumps: list[Jump]) -> list[Jump]:
    """``jumps``, played from ``first`` (an image of the start under ``group``: the searches start from the
    canonical start), mapped onto the start itself."""
    board, start = problem.board, problem.start
    if first == start:
        return jumps
    g = next(i for i in group if board.transform(first, i) == start)
    return board.map_jumps(jumps, g)


def _one_move_back(board, table, pos: int, before: Callable[[int], bool]) -> tuple[int, list[Jump]]:
    """A position one move before ``pos`` for which ``before`` holds, with the move's jumps."""
    stack: list[tuple[int, int, list[Jump]]] = [(pos, b, []) for b in board.pegs(pos)]
    while stack:
        p, at, chain = stack.pop()
        for over, src in table[at]:
            # undo a jump src -> at over ``over``: ``over`` and ``src`` are empty now
            if not p >> over & 1 and not p >> src & 1:
                q = p ^ ((1 << at) | (1 << over) | (1 << src))
                move = [(src, over, at), *chain]
                if before(q):
                    return q, move
                stack.append((q, src, move))
    raise AssertionError("no predecessor in the previous layer")  # pragma: no cover - layers are BFS layers
