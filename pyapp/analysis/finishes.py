"""Where can the last peg be?  For a start position, every hole where one peg can remain.

Each hole gets one answer: possible (with a solution), impossible (with the reason: its
position class differs from the start's, or exhaustive search, or whatever the solver
proves, e.g. a pagoda function), or unknown when the time budget ran out.

Small boards are answered all at once by exploring every reachable position
(:mod:`pyapp.analysis.reach`); when that is too big, each hole is asked of the solver.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..board import Board
from ..errors import PegError
from ..moves import Jump
from ..problem import Goal, Problem
from ..solver import solve
from ._common import Deadline, stabilizer
from .reach import DEFAULT_MAX_POSITIONS, explore


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


def finishes(board: Board, start_pos: int, *, max_seconds: float | None = None,
             max_positions: int = DEFAULT_MAX_POSITIONS) -> Finishes:
    """Every hole where a single survivor is possible from ``start_pos``, and why the others are not."""
    deadline = Deadline(max_seconds)
    out = Finishes()
    if start_pos & ~board.mask:
        raise PegError("start position has pegs outside the board")
    candidates = []
    for hole in board.bits:
        reason = class_reason(board, start_pos, hole)
        if reason:
            out.impossible[hole] = reason
        else:
            candidates.append(hole)
    if not candidates:
        out.method = "position class"
        out.seconds = deadline.elapsed()
        return out
    # the exhaustive exploration gets at most half the budget; the solver fallback keeps the rest
    left = deadline.remaining()
    reach = explore(board, start_pos, deadline=Deadline(None if left is None else left / 2),
                    max_positions=max_positions)
    if reach is not None:
        out.positions = reach.positions
        out.layer_sizes = reach.layer_sizes()
        for hole in candidates:
            single = 1 << hole
            if reach.contains(single):
                out.possible[hole] = reach.history(single)
            else:
                out.impossible[hole] = (f"exhaustive search: none of the {out.positions} reachable positions "
                                        "(up to symmetry) leaves one peg here")
        out.seconds = deadline.elapsed()
        return out
    out.method = "solver"
    _per_hole(board, start_pos, candidates, deadline, out)
    out.seconds = deadline.elapsed()
    return out


def _per_hole(board: Board, start: int, holes: list[int], deadline: Deadline, out: Finishes) -> None:
    """Ask the solver about one hole per symmetry class (symmetries fixing the start) and share
    each answer with the class; a first search for 'one peg anywhere' often settles a class at once."""
    perms = [dict(zip(board.bits, board.symmetries[i])) for i in stabilizer(board, start)]
    orbits: list[list[int]] = []
    placed: set[int] = set()
    for hole in holes:
        if hole not in placed:
            orbit = sorted({p[hole] for p in perms} & set(holes), key=board.bits.index)
            orbit.remove(hole)
            orbits.append([hole, *orbit])
            placed.update(orbits[-1])

    def settle(orbit: list[int], hole: int, status: str, jumps: list[Jump], reason: str | None) -> None:
        for other in orbit:
            if status == "solved":
                p = next(p for p in perms if p[hole] == other)
                out.possible[other] = [(p[a], p[b], p[c]) for a, b, c in jumps]
            elif status == "impossible":
                out.impossible[other] = reason or "impossible"
            else:
                out.unknown[other] = reason or "budget spent"

    first = solve(Problem(board, start, Goal("any")), max_seconds=_share(deadline, len(orbits) + 1))
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
        left = deadline.remaining()
        if left is not None and left <= 0:
            settle(orbit, orbit[0], "unknown", [], "budget spent before this hole was searched")
            continue
        problem = Problem(board, start, Goal("hole", 1 << orbit[0]))
        result = solve(problem, max_seconds=_share(deadline, len(orbits) - n))
        reason = result.reason if result.status != "unknown" else f"solver gave up: {result.reason or 'budget spent'}"
        settle(orbit, orbit[0], result.status, list(result.jumps), reason)


def _share(deadline: Deadline, parts: int) -> float | None:
    left = deadline.remaining()
    return None if left is None else max(left / max(parts, 1), 0.005)
