"""The Dask distributed back end of :class:`pyapp.exact.pool.Pool` (``--cluster tcp://HOST:PORT``).

Dask is optional: the engine never needs it, and asking for a cluster without ``distributed``
installed is a clear error.  Everything is Dask's own machinery: tasks are ``client.submit`` /
``client.map`` futures, a future passed as an argument moves its data worker to worker, Dask's
scheduler places the tasks, and a worker that dies takes only time: the scheduler reruns its
tasks elsewhere and recomputes lost results from the futures they came from (every step is a
pure function of its inputs).  Workers import ``pyapp`` themselves (start them from the project
folder, or with it on ``PYTHONPATH``) and rebuild the compiled codec from the board they are sent.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Iterator
from typing import Any

from ..core.errors import PegError
from .pool import Pool, pick

RETRIES = 3
"""Reruns of a task that failed (a worker lost mid-task counts as a failure only after Dask's own
reruns)."""


class DaskPool(Pool):
    """Tasks as futures of a Dask ``Client`` connected to ``address`` (or the given client)."""

    local = False
    name = "dask"
    shards_per_worker = 2

    def __init__(self, address: str | None = None, client: Any = None) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise PegError("--cluster needs Dask: pip install distributed (the engine runs without it; "
                           "use --workers N for local processes)") from None
        try:
            self.client = client if client is not None else Client(address, timeout=10)
        except OSError as err:
            raise PegError(f"cannot reach the Dask scheduler at {address!r}: {err}") from None
        self._own = client is None
        self._futures: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
        """Futures still referenced by the driver (the ones cancel stops); dropped ones free their data."""
        self.workers = max(1, sum(self.client.nthreads().values()))

    def submit(self, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        f = self.client.submit(fn, *args, pure=False, retries=RETRIES, **kwargs)
        self._futures[f.key] = f
        return f

    def part(self, handle: Any, key: Any) -> Any:
        # runs where the handle's data lives: only the part moves on
        return self.client.submit(pick, handle, key, pure=False, retries=RETRIES)

    def ready(self, handle: Any) -> bool:
        return handle.done() if hasattr(handle, "done") else True

    def _wait_one(self, handle: Any, timeout: float) -> None:
        from distributed import wait
        with contextlib.suppress(TimeoutError):
            wait([handle], timeout=timeout)

    def result(self, handle: Any) -> Any:
        return handle.result() if hasattr(handle, "result") else handle

    def map(self, fn: Callable, items: list) -> Iterator[tuple[int, Any]]:
        from distributed import as_completed
        futures = self.client.map(fn, items, pure=False, retries=RETRIES)
        self._futures.update((f.key, f) for f in futures)
        index = {f.key: i for i, f in enumerate(futures)}
        for f in as_completed(futures):
            yield index[f.key], f.result()

    def cancel(self) -> None:
        live = list(self._futures.values())
        if live:
            self.client.cancel(live)

    def close(self) -> None:
        if self._own:
            self.client.close()
