"""Where the shards of a sweep (and independent problems) run: one executor interface, three back ends.

* :class:`InProcess`: every task runs in this process when submitted (the reference, and what
  Pyodide can do without a pool of workers);
* :class:`~.processes.Processes` (:mod:`.processes`): local worker processes, a pipe each, so a worker
  that dies costs the rerun of its one task.  A worker rebuilds the compiled codec from the board and
  group it is sent (generated functions are never pickled) and keeps it for the tasks that follow;
* :class:`DaskPool` (:mod:`.dask_pool`): a Dask distributed cluster.  Tasks are Dask futures;
  handles passed to :meth:`Pool.submit` move worker to worker, so the buckets of a level never
  pass through the driver, and Dask's own scheduler recomputes what a lost worker held.

The interface (:class:`Pool`): ``submit(fn, *args, **kwargs)`` returns a *handle* (the arguments
may hold handles, also inside lists); ``part(handle, key)`` a handle to ``result[key]`` (a tuple key
walks nested items); ``ready(handle)``; ``result(handle)``; ``map(fn, items)`` runs independent
problems and yields ``(index, answer)`` as each finishes; ``cancel()`` stops every worker; ``close()``.
``workers`` is how many tasks run at once and ``local`` says whether results come back to this
process as values (then the driver may spill them to disk).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any


class Pool:
    """The executor interface the sharded sweep and the parallel tables run on (see the module docstring)."""

    workers: int = 1
    local: bool = True
    name: str = "pool"
    exchange_dir: str | None = None
    """A folder every worker can read (local processes: in shared memory, ``/dev/shm``, where there is one):
    buckets go there as files instead of through this process (no pickling, no copy through the driver)."""
    shards_per_worker: int = 1
    """Shards per level and worker.  More shards balance uneven workers but cost more: a position
    reached from parents in k shards is sent and merged k times (English, 20 pegs, 2 -> 4 -> 8 shards in one
    process: 1.75, 2.53, 3.14 keys sent per child, 1.03x, 1.09x, 1.08x the unsharded sweep's CPU time)."""

    def submit(self, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    def part(self, handle: Any, key: Any) -> Any:
        raise NotImplementedError

    def ready(self, handle: Any) -> bool:
        raise NotImplementedError

    def result(self, handle: Any) -> Any:
        raise NotImplementedError

    def wait(self, handles: list, timeout: float) -> bool:
        """Wait until every handle is ready or ``timeout`` seconds pass; True when all are ready."""
        deadline = time.perf_counter() + timeout
        for h in handles:
            while not self.ready(h):
                left = deadline - time.perf_counter()
                if left <= 0:
                    return False
                self._wait_one(h, left)
        return True

    def _wait_one(self, handle: Any, timeout: float) -> None:
        time.sleep(min(timeout, 0.005))

    def map(self, fn: Callable, items: list) -> Iterator[tuple[int, Any]]:
        raise NotImplementedError

    def cancel(self) -> None:
        """Stop every task now (a cancelled pool cannot be used again)."""

    def close(self) -> None:
        """Release the workers."""

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        if exc[0] is not None:
            self.cancel()
        self.close()


def pick(value: Any, key: Any) -> Any:
    """``value[key]``, or ``value[k0][k1]...`` for a tuple key."""
    for k in key if isinstance(key, tuple) else (key,):
        value = value[k]
    return value


class _Done:
    """A finished in-process task."""

    def __init__(self, value: Any) -> None:
        self.value = value


class InProcess(Pool):
    """Runs every task in this process as it is submitted."""

    name = "in-process"

    def submit(self, fn: Callable, *args: Any, **kwargs: Any) -> _Done:
        return _Done(fn(*resolve(self, args), **kwargs))

    def part(self, handle: Any, key: Any) -> Any:
        return pick(self.result(handle), key)

    def ready(self, handle: Any) -> bool:
        return True

    def result(self, handle: Any) -> Any:
        return handle.value if isinstance(handle, _Done) else handle

    def map(self, fn: Callable, items: list) -> Iterator[tuple[int, Any]]:
        for i, item in enumerate(items):
            yield i, fn(item)


def resolve(pool: Pool, args: tuple) -> list:
    """Arguments with every handle (also inside lists) replaced by its value."""
    out: list = []
    for a in args:
        if isinstance(a, list):
            out.append([pool.result(x) for x in a])
        else:
            out.append(pool.result(a))
    return out
