"""Rows and columns that make the time-indexed integer programme (:mod:`pyapp.search.ilp`) smaller to search.

Each addition keeps at least one solution of every feasible programme, so an infeasible programme is still a
proof and a point still a solution (it is replayed before it is reported):

* **symmetry breaking** (:func:`add_symmetry_rows`): let ``G`` be the board symmetries that fix the start and
  the goal (German e1 -> e1: the mirror in column e; the English central game: all 8).  Take any solution and
  its first step ``t*`` whose jump is not fixed by every element of ``G``.  The positions before it are fixed
  by ``G`` (the start is, and so is every jump played so far), so mapping the whole solution by the ``g`` in
  ``G`` that sends that jump to the least of its images gives another solution, the same up to ``t*``, whose
  jump ``t*`` is the least of its orbit.  So the programme may require: a jump that is not the least of its
  orbit is played only after some jump not fixed by ``G``.  One continuous column per step counts the jumps not
  fixed by ``G`` so far, one row per step bounds the others by it;
* **time reversal** (:func:`add_reversal_row`): when the start is the board with only the finish's holes empty
  and the finish has one peg (German e1 -> e1), a solution played backwards is a solution too (the same jumps in
  the opposite order: :mod:`pyapp.search.formulations`).  With a weight ``w`` per jump that every element of ``G``
  keeps, the solution or its reverse has at most as much weight in its first ``T // 2`` steps as in its last;
  mapping by ``G`` keeps both sums, so one row asks for it beside the symmetry rows.  The weight is the total
  fall of the known pagodas along the jump, summed over ``G``'s images;
* **jump counts** (:func:`add_count_columns`): an integer column ``y[j]`` per jump, the number of steps that
  play it, with the balance of every hole (start + the jumps' net changes = the finish): the aggregated
  programme of Kiyomi and Matsui.  The rows follow from the per-step ones, but HiGHS can branch on the counts
  ("is this jump played at all") and derive cuts from the balances;
* **reachability fixings** (:func:`add_level_fixings`): the positions reachable in the first few jumps from the
  start (and, for an exact finish, those that reach it in its last few jumps) are enumerated within a budget;
  a jump no such position allows is fixed to 0 at that step, and a hole on which every such position agrees
  is fixed.  Every solution passes through these sets, so nothing is lost.

Pagoda rows are not added here: :class:`~pyapp.search.ilp.IlpFormulation` adds one per known pagoda and step
(the library's German resource count among them).  With an exact finish they are implied by the step rows
(a pagoda's value cannot rise along a jump, so it stays above its value at the fixed finish), and they
matter only for finishes left open ("one peg anywhere").
"""

from __future__ import annotations

from typing import Protocol

from ..core.board import Board
from ..core.goal import stabilizer
from ..core.moves import Jump
from ..core.problem import Problem
from ..proofs.lp import Model
from ..proofs.pagoda import Pagoda
from ..proofs.separation import next_level


class IlpFormulation(Protocol):
    """What these additions read of :class:`pyapp.search.ilp.IlpFormulation` (a protocol, so that this module
    does not import the one that uses it)."""

    problem: Problem
    model: Model
    steps: int
    jumps: list[Jump]
    holes: list[int]
    x: list[list[int]]
    p: list[list[int]]
    exact: int | None
    allowed: int
    pagodas: list[tuple[Pagoda, int]]

LEVEL_POSITIONS = 200_000
"""The most positions the reachability fixings enumerate on each side (start and finish) in all: one more
level is enumerated only while the total stays under it (about 2 s of CPython on the German board)."""


def symmetry_group(f: IlpFormulation) -> list[int]:
    """Indices of the board symmetries fixing the start, the exact finish (if any) and the set of allowed final
    holes: the symmetries :func:`add_symmetry_rows` may break."""
    board, problem = f.problem.board, f.problem
    out = []
    for i in stabilizer(board, problem.start):
        if f.exact is not None and board.transform(f.exact, i) != f.exact:
            continue
        if board.transform(f.allowed, i) != f.allowed:
            continue
        out.append(i)
    return out


def add_symmetry_rows(f: IlpFormulation) -> int:
    """Add the symmetry-breaking rows (see the module docstring); the number of jumps they forbid before the
    first jump not fixed by the group (0 when the group is trivial, and then nothing is added)."""
    board, m = f.problem.board, f.model
    group = [i for i in symmetry_group(f) if any(board.permutation(i)[h] != h for h in board.bits)]
    if not group:
        return 0
    index = {j: k for k, j in enumerate(f.jumps)}
    perms = [board.permutation(i) for i in group]

    def image(j: Jump, p: dict[int, int]) -> int:
        a, b, c = j
        return index[(p[a], p[b], p[c])]

    moved = [k for k, j in enumerate(f.jumps) if any(image(j, p) != k for p in perms)]
    late = [k for k in moved if min(image(f.jumps[k], p) for p in perms) < k]
    if not late:
        return 0
    count_before = None  # the column counting jumps of ``moved`` played before this step
    for t in range(1, f.steps + 1):
        xs = f.x[t]
        row: dict[int, float] = {xs[k]: 1 for k in late}
        if count_before is not None:
            row[count_before] = -1
        m.add_row(row, upper=0)
        if t < f.steps:
            now = m.add_var(0, t)
            step: dict[int, float] = {now: 1, **{xs[k]: -1 for k in moved}}
            if count_before is not None:
                step[count_before] = -1
            m.add_row(step, lower=0, upper=0)
            count_before = now
    return len(late)


def add_reversal_row(f: IlpFormulation) -> bool:
    """Add the time-reversal row (see the module docstring) when the programme is its own reverse and the
    weight is not zero on every jump; whether it was added."""
    board, problem, steps = f.problem.board, f.problem, f.steps
    if f.exact is None or f.exact.bit_count() != 1 or problem.start != board.full() ^ f.exact or steps < 2:
        return False
    perms = [board.permutation(i) for i in symmetry_group(f)] or [{h: h for h in board.bits}]

    def fall(j: Jump) -> int:
        a, b, c = j
        return sum(p.weight(a) + p.weight(b) - p.weight(c) for p, _ in f.pagodas)

    weight = [sum(fall((g[a], g[b], g[c])) for g in perms) for a, b, c in f.jumps]
    if not any(weight):
        return False
    row: dict[int, float] = {}
    for t in range(1, steps // 2 + 1):
        for k, w in enumerate(weight):
            if w:
                row[f.x[t][k]] = w
                row[f.x[steps + 1 - t][k]] = -w
    f.model.add_row(row, upper=0)
    return True


def add_count_columns(f: IlpFormulation) -> list[int]:
    """Add an integer count column per jump with its defining row and the balance of every hole (see the module
    docstring); the new columns, in :attr:`IlpFormulation.jumps` order."""
    m, steps = f.model, f.steps
    counts = []
    for k in range(len(f.jumps)):
        y = m.add_var(0, steps, integer=True)
        row: dict[int, float] = {y: 1}
        for t in range(1, steps + 1):
            row[f.x[t][k]] = -1
        m.add_row(row, lower=0, upper=0)
        counts.append(y)
    for i, h in enumerate(f.holes):
        balance: dict[int, float] = {f.p[f.steps][i]: -1}
        for k, (a, b, c) in enumerate(f.jumps):
            change = (c == h) - (a == h) - (b == h)
            if change:
                balance[counts[k]] = change
        start = f.problem.start >> h & 1
        m.add_row(balance, lower=-start, upper=-start)
    return counts


def levels(board: Board, first: list[int], forward: bool, budget: int, depth: int) -> list[set[int]]:
    """``first`` and the positions one, two, ... jumps on from it (``forward``) or back toward it (reverse jumps:
    pegs on ``a`` and ``b``, a hole on ``c``, from a peg on ``c`` and holes on ``a``, ``b``), level by level, for
    at most ``depth`` jumps and while the positions kept stay under ``budget`` in all."""
    out = [set(first)]
    total = len(first)
    while len(out) <= depth:
        nxt = next_level(board, out[-1], not forward, budget - total)
        if not nxt:  # None: past the budget; empty: no jump left
            return out
        total += len(nxt)
        out.append(nxt)
    return out


def add_level_fixings(f: IlpFormulation, budget: int = LEVEL_POSITIONS) -> tuple[int, int, int]:
    """Fix the jumps and holes the reachable positions rule out (see the module docstring); returns how many
    jump columns and position columns were fixed, and how many steps the enumeration covered (both sides)."""
    board, m, steps, start = f.problem.board, f.model, f.steps, f.problem.start
    half = steps // 2
    fwd = levels(board, [start], True, budget, half)
    ends = [f.exact] if f.exact is not None else []
    bwd = levels(board, ends, False, budget, steps - half) if ends else []
    sets: dict[int, set[int]] = {t: s for t, s in enumerate(fwd)}
    for d, s in enumerate(bwd):
        t = steps - d
        sets[t] = sets[t] & s if t in sets else s
    fixed_x = fixed_p = 0
    for t in range(1, steps + 1):
        before, after = sets.get(t - 1), sets.get(t)
        if before is None and after is None:
            continue
        for k, (a, b, c) in enumerate(f.jumps):
            takes, gives = 1 << a | 1 << b, 1 << c  # pegs before the jump; its peg after it
            ok = (before is None or any(q & takes == takes and not q & gives for q in before)) and \
                 (after is None or any(q & gives and not q & takes for q in after))
            col = f.x[t][k]
            if not ok and m.upper[col] > 0:
                m.upper[col] = 0.0
                fixed_x += 1
    for t, s in sets.items():
        if not s or t in (0, steps):
            continue
        every, some = -1, 0
        for q in s:
            every &= q
            some |= q
        for i, h in enumerate(f.holes):
            col = f.p[t][i]
            if every >> h & 1 and m.lower[col] < 1:
                m.lower[col] = 1.0
                fixed_p += 1
            elif not some >> h & 1 and m.upper[col] > 0:
                m.upper[col] = 0.0
                fixed_p += 1
    return fixed_x, fixed_p, len(fwd) - 1 + max(len(bwd) - 1, 0)
