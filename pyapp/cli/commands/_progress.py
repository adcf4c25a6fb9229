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
        if not self._due():
            return
        word = plural(done, self.unit).split(" ", 1)[1]
        tail = f" ({detail})" if detail else ""
        self._line(f"{done:,} {word}", seconds, tail)

    def _due(self) -> bool:
        now = time.perf_counter()
        if now < self.next:
            return False
        self.next = now + self.every
        return True

    def _line(self, what: str, seconds: float | None, tail: str = "") -> None:
        spent = time.perf_counter() - self.t0 if seconds is None else seconds
        print(f"{self.label}: {what}, {spent:.1f} s{tail}", file=self.stream, flush=True)
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

    def pool(self, progress) -> None:
        """Adapter for a pool's reports (:func:`pyapp.analysis.spread.spread_steps`): its note, one line for
        every worker (``LABEL: hole shares: 1 of 2 done on 2 workers, 4.0 s``; the time is this run's)."""
        if self._due():
            self._line(progress.note, None)
