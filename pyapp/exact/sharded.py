"""The level sweep of :mod:`pyapp.exact.sweep`, split into shards and run on a :class:`~.pool.Pool`.

:func:`sharded_sweep` takes the same arguments and yields the same :class:`~.sweep.Progress` and
:class:`~.sweep.Level` items as :func:`~.sweep.sweep`, so every exact analysis runs on it unchanged
(:class:`Parallel` is what they are handed).  Per level it submits one :func:`~.shardstep.step` per
shard (merge the buckets sent to the shard, expand it, bucket the children by their shard), waits
in slices of :data:`SLICE_SECONDS` (a progress report each, so a budget or Ctrl+C stops every worker
at once), then routes bucket ``j`` of every step to shard ``j``'s next step.  Levels the caller keeps
(``keep``) are gathered and sorted; the others come as sizes, gathered only if :meth:`Level.load` is
called (until the sweep's next level is done: a local pool leaves them in shared memory till then).  Sizes and
keys are the same as :func:`~.sweep.sweep`'s whatever the back end or shard count.  A complement count hands
a :class:`Pairing` instead: the steps of its two middle levels also sum the count (:mod:`.pairs`), and no
level is gathered, sorted or shelved.

Faults and memory:

* ``checkpoint``: a :class:`Checkpoint` folder.  Each shard of each finished level is written by the
  worker that merged it, then the level is recorded in ``manifest.json`` (atomically).  A run killed
  at any moment, even by SIGKILL, resumes from its last recorded level: the finished levels are read
  back from disk and the sweep goes on from there, with the same shard count;
* memory: on a local pool the buckets of a level pass through this process; when holding them would
  pass the caller's ceiling (``max_bytes``), the workers write them to files in the checkpoint (or a
  temporary) folder instead and only paths come back (spilled); a Dask cluster keeps its data on the
  workers, which spill to disk by Dask's own memory settings.
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import json
import os
import shutil
import sys
import tempfile
import time
from array import array
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial

from ..core.codec.compiled import Codec
from ..core.errors import PegError
from .pool import InProcess, Pool
from .processes import Processes
from .shards import Spec, decode_weights, first_buckets, load_bucket
from .shardstep import step
from .sweep import Level, MemoryCeiling, Progress, sweep, weights_array

SLICE_SECONDS = 0.05
"""How often the driver reports progress (and so notices a cancel) while the shards run."""


@dataclass
class LevelStats:
    """What one level cost: for the scaling model (``bench --parallel``)."""

    stage: str
    pegs: int
    positions: int
    seconds: float
    shard_seconds: list[float]
    shard_cpu: list[float]
    bytes_exchanged: int
    spilled: bool

    def as_dict(self) -> dict:
        return {"stage": self.stage, "pegs": self.pegs, "positions": self.positions,
                "seconds": round(self.seconds, 4), "shard_seconds": [round(t, 4) for t in self.shard_seconds],
                "shard_cpu": [round(t, 4) for t in self.shard_cpu],
                "bytes": self.bytes_exchanged, "spilled": self.spilled}


class Checkpoint:
    """A folder of finished levels: ``manifest.json`` and one file per shard of each level of each sweep."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "manifest.json")
        self.manifest: dict = {"version": 1, "sweeps": {}}
        if os.path.exists(path):
            with open(path) as f:
                self.manifest = json.load(f)

    def sweep_dir(self, sweep_id: str) -> str:
        d = os.path.join(self.folder, sweep_id)
        os.makedirs(d, exist_ok=True)
        return d

    def finished(self, sweep_id: str) -> dict:
        """``{"shards": S, "levels": {pegs: size}}`` of a sweep (empty levels if none is recorded)."""
        return self.manifest["sweeps"].get(sweep_id, {"shards": None, "levels": {}})

    def record(self, sweep_id: str, shards: int, pegs: int, size: int) -> None:
        entry = self.manifest["sweeps"].setdefault(sweep_id, {"shards": shards, "levels": {}})
        entry["levels"][str(pegs)] = size
        path = os.path.join(self.folder, "manifest.json")
        with open(path + ".part", "w") as f:
            json.dump(self.manifest, f)
        os.replace(path + ".part", path)

    def shard_path(self, sweep_id: str, pegs: int, j: int) -> str:
        return os.path.join(self.sweep_dir(sweep_id), f"L{pegs}.s{j}")


@dataclass
class Pairing:
    """The final combination of a one-sweep count run by the sweep's own steps (:mod:`.pairs`): the step of
    each shard of level ``emit`` sends its pairs to level ``settle`` (the sweep's last level), whose steps sum
    them: ``emit - 1``'s own steps, or when ``settle == emit`` one more step per shard once the level is done;
    ``total`` is their sum then.  No level is kept or gathered.  ``joint``: :attr:`.shards.Spec.joint` (None for
    a complement count)."""

    emit: int
    settle: int
    total: int | None = None
    joint: tuple[tuple[int, ...], int, int] | None = None


@dataclass
class Parallel:
    """How the exact analyses sweep: on ``pool``, with an optional checkpoint folder and shard count."""

    pool: Pool
    checkpoint: Checkpoint | None = None
    shards: int | None = None
    stats: list[LevelStats] = field(default_factory=list)

    def sweep(self, cd: Codec, sources, last_pegs: int, *, weights: bool, stage: str = "sweep",
              kept_bytes: Callable[[], int] = lambda: 0, max_bytes: int | None = None,
              keep: Callable[[int], bool] = lambda pegs: True, pairing: Pairing | None = None,
              ) -> Iterator[Progress | Level]:
        return sharded_sweep(self, cd, sources, last_pegs, weights=weights, stage=stage, kept_bytes=kept_bytes,
                             max_bytes=max_bytes, keep=keep, pairing=pairing)


def sweeper(parallel: Parallel | None):
    """The sweep function to use: the sharded one on ``parallel``, else the in-process :func:`~.sweep.sweep`
    (today's code path: ``keep`` is ignored, every level comes with its keys)."""
    if parallel is not None:
        return parallel.sweep

    def plain(cd, sources, last_pegs, *, keep=None, **kw):
        return sweep(cd, sources, last_pegs, **kw)
    return plain


def _sweep_id(stage: str, spec: Spec, sources: dict[int, int] | list[int], last_pegs: int) -> str:
    digest = hashlib.sha256(repr((spec.board.key, spec.group, spec.weights, last_pegs,
                                  sorted(sources.items() if isinstance(sources, dict) else sources)))
                            .encode()).hexdigest()[:16]
    return f"{stage.replace(' ', '-')}-{digest}"


def _gather(pool: Pool, handles: list, weights: bool) -> tuple[array, array | list | None]:
    """The whole level from its shards: sorted keys (and weights in the same order)."""
    return _assemble([pool.result(pool.part(h, "kept")) for h in handles], weights)


MERGE_KEYS = 16_000_000
"""Past this many keys a level without weights is gathered by merging its sorted shards (:func:`_merged`) instead
of sorting them together: the sort holds every key as a Python int (about 40 bytes each: 7.4 GB for a level of
185 million) where the merge holds 8 bytes a key, at 2.4x the time (8 million keys in 8 shards: 3.4 against 1.4 CPU
s, 16 against 398 MB more, CPython)."""


def _merged(parts: list) -> array:
    """The kept shards' keys (each shard sorted, the shards disjoint) merged into one sorted array."""
    shards = []
    for kb, _ in parts:
        shard = array("Q")
        shard.frombytes(kb)
        if sys.byteorder == "big":  # pragma: no cover
            shard.byteswap()
        shards.append(shard)
    return array("Q", heapq.merge(*shards))


def _assemble(parts: list, weights: bool) -> tuple[array, array | list | None]:
    """Sorted keys (and weights) from the kept shards: disjoint, each sorted by the worker that kept it, so
    the sort only merges their runs, and the weights follow through one dict built at C speed."""
    if not weights and sum(len(kb) for kb, _ in parts) > 8 * MERGE_KEYS:
        return _merged(parts), None
    keys = array("Q")
    for kb, _ in parts:
        keys.frombytes(kb)
    if sys.byteorder == "big":  # pragma: no cover - the buckets are little-endian
        keys.byteswap()
    ordered = sorted(keys)
    if not weights:
        return array("Q", ordered), None
    acc: dict[int, int] = {}
    for kb, wb in parts:
        shard = array("Q")
        shard.frombytes(kb)
        if sys.byteorder == "big":  # pragma: no cover
            shard.byteswap()
        acc.update(zip(shard, decode_weights(wb or b"", len(shard)), strict=True))
    return array("Q", ordered), weights_array(list(map(acc.__getitem__, ordered)))


def sharded_sweep(par: Parallel, cd: Codec, sources: dict[int, int] | Iterable[int], last_pegs: int, *,
                  weights: bool, stage: str = "sweep", kept_bytes: Callable[[], int] = lambda: 0,
                  max_bytes: int | None = None, keep: Callable[[int], bool] = lambda pegs: True,
                  pairing: Pairing | None = None) -> Iterator[Progress | Level]:
    """Sweep down from ``sources`` to ``last_pegs`` on ``par.pool`` (see the module docstring).  With
    ``pairing`` (a counting sweep without a checkpoint, ``pairing.settle == last_pegs``) the steps also
    run the final combination and every level comes as its size only (``keep`` is ignored: nothing is
    gathered, sorted or shelved)."""
    if pairing is not None and (par.checkpoint or not weights or pairing.settle != last_pegs
                                or pairing.emit not in (pairing.settle, pairing.settle + 1)):
        raise ValueError("pairing needs a counting sweep without a checkpoint that ends at emit or one level below")
    t0 = time.perf_counter()
    pool, ck = par.pool, par.checkpoint
    src: dict[int, int] | list[int] = dict(sources) if weights else list(sources)  # type: ignore[arg-type]
    pegs_set = {p.bit_count() for p in src}
    if len(pegs_set) != 1:
        raise ValueError(f"sweep sources must all have the same number of pegs, not {sorted(pegs_set)}")
    pegs = pegs_set.pop()
    shards = par.shards or pool.shards_per_worker * pool.workers
    spec = Spec(cd.board, cd.group, weights, shards, pairing.joint if pairing else None)
    sweep_id = _sweep_id(stage, spec, src, last_pegs)
    done = ck.finished(sweep_id) if ck else {"shards": None, "levels": {}}
    if done["levels"]:
        spec = Spec(cd.board, cd.group, weights, done["shards"])
    own_tmp: str | None = None
    spill_dir = ck.sweep_dir(sweep_id) if ck else None
    total = 0
    incoming: list[list] = []
    handles: list = []
    shelf: list[str] = []
    shelved: list[str] = []
    spilled: list[str] = []
    try:
        # levels finished by an earlier run: read back, then go on from the last one
        for p in sorted((int(k) for k in done["levels"]), reverse=True):
            assert ck is not None
            paths = [ck.shard_path(sweep_id, p, j) for j in range(spec.shards)]
            size = done["levels"][str(p)]
            fetch = _disk_fetch(paths, weights)
            level = Level(p, array("Q"), size=size, fetch=fetch)
            total += size
            yield level.load() if keep(p) else level
            pegs, incoming = p, [[path] for path in paths]
        resumed = bool(done["levels"])
        if not resumed:
            incoming = first_buckets(spec, src, src if isinstance(src, dict) else None)
        spill = False
        while True:
            expand_it = pegs > last_pegs
            if resumed or pairing:  # on disk already: only expand them; paired: sizes only
                kept = False
            else:  # a level can be left out only where it can be fetched later
                kept = keep(pegs) or (pool.local and not pool.exchange_dir and not ck)
            if spill and spill_dir is None:
                own_tmp = spill_dir = tempfile.mkdtemp(prefix="pyapp-spill-")
            handles = []
            shelf = []  # where the shards of a level not gathered wait for Level.load (local pools)
            # a level that pairs with itself is read again by the step that sums its pairs (_settle_round)
            again = pairing is not None and pegs == pairing.emit == pairing.settle
            for j in range(spec.shards):
                save = ck.shard_path(sweep_id, pegs, j) if ck and not resumed else None
                if save is None and not kept and not resumed and pool.exchange_dir and (not pairing or again):
                    save = os.path.join(pool.exchange_dir, f"{sweep_id}.K{pegs}.s{j}")
                    shelf.append(save)
                where = spill_dir if spill else pool.exchange_dir
                out = os.path.join(where, f"{sweep_id}.B{pegs - 1}.s{j}") if where else None
                pairs = {"pairs_out": pegs == pairing.emit,
                         "pairs_in": spec.shards if pegs == pairing.settle and not again else 0} if pairing else {}
                handles.append(pool.submit(step, spec, incoming[j], expand_it=expand_it,
                                           keep=kept or not (pool.local or pairing) or (again and not save),
                                           save=save, spill=out, **pairs))
            t_level = time.perf_counter()
            while not pool.wait(handles, SLICE_SECONDS):
                ready = sum(1 for h in handles if pool.ready(h))
                yield Progress(stage, pegs, ready, len(handles), 0, total, kept_bytes(), time.perf_counter() - t0)
            infos = [pool.result(pool.part(h, "info")) for h in handles]
            size = sum(i["size"] for i in infos)
            moved = sum(i["stats"]["bytes_out"] for i in infos)
            par.stats.append(LevelStats(stage, pegs, size, time.perf_counter() - t_level,
                                        [i["stats"]["seconds"] for i in infos], [i["stats"]["cpu"] for i in infos],
                                        moved, spill))
            if not resumed:
                if ck:
                    ck.record(sweep_id, spec.shards, pegs, size)
                total += size
                if again:
                    assert pairing is not None
                    sums = yield from _settle_round(pool, spec, handles, shelf, stage, pegs, total, kept_bytes, t0)
                    pairing.total = sum(int(i["pairs"]) for i in sums)
                elif pairing and pegs == pairing.settle:
                    pairing.total = sum(int(i["pairs"]) for i in infos)
                if kept:
                    keys, ws = _gather(pool, handles, weights)
                    yield Level(pegs, keys, ws)
                elif not pool.local and not pairing:
                    yield Level(pegs, array("Q"), size=size, fetch=partial(_gather, pool, list(handles), weights))
                elif ck or shelf and not again:  # (a level that settled its own pairs kept only T_b: sizes only)
                    paths = [ck.shard_path(sweep_id, pegs, j) for j in range(spec.shards)] if ck else shelf
                    yield Level(pegs, array("Q"), size=size, fetch=_disk_fetch(paths, weights))
                else:
                    yield Level(pegs, array("Q"), size=size)
            for path in shelved:  # a lazy level can be loaded until the next level of its sweep is done
                os.remove(path)
            shelved = shelf
            resumed = False
            for path in spilled:  # consumed: the merged shards (or the checkpoint) hold them now
                os.remove(path)
            spilled = []
            held = kept_bytes()
            if max_bytes is not None and held > max_bytes:
                raise MemoryCeiling(f"level {pegs}: the levels kept ({held / 1e6:,.0f} MB) pass the memory "
                                    f"ceiling of {max_bytes / 1e6:,.0f} MB")
            # the next level's buckets: spill them when they would pass the ceiling here
            spill = pool.local and max_bytes is not None and held + 3 * moved > max_bytes
            if not expand_it or size == 0:
                break
            incoming = [[pool.part(h, ("buckets", j)) for h in handles] for j in range(spec.shards)]
            if pairing and pegs == pairing.emit:  # the pair buckets follow the level's: S + j to shard j
                for j in range(spec.shards):
                    incoming[j] += [pool.part(h, ("buckets", spec.shards + j)) for h in handles]
            spilled = [b for row in incoming for b in row if isinstance(b, str)]
            pegs -= 1
            yield Progress(stage, pegs, 0, spec.shards, 0, total, held + moved, time.perf_counter() - t0)
    except GeneratorExit:
        # dropped by the caller: between levels nothing runs; mid-level (a budget stop) stop the workers
        if any(not pool.ready(h) for h in handles):
            pool.cancel()
        raise
    except BaseException:  # Ctrl+C, an error: stop every worker at once
        pool.cancel()
        raise
    finally:
        # a lazy level's shards, kept only while the sweep stands at it; the last level's buckets, consumed (a
        # caller that stops at the last level closes the sweep before the loop removes them)
        for path in shelved + shelf + spilled:
            with contextlib.suppress(OSError):
                os.remove(path)
        if own_tmp:
            shutil.rmtree(own_tmp, ignore_errors=True)


def _settle_round(pool: Pool, spec: Spec, handles: list, shelf: list[str], stage: str, pegs: int, total: int,
                  kept_bytes: Callable[[], int], t0: float) -> Generator[Progress, None, list[dict]]:
    """The pairs of a level that pairs with itself, summed: one more step per shard, given the shard (its file on
    the shelf, else its kept bytes) and the pair buckets every shard sent it (buckets ``j``: the level was not
    expanded); the steps' ``info``, with their partial sums."""
    sums = []
    for j in range(spec.shards):
        own = shelf[j] if shelf else pool.result(pool.part(handles[j], "kept"))
        pairs = [pool.part(h, ("buckets", j)) for h in handles]
        sums.append(pool.submit(step, spec, [own, *pairs], expand_it=False, pairs_in=spec.shards))
    while not pool.wait(sums, SLICE_SECONDS):
        ready = sum(1 for h in sums if pool.ready(h))
        yield Progress(stage, pegs, ready, len(sums), 0, total, kept_bytes(), time.perf_counter() - t0)
    if pool.local:  # the pair buckets are consumed: those written as files go
        for path in (pool.result(pool.part(h, ("buckets", j))) for h in handles for j in range(spec.shards)):
            if isinstance(path, str):
                with contextlib.suppress(OSError):
                    os.remove(path)
    return [pool.result(pool.part(h, "info")) for h in sums]


def _disk_fetch(paths: list[str], weights: bool):
    return lambda: _assemble([load_bucket(path, weights) for path in paths], weights)


def make_pool(workers: int | None = None, cluster: str | None = None, exchange: str | None = None) -> Pool:
    """The pool the command line asks for: ``cluster`` (a Dask scheduler address), else ``workers``
    local processes (``None``: every core; ``exchange``: the folder their buckets pass through, see
    :class:`~.processes.Processes`), else (``workers == 1``) in-process."""
    if cluster:
        from .dask_pool import DaskPool
        return DaskPool(cluster)
    n = workers or os.cpu_count() or 1
    if n < 1:
        raise PegError(f"--workers needs at least 1 worker, not {n}")
    return InProcess() if n == 1 else Processes(n, exchange)
