"""The two ends of a problem swept at the same time, each whole in its own worker of a local pool.

The forward sweep (from the start) and the backward one (the complement game from the goal's
complement, :mod:`.setup`) never look at each other until they meet.  On a local pool of two
workers each runs unsharded in its own worker process (:func:`run_side`, the in-process
:func:`~.sweep.sweep`: no exchange between shards, so each does exactly the in-process work) while the
driver only waits, reports progress and checks the budget (:func:`sweep_sides`).  The levels a caller
keeps are written by the worker to the pool's exchange folder (shared memory where there is one) as
sorted keys (and class weights) and read back where they are needed (:func:`load_level`): by the driver,
or by further tasks on the pool.

Both sweeps must know where to stop before they start: a caller passes the levels (the in-process count
instead extends the smaller frontier first; on triangle7 vacancy 4 both meet at 14 pegs).  Used when
the pool has at most :data:`MAX_WORKERS` local workers (:func:`two_sided`); on more, the sharded sweep
(:mod:`.sharded`) divides the work further.
"""

from __future__ import annotations

import os
import sys
import time
from array import array
from collections.abc import Callable, Generator
from dataclasses import dataclass

from ..core.board import Board
from ..core.budget import Budget
from ..core.codec.compiled import codec
from .setup import stop_if_over
from .sharded import Parallel
from .shards import decode_weights, encode_weights, load_bucket, save_bucket
from .sweep import Level, Progress, sweep

MAX_WORKERS = 2
"""The most workers on which the two sides run whole, one per worker (see the module docstring)."""
SLICE_SECONDS = 0.05
"""How often the driver reports progress (and so notices a cancel or the budget) while the sides run."""


def two_sided(parallel: Parallel | None) -> bool:
    """Whether ``parallel`` runs the two sides at once: a local pool of 2 to :data:`MAX_WORKERS` workers with a
    shared exchange folder, no checkpoint and no forced shard count (those ask for the sharded sweep)."""
    if parallel is None:
        return False
    pool = parallel.pool
    return (pool.local and pool.exchange_dir is not None and 2 <= pool.workers <= MAX_WORKERS
            and parallel.checkpoint is None and parallel.shards is None)


@dataclass(frozen=True)
class Side:
    """One sweep for a worker: the board and symmetry group (the worker compiles the codec itself), the
    sources (layout positions, mapped to weights when counting), where to stop, which levels to keep."""

    board: Board
    group: tuple[int, ...]
    sources: dict[int, int] | tuple[int, ...]
    last_pegs: int
    weights: bool
    keep: tuple[int, ...]
    folder: str
    tag: str
    max_bytes: int | None = None


def run_side(side: Side) -> dict:
    """Run one side's sweep (in a worker); the kept levels go to files in ``side.folder``.

    Returns ``{"paths": {pegs: path}, "sizes": {pegs: positions}, "peak": bytes, "cpu": seconds}``;
    a :class:`~.sweep.MemoryCeiling` passes to the driver.  A side runs for minutes: if the driver dies
    meanwhile (its worker is handed to another parent), the worker stops at its next chunk."""
    c0 = time.process_time()
    driver = os.getppid()
    cd = codec(side.board, side.group)
    held = [0]
    paths: dict[int, str] = {}
    sizes: dict[int, int] = {}
    peak = 0
    sources = dict(side.sources) if side.weights else list(side.sources)  # type: ignore[arg-type]
    for item in sweep(cd, sources, side.last_pegs, weights=side.weights, stage=side.tag,
                      kept_bytes=lambda: held[0], max_bytes=side.max_bytes):
        if isinstance(item, Level):
            sizes[item.pegs] = len(item)
            if item.pegs in side.keep:
                path = os.path.join(side.folder, f"{side.tag}.L{item.pegs}")
                keys = item.keys if sys.byteorder == "little" else _swapped(item.keys)
                save_bucket(path, (keys.tobytes(), encode_weights(item.weights) if side.weights else None))
                paths[item.pegs] = path
                held[0] += item.nbytes
        else:
            peak = max(peak, item.bytes)
            report(progress_path(side.folder, side.tag), item.pegs, item.positions, sum(sizes.values()),
                   item.bytes)
            if os.getppid() != driver:  # the driver died (killed): nobody will read this side
                raise SystemExit(1)
    return {"paths": paths, "sizes": sizes, "peak": peak, "cpu": time.process_time() - c0}


def progress_path(folder: str, tag: str) -> str:
    """The file where the side ``tag`` reports where it stands."""
    return os.path.join(folder, f"{tag}.progress")


def report(path: str, pegs: int, positions: int, total: int, held: int) -> None:
    """Where a side stands, for the driver (:func:`where`): a small file replaced after each chunk."""
    with open(path + ".part", "w") as f:
        f.write(f"{pegs} {positions} {total} {held}")
    os.replace(path + ".part", path)


def where(path: str) -> tuple[int, int, int, int]:
    """``(level, positions there, positions in the levels before, bytes held)`` a side last reported in
    ``path`` (zeros before its first report)."""
    try:
        with open(path) as f:
            pegs, positions, total, held = (int(v) for v in f.read().split())
    except (OSError, ValueError):
        return 0, 0, 0, 0
    return pegs, positions, total, held


def _swapped(keys: array) -> array:  # pragma: no cover - files are little-endian everywhere
    out = array("Q", keys)
    out.byteswap()
    return out


def load_level(path: str, weights: bool) -> tuple[array, array | list | None]:
    """The sorted keys (and weights) of a level a side kept."""
    kb, wb = load_bucket(path, weights)
    keys = array("Q")
    keys.frombytes(kb)
    if sys.byteorder == "big":  # pragma: no cover
        keys.byteswap()
    return keys, (decode_weights(wb or b"", len(keys)) if weights else None)


def wait_all(parallel: Parallel, handles: list, budget: Budget, stage: str, pegs: int, total: int = 0,
             status: Callable[[], Progress] | None = None) -> Generator[Progress, None, list]:
    """Wait for the tasks ``handles`` on the pool, a :class:`Progress` every :data:`SLICE_SECONDS` (the budget
    checked each time; ``status`` makes it, else it counts the tasks done); their answers.  A budget stop, an
    error or the caller dropping the generator stops every worker at once."""
    pool = parallel.pool
    try:
        while not pool.wait(handles, SLICE_SECONDS):
            stop_if_over(budget)
            done = sum(1 for h in handles if pool.ready(h))
            yield status() if status else Progress(stage, pegs, done, len(handles), 0, total, 0, budget.elapsed())
        return [pool.result(h) for h in handles]
    except BaseException:
        if any(not pool.ready(h) for h in handles):
            pool.cancel()
        raise


def sweep_sides(parallel: Parallel, sides: list[Side], budget: Budget, stage: str, state: dict | None = None
                ) -> Generator[Progress, None, list[dict]]:
    """Run every side of ``sides`` at once on the pool (:func:`run_side`); their answers, in order.

    The progress reports add up where the sides stand (the level is the first side's); ``state["positions"]``,
    when given, follows the positions the sides have stored, so a caller stopped by its budget can say how far
    they got."""
    handles = [parallel.pool.submit(run_side, side) for side in sides]
    base = state["positions"] if state is not None else 0

    def status() -> Progress:
        at = [where(progress_path(side.folder, side.tag)) for side in sides]
        total = base + sum(a[2] for a in at)
        if state is not None:
            state["positions"] = total
        return Progress(stage, at[0][0], 0, 0, sum(a[1] for a in at), total, sum(a[3] for a in at),
                        budget.elapsed())

    try:
        return (yield from wait_all(parallel, handles, budget, stage, 0, status=status))
    finally:
        for side in sides:
            path = progress_path(side.folder, side.tag)
            if os.path.exists(path):
                os.remove(path)


def sweep_sets(parallel: Parallel, sides: list[Side], budget: Budget, stage: str
               ) -> Generator[Progress, None, list[dict[int, array]]]:
    """Run ``sides`` (reachability only) at once on the pool; each side's kept levels, read back here (their
    files removed)."""
    answers = yield from sweep_sides(parallel, sides, budget, stage)
    out: list[dict[int, array]] = []
    try:
        for answer in answers:
            out.append({pegs: load_level(path, False)[0] for pegs, path in answer["paths"].items()})
    finally:
        for answer in answers:
            for path in answer["paths"].values():
                if os.path.exists(path):
                    os.remove(path)
    return out
