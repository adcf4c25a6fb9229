"""The count's two sweeps at the same time on a local pool of two workers, then its combination split over them.

Used when one sweep cannot carry both sides (:mod:`.joint`: the start is not, up to a symmetry, a backward
source), e.g. a single vacancy to a single hole other than its own complement.

The forward sweep (class weights from the start, every symmetry of the goal: ``Sides.wide_codec``) and
the backward one (the complement game, ``Sides.back_codec``) each run whole in a worker
(:mod:`pyapp.exact.twosided`) down to the middle level, which each writes to the pool's exchange
folder.  The sum over the middle level (:func:`.sweep.combine_part`) is then split into ranges of the
forward level, one task each, every task reading both levels from the folder.  Each worker does
exactly what the in-process count does for its side, so the answer and the classes stored are the
same; the sides meet at :meth:`Sides.meet` (or the forced level) instead of wherever the smaller
frontier leads.
"""

from __future__ import annotations

import os
from collections.abc import Generator

from ...core.board import Board
from ...core.budget import Budget
from ...core.codec.compiled import codec
from ..setup import Sides
from ..sharded import Parallel
from ..sweep import Progress
from ..twosided import Side, load_level, sweep_sides, wait_all
from .combine import combine_part

PARTS_PER_WORKER = 2
"""Ranges of the middle level per worker in the combination (more balance a worker slowed by other jobs)."""


def both_steps(s: Sides, parallel: Parallel, budget: Budget, state: dict, meet: int
               ) -> Generator[Progress, None, int | None]:
    """Sweep both sides to ``meet`` pegs at once and combine them on ``parallel``'s pool; the number of
    solutions, or None when a side died out before the middle.  ``state`` gets the positions stored and
    the peak bytes (each side's, added: they run at the same time)."""
    pool = parallel.pool
    folder = pool.exchange_dir
    assert folder is not None
    board = s.problem.board
    fcd, bcd = s.wide_codec, s.back_codec
    back_meet = s.holes - meet
    ceiling = None if budget.max_bytes is None else budget.max_bytes // 2  # the two sides are held at once
    tag = f"count-{os.getpid()}-{id(state)}"
    jobs = [Side(board, fcd.group, {s.start: 1}, meet, True, (meet,), folder, f"{tag}-f", ceiling),
            Side(board, bcd.group, dict(s.backward), back_meet, True, (back_meet,), folder, f"{tag}-b", ceiling)]
    paths: list[str] = []
    try:
        base = state["positions"]
        fwd, bwd = yield from sweep_sides(parallel, jobs, budget, "forward and backward", state)
        paths = [*fwd["paths"].values(), *bwd["paths"].values()]
        state["positions"] = base + sum(fwd["sizes"].values()) + sum(bwd["sizes"].values())
        state["peak"] = max(state["peak"], fwd["peak"] + bwd["peak"])
        fpath, bpath = fwd["paths"].get(meet), bwd["paths"].get(back_meet)
        if not fwd["sizes"].get(meet) or not bwd["sizes"].get(back_meet) or fpath is None or bpath is None:
            return None
        n = fwd["sizes"][meet]
        lanes = [lane * fcd.holes for lane in s.coset_lanes(fcd)]
        parts = PARTS_PER_WORKER * pool.workers
        cuts = [n * i // parts for i in range(parts + 1)]
        handles = [pool.submit(combine_files, board, fcd.group, bcd.group, lanes, fpath, bpath, lo, hi)
                   for lo, hi in zip(cuts, cuts[1:])]
        sums = yield from wait_all(parallel, handles, budget, "combine", meet, state["positions"])
        return sum(sums)
    finally:
        for path in paths:
            if os.path.exists(path):
                os.remove(path)


def combine_files(board: Board, fgroup: tuple[int, ...], bgroup: tuple[int, ...], lanes: list[int], fpath: str,
                  bpath: str, lo: int, hi: int) -> int:
    """:func:`.sweep.combine_part` over the forward classes ``lo:hi`` of the middle level, both levels read
    from their files (in a worker)."""
    fkeys, fweights = load_level(fpath, True)
    bkeys, bweights = load_level(bpath, True)
    assert fweights is not None and bweights is not None
    return combine_part(codec(board, fgroup), codec(board, bgroup), lanes, fkeys, fweights, bkeys, bweights, lo, hi)
