"""Pagoda functions: weights on the holes that no jump can increase.

A pagoda function ``P`` gives each hole a number such that for every jump of a peg from
``a`` over ``b`` into ``c``: ``P(c) <= P(a) + P(b)``.  The value of a position (the sum
of ``P`` over its pegs) then never increases, so a position worth less than the goal can
never reach it (Berlekamp, Conway & Guy, *Winning Ways* vol. 4, ch. 23; J. D. Beasley,
*The Ins and Outs of Peg Solitaire*, 1985, ch. 4).

This module provides

* :class:`Pagoda`: a named integer pagoda on one board, checked when it is built;
* the families every board gets: the four *parity pagodas* (pegs on the holes whose row
  and column have given parities; a jump lands on the parity class it started from);
* :func:`find_pagoda`: a small linear program (pure Python simplex, result checked exactly) that looks for a
  pagoda proving a given position cannot reach a given set of finishes.  It is used to
  *learn* pagodas from dead positions met by the search (:mod:`pyapp.proofs.pagoda_library`
  keeps the ones learned for the catalogue's problems) and to explain impossibility;
* :func:`pagodas_for`: the list the solver prunes with, for a board and a goal.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import gcd, lcm
from typing import TypeVar

from ..core.board import BOARD_CACHE_SIZE, Board

_T = TypeVar("_T")


@dataclass(frozen=True)
class Pagoda:
    """An integer pagoda function on a board, as ``{bit: weight}`` (holes not listed weigh 0)."""

    name: str
    weights: tuple[tuple[int, int], ...]
    """``(bit, weight)`` pairs with non-zero weight."""
    _groups: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    """``(weight, mask of the holes with that weight)``: a pagoda has few distinct weights, so a value is a
    handful of popcounts instead of a loop over every hole (the solver checks hundreds per problem)."""

    low: int = field(init=False, repr=False, compare=False)
    """The least value a position can have (the sum of the negative weights)."""
    high: int = field(init=False, repr=False, compare=False)
    """The greatest value a position can have (the sum of the positive weights)."""

    def __post_init__(self) -> None:
        masks: dict[int, int] = {}
        for b, w in self.weights:
            masks[w] = masks.get(w, 0) | 1 << b
        object.__setattr__(self, "_groups", tuple(masks.items()))
        object.__setattr__(self, "low", sum(w for _, w in self.weights if w < 0))
        object.__setattr__(self, "high", sum(w for _, w in self.weights if w > 0))

    @property
    def has_negative(self) -> bool:
        """True when some hole weighs less than 0."""
        return self.low < 0

    def value(self, pos: int) -> int:
        """The pagoda value of a position: the sum of the weights of its pegs.

        >>> Pagoda("p", ((0, 1), (1, 2), (3, 2))).value(0b1011)
        5
        """
        return sum(w * (pos & m).bit_count() for w, m in self._groups)

    def weight(self, bit: int) -> int:
        for b, w in self.weights:
            if b == bit:
                return w
        return 0

    def as_dict(self) -> dict[int, int]:
        return dict(self.weights)


def violations(board: Board, weights: Mapping[int, float]) -> list[tuple[int, int, int]]:
    """Jumps ``(a, b, c)`` breaking ``P(c) <= P(a) + P(b)`` (empty for a true pagoda)."""
    bad = []
    get = weights.get
    for a, b, c in board.lines:
        pa, pb, pc = get(a, 0), get(b, 0), get(c, 0)
        if pc > pa + pb:
            bad.append((a, b, c))
        if pa > pc + pb:
            bad.append((c, b, a))
    return bad


def make_pagoda(board: Board, name: str, weights: dict[int, int]) -> Pagoda:
    """Build a :class:`Pagoda`, checking every jump of the board; raise ``ValueError`` if one fails."""
    bad = violations(board, weights)
    if bad:
        a, b, c = bad[0]
        raise ValueError(f"{name} is not a pagoda function on {board.id!r}: the jump "
                         f"{board.name_of[a]}-{board.name_of[c]} increases it")
    return Pagoda(name, tuple(sorted((b, int(w)) for b, w in weights.items() if w and b in board.name_of)))


@lru_cache(maxsize=BOARD_CACHE_SIZE)
def parity_pagodas(board: Board) -> tuple[Pagoda, ...]:
    """The parity pagodas: weight 1 on holes whose (row, column) parities are fixed.

    A jump moves a peg two steps along a line, so it lands on a hole with the same row and
    column parities as where it started: the number of pegs on such a class never grows.
    (On the triangular lattice's skewed coordinates the same holds for all three directions.)
    """
    out = []
    for pr in (0, 1):
        for pc in (0, 1):
            w = {bit: 1 for (r, c), bit in zip(board.cells, board.bits) if r % 2 == pr and c % 2 == pc}
            if w:
                out.append(make_pagoda(board, f"parity pagoda (rows {'odd' if pr else 'even'}, "
                                              f"columns {'odd' if pc else 'even'} from 0)", w))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# A small exact simplex (Bland's rule, fractions) for learning pagodas.
# ---------------------------------------------------------------------------------------------
DANTZIG_DEGENERATE = 50
"""Consecutive degenerate pivots after which the simplex leaves Dantzig's rule for Bland's (no cycling)."""


def _simplex_max(c: list[int], rows: list[list[int]], rhs: list[int], limit: int = 5000) -> list[float] | None:
    """Maximise ``c.x`` subject to ``rows x <= rhs`` (all rhs >= 0) and ``x >= 0`` (see :func:`_simplex_steps`)."""
    return _drive(_simplex_steps(c, rows, rhs, limit))


def _drive(gen: Generator[None, None, _T]) -> _T:
    """Run a step generator to the end and return its value."""
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value


def _simplex_steps(c: list[int], rows: list[list[int]], rhs: list[int],
                   limit: int = 5000) -> Generator[None, None, list[float] | None]:
    """Maximise ``c.x`` subject to ``rows x <= rhs`` (all rhs >= 0) and ``x >= 0``, yielding after each pivot.

    Dense tableau in floating point with a small tolerance.  The entering column is the most
    negative reduced cost (Dantzig's rule), and after :data:`DANTZIG_DEGENERATE` degenerate
    pivots in a row the first negative one (Bland's rule, which cannot cycle): measured on
    the pagoda programs of a level search (German, 60 positions each), 2-4x fewer pivots
    than Bland's rule alone, and as many pagodas found.
    Returns the optimal ``x`` or None when unbounded or over ``limit`` pivots.  Floating
    point is 10-30x faster than exact fractions here; callers round what it suggests to
    small rationals and check the result exactly (:func:`find_pagoda_steps`), so a
    numerical slip can lose a proof but never make a wrong one.  Sizes are small (a few
    hundred rows); the solver runs it between search slices, never per node.
    """
    eps = 1e-9
    n = len(c)
    m = len(rows)
    width = n + m + 1
    tab = []
    for i, row in enumerate(rows):
        t = [float(v) for v in row] + [0.0] * m + [float(rhs[i])]
        t[n + i] = 1.0
        tab.append(t)
    obj = [float(-v) for v in c] + [0.0] * (m + 1)
    basis = [n + i for i in range(m)]
    degenerate = 0
    for _ in range(limit):
        if degenerate < DANTZIG_DEGENERATE:
            low = min(obj[:-1])
            col = obj.index(low) if low < -eps else None
        else:
            col = next((j for j in range(width - 1) if obj[j] < -eps), None)
        if col is None:
            x = [0.0] * n
            for i, bv in enumerate(basis):
                if bv < n:
                    x[bv] = tab[i][-1]
            return x
        best = None
        for i in range(m):
            a = tab[i][col]
            if a > eps:
                ratio = tab[i][-1] / a
                if best is None or ratio < best[0] - eps or abs(ratio - best[0]) <= eps and basis[i] < basis[best[1]]:
                    best = (ratio, i)
        if best is None:
            return None
        r = best[1]
        degenerate = degenerate + 1 if best[0] <= eps else 0
        piv = tab[r][col]
        prow = [v / piv for v in tab[r]]
        tab[r] = prow
        nz = [(j, v) for j, v in enumerate(prow) if abs(v) > 1e-12]
        for i in range(m):
            if i != r:
                t = tab[i]
                f = t[col]
                if abs(f) > 1e-12:
                    for j, v in nz:
                        t[j] -= f * v
                    t[col] = 0.0
        f = obj[col]
        if abs(f) > 1e-12:
            for j, v in nz:
                obj[j] -= f * v
            obj[col] = 0.0
        basis[r] = col
        yield
    return None


def find_pagoda(board: Board, pos: int, finishes: list[int], *, bound: int = 2) -> dict[int, int] | None:
    """A pagoda with ``P(pos) < min(P(f) for f in finishes)``, or None (see :func:`find_pagoda_steps`)."""
    return _drive(find_pagoda_steps(board, pos, finishes, bound=bound))


def find_pagoda_steps(board: Board, pos: int, finishes: list[int], *,
                      bound: int = 2) -> Generator[None, None, dict[int, int] | None]:
    """An integer pagoda ``P`` with ``P(pos) < min(P(f) for f in finishes)``, or None (yielding while it works).

    ``finishes`` are the positions that would count as reaching the goal (one position for
    a hole or target goal; every admissible single peg for the ``any`` goal).  Solves the
    linear program "maximise ``min P(f) - P(pos)`` over pagodas with weights in
    ``[-bound, bound]``", rounds the optimal vertex to small rationals, scales it to
    integers and checks it exactly against every jump.  None means no pagoda was found
    within the bound (the position may still be dead for other reasons).
    """
    bits = list(board.bits)
    index = {b: i for i, b in enumerate(bits)}
    n = len(bits)
    # P = bound - u with u in [0, 2*bound]; s >= bound - P(f) = u(f) - ... handled as
    # t = max over finishes of (sum of u over f's pegs - (|f| - 1) * bound) ... we use single
    # variables: maximise u.pos - s  subject to  u.f - s <= (|f| - |pos|) * bound + ... ; to keep
    # rhs >= 0 we only support finishes with the same peg count k: then
    # min P(f) - P(pos) = k*bound - max u.f - |pos|*bound + u.pos  and with s >= u.f:
    # maximise u.pos - s; pagoda found when (k - |pos|) * bound + optimum > 0.
    k = finishes[0].bit_count()
    if any(f.bit_count() != k for f in finishes):
        raise ValueError("finishes must have the same number of pegs")
    nvar = n + 1
    rows, rhs = pagoda_rows(board, 1, bound)
    for f in finishes:
        row = [0] * nvar
        for b in bits:
            if f >> b & 1:
                row[index[b]] += 1
        row[n] = -1
        rows.append(row)
        rhs.append(0)
    obj = [1 if pos >> b & 1 else 0 for b in bits] + [-1]
    sol = yield from _simplex_steps(obj, rows, rhs)
    if sol is None:
        return None
    u = sol[:n]
    optimum = sum(u[i] for i, b in enumerate(bits) if pos >> b & 1) - sol[n]
    if (k - pos.bit_count()) * bound + optimum <= 1e-7:
        return None
    ints = integer_pagoda(board, u, bound)
    if ints is None:
        return None
    val = sum(w for b, w in ints.items() if pos >> b & 1)
    if val >= min(sum(w for b, w in ints.items() if f >> b & 1) for f in finishes):
        return None
    return ints


def pagoda_rows(board: Board, extra: int, bound: int) -> tuple[list[list[int]], list[int]]:
    """The rows ``rows x <= rhs`` every pagoda program shares, in the variables ``u = bound - P`` (one per
    hole, in ``board.bits`` order, then ``extra`` more columns left 0): ``P(y) <= P(x) + P(b)`` for each
    jump ``x`` over ``b`` into ``y``, i.e. ``u(x) + u(b) - u(y) <= bound``, and ``u <= 2 bound``."""
    index = {b: i for i, b in enumerate(board.bits)}
    n = len(board.bits)
    rows: list[list[int]] = []
    rhs: list[int] = []
    for a, b, c in board.lines:
        for x, y in ((a, c), (c, a)):
            row = [0] * (n + extra)
            row[index[x]] += 1
            row[index[b]] += 1
            row[index[y]] -= 1
            rows.append(row)
            rhs.append(bound)
    for i in range(n):
        row = [0] * (n + extra)
        row[i] = 1
        rows.append(row)
        rhs.append(2 * bound)
    return rows, rhs


def integer_pagoda(board: Board, u: list[float], bound: int) -> dict[int, int] | None:
    """A program's weights ``bound - u`` rounded to small rationals and scaled to coprime integers
    (``{bit: weight}``, zeros dropped), or None when the result is not a pagoda (checked on every jump)."""
    weights = [Fraction(bound - v).limit_denominator(64) for v in u]
    scale = lcm(*(w.denominator for w in weights))
    ints = [int(w * scale) for w in weights]
    g = gcd(*ints) or 1
    out = {b: w // g for b, w in zip(board.bits, ints) if w}
    return None if violations(board, out) else out


# ---------------------------------------------------------------------------------------------
# The pagodas the solver uses.
# ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=BOARD_CACHE_SIZE)
def library_pagodas(board: Board) -> tuple[Pagoda, ...]:
    """Pagodas learned for this board (catalogue boards only), each checked again here."""
    from .pagoda_library import LIBRARY

    rows = LIBRARY.get(board.id)
    if not rows or board is not _catalogue_board(board.id):
        return ()
    out = []
    for i, text in enumerate(rows):
        values = [int(v) for v in text.split()]
        if len(values) != len(board.bits):
            continue
        out.append(make_pagoda(board, f"learned pagoda {board.id}#{i + 1}", dict(zip(board.bits, values))))
    return tuple(out)


def _catalogue_board(board_id: str) -> Board | None:
    from ..core.catalogue import CATALOGUE, get_board

    return get_board(board_id) if board_id in CATALOGUE else None


@lru_cache(maxsize=BOARD_CACHE_SIZE)
def known_weights(board: Board) -> tuple[tuple[Pagoda, ...], dict[int, int], dict[int, list[int]]]:
    """The board's known pagodas (parity, then library: what :func:`pagodas_for` chooses from), their
    positions by ``id``, and each hole's weights in all of them (holes of weight 0 everywhere left out).
    A goal hole's thresholds are then one row, and the solver's tables pick their lanes from these rows."""
    known = (*parity_pagodas(board), *library_pagodas(board))
    rows: dict[int, list[int]] = {}
    for k, p in enumerate(known):
        for b, w in p.weights:
            row = rows.get(b)
            if row is None:
                row = rows[b] = [0] * len(known)
            row[k] = w
    return known, {id(p): k for k, p in enumerate(known)}, rows


def pagodas_for(board: Board, finishes: list[int]) -> list[tuple[Pagoda, int]]:
    """``(pagoda, threshold)`` pairs useful for reaching one of ``finishes``.

    A position whose value is below a threshold cannot reach any finish.  Only pagodas
    with a positive threshold can ever prune (their values on far-off pegs are what the
    goal needs), so the others are dropped.
    """
    if not finishes:
        return []
    known, _, rows = known_weights(board)
    if all(f & (f - 1) == 0 for f in finishes):  # single holes: a finish's value is its hole's weight
        none = [0] * len(known)
        columns = [rows.get(f.bit_length() - 1, none) for f in finishes]
        thresholds = columns[0] if len(columns) == 1 else [min(c) for c in zip(*columns)]
    else:
        thresholds = [min(p.value(f) for f in finishes) for p in known]
    return [(p, t) for p, t in zip(known, thresholds) if t > 0 or p.has_negative]


def pagoda_proof(board: Board, start: int, finishes: list[int]) -> str | None:
    """A reason the start cannot reach any finish by a pagoda argument, or None.

    Tries the board's known pagodas first, then asks the linear program for one.
    """
    if not finishes:
        return None
    for p, t in pagodas_for(board, finishes):
        v = p.value(start)
        if v < t:
            return f"pagoda function: {p.name} is worth {v} at the start but at least {t} at the goal"
    if len(board.bits) <= 64:
        w = find_pagoda(board, start, finishes)
        if w is not None:
            v = sum(x for b, x in w.items() if start >> b & 1)
            t = min(sum(x for b, x in w.items() if f >> b & 1) for f in finishes)
            shown = ", ".join(f"{board.name_of[b]}:{x}" for b, x in sorted(w.items(), key=lambda kv: kv[0]))
            return (f"pagoda function: a pagoda found by linear programming ({shown}) is worth {v} "
                    f"at the start but {t} at the goal")
    return None
