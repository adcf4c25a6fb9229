"""Pagoda separation of a problem's two ends: an impossibility proof stronger than one pagoda.

Every solution passes, ``k`` jumps after the start, through a position of the *forward
frontier* ``F`` (the positions the start reaches in ``k`` jumps) and, ``k`` jumps before its
end, through a position of the *backward frontier* ``B`` (the positions that reach the goal
in ``k`` jumps), the second reached from the first (at least 0 jumps apart when the solution
has ``2k`` jumps or more).  No jump increases a pagoda function (:mod:`pyapp.proofs.pagoda`), so a
pagoda worth less on every position of ``F`` than on every position of ``B`` proves the
problem impossible.  One pagoda between the start and the goal is the case ``k = 0``; a
separation at depth ``k`` is also one at every deeper depth (the children of ``F`` are worth
no more, the parents of ``B`` no less), so deeper frontiers only add power.

Why: this is the part of Kiyomi and Matsui's time-indexed integer program (one binary per
jump and step; "Integer programming based algorithms for peg solitaire problems", CG 2000)
that settles the single-vacancy Diamond 41 problems no pagoda, class test or level search
answered (e1 -> b6, e1 -> h6, e1 -> e9, d2 -> i5): measured with an external LP solver
(throwaway scripts, FINDINGS-cells2.md), the full relaxation (39 steps x 100 jumps) is
infeasible for them and so is the one keeping only the first and last step exact with
a plain jump-count system in between, whose dual is exactly a separation at depth 1.
The two problems it leaves open (Diamond 41 d2 -> f8, German e1 -> e1) keep the full
relaxation feasible too.

:func:`separate_each` does it for each finish of a one-peg-anywhere goal.

:func:`separation_steps` builds both frontiers, solves one small linear programme per depth
(HiGHS through :mod:`pyapp.proofs.lp`, one pause after each), rounds the pagoda it suggests to
integers and checks everything exactly: every jump of the board, the value of every frontier
position.  A numerical slip can lose a proof, never make a wrong one.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from dataclasses import dataclass

from ..core.board import Board
from .lp import Model, describe, solve_steps
from .pagoda import integer_pagoda, pagoda_model, peg_row

DEPTHS = (1, 2)
"""Frontier depths tried, in order (jumps after the start = jumps before the goal).  Depth 1 settles
every such Diamond 41 cell measured; depth 2 is stronger and still small (at most 13 + 13 positions
on Diamond 41's single-vacancy problems)."""

MAX_FRONTIER = 400
"""A frontier with more positions is not tried: each position is a row of the linear programme (HiGHS
solves thousands of rows in milliseconds, but building and checking them is pure Python, and depth 2
on Diamond 41 needs at most 26)."""

BOUND = 2
"""Pagoda weights lie in ``[-BOUND, BOUND]`` before rounding (as :func:`pyapp.proofs.pagoda.find_pagoda_steps`)."""


@dataclass(frozen=True)
class Separation:
    """A checked proof: ``weights`` (bit -> integer) is a pagoda worth at most ``high`` on each of the
    ``forward`` positions ``depth`` jumps after the start and at least ``low`` > ``high`` on each of the
    ``backward`` positions ``depth`` jumps before the goal."""

    depth: int
    weights: dict[int, int]
    high: int
    low: int
    forward: int
    backward: int
    programs: int
    iterations: int

    def reason(self, board: Board) -> str:
        shown = " ".join(f"{board.name_of[b]}:{w}" for b, w in sorted(self.weights.items()))
        jumps = "jump" if self.depth == 1 else "jumps"
        return (f"pagoda separation: a pagoda found by linear programming is worth at most {self.high} on each "
                f"of the {self.forward} positions {self.depth} {jumps} after the start and at least {self.low} "
                f"on each of the {self.backward} positions {self.depth} {jumps} before the goal, and no jump "
                f"raises it ({self.programs} linear program{'s' if self.programs > 1 else ''}, "
                f"{self.iterations} simplex iterations; weights {shown})")


def frontier(board: Board, pos: int, depth: int, backward: bool) -> set[int]:
    """The positions ``pos`` reaches in ``depth`` jumps (``backward``: those reaching ``pos`` in ``depth`` jumps)."""
    level = {pos}
    for _ in range(depth):
        nxt = next_level(board, level, backward)
        assert nxt is not None  # no limit
        level = nxt
    return level


def next_level(board: Board, level: Iterable[int], backward: bool, limit: int | None = None) -> set[int] | None:
    """The positions one jump on from ``level`` (``backward``: one jump back toward it); None as soon as they
    are more than ``limit``.

    Whole-board bit operations per direction (:func:`pyapp.core.moves.jump_sources`): a jump undone is a jump
    played on the complemented board (pegs on its ``a`` and ``b`` there are holes here, its hole on ``c`` a peg),
    so ``backward`` looks for jumps in the complement and flips the same three holes."""
    mask = board.mask
    ups = [(d.shift, d.src, 1 | 1 << d.shift | 1 << 2 * d.shift) for d in board.directions if d.shift > 0]
    downs = [(-d.shift, d.src, 1 | 1 << -d.shift | 1 << -2 * d.shift) for d in board.directions if d.shift < 0]
    nxt: set[int] = set()
    add = nxt.add
    for p in level:
        q = mask ^ p if backward else p  # the position whose forward jumps are taken
        e = mask ^ q
        for s, src, trio in ups:  # a peg on bit b jumps over b + s into b + 2s
            m = src & q & (q >> s) & (e >> 2 * s)
            while m:
                low = m & -m
                add(p ^ low * trio)
                m ^= low
        for k, src, trio in downs:  # a peg on bit b jumps over b - k into b - 2k
            m = src & q & (q << k) & (e << 2 * k)
            while m:
                low = m & -m
                add(p ^ (low >> 2 * k) * trio)
                m ^= low
        if limit is not None and len(nxt) > limit:
            return None
    return nxt


def separation_steps(board: Board, start: int, goal: int, depths: tuple[int, ...] = DEPTHS,
                     attempts: list[str] | None = None) -> Generator[None, None, Separation | None]:
    """A checked :class:`Separation` between ``start`` and the one position ``goal``, or None (pausing after
    each programme, and while the programmes' back end loads).

    ``attempts``, when given, receives a line per depth tried in vain (frontier sizes, what the programme
    came to) for an ``unknown`` answer's report."""
    jumps = start.bit_count() - goal.bit_count()
    iterations = 0
    for programs, depth in enumerate(depths, 1):
        if 2 * depth > jumps:
            break
        front = frontier(board, start, depth, False)
        back = frontier(board, goal, depth, True)
        if not front or not back or len(front) + len(back) > MAX_FRONTIER:
            break  # no frontier: other phases answer (no jump at all); too big: the program is out of reach
        solution = yield from solve_steps(_program(board, front, back))
        yield
        iterations += solution.iterations
        weights = None
        if solution.optimal and solution.objective is not None and solution.objective > 1e-7:
            assert solution.x is not None
            weights = integer_pagoda(board, list(solution.x[:len(board.bits)]))
        if weights is not None:
            high = max(_value(weights, p) for p in front)
            low = min(_value(weights, q) for q in back)
            if high < low:
                return Separation(depth, weights, high, low, len(front), len(back), programs, iterations)
        if attempts is not None:
            came = "no separating pagoda" if solution.status == "optimal" else describe(solution)
            attempts.append(f"{depth} jump{'s' if depth > 1 else ''} from each end: {len(front)} x {len(back)} "
                            f"positions, {came}")
    return None


def separate_each(board: Board, start: int, finishes: list[int]
                  ) -> Generator[None, None, list[tuple[int, Separation]] | None]:
    """A :class:`Separation` for every position of ``finishes`` (one-peg goal: every finish the start's class
    allows), or None as soon as one finish has none.  Every solution ends at one of them, so a proof for each
    proves the whole goal impossible (Diamond 41 e1 -> one peg anywhere: five finishes, each separated)."""
    proofs = []
    for finish in finishes:
        proof = yield from separation_steps(board, start, finish)
        if proof is None:
            return None
        proofs.append((finish, proof))
    return proofs


def each_reason(board: Board, proofs: list[tuple[int, Separation]]) -> str:
    """The ``impossible`` reason for :func:`separate_each`'s proofs, finish by finish."""
    parts = "; ".join(f"{board.name_of[f.bit_length() - 1]}: {p.reason(board)}" for f, p in proofs)
    return f"every one-peg finish the position class allows is ruled out by pagoda separation ({parts})"


def _program(board: Board, front: set[int], back: set[int]) -> Model:
    """The separation programme: pagoda weights ``P`` in ``[-BOUND, BOUND]`` (:func:`pyapp.proofs.pagoda.pagoda_model`),
    ``high >= P(F)`` for each forward position and ``low <= P(B)`` for each backward one; maximise ``low - high``.
    A positive optimum suggests a separating pagoda (the check on the rounded integer pagoda decides)."""
    model = pagoda_model(board, BOUND)
    high = model.add_var(None, None, cost=-1)
    low = model.add_var(None, None, cost=1)
    for p in sorted(front):
        row = peg_row(board, p)
        row[high] = -1
        model.add_row(row, upper=0)
    for q in sorted(back):
        row = peg_row(board, q)
        row[low] = -1
        model.add_row(row, lower=0)
    return model


def _value(weights: dict[int, int], pos: int) -> int:
    return sum(w for b, w in weights.items() if pos >> b & 1)
