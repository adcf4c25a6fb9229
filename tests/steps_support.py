"""Helpers for the tests of pausing code: drive a pausing generator to its value; time a step without the collector."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Generator
from typing import TypeVar

T = TypeVar("T")


def pauses_and_value(steps: Generator[None, None, T]) -> tuple[int, T]:
    """How many times ``steps`` paused (yielded), and the value it returned."""
    pauses = 0
    try:
        while True:
            next(steps)
            pauses += 1
    except StopIteration as stop:
        return pauses, stop.value


class CodeClock:
    """Processor seconds spent in the code, less the collector's: a measure of how long a step runs.

    A step's processor time includes any full garbage collection that happens to fall in it, and in a
    suite that has built large tables a full collection alone took 0.2 s here, whatever the step did.
    The collector's pauses are timed through ``gc.callbacks`` and taken off, so a test of how often a
    request pauses measures the request.  Use as a context manager; ``seconds(f)`` times one call.
    """

    def __init__(self) -> None:
        self.collector = 0.0
        self._since = 0.0

    def _callback(self, phase: str, _info: dict[str, int]) -> None:
        now = time.process_time()
        if phase == "start":
            self._since = now
        else:
            self.collector += now - self._since

    def __enter__(self) -> CodeClock:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *_exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def seconds(self, call: Callable[[], T]) -> tuple[float, T]:
        """Run ``call``; return the processor seconds it took outside the collector, and its value."""
        before_gc, t0 = self.collector, time.process_time()
        value = call()
        return time.process_time() - t0 - (self.collector - before_gc), value
