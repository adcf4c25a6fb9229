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

from collections.abc import Generator
from typing import Protocol

from ..core.board import Board
from ..core.budget import Budget, drive
from ..core.goal import stabilizer
from ..core.moves import Jump
from ..core.problem import Problem
from ..proofs.jumpcounts import hole_changes
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
"""The most positions the reachability fixings enumerate on each side (start and finish) in all when the caller
sets no other number: one more level is kept only while the total stays under it (German e1 -> e1: 9 levels a
side, 131,495 positions, about 0.3 CPU s)."""
BYTES_PER_POSITION = 100
"""About what one enumerated position costs in a Python set (a 64-bit int and its slot): how the memory
ceiling of the caller's budget bounds the positions."""
CHUNK = 4096
"""Positions expanded between two looks at the budget (a pause for progress, a cancel, the time)."""


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
    for i, (h, changes) in enumerate(zip(f.holes, hole_changes(f.jumps, f.holes), strict=True)):
        balance: dict[int, float] = {f.p[f.steps][i]: -1}
        for k, change in changes.items():  # the jumps in their order
            balance[counts[k]] = change
        start = f.problem.start >> h & 1
        m.add_row(balance, lower=-start, upper=-start)
    return counts


def level_steps(board: Board, first: list[int], forward: bool, positions: int, depth: int,
                budget: Budget | None = None) -> Generator[None, None, list[set[int]]]:
    """``first`` and the positions one, two, ... jumps on from it (``forward``) or back toward it (reverse jumps:
    pegs on ``a`` and ``b``, a hole on ``c``, from a peg on ``c`` and holes on ``a``, ``b``), level by level, for
    at most ``depth`` jumps and while the positions kept stay under ``positions`` in all.  A step generator: it
    pauses when ``budget`` says a report is due and stops (keeping the levels finished) when it is cancelled or out
    of time."""
    out = [set(first)]
    total = len(first)
    while len(out) <= depth:
        limit = positions - total
        last = list(out[-1])
        nxt: set[int] = set()
        for i in range(0, len(last), CHUNK):
            part = next_level(board, last[i:i + CHUNK], not forward, limit)
            if part is None:  # past the budget on its own
                return out
            nxt |= part
            if len(nxt) > limit:
                return out
            if budget is not None:
                if budget.cancelled or budget.out_of_time():  # its nodes count another unit of work
                    return out
                if budget.report_due():
                    yield
        if not nxt:  # no jump left
            return out
        total += len(nxt)
        out.append(nxt)
    return out


def levels(board: Board, first: list[int], forward: bool, positions: int, depth: int) -> list[set[int]]:
    """:func:`level_steps` run to the end."""
    return drive(level_steps(board, first, forward, positions, depth))


def jump_masks(board: Board, level: set[int], after: bool) -> dict[int, int]:
    """For each direction (by its shift ``s``), the bits ``a`` whose jump over ``a + s`` into ``a + 2s`` can be
    played from some position of ``level`` (``after``: leads into one, i.e. can be undone from it): one pass over
    the positions OR-ing whole-board masks, which drops each direction once all its jumps are found."""
    mask = board.mask
    found = {d.shift: 0 for d in board.directions}
    todo = [(d.shift, d.src) for d in board.directions]  # directions with jumps not found yet
    for n, p in enumerate(level, 1):
        q = mask ^ p if after else p  # a jump leads into p when it can be played backward: forward in p's complement
        e = mask ^ q
        for s, src in todo:
            if s > 0:
                found[s] |= src & q & (q >> s) & (e >> 2 * s)
            else:
                found[s] |= src & q & (q << -s) & (e << -2 * s)
        if not n & 255:
            todo = [(s, src) for s, src in todo if found[s] != src]
            if not todo:
                break
    return found


def level_fixings_steps(f: IlpFormulation, positions: int = LEVEL_POSITIONS,
                        budget: Budget | None = None) -> Generator[None, None, tuple[int, int, int]]:
    """Fix the jumps and holes the reachable positions rule out (see the module docstring), enumerating at most
    ``positions`` on each side and within ``budget`` (time, cancel, memory ceiling); returns how many jump columns
    and position columns were fixed, and how many steps the enumeration covered (both sides).  A step generator:
    it pauses while it enumerates (see :func:`level_steps`)."""
    board, m, steps, start = f.problem.board, f.model, f.steps, f.problem.start
    if budget is not None:
        positions = budget.entries(positions, BYTES_PER_POSITION)
    half = steps // 2
    fwd = yield from level_steps(board, [start], True, positions, half, budget)
    ends = [f.exact] if f.exact is not None else []
    bwd = (yield from level_steps(board, ends, False, positions, steps - half, budget)) if ends else []
    sets: dict[int, set[int]] = {t: s for t, s in enumerate(fwd)}
    side = dict.fromkeys(sets, "forward")  # how each step's set was made: one side's level or both met
    for d, s in enumerate(bwd):
        t = steps - d
        sets[t], side[t] = (sets[t] & s, "both") if t in sets else (s, "backward")
    fixed_x = fixed_p = 0
    for t in range(1, steps + 1):
        before, after = sets.get(t - 1), sets.get(t)
        if before is None and after is None:
            continue
        # A jump stays at step t when some position before it allows it and some position after it shows it.  When
        # one side's level is the other's jumps one step on (or back), one condition implies the other.
        both = side.get(t - 1), side.get(t)
        played = None if before is None or both == ("backward", "backward") else jump_masks(board, before, False)
        landed = None if after is None or both == ("forward", "forward") else jump_masks(board, after, True)
        for k, (a, b, _) in enumerate(f.jumps):
            shift = b - a
            if (played is None or played[shift] >> a & 1) and (landed is None or landed[shift] >> a & 1):
                continue
            col = f.x[t][k]
            if m.upper[col] > 0:
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


def add_level_fixings(f: IlpFormulation, positions: int = LEVEL_POSITIONS,
                      budget: Budget | None = None) -> tuple[int, int, int]:
    """:func:`level_fixings_steps` run to the end."""
    return drive(level_fixings_steps(f, positions, budget))
