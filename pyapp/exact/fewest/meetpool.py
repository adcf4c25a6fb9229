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
              cap: int, folder: str, tag: str, max_bytes: int | None) -> dict:
    """In a worker: one side's costed levels (the classes costing at most ``cap``) into files
    ``folder/tag.C<pegs>``; ``{"paths": {pegs: (path, classes)}, "cpu": seconds}``.  A
    :class:`~pyapp.exact.sweep.MemoryCeiling` passes to the driver."""
    c0 = time.process_time()
    driver = os.getppid()
    cd = codec(board, group)
    steps = side_steps(cd, list(sources), last_pegs, backward, Budget(max_bytes=max_bytes),
                       "fewest moves to the goal" if backward else "fewest moves from the start", [0], [0], cap)
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
    return {"paths": paths, "cpu": time.process_time() - c0}


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


Job = tuple[tuple[int, ...], int, bool, int]
"""One side's sweep: its sources, its last pegs, whether it is the backward one, its cap."""


def sides_on_pool(parallel: Parallel, board: Board, group: tuple[int, ...], jobs: list[Job], budget: Budget
                  ) -> Generator[Progress, None, list[dict[int, CostLevel]]]:
    """The sweeps ``jobs`` of :func:`.meet.meet_steps` at once on ``parallel``'s pool; their levels, in order.
    Each may hold an equal share of the budget's memory ceiling."""
    pool = parallel.pool
    folder = pool.exchange_dir or ""
    tag = f"meet-{os.getpid()}-{id(jobs)}"
    ceiling = None if budget.max_bytes is None else budget.max_bytes // len(jobs)
    handles = [pool.submit(cost_side, board, group, sources, last, backward, cap, folder, f"{tag}-{i}", ceiling)
               for i, (sources, last, backward, cap) in enumerate(jobs)]
    stage = "fewest moves from both ends"

    def status() -> Progress:  # the first sweep's level, the classes and bytes of all
        at = [where(progress_path(folder, f"{tag}-{i}")) for i in range(len(jobs))]
        return Progress(stage, at[0][0], 0, 0, sum(a[1] for a in at), sum(a[2] for a in at), sum(a[3] for a in at),
                        budget.elapsed())

    try:
        done = yield from wait_all(parallel, handles, budget, stage, jobs[0][1], status=status)
        return [load_levels(side["paths"]) for side in done]
    finally:  # a side stopped or cancelled may have left files
        for name in os.listdir(folder) if folder else ():
            if name.startswith(tag):
                os.remove(os.path.join(folder, name))
