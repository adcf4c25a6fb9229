"""A helper for the tests of pausing generators (the set decoders, the search filter): drive one to its value."""

from __future__ import annotations

from collections.abc import Generator
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
