"""The in-process exact counts the parallel back ends are compared with, each computed once per test process.

The sharded, relayed and Dask counts of a problem must equal :func:`pyapp.exact.count.count_exact` run in one
process; several tests (and files) compare with the same problems, so the reference is counted once here and
only read by the tests (a :class:`pyapp.exact.count` answer is not changed by its readers)."""

from __future__ import annotations

import functools

from pyapp.core.request import build
from pyapp.exact.count import count_exact


@functools.cache
def in_process_count(board: str, start: str | None = None, goal: str | None = None):
    """``count_exact`` of the game ``board`` (its default problem, or ``start`` -> ``goal``), in this process."""
    return count_exact(build(board, start=start, goal=goal).problem)
