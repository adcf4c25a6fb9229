"""A long request of the web worker driven slice by slice (:class:`Job`): the one object every streaming request
(:mod:`.jobs`, :mod:`.jobs_bench`) hands the worker, which calls :meth:`Job.step` between two messages and
:meth:`Job.cancel` when the page cancels; the protocol is described in :mod:`pyapp.web.api`."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

from ..core.budget import Budget
from ..core.errors import PegError
from .wire import dumps

CANCEL_SECONDS = 0.1
"""How long a cancelled call may take to answer with what it has before it is closed instead."""


class Job:
    """A long request driven slice by slice: :meth:`step` returns JSON of
    ``{"done": false, "progress": {...}}`` or ``{"done": true, "result": ...}`` (or ``"error"``).

    ``gen`` is a step generator (see :mod:`pyapp.core.budget`); ``finish`` and ``progress`` turn its
    answer and its progress into JSON-able values.  With a ``budget``, :meth:`cancel` cancels
    it and lets the call answer with what it has; without one it closes the generator and
    answers ``cancelled()``.
    """

    relay: Any = None
    """The :class:`~pyapp.exact.relay.Relay` of a job whose sweeps run on the page's pool (the worker takes
    its steps between two :meth:`step` calls and delivers their answers), else None."""
    told: Callable[[Any], object] | None = None
    """What takes the news the page sends a running job (:meth:`tell`), for the jobs that take any."""

    def tell(self, value_json: str) -> str:
        """Hand news from the page to the running job, between two :meth:`step` calls: "" or the error."""
        if self.told is None or self.done:
            return "this request takes no news now"
        try:
            self.told(json.loads(value_json))
        except (PegError, ValueError) as err:
            return str(err).splitlines()[0]
        return ""

    def __init__(self, gen: Iterator, finish: Callable[[Any], Any], progress: Callable[[Any], Any],
                 budget: Budget | None = None, cancelled: Callable[[], Any] = lambda: {"cancelled": True}) -> None:
        self._gen, self._finish, self._progress = gen, finish, progress
        self._budget, self._cancelled = budget, cancelled
        self.done = False

    def _next(self) -> dict:
        try:
            item = next(self._gen)
        except StopIteration as stop:
            self.done = True
            return {"done": True, "result": self._finish(stop.value)}
        except PegError as err:
            self.done = True
            return {"done": True, "error": str(err)}
        except Exception as err:  # a bug, not bad input: still a message, never a dead worker
            self.done = True
            return {"done": True, "error": f"internal error ({type(err).__name__}): {err}"}
        return {"done": False, "progress": self._progress(item)}

    def step(self) -> str:
        return dumps(self._next())

    def run(self) -> Any:
        """Drive the job to its end (a one-shot call); raise :class:`PegError` on its error."""
        out = self._next()
        while not out["done"]:
            out = self._next()
        if "error" in out:
            raise PegError(out["error"])
        return out["result"]

    def cancel(self) -> str:
        """Stop the work and return its answer as JSON: with a budget, the call's own answer
        after the cancel (it stops at its next pause; if that takes over :data:`CANCEL_SECONDS`
        it is closed instead), else the ``cancelled()`` answer."""
        if self._budget is not None and not self.done:
            self._budget.cancel()
            end = time.perf_counter() + CANCEL_SECONDS
            while time.perf_counter() < end:
                out = self._next()
                if out["done"]:
                    return dumps(out)
        close = getattr(self._gen, "close", None)
        if close is not None:
            close()
        self.done = True
        return dumps({"done": True, "result": self._cancelled()})
