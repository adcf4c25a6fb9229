"""Fewest moves, proven: breadth-first search by moves over the positions that can still win.

A move is a chain of one or more jumps by one peg.  Layer ``d`` holds the positions
(canonical keys) first reached after ``d`` moves; the first layer holding the goal gives
the minimum, and since the layers before it were generated exhaustively the answer is a
proof.  Every position on a solution can still win, so the search only ever keeps
positions of the winnable set (:mod:`pyapp.exact.winnable`): a chain is cut as soon as it
leaves that set, which is what makes the English central game (18 moves: Bergholt 1912,
proved minimal by Beasley 1964) a search over 1.7 million positions instead of 23 million.

The solution is rebuilt backwards from the goal: a predecessor one move back is found by
undoing chains of jumps of one peg until a position of the previous layer turns up; the
positions met are actual ones (not canonical), so the jumps replay as they are.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field

from ..analysis._common import jump_table
from ..budget import Budget, drive
from ..moves import Jump, count_moves
from ..problem import Problem
from .chains import LayerFn, chain_layer
from .setup import Cancelled, OutOfTime, stop_if_over
from .sweep import MemoryCeiling, Progress
from .winnable import Winnable, winnable_steps


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
    winnable: int = 0
    """Size of the winnable set the search was confined to."""
    seconds: float = 0.0


def fewest_exact(problem: Problem, budget: Budget | None = None) -> ExactFewest:
    """Run :func:`fewest_steps` to the end."""
    return drive(fewest_steps(problem, budget))


def fewest_steps(problem: Problem, budget: Budget | None = None) -> Generator[Progress, None, ExactFewest]:
    """Prove the fewest moves of ``problem``; yields :class:`Progress`, returns :class:`ExactFewest`."""
    budget = budget or Budget()
    goal, start = problem.goal, problem.start
    obstacle = problem.goal.obstacle(problem.board, problem.start)
    if obstacle:
        return ExactFewest("impossible", reason=obstacle, seconds=budget.elapsed())
    if goal.reached(start):
        return ExactFewest("solved", 0, [], None, 0, 1, 0, budget.elapsed())
    depth = 0
    positions = 0
    try:
        win = yield from winnable_steps(problem, budget)
        if not win.can_win(start):
            return ExactFewest("impossible", reason="exhaustive level sweeps: no position reachable from the start "
                               "can reach the goal", winnable=len(win), seconds=budget.elapsed())
        layers: list[set[int]] = [{win.codec.canon(start)}]
        seen = set(layers[0])
        alive = [set(win.levels.get(pegs, ())) for pegs in range(len(problem.board) + 1)]
        expand = chain_layer(win.codec, goal.final_pegs or 1, goal.reached)
        while layers[-1]:
            found, nxt = yield from _layer(expand, alive, layers[-1], seen, depth, budget)
            depth += 1
            positions = len(seen)
            if found is not None:
                jumps = _rebuild(win, layers, found)
                return ExactFewest("solved", depth, jumps, None, depth, positions, len(win), budget.elapsed())
            layers.append(nxt)
        return ExactFewest("impossible", reason=f"exhaustive search by moves over {len(win):,} winnable positions "
                           "found no solution", lower_bound=depth, positions=positions, winnable=len(win),
                           seconds=budget.elapsed())
    except (Cancelled, OutOfTime, MemoryCeiling) as stop:
        return ExactFewest("unknown", reason=f"{stop}: every solution has at least {depth + 1} moves "
                           f"(searched {depth} moves deep)" if depth else str(stop), lower_bound=depth + 1,
                           positions=positions, seconds=budget.elapsed())


LAYER_CHUNK = 4096
"""Positions of a layer expanded between two progress reports."""


def _layer(expand: LayerFn, alive: list[set[int]], layer: set[int], seen: set[int], depth: int,
           budget: Budget) -> Generator[Progress, None, tuple[int | None, set[int]]]:
    """Every winnable position one move after ``layer`` not seen before; or a goal position found
    (``expand`` from :func:`.chains.chain_layer`, ``alive[pegs]`` the winnable keys with ``pegs`` pegs)."""
    keys = list(layer)
    nxt: set[int] = set()
    for lo in range(0, len(keys), LAYER_CHUNK):
        found = expand(keys[lo:lo + LAYER_CHUNK], alive, seen, nxt)
        if found is not None:
            return found, nxt
        stop_if_over(budget)
        yield Progress(f"moves {depth + 1}", depth + 1, min(len(keys), lo + LAYER_CHUNK), len(keys), len(nxt),
                       len(seen), 0, budget.elapsed())
    return None, nxt


def _rebuild(win: Winnable, layers: list[set[int]], goal_pos: int) -> list[Jump]:
    """Jumps from the start to ``goal_pos`` (one move per layer), found backwards."""
    cd = win.codec
    board = win.problem.board
    canon = cd.canon
    table = jump_table(board)
    moves: list[list[Jump]] = []
    pos = goal_pos
    for previous in reversed(layers):
        back = _one_move_back(board, table, canon, pos, previous)
        moves.append(back[1])
        pos = back[0]
    jumps = [j for move in reversed(moves) for j in move]
    start = win.problem.start
    if pos != start:  # the search started from the canonical start: map the path onto the real one
        g = next(i for i in win.codec.group if board.transform(pos, i) == start)
        image = dict(zip(board.bits, board.symmetries[g]))
        jumps = [(image[a], image[b], image[c]) for a, b, c in jumps]
    assert count_moves(jumps) == len(layers)
    return jumps


def _one_move_back(board, table, canon, pos: int, previous: set[int]) -> tuple[int, list[Jump]]:
    """A position of ``previous`` (canonical keys) one move before ``pos``, with the move's jumps."""
    stack: list[tuple[int, int, list[Jump]]] = [(pos, b, []) for b in board.pegs(pos)]
    while stack:
        p, at, chain = stack.pop()
        for over, src in table[at]:
            # undo a jump src -> at over ``over``: ``over`` and ``src`` are empty now
            if not p >> over & 1 and not p >> src & 1:
                q = p ^ ((1 << at) | (1 << over) | (1 << src))
                move = [(src, over, at), *chain]
                if canon(q) in previous:
                    return q, move
                stack.append((q, src, move))
    raise AssertionError("no predecessor in the previous layer")  # pragma: no cover - layers are BFS layers
