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
* :func:`find_pagoda`: a small linear programme (solved by HiGHS through :mod:`.lp`, the result checked
  exactly) that looks for a pagoda proving a given position cannot reach a given set of finishes.  It is used to
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
from .lp import Model, Solution, solve_steps

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
# Pagodas found by linear programming (HiGHS through :mod:`.lp`), checked exactly.
# ---------------------------------------------------------------------------------------------
def _drive(gen: Generator[None, None, _T]) -> _T:
    """Run a step generator to the end and return its value."""
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value


def find_pagoda(board: Board, pos: int, finishes: list[int], *, bound: int = 2) -> dict[int, int] | None:
    """A pagoda with ``P(pos) < min(P(f) for f in finishes)``, or None (see :func:`find_pagoda_steps`; a
    back end still loading is not waited for: None)."""
    return _drive(find_pagoda_steps(board, pos, finishes, bound=bound, wait=False))


def find_pagoda_steps(board: Board, pos: int, finishes: list[int], *, bound: int = 2,
                      solutions: list[Solution] | None = None,
                      wait: bool = True) -> Generator[None, None, dict[int, int] | None]:
    """An integer pagoda ``P`` with ``P(pos) < min(P(f) for f in finishes)``, or None (pausing only while
    the programme's back end loads).

    ``finishes`` are the positions that would count as reaching the goal (one position for
    a hole or target goal; every admissible single peg for the ``any`` goal).  Solves the
    linear programme "maximise ``t - P(pos)`` with ``t <= P(f)`` for every finish, over pagodas with
    weights in ``[-bound, bound]``", rounds the optimal vertex to small rationals, scales it to
    integers and checks it exactly against every jump and every finish.  None means no pagoda was
    found within the bound (the position may still be dead for other reasons), or the back end gave
    no answer; ``solutions``, when given, receives the back end's :class:`~.lp.Solution`.
    """
    if not finishes:
        raise ValueError("no finishes to separate from")
    model = pagoda_model(board, bound)
    n = len(board.bits)
    t = model.add_var(None, None, cost=1)
    for f in finishes:
        row = peg_row(board, f)
        row[t] = -1
        model.add_row(row, lower=0)
    for j, b in enumerate(board.bits):
        if pos >> b & 1:
            model.cost[j] = -1
    sol = yield from solve_steps(model, wait=wait)
    yield  # one pause after each programme: a caller may cancel between two
    if solutions is not None:
        solutions.append(sol)
    if not sol.optimal or sol.objective is None or sol.objective <= 1e-7:
        return None
    assert sol.x is not None
    ints = integer_pagoda(board, list(sol.x[:n]))
    if ints is None:
        return None
    val = sum(w for b, w in ints.items() if pos >> b & 1)
    if val >= min(sum(w for b, w in ints.items() if f >> b & 1) for f in finishes):
        return None
    return ints


def pagoda_model(board: Board, bound: int) -> Model:
    """The programme every pagoda search shares: one column per hole (``board.bits`` order), the weight
    ``P`` in ``[-bound, bound]``, and ``P(y) - P(x) - P(b) <= 0`` for each jump ``x`` over ``b`` into
    ``y``; no objective yet (maximised: callers add theirs).  A fresh copy of a template kept per board."""
    return _pagoda_template(board, bound).copy()


@lru_cache(maxsize=BOARD_CACHE_SIZE)
def _pagoda_template(board: Board, bound: int) -> Model:
    model = Model(sense="max")
    index = {b: model.add_var(-bound, bound) for b in board.bits}
    for a, b, c in board.lines:
        for x, y in ((a, c), (c, a)):
            model.add_row({index[y]: 1, index[x]: -1, index[b]: -1}, upper=0)
    return model


def peg_row(board: Board, pos: int) -> dict[int, float]:
    """A row with 1 on the columns of ``pos``'s pegs (columns in ``board.bits`` order)."""
    return {j: 1 for j, b in enumerate(board.bits) if pos >> b & 1}


def integer_pagoda(board: Board, weights: list[float]) -> dict[int, int] | None:
    """A programme's weights (in ``board.bits`` order) rounded to small rationals and scaled to coprime
    integers (``{bit: weight}``, zeros dropped), or None when the result is not a pagoda (checked on every
    jump)."""
    fractions = [Fraction(v).limit_denominator(64) for v in weights]
    scale = lcm(*(w.denominator for w in fractions))
    ints = [int(w * scale) for w in fractions]
    g = gcd(*ints) or 1
    out = {b: w // g for b, w in zip(board.bits, ints) if w}
    return None if violations(board, out) else out


# ---------------------------------------------------------------------------------------------
# The pagodas the solver uses.
# ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=BOARD_CACHE_SIZE)
def library_pagodas(board: Board) -> tuple[Pagoda, ...]:
    """Pagodas learned or entered for this board (catalogue boards only), each checked again here."""
    from .pagoda_library import LIBRARY

    rows = LIBRARY.get(board.id)
    if not rows or board is not _catalogue_board(board.id):
        return ()
    out = []
    for i, text in enumerate(rows):
        name, _, numbers = text.rpartition(":")
        values = [int(v) for v in numbers.split()]
        if len(values) != len(board.bits):
            continue
        out.append(make_pagoda(board, name.strip() or f"learned pagoda {board.id}#{i + 1}",
                               dict(zip(board.bits, values))))
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
