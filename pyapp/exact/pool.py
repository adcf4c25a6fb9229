"""Where the shards of a sweep (and independent problems) run: one executor interface, three back ends.

* :class:`InProcess`: every task runs in this process when submitted (the reference, and what
  Pyodide can do without a pool of workers);
* :class:`Processes`: local worker processes (``multiprocessing``: fork where the platform has it,
  else spawn).  A worker rebuilds the compiled codec from the board and group it is sent (generated
  functions are never pickled) and keeps it for the tasks that follow; workers ignore Ctrl+C, so the
  driver alone handles it and :meth:`Pool.cancel` terminates every worker at once;
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

import multiprocessing
import os
import shutil
import signal
import tempfile
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
    reached from parents in k shards is sent and merged k times (English, 2 -> 4 -> 8 shards in one
    process: 1.25x, 1.38x, 1.45x the unsharded sweep's CPU time)."""

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
        return _Done(fn(*_resolve(self, args), **kwargs))

    def part(self, handle: Any, key: Any) -> Any:
        return pick(self.result(handle), key)

    def ready(self, handle: Any) -> bool:
        return True

    def result(self, handle: Any) -> Any:
        return handle.value if isinstance(handle, _Done) else handle

    def map(self, fn: Callable, items: list) -> Iterator[tuple[int, Any]]:
        for i, item in enumerate(items):
            yield i, fn(item)


def _resolve(pool: Pool, args: tuple) -> list:
    """Arguments with every handle (also inside lists) replaced by its value."""
    out: list = []
    for a in args:
        if isinstance(a, list):
            out.append([pool.result(x) for x in a])
        else:
            out.append(pool.result(a))
    return out


def _quiet_worker() -> None:
    """A worker leaves Ctrl+C to the driver (which terminates it) instead of printing a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _indexed(job: tuple[Callable, int, Any]) -> tuple[int, Any]:
    fn, i, item = job
    return i, fn(item)


class Processes(Pool):
    """Local worker processes (``multiprocessing.Pool``); results come back to this process."""

    name = "processes"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._pool = ctx.Pool(self.workers, initializer=_quiet_worker)
        self._open = True
        shm = "/dev/shm"
        where = shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else tempfile.gettempdir()
        _remove_stale(where)
        self.exchange_dir = tempfile.mkdtemp(prefix=f"pyapp-shards-{os.getpid()}-", dir=where)

    def submit(self, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        return self._pool.apply_async(fn, _resolve(self, args), kwargs)

    def part(self, handle: Any, key: Any) -> Any:
        return pick(self.result(handle), key)

    def ready(self, handle: Any) -> bool:
        return not hasattr(handle, "ready") or handle.ready()

    def _wait_one(self, handle: Any, timeout: float) -> None:
        handle.wait(timeout)

    def result(self, handle: Any) -> Any:
        return handle.get() if hasattr(handle, "get") and hasattr(handle, "ready") else handle

    def map(self, fn: Callable, items: list) -> Iterator[tuple[int, Any]]:
        yield from self._pool.imap_unordered(_indexed, [(fn, i, item) for i, item in enumerate(items)])

    def cancel(self) -> None:
        if self._open:
            self._pool.terminate()
            self._open = False
        self._remove()

    def close(self) -> None:
        if self._open:
            self._pool.close()
            self._pool.join()
            self._open = False
        self._remove()

    def _remove(self) -> None:
        if self.exchange_dir:
            shutil.rmtree(self.exchange_dir, ignore_errors=True)
            self.exchange_dir = None


def _remove_stale(where: str) -> None:
    """Remove the exchange folders of runs that were killed (SIGKILL leaves them): their process is gone."""
    for name in os.listdir(where):
        parts = name.split("-")
        if name.startswith("pyapp-shards-") and len(parts) >= 4 and parts[2].isdigit():
            try:
                os.kill(int(parts[2]), 0)
            except ProcessLookupError:
                shutil.rmtree(os.path.join(where, name), ignore_errors=True)
            except OSError:
                pass
