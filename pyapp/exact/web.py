"""The exact analyses as web-worker jobs: step generators with per-level progress, cancel and budgets.

``webapi`` registers the streaming requests ``count_exact`` (``levels: true`` for the level
histogram) and ``fewest_exact``, and the one-shot ``exact_estimate`` that the page asks
before starting, so it can say how long a big board will take.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from typing import Any

from ..errors import PegError
from ..problem import Problem
from .count import count_steps
from .fewest import fewest_steps
from .levels import levels_steps
from .report import count_json, fewest_json, levels_json
from .setup import Limits, sides

DEFAULT_SECONDS = 600.0
DEFAULT_MEGABYTES = 900
"""The browser's default memory ceiling: under the 1 GB a Pyodide worker can count on."""

MICROSECONDS_PER_POSITION = 12.0
"""Measured CPython cost of one canonical position of a sweep (English central count: about
9.6 million positions in about 110 s of CPU), the basis of :func:`estimate`."""
BROWSER_FACTOR = 2.5
"""Pyodide in Chromium against CPython on the same machine, measured by the bench rows."""


def _number(args: dict, key: str, default: float, low: float, high: float) -> float:
    value = args.get(key)
    if value is None or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise PegError(f"{key} must be a number from {low:g} to {high:g}, not {value!r}")
    return float(value)


def limits_from(args: dict, cancelled: Callable[[], bool] | None = None) -> Limits:
    """The caller's budget: ``max_seconds`` (default 600) and ``max_memory_mb`` (default 900)."""
    seconds = _number(args, "max_seconds", DEFAULT_SECONDS, 0.1, 86_400)
    megabytes = _number(args, "max_memory_mb", DEFAULT_MEGABYTES, 10, 16_000)
    return Limits(max_seconds=seconds, max_bytes=int(megabytes * 1_000_000), cancelled=cancelled)


def estimate(problem: Problem) -> dict:
    """A rough time estimate before a sweep starts: positions from the board's size and symmetry.

    Single-vacancy games on n holes reach roughly ``2 ** (0.8 n)`` positions before symmetry
    (English: 188 million, 23.5 million up to its 8 symmetries); the meeting sweeps of
    ``count`` store about 40% of them.  An order of magnitude, said as such on the page.
    """
    s = sides(problem)
    free = s.first_pegs - s.last_pegs
    reachable = min(2.0 ** (0.8 * min(s.holes, free + 2)), 2.0 ** s.holes) / len(s.codec.group)
    seconds = reachable * 0.4 * MICROSECONDS_PER_POSITION / 1e6
    return {"holes": s.holes, "symmetries": len(s.codec.group), "positions": round(reachable),
            "seconds": round(seconds, 1), "browser_seconds": round(seconds * BROWSER_FACTOR, 1),
            "big": seconds * BROWSER_FACTOR > 10}


def job(problem: Problem, args: dict) -> tuple[Generator, Callable[[Any], Any], Callable[[Any], Any], Callable[[], Any]]:
    """``(generator, finish, progress, cancelled)`` for ``webapi.Job``: ``args['analysis']`` is
    ``count``, ``levels`` or ``fewest``."""
    kind = args.get("analysis", "count")
    steps = {"count": count_steps, "levels": levels_steps, "fewest": fewest_steps}.get(kind)
    if steps is None:
        raise PegError(f"unknown exact analysis {kind!r}: expected count, levels or fewest")
    finish = {"count": count_json, "levels": levels_json, "fewest": fewest_json}[kind]
    limits = limits_from(args)
    t0 = time.perf_counter()
    last: dict[str, Any] = {}

    def progress(p: Any) -> dict:
        last.update(p.as_dict())
        return last

    def cancelled() -> dict:
        return {"status": "unknown", "reason": "cancelled", "progress": dict(last),
                "seconds": round(time.perf_counter() - t0, 3)}

    return steps(problem, limits), lambda result: finish(problem, result), progress, cancelled
