"""The search engine: one depth-first search with pluggable goals and pruning.

``search(problem)`` is a generator: it does a slice of work (about ``slice_seconds``),
yields a :class:`Progress`, and finally returns the :class:`~pyapp.problem.Result`
(as ``StopIteration.value``).  A caller that stops iterating cancels the search, so a
web worker can report progress and stop a search without killing Pyodide.
:func:`solve` drives the generator to the end, with optional callbacks.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass

from .moves import Jump, jump_sources
from .problem import Problem, Result

DEFAULT_TABLE_CAP = 2_000_000


@dataclass(frozen=True)
class Progress:
    """A progress report: work done so far."""

    nodes: int
    entries: int
    seconds: float
    depth: int


def _impossible_by_class(problem: Problem) -> str | None:
    board, goal = problem.board, problem.goal
    if goal.kind in ("hole", "target"):
        if board.position_class(problem.start) != board.position_class(goal.target):
            return "position class: the start and the goal are in different position classes (rule of three)"
    elif goal.kind == "any":
        cls = board.position_class(problem.start)
        if not any(board.position_class(1 << b) == cls for b in board.bits):
            return "position class: no single-peg position is in the start's class (rule of three)"
    return None


def search(problem: Problem, *, seed: int | None = None, max_nodes: int | None = None,
           max_seconds: float | None = None, table_cap: int = DEFAULT_TABLE_CAP,
           slice_seconds: float = 0.05) -> Generator[Progress, None, Result]:
    """Search for a solution; yield progress about every ``slice_seconds``; return a Result."""
    t0 = time.perf_counter()
    board, goal, start = problem.board, problem.goal, problem.start
    reason = _impossible_by_class(problem)
    if reason:
        return Result("impossible", reason, final=start, seconds=time.perf_counter() - t0)
    final_pegs = goal.final_pegs
    if final_pegs is not None and start.bit_count() < final_pegs:
        return Result("impossible", "the start has fewer pegs than the goal", final=start,
                      seconds=time.perf_counter() - t0)
    rng = random.Random(seed) if seed is not None else None
    canonical = board.canonical if goal.kind in ("any", "min") else (lambda p: p)
    dead: set[int] = set()
    best_pegs = start.bit_count()
    best_line: list[Jump] = []
    nodes = 0
    truncated = False
    path: list[Jump] = []
    stack: list[list[Jump]] = [_children(board, start, rng)]
    pos = start
    next_yield = t0 + slice_seconds
    check_every = 1024
    while stack:
        kids = stack[-1]
        if not kids:
            stack.pop()
            if path:
                if len(dead) < table_cap:
                    dead.add(canonical(pos))
                else:
                    truncated = True
                a, b, c = path.pop()
                pos ^= (1 << a) | (1 << b) | (1 << c)
            continue
        j = kids.pop()
        a, b, c = j
        nxt = pos ^ ((1 << a) | (1 << b) | (1 << c))
        nodes += 1
        if canonical(nxt) in dead:
            continue
        path.append(j)
        pos = nxt
        pegs = pos.bit_count()
        if goal.kind == "min":
            if pegs < best_pegs:
                best_pegs, best_line = pegs, list(path)
                if pegs == 1:
                    break
        elif pegs == final_pegs and goal.reached(pos):
            return Result("solved", None, list(path), pos, nodes, len(dead), time.perf_counter() - t0)
        stack.append(_children(board, pos, rng) if final_pegs is None or pegs > final_pegs else [])
        if nodes % check_every == 0:
            now = time.perf_counter()
            if max_seconds is not None and now - t0 > max_seconds or max_nodes is not None and nodes >= max_nodes:
                return _budget(problem, best_line, goal.kind, nodes, len(dead), now - t0)
            if now >= next_yield:
                yield Progress(nodes, len(dead), now - t0, len(path))
                next_yield = time.perf_counter() + slice_seconds
    seconds = time.perf_counter() - t0
    if goal.kind == "min":
        final = start
        for a, b, c in best_line:
            final ^= (1 << a) | (1 << b) | (1 << c)
        status = "solved" if best_pegs == 1 or not truncated else "unknown"
        reason = None if status == "solved" else "table cap reached: minimality not proven"
        return Result(status, reason, best_line, final, nodes, len(dead), seconds)
    if truncated:
        return Result("unknown", "table cap reached: search not exhaustive", [], start, nodes, len(dead), seconds)
    return Result("impossible", f"exhaustive search: {nodes} nodes, {len(dead)} dead positions",
                  [], start, nodes, len(dead), seconds)


def _budget(problem: Problem, best: list[Jump], kind: str, nodes: int, entries: int, seconds: float) -> Result:
    return Result("unknown", "budget spent", best if kind == "min" else [], problem.start, nodes, entries, seconds)


def _children(board, pos: int, rng: random.Random | None) -> list[Jump]:
    kids = []
    for s, m in jump_sources(board, pos):
        while m:
            low = m & -m
            b = low.bit_length() - 1
            kids.append((b, b + s, b + 2 * s))
            m ^= low
    if rng is not None:
        rng.shuffle(kids)
    return kids


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
                return Result("unknown", "cancelled", [], problem.start, prog.nodes, prog.entries, prog.seconds)
    except StopIteration as stop:
        return stop.value
