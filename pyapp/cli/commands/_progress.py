"""Progress of long analyses on stderr, so a run of many seconds is never silent.

Quiet for the first :data:`FIRST_SECONDS` (short runs print nothing), then one line at most
every :data:`EVERY_SECONDS` with the work done so far, as the analysis reports it (positions
or nodes: real counts, not a guess), and a closing line when anything was printed.  Only
stderr is used, so ``--json`` output on stdout stays one JSON object.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from ...core.wording import plural

FIRST_SECONDS = 2.0
EVERY_SECONDS = 2.0


class StderrProgress:
    """Call it with ``(done, seconds)``; it prints ``LABEL: 1,234,567 positions, 4.0 s`` now and then."""

    def __init__(self, label: str, unit: str = "position", *, stream: TextIO | None = None,
                 first: float | None = None, every: float | None = None) -> None:
        self.label, self.unit = label, unit
        self.stream = stream if stream is not None else sys.stderr
        self.t0 = time.perf_counter()
        self.next = self.t0 + (FIRST_SECONDS if first is None else first)
        self.every = EVERY_SECONDS if every is None else every
        self.printed = 0

    def __call__(self, done: int, seconds: float | None = None, detail: str = "") -> None:
        now = time.perf_counter()
        if now < self.next:
            return
        self.next = now + self.every
        spent = now - self.t0 if seconds is None else seconds
        word = plural(done, self.unit).split(" ", 1)[1]
        tail = f" ({detail})" if detail else ""
        print(f"{self.label}: {done:,} {word}, {spent:.1f} s{tail}", file=self.stream, flush=True)
        self.printed += 1

    def level(self, progress) -> None:
        """Adapter for the exact analyses' per-level :class:`~pyapp.exact.sweep.Progress` reports."""
        self(progress.total + progress.positions, progress.seconds,
             f"{progress.stage}, level {progress.pegs}: {progress.positions:,} positions, "
             f"{progress.bytes / 1e6:,.0f} MB")

    def nodes(self, progress) -> None:
        """Adapter for :class:`~pyapp.core.budget.Progress` reports (nodes; the time is this run's wall
        clock, since a report from a sub-search counts the seconds of its own share)."""
        self(progress.nodes)
