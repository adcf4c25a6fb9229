"""The two move-cost sweeps of :mod:`.meet` at the same time, each whole in its own worker of a local pool.

The sweep from the start and the one from the goal never look at each other until the middle level,
so on a local pool of two workers (:func:`pyapp.exact.twosided.two_sided`) each runs in its own worker
(:func:`cost_side`, the in-process :func:`.push.side_steps`, so each does exactly the in-process work)
while the driver waits, reports where the sides stand (a small file each replaces after every chunk) and
checks the budget.  A worker writes each costed level to the pool's
exchange folder (shared memory where there is one) as its keys, costs and masks, native byte order (a
local pool: the same machine), and the driver reads them back (:func:`load_levels`), for the join at
the middle and the solution's rebuild.
"""

from __future__ import annotations

import os
import time
from array import array
from collections.abc import Generator

from ...core.board import Board
from ...core.budget import Budget
from ...core.codec.compiled import codec
from ..sharded import Parallel
from ..sweep import Progress
from ..twosided import progress_path, report, wait_all, where
from .push import CostLevel, side_steps


def cost_side(board: Board, group: tuple[int, ...], sources: tuple[int, ...], last_pegs: int, backward: bool,
              folder: str, tag: str, max_bytes: int | None) -> dict:
    """In a worker: one side's costed levels into files ``folder/tag.C<pegs>``; ``{"paths": {pegs: (path,
    classes)}, "bound": proven lower bound on the moves, "cpu": seconds}``.  A
    :class:`~pyapp.exact.sweep.MemoryCeiling` passes to the driver."""
    c0 = time.process_time()
    driver = os.getppid()
    cd = codec(board, group)
    bound = [0]
    steps = side_steps(cd, list(sources), last_pegs, backward, Budget(max_bytes=max_bytes),
                       "fewest moves to the goal" if backward else "fewest moves from the start", [0], bound)
    while True:
        try:
            item = next(steps)
        except StopIteration as done:
            levels: dict[int, CostLevel] = done.value
            break
        report(progress_path(folder, tag), item.pegs, item.positions, item.total, item.bytes)
        if os.getppid() != driver:  # the driver died (killed): nobody will read this side
            raise SystemExit(1)
    paths: dict[int, tuple[str, int]] = {}
    for pegs, level in levels.items():
        path = os.path.join(folder, f"{tag}.C{pegs}")
        with open(path, "wb") as f:
            f.write(level.keys.tobytes())
            f.write(level.costs.tobytes())
            f.write(level.masks.tobytes())
        paths[pegs] = (path, len(level.keys))
    return {"paths": paths, "bound": bound[0], "cpu": time.process_time() - c0}


def load_levels(paths: dict[int, tuple[str, int]]) -> dict[int, CostLevel]:
    """The levels a worker wrote (:func:`cost_side`), read back; their files removed."""
    out: dict[int, CostLevel] = {}
    for pegs, (path, size) in paths.items():
        with open(path, "rb") as f:
            data = f.read()
        os.remove(path)
        keys, costs, masks = array("Q"), array("B"), array("Q")
        keys.frombytes(data[:8 * size])
        costs.frombytes(data[8 * size:9 * size])
        masks.frombytes(data[9 * size:])
        out[pegs] = CostLevel(keys, costs, masks)
    return out


def sides_on_pool(parallel: Parallel, board: Board, group: tuple[int, ...], start: int, sources: list[int],
                  middle: int, budget: Budget, bound: list[int]
                  ) -> Generator[Progress, None, tuple[dict[int, CostLevel], dict[int, CostLevel]]]:
    """Both sides of :func:`.meet.meet_steps` at once on ``parallel``'s pool (``middle``: the pegs where they
    meet); their levels.  Each side may hold half the budget's memory ceiling."""
    pool = parallel.pool
    folder = pool.exchange_dir or ""
    tag = f"meet-{os.getpid()}-{id(bound)}"
    ceiling = None if budget.max_bytes is None else budget.max_bytes // 2
    handles = [pool.submit(cost_side, board, group, (start,), middle, False, folder, f"{tag}-f", ceiling),
               pool.submit(cost_side, board, group, tuple(sources), len(board) - middle, True, folder, f"{tag}-b",
                           ceiling)]
    def status() -> Progress:  # the forward side's level, the classes and bytes of both
        at = [where(progress_path(folder, f"{tag}-{end}")) for end in "fb"]
        return Progress("fewest moves from both ends", at[0][0], 0, 0, at[0][1] + at[1][1], at[0][2] + at[1][2],
                        at[0][3] + at[1][3], budget.elapsed())

    try:
        ahead, back = yield from wait_all(parallel, handles, budget, "fewest moves from both ends", middle,
                                          status=status)
        bound[0] = max(bound[0], ahead["bound"], back["bound"])
        return load_levels(ahead["paths"]), load_levels(back["paths"])
    finally:  # a side stopped or cancelled may have left files
        for name in os.listdir(folder) if folder else ():
            if name.startswith(tag):
                os.remove(os.path.join(folder, name))
