"""A pool whose steps are run by someone else, between two steps of the sweep: the page's pool of workers.

Python in a Pyodide worker is synchronous: while it runs, its worker sees no message, so a driver
that blocks until its shards are done (as :class:`~.processes.Processes` does) would never hear that
they are.  The sweep itself needs no change for that: :func:`~.sharded.sharded_sweep` is a
generator that submits one :func:`~.shardstep.step` per shard, then polls ``pool.wait`` and yields a
:class:`~.sweep.Progress` while the shards run.  :class:`Relay` is a :class:`~.pool.Pool` whose
``submit`` only *records* the step and whose ``wait`` never blocks, so the sweep's generator
yields at once; whoever drives the generator (the engine worker's job loop in
``static/engine/worker.mjs``) takes the recorded steps (:meth:`Relay.take`), has them run
elsewhere (the page's pool of Pyodide workers, ``static/engine/pool.mjs``) and hands their
answers back (:meth:`Relay.deliver`) before stepping the generator again.

So the rules of the sweep (which steps, which buckets go where, when a level is done, what is
kept) stay written once, in :mod:`.sharded`, and the CPython back ends are untouched; the
JavaScript side only moves bytes: it decides nothing about what is computed.

The buckets of a level never pass through the driver: a step's answer names them by
``(task, j)`` and the next level's steps refer to them so (``{"task": id, "bucket": j}``); the
page keeps them as ``ArrayBuffer`` s and transfers each to the worker of its owner shard.  Only
``info`` (sizes and costs, JSON) and the ``kept`` shard (the sorted keys and weights, for
:meth:`~.sweep.Level.load`) come back here.  The pool is not ``local`` (like a Dask cluster),
so the sweep never asks it to save or spill files: each Pyodide worker has its own file system.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from .pool import Pool
from .shards import Spec
from .shardstep import step


class Task:
    """A recorded step: its id, the shard it builds, and (once delivered) its ``info`` and ``kept`` shard."""

    __slots__ = ("id", "shard", "value")

    def __init__(self, task_id: int, shard: int) -> None:
        self.id = task_id
        self.shard = shard
        self.value: dict | None = None


class Part:
    """``result[key]`` of a task: ``"info"``, ``"kept"`` or ``("buckets", j)`` (the last stays outside)."""

    __slots__ = ("task", "key")

    def __init__(self, task: Task, key: Any) -> None:
        self.task = task
        self.key = key


class Relay(Pool):
    """Records :func:`~.shardstep.step` calls for an outside runner (see the module docstring).

    ``workers`` is the size of the outside pool (the sweep makes that many shards per level).
    The runner's side: :meth:`take` (the steps to run, as JSON, and the bytes they carry),
    :meth:`deliver` (a step's answer), :meth:`waiting` (steps taken but not yet answered)."""

    name = "page workers"
    local = False

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._next_id = 0
        self._outbox: list[dict] = []
        self._blobs: list[bytes] = []
        self._open: dict[int, Task] = {}
        self._held: dict[int, int] = {}  # task -> bytes of its buckets and kept shard, until the next level takes them
        self.cancelled = False

    # ------------------------------------------------------------ the sweep's side (Pool)
    def submit(self, fn: Callable, *args: Any, **kwargs: Any) -> Task:
        if fn is not step:
            raise TypeError(f"the page's pool runs only shard steps, not {getattr(fn, '__name__', fn)!r}")
        spec, incoming = args
        if kwargs.get("save") or kwargs.get("spill"):
            raise ValueError("the page's pool has no shared file system: no checkpoint or spilling")
        assert isinstance(spec, Spec)
        refs: list[dict] = []
        for bucket in incoming:
            if isinstance(bucket, Part):
                refs.append({"task": bucket.task.id, "bucket": bucket.key[1]})
                self._held.pop(bucket.task.id, None)
            elif isinstance(bucket, tuple):
                keys, weights = bucket
                refs.append({"keys": self._blob(keys), "weights": None if weights is None else self._blob(weights)})
            else:
                raise TypeError(f"a bucket the page's pool cannot send: {type(bucket).__name__}")
        # the shard of the buckets it takes (a step that settles pairs may take its own shard's bytes first)
        shard = next((r["bucket"] % spec.shards for r in refs if "bucket" in r), self._next_id % spec.shards)
        task = Task(self._next_id, shard)
        self._next_id += 1
        self._open[task.id] = task
        self._outbox.append({"id": task.id, "shard": shard, "spec": spec.as_dict(), "incoming": refs,
                             "expand_it": bool(kwargs.get("expand_it", True)), "keep": bool(kwargs.get("keep")),
                             "pairs_out": bool(kwargs.get("pairs_out")), "pairs_in": int(kwargs.get("pairs_in", 0))})
        return task

    def _blob(self, data: bytes) -> int:
        self._blobs.append(bytes(data))
        return len(self._blobs) - 1

    def part(self, handle: Any, key: Any) -> Part:
        return Part(handle, key)

    def ready(self, handle: Any) -> bool:
        task = handle.task if isinstance(handle, Part) else handle
        return task.value is not None

    def wait(self, handles: list, timeout: float) -> bool:
        """Never blocks: the answers arrive only while the sweep's generator is paused."""
        return all(self.ready(h) for h in handles)

    def result(self, handle: Any) -> Any:
        if isinstance(handle, Part):
            value = self.result(handle.task)
            if handle.key not in ("info", "kept"):
                raise KeyError(f"{handle.key!r} of a step stays with the page's pool")
            return value[handle.key]
        if handle.value is None:
            raise RuntimeError(f"step {handle.id} has not answered yet")
        return handle.value

    def map(self, fn: Callable, items: list) -> Iterator[tuple[int, Any]]:
        raise NotImplementedError("the page's pool runs shard steps only")

    def cancel(self) -> None:
        self.cancelled = True
        self._open.clear()
        self._held.clear()
        self._outbox.clear()
        self._blobs.clear()

    # ------------------------------------------------------------ the runner's side
    def take(self) -> str:
        """The steps recorded since the last call, as JSON (an empty list when none); the bytes they
        carry (a first level's buckets) are :meth:`blob` ``(k)`` for ``{"keys": k, "weights": k2}``."""
        out, self._outbox = self._outbox, []
        return json.dumps(out)

    def blob(self, k: int) -> bytes:
        """The bytes ``k`` of the steps last taken (kept until the next :meth:`take`)."""
        return self._blobs[k]

    def forget_blobs(self) -> None:
        """The runner has copied the blobs: free them."""
        self._blobs = []

    def deliver(self, task_id: int, info_json: str, kept_keys: Any = None, kept_weights: Any = None) -> None:
        """A step's answer: its ``info`` (JSON) and, when it kept its shard, the shard's bytes (``bytes``,
        or anything with ``to_bytes()``, as a JavaScript typed array in Pyodide)."""
        task = self._open.pop(task_id, None)
        if task is None:  # cancelled, or answered twice: nothing waits for it
            return
        kept = None
        if kept_keys is not None:
            kept = (_as_bytes(kept_keys), None if kept_weights is None else _as_bytes(kept_weights))
        info = json.loads(info_json)
        task.value = {"info": info, "kept": kept}
        self._held[task_id] = int(info.get("stats", {}).get("bytes_out", 0)) + sum(len(b or b"") for b in kept or ())

    def bytes_held(self) -> int:
        """Bytes the last answered steps made that are held outside the workers' own memory (their buckets,
        kept by the page till the next level's steps take them, and their kept shards, here): the progress's
        memory while the pool sweeps."""
        return sum(self._held.values())

    def waiting(self) -> bool:
        """Steps taken and not yet answered (the runner then waits for answers, not a turn of the loop)."""
        return bool(self._open) and not self._outbox


def _as_bytes(data: Any) -> bytes:
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    return bytes(data.to_bytes())


def run_step(spec: dict, keys: list, weights: list | None, *, expand_it: bool, keep: bool, pairs_out: bool = False,
             pairs_in: int = 0) -> dict:
    """One step as the outside worker runs it: :func:`~.shardstep.step` on plain bytes (each item
    ``bytes`` or anything with ``to_bytes()``); ``weights`` None when the sweep only asks reachability;
    ``pairs_out``/``pairs_in`` as the step takes them (the final combination of a complement count)."""
    incoming: list = [(_as_bytes(k), None if weights is None or weights[i] is None else _as_bytes(weights[i]))
                      for i, k in enumerate(keys)]
    return step(Spec.from_dict(spec), incoming, expand_it=expand_it, keep=keep, pairs_out=pairs_out,
                pairs_in=pairs_in)
