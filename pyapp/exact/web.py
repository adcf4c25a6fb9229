"""The exact analyses as web-worker jobs: step generators with per-level progress, cancel and budgets.

``webapi`` registers the streaming requests ``count_exact`` (``levels: true`` for the level
histogram) and ``fewest_exact``, and the one-shot ``exact_estimate`` that the page asks
before starting, so it can say how long a big board will take.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from .. import fields
from ..budget import Budget
from ..errors import PegError
from ..problem import Problem
from .count import count_steps
from .fewest import fewest_steps
from .levels import levels_steps
from .report import count_json, fewest_json, levels_json
from .setup import sides

DEFAULT_SECONDS = 600.0
DEFAULT_MEGABYTES = 900
"""The browser's default memory ceiling: under the 1 GB a Pyodide worker can count on."""

MICROSECONDS_PER_POSITION = 12.0
"""Measured CPython cost of one canonical position of a sweep (English central count: about
9.6 million positions in about 110 s of CPU), the basis of :func:`estimate`."""
BROWSER_FACTOR = 2.5
"""Pyodide in Chromium against CPython on the same machine, measured by the bench rows."""


def budget_from(args: dict) -> Budget:
    """The caller's budget: ``max_seconds`` (default 600) and ``max_memory_mb`` (default 900)."""
    seconds = fields.number(args, "max_seconds", DEFAULT_SECONDS)
    megabytes = fields.number(args, "max_memory_mb", DEFAULT_MEGABYTES, low=1, high=1_000_000)
    return Budget(seconds, max_bytes=int(megabytes * 1_000_000))


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


def job(problem: Problem, args: dict
        ) -> tuple[Generator[Any, None, Any], Callable[[Any], Any], Callable[[Any], Any], Budget]:
    """``(generator, finish, progress, budget)`` for :class:`pyapp.webjobs.Job`: ``args['analysis']``
    is ``count``, ``levels`` or ``fewest``; a cancel makes the analysis answer 'unknown: cancelled'
    at its next chunk."""
    kind = args.get("analysis", "count")
    if kind not in ("count", "levels", "fewest"):
        raise PegError(f"unknown exact analysis {kind!r}: expected count, levels or fewest")
    budget = budget_from(args)
    gen: Generator[Any, None, Any]
    finish: Callable[[Problem, Any], dict]
    if kind == "count":
        gen, finish = count_steps(problem, budget), count_json
    elif kind == "levels":
        gen, finish = levels_steps(problem, budget), levels_json
    else:
        gen, finish = fewest_steps(problem, budget), fewest_json
    last: dict[str, Any] = {}

    def progress(p: Any) -> dict:
        last.update(p.as_dict())
        return last

    return gen, lambda result: finish(problem, result), progress, budget
