"""One budget for every long call: time, nodes, memory and cancel, and when to report progress.

The caller creates a :class:`Budget` and passes it down: the solver
(:func:`pyapp.search.solver.search`), every analysis (hint, finishes, count, fewest) and the bench
take one.  A long call is a *step generator*: it yields a :class:`Progress` whenever
:meth:`Budget.report_due` says a report is due (about every ``slice_seconds``) and returns
its answer (``StopIteration.value``).  Between two steps the caller may

* :meth:`Budget.cancel`: the call notices at its next check (within one slice) and returns
  what it has, marked ``cancelled``;
* close the generator: the call is abandoned without an answer.

:func:`drive` runs a step generator to the end.  :meth:`Budget.share` hands a part of what is
left to a sub-call (hint asks the solver once per jump): the share has its own time and node
limits, nodes spent under it count for its parent too, and cancelling either cancels both.

Time is read from the budget's clock: the wall clock by default (what a person waits for), or
:data:`CPU_CLOCK`, this process's CPU time, so that a run on a loaded machine gets the same
work as on a quiet one (the tables and bench rows of the complete solver use it; shares inherit
it).  Progress reports stay on the wall clock: they are for the person watching.

Nodes are whatever unit of work the call counts (search nodes, positions expanded); memory
is a ceiling in bytes (the caller's, else :data:`DEFAULT_MAX_BYTES`) that each call turns into
the number of entries it may store (:meth:`Budget.room`), so no call has a fixed cap on positions.

>>> b = Budget(max_nodes=100)
>>> b.spend(60); b.over(), b.remaining_nodes()
(False, 40)
>>> part = b.share(2)
>>> part.max_nodes, part.spend(25), part.over(), b.nodes
(20, None, True, 85)
>>> b.cancel(); part.cancelled, b.why()
(True, 'cancelled')
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, TypeVar

from .errors import PegError

T = TypeVar("T")
Clock = Callable[[], float]

WALL_CLOCK: Clock = time.perf_counter
"""The default clock of a budget: seconds as a person waits for them."""
CPU_CLOCK: Clock = time.process_time
"""This process's CPU seconds (in Pyodide, ``clock()``: the worker's own time)."""

DEFAULT_SLICE_SECONDS = 0.05
"""How often a long call reports progress (and so how soon it sees a cancel)."""
DEFAULT_MAX_BYTES = 1 << 30
"""The memory ceiling when the caller sets none: a browser tab's safe share (1 GiB)."""
MIN_SHARE_SECONDS = 0.005
"""The smallest time share handed to a sub-call (so every sub-call gets a real try)."""


@dataclass(frozen=True)
class Progress:
    """A progress report: the work done so far."""

    nodes: int
    entries: int
    seconds: float
    depth: int
    note: str = ""
    """What the call is doing, for analyses made of several searches (e.g. 'jump 3 of 8')."""


class BudgetSpent(Exception):
    """Raised by :meth:`Budget.check` inside a call that cannot yield (caught by that call)."""


class Budget:
    """Limits on one long call (any of them may be None: no limit) and its cancel flag."""

    def __init__(self, max_seconds: float | None = None, max_nodes: int | None = None,
                 max_bytes: int | None = None, *, slice_seconds: float = DEFAULT_SLICE_SECONDS,
                 parent: Budget | None = None, clock: Clock | None = None) -> None:
        if max_seconds is not None and not max_seconds > 0:
            raise PegError(f"a time budget must be above 0 seconds, not {max_seconds!r}")
        if max_nodes is not None and max_nodes < 0:
            raise PegError(f"a node budget must be 0 or more, not {max_nodes!r}")
        if max_bytes is not None and max_bytes <= 0:
            raise PegError(f"a memory ceiling must be above 0 bytes, not {max_bytes!r}")
        self.max_seconds = max_seconds
        self.max_nodes = max_nodes
        self.max_bytes = max_bytes
        self.slice_seconds = slice_seconds
        self.parent = parent
        self.clock: Clock = clock if clock is not None else parent.clock if parent is not None else WALL_CLOCK
        """Where the time limit is read (a share keeps its parent's)."""
        self.t0 = self.clock()
        self.deadline = None if max_seconds is None else self.t0 + max_seconds
        self.nodes = 0
        """Nodes spent under this budget (and its shares) so far."""
        self._root: Budget = parent._root if parent is not None else self
        self._cancelled = False
        self._expired = False
        self._last_report = time.perf_counter()

    def __repr__(self) -> str:
        cpu = ", clock=CPU_CLOCK" if self.clock is CPU_CLOCK else ""
        return (f"Budget(max_seconds={self.max_seconds!r}, max_nodes={self.max_nodes!r}, "
                f"max_bytes={self.max_bytes!r}{cpu}, nodes={self.nodes})")

    # ------------------------------------------------------------ spending
    def spend(self, nodes: int) -> None:
        """Count ``nodes`` more nodes of work, here and in every budget this one is a share of."""
        b: Budget | None = self
        while b is not None:
            b.nodes += nodes
            b = b.parent

    def cancel(self) -> None:
        """Ask the call (and every share of its budget) to stop and answer with what it has."""
        self._root._cancelled = True

    @property
    def cancelled(self) -> bool:
        return self._root._cancelled

    def elapsed(self) -> float:
        """Seconds spent so far, on the budget's clock."""
        return self.clock() - self.t0

    def remaining_seconds(self) -> float | None:
        if self.deadline is None:
            return None
        return 0.0 if self.out_of_time() else max(0.0, self.deadline - self.clock())

    def remaining_nodes(self) -> int | None:
        return None if self.max_nodes is None else max(0, self.max_nodes - self.nodes)

    def over(self) -> bool:
        """True when the call must stop: cancelled, out of its own time or nodes, or a budget it is a share of
        expired (:meth:`expire`).  A share's limits are cut from its parent's, so the parent's running out
        needs no check: a share keeps its minimum try even when the parent's time is up."""
        if self._root._cancelled:
            return True
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            return True
        return self.out_of_time()

    def expire(self) -> None:
        """End this budget's time now (not its parent's), and that of every share of it, even one handed out
        before: the call answers with what it has at its next check, as when its time runs out (a scheduler
        taking back a paused search's turn; a share that outlived it would hold the turn past the budget)."""
        self.deadline = self.clock()
        self._expired = True

    def out_of_time(self) -> bool:
        if self.deadline is not None and self.clock() >= self.deadline:
            return True
        b = self.parent
        while b is not None:
            if b._expired:
                return True
            b = b.parent
        return False

    def check(self) -> None:
        """Raise :class:`BudgetSpent` when :meth:`over` (for calls that cannot yield, e.g. recursions)."""
        if self.over():
            raise BudgetSpent

    def why(self) -> str:
        """Why the call stopped early: ``cancelled`` or ``budget spent``."""
        return "cancelled" if self.cancelled else "budget spent"

    def ceiling(self) -> int:
        """The memory ceiling in bytes: the caller's, else :data:`DEFAULT_MAX_BYTES`."""
        return self.max_bytes if self.max_bytes is not None else DEFAULT_MAX_BYTES

    def room(self, bytes_each: int, parts: int = 1) -> int:
        """How many entries of about ``bytes_each`` bytes fit in one of ``parts`` equal parts of
        the memory ceiling (at least one)."""
        return max(1, self.ceiling() // parts // bytes_each)

    def entries(self, limit: int | None, bytes_each: int) -> int:
        """How many entries of ``bytes_each`` bytes a call may store: what fits in the memory ceiling,
        or the caller's ``limit`` if lower."""
        room = self.room(bytes_each)
        return room if limit is None else min(limit, room)

    def full(self, entries: int, bytes_each: int) -> str:
        """Why a call sized by :meth:`entries` stopped for room: the memory ceiling, or the caller's limit."""
        if entries == self.room(bytes_each):
            return f"memory ceiling of {self.ceiling() // 2**20} MB reached"
        return f"position limit of {entries:,} reached"

    # ------------------------------------------------------------ progress and shares
    def report_due(self) -> bool:
        """True about every ``slice_seconds`` (shared with the budget's shares): time to yield progress."""
        root = self._root
        now = time.perf_counter()
        if now - root._last_report >= root.slice_seconds * 0.9:
            root._last_report = now
            return True
        return False

    def share(self, parts: int, *, seconds: float | None = None, nodes: int | None = None) -> Budget:
        """A budget for one of ``parts`` sub-calls: an equal share of the time and nodes left
        (at least :data:`MIN_SHARE_SECONDS`, one node; ``seconds`` instead of the time share
        when given, and at most ``nodes`` nodes when given), the same memory ceiling, clock and cancel flag."""
        parts = max(parts, 1)
        left = self.remaining_seconds()
        if seconds is None and left is not None:
            seconds = max(left / parts, MIN_SHARE_SECONDS)
        nodes_left = self.remaining_nodes()
        shared = None if nodes_left is None else max(nodes_left // parts, 1)
        nodes = shared if nodes is None else nodes if shared is None else min(nodes, shared)
        return Budget(seconds, nodes, self.max_bytes, slice_seconds=self.slice_seconds, parent=self)

    def progress(self, nodes: int | None = None, entries: int = 0, depth: int = 0, note: str = "") -> Progress:
        """A :class:`Progress` of this budget's work (``nodes`` defaults to the nodes spent)."""
        return Progress(self.nodes if nodes is None else nodes, entries, self.elapsed(), depth, note)


def budget_of(budget: Budget | None, max_seconds: float | None = None, max_nodes: int | None = None,
              slice_seconds: float = DEFAULT_SLICE_SECONDS) -> Budget:
    """``budget``, or a new one from the older keyword limits (so callers may pass either)."""
    if budget is not None:
        return budget
    return Budget(max_seconds, max_nodes, slice_seconds=slice_seconds)


def drive(steps: Generator[Any, None, T], on_progress: Callable[[Any], object] | None = None,
          should_stop: Callable[[], bool] | None = None, budget: Budget | None = None) -> T:
    """Run a step generator to its answer; ``should_stop`` returning True cancels ``budget``
    (the call then answers with what it has)."""
    try:
        while True:
            item = next(steps)
            if on_progress is not None:
                on_progress(item)
            if should_stop is not None and budget is not None and not budget.cancelled and should_stop():
                budget.cancel()
    except StopIteration as stop:
        return stop.value


def wasm_heap_bytes() -> int | None:
    """Size of the WebAssembly heap under Pyodide (None elsewhere): the page's memory figure, read
    here (not in the benchmark) so an answer that reports it costs no import of the benchmark."""
    if sys.platform != "emscripten":
        return None
    try:
        import pyodide_js  # only exists inside Pyodide (mypy: ignore_missing_imports in pyproject.toml)

        return int(pyodide_js._module.HEAP8.length)
    except Exception:
        return None
