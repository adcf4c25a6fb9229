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
import weakref
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


def _serve(conn: Connection, inherited: list[Connection]) -> None:
    """A worker's loop: run each task it is sent and send back ``(True, result)`` or ``(False, exception)``.

    A forked worker first closes its copies of the driver's ends of every pipe (``inherited``): held here, they
    would keep it, and its siblings, from ever reading the end of the pipe once the driver is gone.  It also
    ends when its driver does (it is then adopted by another process), so no worker outlives its driver."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the driver's: it kills the workers
    for c in inherited:
        c.close()
    driver = os.getppid()
    while True:
        try:
            while not conn.poll(1.0):
                if os.getppid() != driver:
                    return
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

    def __init__(self, ctx: Any, others: list[Connection]) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        inherited = [self.conn, *others] if ctx.get_start_method() == "fork" else []
        self.proc = ctx.Process(target=_serve, args=(child, inherited), daemon=True)
        self.proc.start()
        child.close()
        self.job: _Job | None = None


class _Workers:
    """The workers, the queue of tasks and the dispatcher thread, apart from :class:`Processes` so that the thread
    does not keep the pool alive: a pool dropped without ``close`` is killed when it is collected (or at exit)."""

    def __init__(self, ctx: Any, n: int) -> None:
        self.ctx = ctx
        self.lock = threading.Lock()
        self.queue: deque[_Job] = deque()
        self.pending: set[_Job] = set()
        self.wake_r, self.wake_w = ctx.Pipe(duplex=False)
        self.open = True
        self.lost = 0
        self.workers: list[_Worker] = []
        for _ in range(n):
            self.workers.append(_Worker(ctx, self._ends()))
        self.thread = threading.Thread(target=self.dispatch, name="pyapp-processes", daemon=True)
        self.thread.start()

    def _ends(self) -> list[Connection]:
        """The driver's ends of every pipe, which a forked worker closes."""
        return [self.wake_r, self.wake_w, *(w.conn for w in self.workers)]

    def enqueue(self, job: _Job) -> None:
        if not self.open:
            raise PegError("the pool of worker processes was closed")
        with self.lock:
            self.queue.append(job)
            self.pending.add(job)
        self.wake_w.send_bytes(b"")

    def kill(self) -> None:
        """Kill every worker now and stop the dispatcher; unfinished tasks stay unfinished."""
        if not self.open:
            return
        self.open = False
        for w in list(self.workers):
            w.proc.kill()
        with contextlib.suppress(OSError):
            self.wake_w.send_bytes(b"")
        if threading.current_thread() is not self.thread:
            self.thread.join(timeout=5)
        for w in list(self.workers):  # again: a worker started in place of a dead one meanwhile
            w.proc.kill()
            w.proc.join(timeout=5)
            w.conn.close()

    def close(self) -> None:
        """Wait for the tasks submitted, then let the workers go."""
        if not self.open:
            return
        for job in list(self.pending):
            job.done.wait()
        self.open = False
        self.wake_w.send_bytes(b"")
        self.thread.join()
        for w in self.workers:
            with contextlib.suppress(OSError):
                w.conn.send(None)
        for w in self.workers:
            w.proc.join(timeout=5)
            if w.proc.is_alive():
                w.proc.kill()
                w.proc.join()
            w.conn.close()

    def dispatch(self) -> None:
        """Send queued tasks to idle workers; take results and deaths as they come, until the pool closes.
        Should the dispatcher itself fail, every unfinished task fails with its error (no caller waits for ever)."""
        try:
            self._loop()
        except Exception as err:  # noqa: BLE001 - handed to every waiting caller
            with self.lock:
                left, self.pending, self.queue = list(self.pending), set(), deque()
            for job in left:
                job.finish(False, PegError(f"the pool of worker processes failed: {err}"))

    def _loop(self) -> None:
        while self.open:
            self._send_queued()
            busy = {w.conn: w for w in self.workers if w.job is not None}
            sentinels = {w.proc.sentinel: w for w in self.workers}
            try:
                ready = wait([self.wake_r, *busy, *sentinels])
            except OSError:  # a pipe closed by kill
                return
            if not self.open:
                return
            for r in ready:
                if r is self.wake_r:
                    self._drain_wake()
                elif r in busy:
                    self._take(busy[r])
            for r in ready:
                if r in sentinels:
                    self._died(sentinels[r])

    def _drain_wake(self) -> None:
        while self.wake_r.poll():
            self.wake_r.recv_bytes()

    def _send_queued(self) -> None:
        for w in list(self.workers):
            if w.job is not None or not w.proc.is_alive():
                continue
            with self.lock:
                if not self.queue:
                    return
                job = self.queue.popleft()
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
        if not self.open or w not in self.workers:
            return
        if w.job is not None and w.conn.poll(0):  # it sent its result before it died
            self._take(w)
        w.conn.close()
        self.lost += 1
        job = w.job
        if job is not None:
            with self.lock:
                self.queue.appendleft(job)
        k = self.workers.index(w)
        self.workers[k] = _Worker(self.ctx, self._ends())  # the dead one's end among them, closed already

    def _finish(self, job: _Job, ok: bool, value: Any) -> None:
        with self.lock:
            self.pending.discard(job)
        job.finish(ok, value)


def _release(workers: _Workers, exchange_dir: str | None) -> None:
    """Kill what is left of a pool and remove its exchange folder (a pool's finalizer: it runs once)."""
    workers.kill()
    if exchange_dir:
        shutil.rmtree(exchange_dir, ignore_errors=True)


class Processes(Pool):
    """Local worker processes with a pipe each; results come back to this process."""

    name = "processes"

    def __init__(self, workers: int | None = None, exchange: str | None = None) -> None:
        """``exchange``: the folder for :attr:`exchange_dir` (default: ``/dev/shm`` where there is one, which is
        memory: at hundreds of millions of positions a level's buckets take gigabytes of it, beside the workers;
        a folder on disk spares it).  A folder that cannot be made is refused before any worker starts."""
        base = exchange if exchange is not None else _shared_memory()
        try:
            os.makedirs(base, exist_ok=True)
            _remove_stale(base)
            self.exchange_dir: str | None = tempfile.mkdtemp(prefix=f"pyapp-shards-{os.getpid()}-", dir=base)
        except OSError as err:
            raise PegError(f"cannot use {base!r} for the workers' exchange: {err.strerror or err}") from None
        self.workers = max(1, workers or os.cpu_count() or 1)
        methods = multiprocessing.get_all_start_methods()
        self._core = _Workers(multiprocessing.get_context("fork" if "fork" in methods else "spawn"), self.workers)
        self._release = weakref.finalize(self, _release, self._core, self.exchange_dir)

    @property
    def lost_workers(self) -> int:
        """Workers that died during the run (each cost a rerun of the task it held)."""
        return self._core.lost

    @property
    def _pids(self) -> set[int]:
        """The pids of the current workers."""
        return {w.proc.pid for w in list(self._core.workers) if w.proc.pid is not None}

    def submit(self, fn: Callable, *args: Any, **kwargs: Any) -> _Job:
        job = _Job(fn, resolve(self, args), kwargs)
        self._core.enqueue(job)
        return job

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
            self._core.enqueue(job)
        for _ in items:
            job = done.get()
            yield index[id(job)], job.get()

    def cancel(self) -> None:
        """Kill every worker now; unfinished tasks stay unfinished."""
        self._release()
        self.exchange_dir = None

    def close(self) -> None:
        """Wait for the tasks submitted, then let the workers go."""
        self._core.close()
        self._release()
        self.exchange_dir = None


def _shared_memory() -> str:
    """``/dev/shm`` where there is one to write in, else the temporary folder."""
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else tempfile.gettempdir()


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
