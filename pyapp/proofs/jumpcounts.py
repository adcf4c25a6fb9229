"""The jump-count integer programme: a proof of impossibility that no pagoda function gives.

Whatever order a solution plays its jumps in, every hole ends with its peg at the start, plus the jumps into
it, minus the jumps from it and over it.  So a solution gives a whole number ``y[j] >= 0`` of plays of each
jump ``j`` (a peg from ``a`` over ``b`` into ``c``) with, for every hole ``h``,

    start(h) + sum over jumps of y[j] * ([c = h] - [a = h] - [b = h]) = finish(h)

for one of the goal's finishes (a binary choice of finish when there are several: one peg anywhere).  This is
the aggregated programme of Kiyomi and Matsui ("Integer programming based algorithms for peg solitaire
problems", Computers and Games 2000).  When HiGHS finds no such numbers, the goal is out of reach.

Its linear relaxation is the pagoda test: by Farkas' lemma, rational plays exist exactly when no pagoda
function (of any weights) is worth less at the start than at every finish.  The integrality is what it adds:
measured on the 113 jumps that never-lose left unknown at 24-31 pegs of three seeded asymmetric d5 -> d5
games (each past the pagoda programmes), it proved 19 lost, in 0.01-0.26 s each (CPython, highspy), and it
found whole numbers for every one of the 190 winnable positions beside them, as it must.  It ignores the
order of the jumps, so it cannot prove a position whose counts balance but whose jumps cannot be ordered.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from functools import lru_cache

from ..core.board import BOARD_CACHE_SIZE, Board
from ..core.moves import Jump
from .lp import Solution, solve_steps
from .lp_model import Model

SECONDS = 1.0
"""The programme's time limit (wall seconds; HiGHS settles the classic boards' programmes in 0.01-0.3 s)."""


def counts_model(board: Board, pos: int, finishes: list[int], seconds: float = SECONDS) -> Model:
    """The jump-count programme from ``pos`` to any of ``finishes`` (no objective: feasibility only)."""
    if not finishes:
        raise ValueError("no finishes to reach")
    pegs = pos.bit_count()
    template, jumps = _template(board, pegs)
    model = template.copy()
    model.time_limit = seconds
    choice = [model.add_var(0, 1, integer=True) for _ in finishes]
    model.add_row(dict.fromkeys(choice, 1.0), lower=1, upper=1)
    for i, h in enumerate(board.bits):
        row = dict(jumps[i])
        for z, f in zip(choice, finishes, strict=True):
            if f >> h & 1:
                row[z] = -1
        start = -float(pos >> h & 1)
        model.add_row(row, lower=start, upper=start)
    plays = {j: 1.0 for j in range(len(board.lines) * 2)}  # the template's columns: one per jump
    ends = {f.bit_count() for f in finishes}
    if len(ends) == 1:  # every jump takes one peg: the plays add up to the pegs removed
        removed = float(pegs - ends.pop())
        model.add_row(plays, lower=removed, upper=removed)
    return model


@lru_cache(maxsize=BOARD_CACHE_SIZE)
def _template(board: Board, pegs: int) -> tuple[Model, list[dict[int, float]]]:
    """A column per jump (both directions of each line, at most ``pegs`` plays) and, per hole in ``board.bits``
    order, its coefficients in the hole's balance row."""
    model = Model(sense="min")
    jumps = [j for a, b, c in board.lines for j in ((a, b, c), (c, b, a))]
    for _ in jumps:
        model.add_var(0, pegs, integer=True)
    return model, [{k: float(change) for k, change in row.items()} for row in hole_changes(jumps, board.bits)]


def hole_changes(jumps: Sequence[Jump], holes: Sequence[int]) -> list[dict[int, int]]:
    """Per hole (in ``holes`` order), what each jump that touches it does to its peg, by the jump's index: +1 into
    it, -1 from or over it (the coefficients of the hole's balance, here and in the time-indexed programme's
    count columns, :func:`pyapp.search.ilp_cuts.add_count_columns`)."""
    rows: dict[int, dict[int, int]] = {h: {} for h in holes}
    for k, (a, b, c) in enumerate(jumps):
        for h, change in ((a, -1), (b, -1), (c, 1)):
            rows[h][k] = change
    return [rows[h] for h in holes]


def counts_steps(board: Board, pos: int, finishes: list[int], seconds: float = SECONDS
                 ) -> Generator[None, None, Solution]:
    """Solve :func:`counts_model` (pausing only while the back end loads, and once after the programme, so a
    caller may cancel between two): ``infeasible`` is the proof."""
    sol = yield from solve_steps(counts_model(board, pos, finishes, seconds))
    yield
    return sol


def counts_reason(sol: Solution) -> str:
    """The reason an infeasible jump-count programme gives."""
    nodes = f"{sol.nodes} node{'' if sol.nodes == 1 else 's'}"
    return ("jump counts: no whole number of plays of each jump takes every hole from the start to a finish "
            f"(integer programme infeasible: {sol.backend}, {nodes}, {sol.seconds:.2f} s)")
