"""One interface for every linear and integer programme: the model is built here, a back end solves it.

The prover's programmes (pagoda learning, :mod:`.pagoda`; pagoda separation, :mod:`.separation`; the
level search's cuts, :mod:`pyapp.search.cuts`; the time-indexed integer programme,
:mod:`pyapp.search.ilp`) all build a :class:`Model` (columns with bounds, a cost and integrality; sparse
rows with bounds; a sense; a time limit) and hand it to :func:`solve_steps` (or :func:`solve`).  The
back end is HiGHS in both runtimes (:mod:`.lp_backends`): ``highspy`` under CPython, the ``highs``
WebAssembly module through Pyodide's FFI in the page's workers.  Both are HiGHS 1.15.1, so one model
gets one answer in both.

A solve is one atomic call bounded by the model's time limit: callers that must stay cancellable (the
web jobs drive step generators) pause between programmes.  :func:`solve_steps` pauses only while the
WebAssembly back end is still loading (the worker fetches it the first time a programme is asked for).

A back end that is missing, fails to load, times out or errors answers a :class:`Solution` whose
``status`` says so (``unavailable``, ``time limit``, ``error``), never an exception: callers then go
on without the programme's proof.  Every answer used as a proof is checked exactly by its caller
(integer pagodas on every jump, replayed jumps), so a numerical slip can lose a proof, never make a
wrong one.

>>> m = Model(sense="max")
>>> x, y = m.add_var(0, 3, cost=1), m.add_var(0, None, cost=1)
>>> m.add_row({x: 1, y: 2}, upper=4)
0
>>> s = solve(m)
>>> s.status, round(s.objective, 6), [round(v, 6) for v in s.x]
('optimal', 3.5, [3.0, 0.5])
"""

from __future__ import annotations

import math
import time
from collections.abc import Generator

from .lp_backends import choose
from .lp_model import INF, LP_SECONDS, Backend, Model, Solution, Status

__all__ = ["INF", "LOAD_SECONDS", "LP_SECONDS", "Backend", "Model", "Solution", "Status", "backend", "describe",
           "solve", "solve_steps", "use_backend"]

LOAD_SECONDS = 60.0
"""Longest wait for the WebAssembly back end to load before programmes are answered ``unavailable``."""


_backend: Backend | None = None


def backend() -> Backend:
    """The back end of this runtime, chosen once (:func:`pyapp.proofs.lp_backends.choose`)."""
    global _backend
    if _backend is None:
        _backend = choose()
    return _backend


def use_backend(b: Backend | None) -> Backend | None:
    """Replace the back end (None: choose again on next use); returns the previous one.  For tests,
    which simulate a missing or failing back end."""
    global _backend
    old, _backend = _backend, b
    return old


def solve_steps(model: Model, *, wait: bool = True) -> Generator[None, None, Solution]:
    """Solve ``model``; pause (yield) only while the back end is still loading, at most
    :data:`LOAD_SECONDS` (``wait=False``: do not wait, answer ``unavailable`` at once)."""
    b = backend()
    state = b.state()
    if state == "loading" and wait:
        end = time.perf_counter() + LOAD_SECONDS
        while state == "loading" and time.perf_counter() < end:
            yield
            state = b.state()
    if state != "ready":
        why = "still loading" if state == "loading" else state.removeprefix("failed: ")
        return Solution("unavailable", backend=b.name, message=f"linear programming back end unavailable ({why})")
    try:
        return b.run(model)
    except Exception as err:  # a back end's own failure is an answer, never a crash
        return Solution("error", backend=b.name, message=f"{b.name} failed: {type(err).__name__}: {err}")


def solve(model: Model) -> Solution:
    """:func:`solve_steps` without pauses: a back end still loading answers ``unavailable``."""
    gen = solve_steps(model, wait=False)
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value


def describe(s: Solution) -> str:
    """One line saying what a programme came to, for ``unknown`` answers and proofs."""
    if s.status in ("unavailable", "error"):
        return s.message
    parts = [s.status, f"{s.backend}"]
    if s.nodes or s.gap is not None:  # an integer programme: its branch-and-bound nodes, even none
        parts.append(f"{s.nodes} node{'' if s.nodes == 1 else 's'}")
    parts.append(f"{s.seconds:.2f} s")
    if s.gap is not None and s.status in ("time limit", "node limit"):
        parts.append(f"gap {'inf' if math.isinf(s.gap) else f'{100 * s.gap:.1f} %'}")
    return ", ".join(parts)
