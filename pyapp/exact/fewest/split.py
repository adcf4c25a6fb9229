"""The dynamic programme of :mod:`.dp` with each level's parents split over a local pool's workers.

A level's parents push their ``best`` and ``mask`` to the level below independently of one another: the
child's cost is the least over its parents and its mask the union over the parents achieving it.  So
the parents of a level are cut into one range per worker; each worker (:func:`push_part`) reads the two
levels' keys and the parents' costs from the pool's exchange folder (shared memory), runs the same
generated step (:func:`.dp.level_fn`) on its range into zeroed child arrays, and sends them back; the
driver merges them (least cost, masks of equal costs joined: :func:`merge_part`), which is exactly the
sequential programme's result whatever the order.  Levels with fewer than :data:`POOL_PARENTS` parents
are pushed in the driver (a task would cost more than the work).
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Generator
from functools import cache
from itertools import compress
from typing import cast

from ...core.board import Board
from ...core.budget import Budget
from ...core.codec.compiled import codec
from ..lookup import Marked
from ..sharded import Parallel
from ..sweep import Progress
from ..twosided import wait_all
from ..winnable import Winnable
from .dp import DP_CHUNK, Costs, LevelFn, least_goal, level_fn, prepared, settled

POOL_PARENTS = 20_000
"""Levels with fewer parents are pushed in the driver."""


class _Parents:
    """What the generated step reads of a parent level: its keys and marks (no index needed)."""

    __slots__ = ("keys", "marks")

    def __init__(self, keys: array, marks: bytes) -> None:
        self.keys, self.marks = keys, marks


@cache
def _step(board: Board, group: tuple[int, ...]) -> LevelFn:
    return level_fn(codec(board, group))


def _write(path: str, data: bytes) -> None:
    with open(path, "wb") as f:
        f.write(data)


def _read_keys(path: str) -> array:
    out = array("Q")
    with open(path, "rb") as f:
        out.frombytes(f.read())
    return out


def push_part(board: Board, group: tuple[int, ...], prefix: str, pegs: int, lo: int, hi: int) -> tuple[bytes, bytes]:
    """In a worker: push the parents ``lo:hi`` of level ``pegs`` (files ``prefix.K<pegs>`` for the keys,
    ``prefix.C<pegs>`` for their marks then masks) to the level below; its marks and masks as bytes."""
    keys = _read_keys(f"{prefix}.K{pegs}")
    with open(f"{prefix}.C{pegs}", "rb") as f:
        data = f.read()
    marks = data[:len(keys)]
    masks = array("Q")
    masks.frombytes(data[len(keys):])
    children = Marked(_read_keys(f"{prefix}.K{pegs - 1}"))
    child_masks = array("Q", bytes(8 * len(children)))
    parents = cast(Marked, _Parents(keys, marks))  # the step reads only these two of a parent level
    _step(board, group)(parents, masks, children, child_masks, lo, hi)
    return bytes(children.marks), child_masks.tobytes()


def merge_part(marks: bytearray, masks: array, part_marks: bytes, part_masks: array) -> None:
    """Merge one range's result into a level's: the least ``best + 1`` (0: not reached), and on equal costs the
    union of the masks."""
    for i in compress(range(len(part_marks)), part_marks):
        b, a = part_marks[i], marks[i]
        if not a or b < a:
            marks[i] = b
            masks[i] = part_masks[i]
        elif a == b:
            masks[i] |= part_masks[i]


def costs_on_pool(win: Winnable, parallel: Parallel, budget: Budget, bound: list[int]
                  ) -> Generator[Progress, None, Costs]:
    """:func:`.dp.costs_steps` with each large level's parents split over ``parallel``'s local pool."""
    pool = parallel.pool
    assert pool.exchange_dir is not None
    problem = win.problem
    levels, masks, need = prepared(win, budget)
    first, last = problem.start.bit_count(), problem.goal.final_pegs or 1
    prefix = os.path.join(pool.exchange_dir, f"dp-{os.getpid()}-{id(levels)}")
    written: list[str] = []
    step = level_fn(win.codec)
    reached = 1
    try:
        for pegs in range(first, last, -1):
            parents, children = levels[pegs], levels[pegs - 1]
            size = len(parents)
            if size < POOL_PARENTS:
                for lo in range(0, size, DP_CHUNK):
                    step(parents, masks[pegs], children, masks[pegs - 1], lo, min(size, lo + DP_CHUNK))
            else:
                for p in (pegs, pegs - 1):
                    if f"{prefix}.K{p}" not in written:
                        _write(f"{prefix}.K{p}", levels[p].keys.tobytes())
                        written.append(f"{prefix}.K{p}")
                _write(f"{prefix}.C{pegs}", bytes(parents.marks) + masks[pegs].tobytes())
                written.append(f"{prefix}.C{pegs}")
                cuts = [size * i // pool.workers for i in range(pool.workers + 1)]
                handles = [pool.submit(push_part, problem.board, win.codec.group, prefix, pegs, lo, hi)
                           for lo, hi in zip(cuts, cuts[1:])]
                for part_marks, part_masks in (yield from wait_all(parallel, handles, budget, "fewest moves",
                                                                   pegs - 1, reached)):
                    got = array("Q")
                    got.frombytes(part_masks)
                    merge_part(children.marks, masks[pegs - 1], part_marks, got)
                for path in (f"{prefix}.C{pegs}", f"{prefix}.K{pegs}"):
                    os.remove(path)
                    written.remove(path)
            reached += settled(children, bound)
            yield Progress("fewest moves", pegs - 1, size, size, len(children), reached, need, budget.elapsed())
    finally:
        for path in written:
            if os.path.exists(path):
                os.remove(path)
    return least_goal(win, levels, masks, reached)
