"""Fewest moves: a solution with the fewest moves (a move is one or more jumps by one peg).

Breadth-first search by moves.  Layer ``k`` holds the positions first reached after ``k``
moves; a position's successors are the end points of every chain of jumps one peg can
make from it.  The first layer that contains a goal position gives the minimum, and the
search is then a proof of minimality.  Positions are merged under the symmetries that
keep the goal unchanged (the number of moves still needed is the same for both).

Two devices keep the search small:

* an upper bound: a solution found first by the solver (its jumps grouped into moves);
  positions that cannot beat it are not expanded;
* an admissible lower bound on the moves still needed: a peg on a hole that is never
  jumped over (a corner) can only leave it by moving, and different pegs need different
  moves, so every such peg, except one that may stay as the survivor, costs a move.

When the time budget or the memory ceiling runs out the answer says so: a solution found
but not proven minimal (with the lower bound proven so far), or ``unknown``.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field

from ...core.budget import Budget, Progress, budget_of, drive
from ...core.codec.canonical import canonicalizer, corner_mask, jump_table
from ...core.errors import PegError
from ...core.moves import Jump, count_moves, jump_sources
from ...core.problem import Problem
from ...search.solver import search

POSITION_BYTES = 250
"""About what one position of the search costs (its canonical key and parent record, and the shortcut set)."""
DEFAULT_UPPER_SECONDS = 10.0
"""Time given to the solver for a first solution (an upper bound) when there is no overall budget."""


@dataclass
class Fewest:
    """The answer of :func:`fewest_moves`."""

    status: str
    """'solved' (``jumps`` is a solution), 'impossible' or 'unknown'."""
    moves: int = 0
    jumps: list[Jump] = field(default_factory=list)
    proven: bool = False
    """True when no solution has fewer moves (proven by exhaustive search)."""
    reason: str | None = None
    lower_bound: int = 0
    """Every solution has at least this many moves (proven)."""
    positions: int = 0
    seconds: float = 0.0


def lower_bound(problem: Problem, pos: int, corners: int) -> int:
    """Admissible bound on the moves still needed from ``pos``: corner pegs that must move."""
    goal = problem.goal
    need = goal.must_move(pos & corners)
    if need == 0 and not goal.reached(pos):
        return 1
    return need


def move_successors(board, pos: int, table) -> list[tuple[int, tuple[Jump, ...]]]:
    """Every position one move away: the end point of each chain of jumps by one peg, with its jumps."""
    out: list[tuple[int, tuple[Jump, ...]]] = []
    for s, m in jump_sources(board, pos):
        while m:
            low = m & -m
            a = low.bit_length() - 1
            m ^= low
            first = (a, a + s, a + 2 * s)
            after = pos ^ (low | (1 << (a + s)) | (1 << (a + 2 * s)))
            stack: list[tuple[int, tuple[Jump, ...]]] = [(after, (first,))]
            while stack:
                p, chain = stack.pop()
                out.append((p, chain))
                at = chain[-1][2]
                for over, to in table[at]:
                    if p >> over & 1 and not p >> to & 1:
                        stack.append((p ^ ((1 << at) | (1 << over) | (1 << to)), chain + ((at, over, to),)))
    return out


def fewest_moves(problem: Problem, *, max_seconds: float | None = None,
                 max_positions: int | None = None, upper_seconds: float | None = None,
                 budget: Budget | None = None, on_progress: Callable[[int, float], object] | None = None) -> Fewest:
    """A solution of ``problem`` with the fewest moves, proven minimal where the search completes.

    ``budget`` (or one of ``max_seconds``) bounds the whole analysis (a quarter of it goes to the
    solver for a first solution unless ``upper_seconds`` says otherwise; one node per position
    expanded); the memory ceiling (the budget's, else :data:`~pyapp.core.budget.DEFAULT_MAX_BYTES`),
    at :data:`POSITION_BYTES` a position, bounds the breadth-first search (``max_positions``
    lowers it further).  Past either, the answer says what was proven and what was not.
    ``on_progress`` is called now and then with the nodes spent so far (the first solver run's
    nodes, then one per position expanded) and the seconds spent.
    """
    relay = None if on_progress is None else (lambda p: on_progress(p.nodes, p.seconds))
    return drive(fewest_steps(problem, budget=budget_of(budget, max_seconds), max_positions=max_positions,
                              upper_seconds=upper_seconds), relay)


def fewest_steps(problem: Problem, *, budget: Budget, max_positions: int | None = None,
                 upper_seconds: float | None = None) -> Generator[Progress, None, Fewest]:
    """:func:`fewest_moves` as a step generator (see :mod:`pyapp.core.budget`)."""
    board, goal, start = problem.board, problem.goal, problem.start
    if not goal.definite:
        raise PegError("fewest moves needs a goal with a definite end (a hole, 'any' or a target), not 'min'")
    max_positions = budget.entries(max_positions, POSITION_BYTES)
    obstacle = goal.obstacle(board, start)
    if obstacle:
        return Fewest("impossible", reason=obstacle, proven=True, seconds=budget.elapsed())
    if goal.reached(start):
        return Fewest("solved", 0, [], True, None, 0, 1, budget.elapsed())
    corners = corner_mask(board)

    # An upper bound from the solver (its solution, grouped into moves).
    best: list[Jump] | None = None
    if upper_seconds is None and budget.remaining_seconds() is None:
        upper_seconds = DEFAULT_UPPER_SECONDS
    first = yield from search(problem, budget=budget.share(4, seconds=upper_seconds))
    if first.status == "impossible":
        return Fewest("impossible", reason=first.reason, proven=True, seconds=budget.elapsed())
    if first.status == "solved":
        best = list(first.jumps)
    upper = count_moves(best) if best is not None else None

    canon = canonicalizer(board, goal.symmetries(board))
    table = jump_table(board)
    # key -> (parent key, actual position, move that led here)
    seen: dict[int, tuple[int | None, int, tuple[Jump, ...]]] = {canon(start): (None, start, ())}
    raw = {start}
    final_pegs = goal.final_pegs or 1
    layer = [canon(start)]
    depth = 0
    reason = None
    while layer:
        if best is not None and depth + 1 >= count_moves(best):
            # nothing one move deeper can beat the solution in hand: it is minimal
            return _done(best, len(seen), budget)
        nxt: list[int] = []
        for n, key in enumerate(layer):
            if n & 63 == 0:
                budget.spend(64 if n else 0)
                if budget.over() or len(seen) > max_positions:
                    reason = budget.why() if budget.over() else budget.full(max_positions, POSITION_BYTES)
                    break
                if budget.report_due():
                    yield budget.progress(entries=len(seen), depth=depth, note=f"positions {depth} moves away")
                if len(raw) > 2 * max_positions:
                    raw.clear()  # only a shortcut: ``seen`` (canonical) decides what is new
            pos = seen[key][1]
            for after, chain in move_successors(board, pos, table):
                # cheap tests first: the exact position already met, the goal, the bounds; the
                # canonical form (the costly part) only for positions that survive them
                if after in raw:
                    continue
                raw.add(after)
                if goal.reached(after):
                    seen[canon(after)] = (key, after, chain)
                    return _done(_path(seen, canon(after)), len(seen), budget)
                if after.bit_count() <= final_pegs:
                    continue  # too few pegs to ever reach the goal
                if upper is not None and depth + 1 + lower_bound(problem, after, corners) >= upper:
                    continue  # cannot beat the solution in hand
                k = canon(after)
                if k in seen:
                    continue
                seen[k] = (key, after, chain)
                nxt.append(k)
        if reason:
            break
        layer = nxt
        depth += 1
    if reason is None:
        # search exhausted: the solution in hand (if any) is minimal
        if best is not None:
            return _done(best, len(seen), budget)
        return Fewest("impossible", reason=f"exhaustive search: {len(seen)} positions (by moves) and no solution",
                      proven=True, positions=len(seen), seconds=budget.elapsed())
    # every position within ``depth`` moves was generated and none is the goal
    proven_lower = max(depth + 1, lower_bound(problem, start, corners))
    if upper is not None:
        proven_lower = min(proven_lower, upper)
    if best is not None:
        if proven_lower >= count_moves(best):
            return _done(best, len(seen), budget)
        return Fewest("solved", count_moves(best), best, False,
                      f"{reason}: gave up proving minimality; every solution has at least {proven_lower} moves",
                      proven_lower, len(seen), budget.elapsed())
    return Fewest("unknown", reason=f"{reason}: gave up after proving at least {proven_lower} moves",
                  lower_bound=proven_lower, positions=len(seen), seconds=budget.elapsed())


def _path(seen: dict, key: int) -> list[Jump]:
    moves = []
    while True:
        parent, _, chain = seen[key]
        if parent is None:
            break
        moves.append(chain)
        key = parent
    return [j for chain in reversed(moves) for j in chain]


def _done(jumps: list[Jump], positions: int, budget: Budget) -> Fewest:
    """A solution proven to have the fewest moves."""
    n = count_moves(jumps)
    return Fewest("solved", n, jumps, True, None, n, positions, budget.elapsed())

