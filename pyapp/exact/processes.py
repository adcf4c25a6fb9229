"""Local worker processes for the sharded sweeps and the parallel tables (:class:`Processes`).

Each worker has a pipe of its own, and a worker holds at most one task at a time, so the driver always knows
which task a worker was running.  A worker that dies (SIGKILL, the out-of-memory killer), busy or idle, costs
the rerun of the one task it held, on a fresh worker.  ``multiprocessing.Pool``, used here before, shares one
task queue between its workers: an idle worker waits for the next task holding the queue's read lock, so a
worker killed while idle took the lock with it and the whole pool stopped for ever (even its ``terminate``
waits for that lock); and it never says which task a dead worker held.

A dispatcher thread in the driver sends queued tasks to idle workers and reads results and deaths as they come
(``multiprocessing.connection.wait`` on every pipe and every process sentinel), so workers keep busy while the
driver does other work.  Workers start by ``fork`` where the platform has it (else ``spawn``); they ignore
Ctrl+C, so the driver alone handles it and :meth:`Processes.cancel` kills every worker at once.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import shutil
import signal
import tempfile
import threading
from collections import deque
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

from ..core.errors import PegError
from .pool import Pool, pick, resolve


class _Job:
    """A task: what it runs (kept until it finishes, so it can run again if its worker dies) and its outcome."""

    __slots__ = ("fn", "args", "kwargs", "done", "ok", "value", "notify")

    def __init__(self, fn: Callable, args: list, kwargs: dict, notify: queue.SimpleQueue | None = None) -> None:
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.done = threading.Event()
        self.ok = False
        self.value: Any = None
        self.notify = notify

    def finish(self, ok: bool, value: Any) -> None:
        self.ok, self.value = ok, value
        self.args, self.kwargs = [], {}  # a level's buckets: only a rerun would need them
        self.done.set()
        if self.notify is not None:
            self.notify.put(self)

    def get(self) -> Any:
        self.done.wait()
        if not self.ok:
            raise self.value
        return self.value


def _serve(conn: Connection) -> None:
    """A worker's loop: run each task it is sent and send back ``(True, result)`` or ``(False, exception)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the driver's: it kills the workers
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        fn, args, kwargs = task
        try:
            out: tuple[bool, Any] = (True, fn(*args, **kwargs))
        except Exception as err:  # noqa: BLE001 - the driver re-raises it where the result is asked for
            out = (False, err)
        try:
            conn.send(out)
        except Exception as err:  # noqa: BLE001 - a result or exception that cannot be pickled
            conn.send((False, PegError(f"a worker's result could not be sent back: {err}")))


class _Worker:
    __slots__ = ("proc", "conn", "job")

    def __init__(self, ctx: Any) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.proc = ctx.Process(target=_serve, args=(child,), daemon=True)
        self.proc.start()
        child.close()
        self.job: _Job | None = None


class Processes(Pool):
    """Local worker processes with a pipe each; results come back to this process."""

    name = "processes"

    def __init__(self, workers: int | None = None, exchange: str | None = None) -> None:
        """``exchange``: the folder for :attr:`exchange_dir` (default: ``/dev/shm`` where there is one, which is
        memory: at hundreds of millions of positions a level's buckets take gigabytes of it, beside the workers;
        a folder on disk spares it).  A folder that cannot be made is refused before any worker starts."""
        base = exchange
        if exchange is not None:
            try:
                os.makedirs(exchange, exist_ok=True)
            except OSError as err:
                raise PegError(f"cannot use {exchange!r} for the workers' exchange: {err.strerror or err}") from None
        else:
            shm = "/dev/shm"
            base = shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else tempfile.gettempdir()
        assert base is not None
        _remove_stale(base)
        try:
            self.exchange_dir: str | None = tempfile.mkdtemp(prefix=f"pyapp-shards-{os.getpid()}-", dir=base)
        except OSError as err:
            raise PegError(f"cannot use {base!r} for the workers' exchange: {err.strerror or err}") from None
        self.workers = max(1, workers or os.cpu_count() or 1)
        methods = multiprocessing.get_all_start_methods()
        self._ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._lock = threading.Lock()
        self._queue: deque[_Job] = deque()
        self._pending: set[_Job] = set()
        self._wake_r, self._wake_w = self._ctx.Pipe(duplex=False)
        self._open = True
        self.lost_workers = 0
        """Workers that died during the run (each cost a rerun of the task it held)."""
        self._workers = [_Worker(self._ctx) for _ in range(self.workers)]
        self._thread = threading.Thread(target=self._dispatch, name="pyapp-processes", daemon=True)
        self._thread.start()

    @property
    def _pids(self) -> set[int]:
        """The pids of the current workers."""
        return {w.proc.pid for w in list(self._workers) if w.proc.pid is not None}

    # -- the interface -------------------------------------------------------------------------------------
    def submit(self, fn: Callable, *args: Any, **kwargs: Any) -> _Job:
        job = _Job(fn, resolve(self, args), kwargs)
        self._enqueue(job)
        return job

    def _enqueue(self, job: _Job) -> None:
        if not self._open:
            raise PegError("the pool of worker processes was closed")
        with self._lock:
            self._queue.append(job)
            self._pending.add(job)
        self._wake_w.send_bytes(b"")

    def part(self, handle: Any, key: Any) -> Any:
        return pick(self.result(handle), key)

    def ready(self, handle: Any) -> bool:
        return not isinstance(handle, _Job) or handle.done.is_set()

    def _wait_one(self, handle: Any, timeout: float) -> None:
        handle.done.wait(timeout)

    def result(self, handle: Any) -> Any:
        return handle.get() if isinstance(handle, _Job) else handle

    def map(self, fn: Callable, items: list) -> Iterator[tuple[int, Any]]:
        done: queue.SimpleQueue = queue.SimpleQueue()
        index = {}
        for i, item in enumerate(items):
            job = _Job(fn, [item], {}, done)
            index[id(job)] = i
            self._enqueue(job)
        for _ in items:
            job = done.get()
            yield index[id(job)], job.get()

    def cancel(self) -> None:
        """Kill every worker now; unfinished tasks stay unfinished."""
        if self._open:
            self._open = False
            for w in list(self._workers):
                w.proc.kill()
            self._wake_w.send_bytes(b"")
            self._thread.join(timeout=5)
            for w in list(self._workers):  # again: a worker started in place of a dead one meanwhile
                w.proc.kill()
                w.proc.join(timeout=5)
                w.conn.close()
        self._remove()

    def close(self) -> None:
        """Wait for the tasks submitted, then let the workers go."""
        if self._open:
            for job in list(self._pending):
                job.done.wait()
            self._open = False
            self._wake_w.send_bytes(b"")
            self._thread.join()
            for w in self._workers:
                with contextlib.suppress(OSError):
                    w.conn.send(None)
            for w in self._workers:
                w.proc.join(timeout=5)
                if w.proc.is_alive():
                    w.proc.kill()
                    w.proc.join()
                w.conn.close()
        self._remove()

    def _remove(self) -> None:
        if self.exchange_dir:
            shutil.rmtree(self.exchange_dir, ignore_errors=True)
            self.exchange_dir = None

    # -- the dispatcher thread ----------------------------------------------------------------------------
    def _dispatch(self) -> None:
        """Send queued tasks to idle workers; take results and deaths as they come, until the pool closes.
        Should the dispatcher itself fail, every unfinished task fails with its error (no caller waits for ever)."""
        try:
            self._loop()
        except Exception as err:  # noqa: BLE001 - handed to every waiting caller
            with self._lock:
                left, self._pending, self._queue = list(self._pending), set(), deque()
            for job in left:
                job.finish(False, PegError(f"the pool of worker processes failed: {err}"))

    def _loop(self) -> None:
        while self._open:
            self._send_queued()
            busy = {w.conn: w for w in self._workers if w.job is not None}
            sentinels = {w.proc.sentinel: w for w in self._workers}
            try:
                ready = wait([self._wake_r, *busy, *sentinels])
            except OSError:  # a pipe closed by cancel
                return
            if not self._open:
                return
            for r in ready:
                if r is self._wake_r:
                    while self._wake_r.poll():
                        self._wake_r.recv_bytes()
                elif r in busy:
                    self._take(busy[r])
            for r in ready:
                if r in sentinels:
                    self._died(sentinels[r])

    def _send_queued(self) -> None:
        for w in list(self._workers):
            if w.job is not None or not w.proc.is_alive():
                continue
            with self._lock:
                if not self._queue:
                    return
                job = self._queue.popleft()
            w.job = job
            try:
                w.conn.send((job.fn, job.args, job.kwargs))
            except (OSError, EOFError):  # it died meanwhile: the sentinel says so, and the task runs again
                pass
            except Exception as err:  # noqa: BLE001 - a task that cannot be pickled fails alone
                w.job = None
                self._finish(job, False, err)

    def _take(self, w: _Worker) -> None:
        """A busy worker's pipe is readable: its result, or the end of a worker that died."""
        try:
            ok, value = w.conn.recv()
        except (EOFError, OSError):
            return  # its sentinel is (or soon will be) ready: _died reruns the task
        job, w.job = w.job, None
        if job is not None:
            self._finish(job, ok, value)

    def _died(self, w: _Worker) -> None:
        """A worker exited: run its task again, first in line, on a fresh worker."""
        if not self._open or w not in self._workers:
            return
        if w.job is not None and w.conn.poll(0):  # it sent its result before it died
            self._take(w)
        w.conn.close()
        self.lost_workers += 1
        job = w.job
        if job is not None:
            with self._lock:
                self._queue.appendleft(job)
        self._workers[self._workers.index(w)] = _Worker(self._ctx)

    def _finish(self, job: _Job, ok: bool, value: Any) -> None:
        with self._lock:
            self._pending.discard(job)
        job.finish(ok, value)


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
