"""The two move-cost sweeps of :mod:`.meet` at the same time on a local pool, each side in its own worker.

The sweep from the start and the one from the goal never look at each other until they are joined, so
on a local pool of two workers (:func:`pyapp.exact.twosided.two_sided`) each side is swept in its own
worker, cap after cap (:func:`cost_side`, the in-process :func:`.push.side_steps`, so each does exactly
the in-process work), while the driver joins whichever finishes, reports where the sides stand (a small
file each replaces after every chunk) and checks the budget (:class:`Race`).  A worker writes each costed
level to the pool's exchange folder (shared memory where there is one) as its keys, costs and masks,
native byte order (a local pool: the same machine), and the driver reads them back (:func:`load_levels`),
for the joins and the solution's rebuild.  Once the answer is decided the driver leaves a stop file
there, and a sweep still running returns at its next chunk: the pool stays usable.
"""

from __future__ import annotations

import os
import time
from array import array
from collections.abc import Generator
from contextlib import suppress
from typing import Any

from ...core.board import Board
from ...core.budget import Budget
from ...core.codec.compiled import codec
from ..setup import stop_if_over
from ..sharded import Parallel
from ..sweep import Progress
from ..twosided import SLICE_SECONDS, progress_path, report, where
from .push import CostLevel, side_steps


def cost_side(board: Board, group: tuple[int, ...], sources: tuple[int, ...], last_pegs: int, backward: bool,
              cap: int, folder: str, tag: str, max_bytes: int | None, stop: str = "") -> dict:
    """In a worker: one side's costed levels (the classes costing at most ``cap``) into files
    ``folder/tag.C<pegs>``; ``{"paths": {pegs: (path, classes)}, "cpu": seconds}``, or ``{"paths": {},
    "stopped": True}`` as soon as the file ``stop`` exists.  A :class:`~pyapp.exact.sweep.MemoryCeiling`
    passes to the driver."""
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
        if stop and os.path.exists(stop):  # the answer is decided: nobody needs this side
            return {"paths": {}, "stopped": True}
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


class Race:
    """Sweeps of :func:`cost_side` on ``parallel``'s pool, one per side at a time (``submit``), taken as they
    finish (``next``); each may hold half the budget's memory ceiling.  ``stop`` ends the ones still running."""

    def __init__(self, parallel: Parallel, board: Board, group: tuple[int, ...], budget: Budget) -> None:
        self.pool = parallel.pool
        self.board, self.group, self.budget = board, group, budget
        self.folder = self.pool.exchange_dir or ""
        self.tag = f"meet-{os.getpid()}-{id(self)}"
        self.stop_path = os.path.join(self.folder, f"{self.tag}.stop")
        self.ceiling = None if budget.max_bytes is None else budget.max_bytes // 2
        self.running: dict[int, Any] = {}

    def submit(self, side: int, sources: tuple[int, ...], last_pegs: int, backward: bool, cap: int) -> None:
        self.running[side] = self.pool.submit(cost_side, self.board, self.group, sources, last_pegs, backward, cap,
                                              self.folder, f"{self.tag}-{side}", self.ceiling, self.stop_path)

    def next(self) -> Generator[Progress, None, tuple[int, dict[int, CostLevel]]]:
        """The next sweep to finish: its side and levels; a :class:`Progress` every
        :data:`~pyapp.exact.twosided.SLICE_SECONDS` meanwhile (the budget checked each time)."""
        stage = "fewest moves from both ends"
        while True:
            for side, handle in list(self.running.items()):
                if self.pool.ready(handle):
                    del self.running[side]
                    return side, load_levels(self.pool.result(handle)["paths"])
            stop_if_over(self.budget)
            at = [where(progress_path(self.folder, f"{self.tag}-{side}")) for side in (0, 1)]
            yield Progress(stage, at[0][0], 0, 0, at[0][1] + at[1][1], at[0][2] + at[1][2], at[0][3] + at[1][3],
                           self.budget.elapsed())
            self.pool.wait(list(self.running.values())[:1], SLICE_SECONDS)

    def stop(self) -> None:
        """Stop the sweeps still running (each returns at its next chunk) and remove every file left."""
        if self.running and self.folder:
            with open(self.stop_path, "w"):
                pass
            for handle in self.running.values():
                with suppress(Exception):  # a sweep that failed meanwhile: its error no longer matters
                    self.pool.result(handle)
        self.running = {}
        for name in os.listdir(self.folder) if self.folder else ():
            if name.startswith(self.tag):
                os.remove(os.path.join(self.folder, name))
