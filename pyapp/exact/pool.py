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
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from ..core.errors import PegError


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


class _Job:
    """A task on local processes: what it runs (kept so it can run again if its worker dies) and its run."""

    __slots__ = ("fn", "args", "kwargs", "run")

    def __init__(self, fn: Callable, args: list, kwargs: dict) -> None:
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.run: Any = None


def _worker_pids(pool: Any) -> set[int]:
    """The pids of a ``multiprocessing.Pool``'s worker processes (its private list: the pool has no public one)."""
    return {p.pid for p in getattr(pool, "_pool", []) if p.pid is not None}


class Processes(Pool):
    """Local worker processes (``multiprocessing.Pool``); results come back to this process."""

    name = "processes"

    def __init__(self, workers: int | None = None, exchange: str | None = None) -> None:
        """``exchange``: the folder for :attr:`exchange_dir` (default: ``/dev/shm`` where there is one, which is
        memory: at hundreds of millions of positions a level's buckets take gigabytes of it, beside the workers;
        a folder on disk spares it).  A folder that cannot be made is refused before any worker starts."""
        where = None
        if exchange is not None:
            try:
                os.makedirs(exchange, exist_ok=True)
                where = tempfile.mkdtemp(prefix=f"pyapp-shards-{os.getpid()}-", dir=exchange)
            except OSError as err:
                raise PegError(f"cannot use {exchange!r} for the workers' exchange: {err.strerror or err}") from None
        self.workers = max(1, workers or os.cpu_count() or 1)
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._pool = ctx.Pool(self.workers, initializer=_quiet_worker)
        self._open = True
        self._pids = _worker_pids(self._pool)
        self._unfinished: list[_Job] = []
        self.lost_workers = 0
        """Workers that died during the run (each cost a rerun of the unfinished tasks)."""
        if where is None:
            shm = "/dev/shm"
            base = shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else tempfile.gettempdir()
            _remove_stale(base)
            where = tempfile.mkdtemp(prefix=f"pyapp-shards-{os.getpid()}-", dir=base)
        else:
            _remove_stale(os.path.dirname(where))
        self.exchange_dir = where

    def submit(self, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        job = _Job(fn, _resolve(self, args), kwargs)
        job.run = self._pool.apply_async(fn, job.args, kwargs)
        self._unfinished = [*self._prune(), job]
        return job

    def _prune(self) -> list[_Job]:
        """The jobs still running; finished ones let go of their inputs (a level's buckets), which only a
        rerun would need."""
        left = []
        for j in self._unfinished:
            if j.run.ready():
                j.args, j.kwargs = [], {}
            else:
                left.append(j)
        return left

    def part(self, handle: Any, key: Any) -> Any:
        return pick(self.result(handle), key)

    def ready(self, handle: Any) -> bool:
        if not isinstance(handle, _Job):
            return True
        self._recover()
        return handle.run.ready()

    def _wait_one(self, handle: Any, timeout: float) -> None:
        handle.run.wait(min(timeout, 0.2))  # short: a lost worker is noticed by the next ready()

    def result(self, handle: Any) -> Any:
        if not isinstance(handle, _Job):
            return handle
        while not self.ready(handle):
            self._wait_one(handle, 0.2)
        return handle.run.get()

    def _recover(self) -> None:
        """Run again every unfinished task when a worker died (SIGKILL, out of memory): its task is lost.

        ``multiprocessing.Pool`` replaces a dead worker but never reports the task it held, which would
        leave the driver waiting for ever.  Which task died cannot be told, so every unfinished one is
        submitted again (a step is a pure function of its inputs and writes its files atomically, so a
        task run twice gives the same result): a killed worker costs time, not the answer."""
        pids = _worker_pids(self._pool)
        if pids <= self._pids or not self._open:  # no replacement worker: none died
            return
        self._pids = pids
        self.lost_workers += 1
        self._unfinished = self._prune()
        for job in self._unfinished:
            job.run = self._pool.apply_async(job.fn, job.args, job.kwargs)

    def map(self, fn: Callable, items: list) -> Iterator[tuple[int, Any]]:
        yield from self._pool.imap_unordered(_indexed, [(fn, i, item) for i, item in enumerate(items)])

    def cancel(self) -> None:
        if self._open:
            threading.Thread(target=_unblock_feeder, args=(self._pool,), daemon=True).start()
            self._pool.terminate()
            self._open = False
        self._remove()

    def close(self) -> None:
        if self._open:
            if self.lost_workers:  # the pool still waits for the lost task's result: join would never return
                self._pool.terminate()
            else:
                self._pool.close()
            self._pool.join()
            self._open = False
        self._remove()

    def _remove(self) -> None:
        if self.exchange_dir:
            shutil.rmtree(self.exchange_dir, ignore_errors=True)
            self.exchange_dir = None


def _unblock_feeder(pool: Any) -> None:
    """Read and drop what the pool's task feeder still writes once every worker is gone, until it ends.

    ``multiprocessing.Pool.terminate`` drains the task pipe only while it finds data there, then terminates
    the workers and joins the feeder thread.  A feeder that was pickling a task at that moment then writes it
    into a pipe nobody reads: a task larger than the pipe's buffer (64 KB on Linux) blocks it for ever, and
    ``terminate`` with it (a rare hang on Ctrl+C).  This thread is the missing reader.  It starts reading only
    when every worker has exited, that is after ``terminate``'s own drain, which holds the read lock and must
    not share the pipe with a second reader.  It uses the pool's private attributes; without them it does
    nothing."""
    feeder = getattr(pool, "_task_handler", None)
    reader = getattr(getattr(pool, "_inqueue", None), "_reader", None)
    if feeder is None or reader is None:
        return
    while feeder.is_alive():
        if any(p.exitcode is None for p in list(getattr(pool, "_pool", []))):
            time.sleep(0.01)
            continue
        try:
            if reader.poll(0.05):
                reader.recv_bytes()
        except (OSError, EOFError):
            return


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
