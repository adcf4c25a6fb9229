"""Where can the last peg be?  For a start position, every hole where one peg can remain.

Each hole gets one answer: possible (with a solution), impossible (with the reason: its
position class differs from the start's, or exhaustive search, or whatever the solver
proves, e.g. a pagoda function), or unknown when the time budget ran out.

Small boards are answered all at once by exploring every reachable position
(:mod:`pyapp.exact.reach`, :func:`exhaustive_steps`); when that is too big, each hole is asked of the solver
(:func:`solver_steps`), through the game's table of proved positions (:mod:`.proven`) that never lose and
Hint share: no position is searched twice.  The solver's holes can be spread over a pool of workers in whole
symmetry classes (:func:`split_holes`), the shares' answers merged into one (:func:`merge`).
"""

from __future__ import annotations

from collections.abc import Collection, Generator
from dataclasses import dataclass, field

from ..core.board import Board
from ..core.budget import Budget, Progress, budget_of, drive
from ..core.codec.canonical import stabilizer
from ..core.errors import PegError
from ..core.moves import Jump
from ..core.problem import Goal, Problem
from ..exact.reach import DEFAULT_MAX_POSITIONS, explore_steps
from .proven import decide_steps


@dataclass
class Finishes:
    """The answer of :func:`finishes`, keyed by hole bit."""

    possible: dict[int, list[Jump]] = field(default_factory=dict)
    """Hole -> a jump sequence ending with one peg there."""
    impossible: dict[int, str] = field(default_factory=dict)
    """Hole -> why one peg cannot end there."""
    unknown: dict[int, str] = field(default_factory=dict)
    """Hole -> why no answer was found (budget)."""
    method: str = "exhaustive"
    """'exhaustive' (every reachable position explored) or 'solver' (one search per hole)."""
    positions: int = 0
    """Reachable positions explored (canonical, symmetric ones counted once), exhaustive method only."""
    layer_sizes: list[int] = field(default_factory=list)
    """Distinct reachable positions after 0, 1, 2, ... jumps (exhaustive method only)."""
    seconds: float = 0.0


def class_reason(board: Board, start: int, hole: int) -> str | None:
    """Why the position class forbids one peg at ``hole`` from ``start`` (None if it does not)."""
    if board.position_class(start) != board.position_class(1 << hole):
        return ("position class: the start and one peg at this hole are in different position classes "
                "(rule of three)")
    return None


def finishes_steps(board: Board, start_pos: int, *, budget: Budget, max_positions: int = DEFAULT_MAX_POSITIONS,
                   holes: Collection[int] | None = None) -> Generator[Progress, None, Finishes]:
    """:func:`finishes` as a step generator (see :mod:`pyapp.core.budget`): yields progress, returns
    the answer; holes not searched when the budget is cancelled are unknown (``cancelled``).

    The exhaustive method first (:func:`exhaustive_steps`, on half the budget), the solver method
    (:func:`solver_steps`, on the rest) when the exploration is too big.

    ``holes`` (bits): search only these (a pool worker's share, :func:`split_holes`); the holes the
    position class forbids are answered too (at once, by every share), the others left out.  A share
    made of whole symmetry classes gets the answers the whole board would where the searches finish
    (each class is searched once, from its first hole; a solution may differ, as the first search
    for any single survivor may end elsewhere)."""
    out = yield from exhaustive_steps(board, start_pos, budget=budget, max_positions=max_positions, holes=holes)
    if out is None:
        out = yield from solver_steps(board, start_pos, budget=budget, holes=holes)
    return out


def _by_class(board: Board, start_pos: int, holes: Collection[int] | None) -> tuple[Finishes, list[int]]:
    """The holes the position class forbids, answered; and the wanted holes it allows (the candidates)."""
    if start_pos & ~board.mask:
        raise PegError("start position has pegs outside the board")
    out = Finishes()
    wanted = set(board.bits if holes is None else holes)
    candidates = []
    for hole in board.bits:
        reason = class_reason(board, start_pos, hole)
        if reason:
            out.impossible[hole] = reason
        elif hole in wanted:
            candidates.append(hole)
    return out, candidates


def exhaustive_steps(board: Board, start_pos: int, *, budget: Budget, max_positions: int = DEFAULT_MAX_POSITIONS,
                     holes: Collection[int] | None = None) -> Generator[Progress, None, Finishes | None]:
    """The answer when the position class or exploring every reachable position settles it (method
    ``position class`` or ``exhaustive``), or None when the exploration passed ``max_positions`` or half of
    ``budget``: then the solver method runs (:func:`solver_steps`, on what is left of ``budget``).

    This is how a start's method is decided: the exploration gives up as its layers grow past the cap,
    which no cheaper test foretells.  So a caller that spreads the solver method over a pool of workers
    runs this first, in its own process (as :func:`finishes_steps` does), and starts the pool only on None:
    one sweep answers every hole, and splitting it would only repeat it in every worker."""
    out, candidates = _by_class(board, start_pos, holes)
    if not candidates:
        out.method = "position class"
        out.seconds = budget.elapsed()
        return out
    # the exhaustive exploration gets at most half the budget; the solver fallback keeps the rest
    reach = yield from explore_steps(board, start_pos, budget=budget.share(2), max_positions=max_positions)
    if reach is None:
        return None
    out.positions = reach.positions
    out.layer_sizes = reach.layer_sizes()
    for hole in candidates:
        single = 1 << hole
        if reach.contains(single):
            out.possible[hole] = reach.history(single)
        else:
            out.impossible[hole] = (f"exhaustive search: none of the {out.positions} reachable positions "
                                    "(up to symmetry) leaves one peg here")
    out.seconds = budget.elapsed()
    return out


def solver_steps(board: Board, start_pos: int, *, budget: Budget,
                 holes: Collection[int] | None = None) -> Generator[Progress, None, Finishes]:
    """The solver method: one search per symmetry class of the holes the position class allows (``holes``:
    only these, a pool worker's share), on ``budget``; every hole unknown (``cancelled``) when the budget
    is cancelled.  What :func:`finishes_steps` runs once :func:`exhaustive_steps` gave up, and what each
    worker of a pool runs on its share (:func:`pyapp.analysis.spread.finishes_share`)."""
    out, candidates = _by_class(board, start_pos, holes)
    out.method = "solver"
    if budget.cancelled:
        out.unknown = dict.fromkeys(candidates, "cancelled")
    elif candidates:
        yield from _per_hole(board, start_pos, candidates, budget, out)
    out.seconds = budget.elapsed()
    return out


def finishes(board: Board, start_pos: int, *, max_seconds: float | None = None,
             max_positions: int = DEFAULT_MAX_POSITIONS, budget: Budget | None = None) -> Finishes:
    """Every hole where a single survivor is possible from ``start_pos``, and why the others are not
    (``budget``, or a budget of ``max_seconds``)."""
    return drive(finishes_steps(board, start_pos, budget=budget_of(budget, max_seconds),
                                max_positions=max_positions))


def hole_orbits(board: Board, start: int, holes: list[int]) -> list[list[int]]:
    """``holes`` in classes of the symmetries that fix ``start`` (each class in reading order, the
    classes by their first hole): one search answers a whole class."""
    perms = [board.permutation(i) for i in stabilizer(board, start)]
    orbits: list[list[int]] = []
    placed: set[int] = set()
    for hole in holes:
        if hole not in placed:
            orbit = sorted({p[hole] for p in perms} & set(holes), key=board.bits.index)
            orbit.remove(hole)
            orbits.append([hole, *orbit])
            placed.update(orbits[-1])
    return orbits


def split_holes(board: Board, start: int, parts: int) -> list[list[int]]:
    """The holes the position class allows from ``start``, dealt in whole symmetry classes to at most
    ``parts`` shares (one per pool worker, in reading order; none empty), each share sorted in
    reading order.  The holes the class forbids are settled at once by every share: they go nowhere."""
    allowed = [h for h in board.bits if class_reason(board, start, h) is None]
    shares: list[list[int]] = [[] for _ in range(max(1, min(parts, len(allowed))))]
    for i, orbit in enumerate(hole_orbits(board, start, allowed)):
        shares[i % len(shares)].extend(orbit)
    order = {b: i for i, b in enumerate(board.bits)}
    return [sorted(share, key=order.__getitem__) for share in shares if share]


def merge(board: Board, parts: list[Finishes]) -> Finishes:
    """One answer from the shares' answers (:func:`split_holes`): every hole as its share answered it;
    ``method`` and ``positions`` from the first share (the shares explore the same positions),
    ``seconds`` the longest share's."""
    out = Finishes()
    for part in parts:
        out.possible.update(part.possible)
        out.impossible.update(part.impossible)
        out.unknown.update(part.unknown)
    if parts:
        first = parts[0]
        out.method, out.positions, out.layer_sizes = first.method, first.positions, list(first.layer_sizes)
        out.seconds = max(p.seconds for p in parts)
    order = {b: i for i, b in enumerate(board.bits)}
    for field_ in ("possible", "impossible", "unknown"):
        setattr(out, field_, dict(sorted(getattr(out, field_).items(), key=lambda kv: order[kv[0]])))
    return out


def _per_hole(board: Board, start: int, holes: list[int], budget: Budget,
              out: Finishes) -> Generator[Progress, None, None]:
    """Ask the solver about one hole per symmetry class (symmetries fixing the start) and share
    each answer with the class; a first search for 'one peg anywhere' often settles a class at once."""
    perms = [board.permutation(i) for i in stabilizer(board, start)]
    orbits = hole_orbits(board, start, holes)

    def settle(orbit: list[int], hole: int, status: str, jumps: list[Jump], reason: str | None) -> None:
        for other in orbit:
            if status == "solved":
                p = next(p for p in perms if p[hole] == other)
                out.possible[other] = [(p[a], p[b], p[c]) for a, b, c in jumps]
            elif status == "impossible":
                out.impossible[other] = reason or "impossible"
            else:
                out.unknown[other] = reason or "budget spent"

    first = yield from decide_steps(Problem(board, start, Goal("any")), budget.share(len(orbits) + 1))
    if first.status == "solved":
        end = first.final.bit_length() - 1
        for orbit in orbits:
            if end in orbit:
                settle(orbit, end, "solved", list(first.jumps), None)
                orbits.remove(orbit)
                break
    elif first.status == "impossible":
        for orbit in orbits:
            settle(orbit, orbit[0], "impossible", [], f"no single survivor anywhere: {first.reason}")
        return
    for n, orbit in enumerate(orbits):
        left = budget.remaining_seconds()
        if budget.cancelled or left is not None and left <= 0:
            why = "cancelled" if budget.cancelled else "budget spent before this hole was searched"
            settle(orbit, orbit[0], "unknown", [], why)
            continue
        problem = Problem(board, start, Goal("hole", 1 << orbit[0]))
        result = yield from decide_steps(problem, budget.share(len(orbits) - n))
        reason = result.reason if result.status != "unknown" else f"solver gave up: {result.reason or 'budget spent'}"
        settle(orbit, orbit[0], result.status, list(result.jumps), reason)
        yield budget.progress(note=f"hole {n + 1} of {len(orbits)} (up to symmetry)")
