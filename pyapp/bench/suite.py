"""The benchmark suite: one definition shared by every runtime.

CPython (``python -m pyapp bench``), Pyodide under Node (``node scripts/bench_pyodide.mjs``)
and Pyodide in the browser worker (``bench.html``) all run :func:`iter_suite`, which yields
one JSON-able row per benchmark as soon as it is measured, so every runtime reports the same
rows measured the same way.

Each row runs its work ``repeat`` times (a seed row runs once per seed instead), times every
run with the wall clock (``perf_counter``) and the CPU clock (``process_time``) (a run under
2 ms is re-timed as the mean of enough calls to fill 20 ms: browsers coarsen their clocks), and then
*checks its own answer*, outside the timed part (the rows and their checks are in
:mod:`pyapp.bench.cases`: replayed solutions, re-derived proofs, an independent exhaustive
oracle on small boards).  A wrong answer is never hidden: the row's ``check`` starts with
``WRONG``.  A budget spent without an answer is ``unanswered`` (and the row is not repeated:
that would only time the budget again).

The rows run one after the other by default, so no row's timing is skewed by another's; ``bench --workers N``
measures them side by side on a pool (:func:`row_task`), for the answers rather than the timings.

Peak memory is the ``tracemalloc`` peak of one extra, untimed run of the slowest case (tracing
slows Python down, so it never overlaps the timed runs).  Under Pyodide the row also carries the
size of the WebAssembly heap after the row (it only grows, so it bounds the peak from above).
"""

from __future__ import annotations

import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..core.budget import Budget, wasm_heap_bytes
from .cases import cases
from .rows import ORACLE_MAX_HOLES, SEEDS, Case, Oracle, Outcome, oracle, replay_error

__all__ = ["ORACLE_MAX_HOLES", "SEEDS", "Case", "Oracle", "Outcome", "cases", "environment",
           "format_row_line", "format_table", "iter_suite", "names", "oracle", "replay_error", "row_task",
           "run_case", "run_options", "run_suite", "select", "wrong_rows"]

DEFAULT_REPEAT = 5
QUICK_REPEAT = 1
QUICK_SEEDS = 5
BUDGET_SECONDS = 60.0
"""Time budget of one run in a full run (a run that spends it is ``unanswered``)."""
QUICK_BUDGET_SECONDS = 10.0
SHORT_RUN_SECONDS = 0.002
"""A run shorter than this is re-timed as the mean of many calls (see :func:`_amortised`)."""
AMORTISE_SECONDS = 0.02
AMORTISE_MAX_CALLS = 1000


# ---------------------------------------------------------------------------- running

def environment() -> dict:
    """Which runtime measured the rows."""
    impl = sys.implementation.name
    runtime = f"{impl} {sys.version.split()[0]}"
    if sys.platform == "emscripten":
        try:
            import pyodide  # type: ignore[import-not-found]

            runtime = f"Pyodide {pyodide.__version__} ({runtime})"
        except ImportError:
            runtime = f"emscripten ({runtime})"
    return {"runtime": runtime, "platform": sys.platform,
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}


def _median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else 0.0


def _amortised(case: Case, i: int, budget: Callable[[], Budget], first: float) -> tuple[float, float]:
    """Wall and CPU seconds of one call of a very short run, as the mean of enough calls to fill
    about :data:`AMORTISE_SECONDS` (browsers coarsen their clocks to 0.1 ms, so one call is unmeasurable)."""
    k = max(2, min(AMORTISE_MAX_CALLS, int(AMORTISE_SECONDS / max(first, 1e-6))))
    c0 = time.process_time()
    t0 = time.perf_counter()
    for _ in range(k):
        case.work(i, budget())
    return (time.perf_counter() - t0) / k, (time.process_time() - c0) / k


def run_case(case: Case, *, repeat: int, quick: bool, memory: bool, budget: float,
             max_nodes: int | None = None) -> dict:
    """Run one case and return its row; each run gets a fresh budget of ``budget`` seconds (and
    ``max_nodes`` nodes: node budgets make rows reproducible on a loaded machine)."""

    def fresh() -> Budget:
        return Budget(budget, max_nodes)

    runs = (min(case.seeds, QUICK_SEEDS) if quick else case.seeds) if case.seeds else repeat
    if case.runs is not None:
        runs = min(runs, case.runs)
    walls: list[float] = []
    cpus: list[float] = []
    outcomes: list[Outcome] = []
    row: dict[str, Any] = {"name": case.name, "title": case.title, "expected": case.expected,
                           "target": case.target, "runs": runs}
    try:
        for i in range(runs):
            c0 = time.process_time()
            t0 = time.perf_counter()
            raw = case.work(i, fresh())
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            if wall < SHORT_RUN_SECONDS:
                wall, cpu = _amortised(case, i, fresh, wall)
            walls.append(wall)
            cpus.append(cpu)
            outcomes.append(case.check(i, raw))
            if not case.seeds and outcomes[0].unanswered:
                break  # the first run spent the whole budget: repeating it would only time the budget again
    except Exception as err:  # a crash is a wrong answer too: report it, keep measuring the other rows
        row.update(status="error", answer="", check=f"WRONG: raised {type(err).__name__}: {err}", nodes=None,
                   entries=None, median_s=None, worst_s=None, cpu_median_s=None, peak_mb=None, memory=None, met=None)
        return row
    runs = row["runs"] = len(outcomes)
    wrong = [(i, o.wrong) for i, o in enumerate(outcomes) if o.wrong]
    unanswered = [(i, o.unanswered) for i, o in enumerate(outcomes) if o.unanswered]
    label = "seed" if case.seeds else "run"
    if wrong:
        check = "WRONG: " + "; ".join(f"{label} {i}: {w}" for i, w in wrong[:3])
    elif unanswered:
        check = f"unanswered in {len(unanswered)} of {runs} runs: " + "; ".join(
            f"{label} {i}: {u}" for i, u in unanswered[:3])
    else:
        check = "ok"
    answers = sorted({o.answer for o in outcomes})
    if len(answers) == 1:
        answer = answers[0]
    else:
        statuses = sorted({o.status for o in outcomes})
        tally = ", ".join(f"{s} in {sum(o.status == s for o in outcomes)} of {runs}" for s in statuses)
        answer = f"{tally} {label}s (e.g. {outcomes[0].answer})"
    worst = max(range(runs), key=lambda i: walls[i])
    peak_mb = None
    estimated = [o.peak_bytes for o in outcomes if o.peak_bytes is not None]
    if not case.traced:
        memory = False
        peak_mb = round(max(estimated) / 2**20, 3) if estimated else None
    if memory:
        tracemalloc.start()
        try:
            case.work(worst, fresh())
            peak_mb = round(tracemalloc.get_traced_memory()[1] / 2**20, 3)
        finally:
            tracemalloc.stop()
    median_s, worst_s = _median(walls), max(walls)
    lim_med, lim_worst = case.limits
    met = None
    if check == "ok" and (lim_med is not None or lim_worst is not None):
        met = (lim_med is None or median_s < lim_med) and (lim_worst is None or worst_s < lim_worst)
    heap = wasm_heap_bytes()
    row.update(
        status=outcomes[0].status if len({o.status for o in outcomes}) == 1 else "mixed",
        answer=answer, check=check,
        nodes=int(_median([o.nodes for o in outcomes])), nodes_max=max(o.nodes for o in outcomes),
        entries=int(_median([o.entries for o in outcomes])), entries_max=max(o.entries for o in outcomes),
        median_s=round(median_s, 6), worst_s=round(worst_s, 6), cpu_median_s=round(_median(cpus), 6),
        peak_mb=peak_mb, memory=("tracemalloc peak of one untimed run of the slowest case" if memory else
                                 "the analysis's own estimate of what it held" if peak_mb is not None else None),
        wasm_heap_mb=None if heap is None else round(heap / 2**20, 1), met=met,
        per_run=[{"seconds": round(w, 6), "nodes": o.nodes} for w, o in zip(walls, outcomes)] if case.seeds else None,
    )
    return row


def names() -> list[str]:
    """The row names, in suite order."""
    return [c.name for c in cases()]


def select(*, quick: bool = False, only: Sequence[str] | None = None) -> list[Case]:
    """The cases a run covers: ``only`` names (any mode), else the quick subset or everything."""
    every = cases()
    if only:
        known = {c.name for c in every}
        unknown = [n for n in only if n not in known]
        if unknown:
            from ..core.errors import PegError

            raise PegError(f"unknown benchmark {', '.join(map(repr, unknown))}: expected one of {', '.join(known)}")
        return [c for c in every if c.name in set(only)]
    return [c for c in every if c.quick] if quick else every


def run_options(quick: bool = False, repeat: int | None = None, memory: bool | None = None,
                budget: float | None = None, max_nodes: int | None = None) -> dict:
    """The keyword arguments of :func:`run_case` for a run (the defaults of :func:`iter_suite` filled in)."""
    if repeat is None:
        repeat = QUICK_REPEAT if quick else DEFAULT_REPEAT
    if memory is None:
        memory = not quick
    if budget is None:
        budget = QUICK_BUDGET_SECONDS if quick else BUDGET_SECONDS
    return {"repeat": max(1, int(repeat)), "quick": quick, "memory": memory, "budget": budget,
            "max_nodes": max_nodes}


def iter_suite(quick: bool = False, repeat: int | None = None, only: Sequence[str] | None = None,
               memory: bool | None = None, budget: float | None = None,
               max_nodes: int | None = None) -> Iterator[dict]:
    """Run the suite, yielding one JSON-able row dict per benchmark as soon as it is measured.

    ``quick``: the cheap subset, one run each (five seeds), no memory run: meant for CI.
    ``repeat``: runs per row (default 5, quick 1).  ``memory``: add the tracemalloc run
    (default: on unless quick).  ``budget``: seconds allowed to one run; ``max_nodes``: nodes
    allowed to one run (none by default).
    """
    options = run_options(quick, repeat, memory, budget, max_nodes)
    for case in select(quick=quick, only=only):
        yield run_case(case, **options)


def row_task(job: tuple[str, dict]) -> dict:
    """One row measured in a pool worker (``bench --workers N``; ``job``: the row's name and
    :func:`run_options`): the case is rebuilt there by name, since a case holds closures that do not pickle,
    and the row comes back as the plain JSON-able dict :func:`run_case` makes.  Rows measured side by
    side share the machine, so their timings are not those of rows run one at a time; their answers are."""
    name, options = job
    (case,) = select(only=[name])
    return run_case(case, **options)


def run_suite(**options) -> list[dict]:
    """Every row of :func:`iter_suite` as a list."""
    return list(iter_suite(**options))


def wrong_rows(rows: Sequence[dict]) -> list[dict]:
    """The rows whose answer failed its check."""
    return [r for r in rows if str(r.get("check", "")).startswith("WRONG")]


# ---------------------------------------------------------------------------- formatting

def fmt_seconds(s: float | None) -> str:
    """``'12.3 ms'`` below a second, ``'1.23 s'`` above."""
    if s is None:
        return "-"
    if s < 1:
        return f"{s * 1000:.1f} ms" if s >= 0.001 else f"{s * 1e6:.0f} us"
    return f"{s:.2f} s"


def format_row_line(row: dict) -> str:
    """One line per row, for progress output."""
    return (f"{row['name']}: {row.get('answer') or row.get('status')}; median {fmt_seconds(row.get('median_s'))}, "
            f"worst {fmt_seconds(row.get('worst_s'))}; {row.get('check')}")


def format_table(rows: Sequence[dict]) -> str:
    """The rows as a Markdown table (pasted as-is into BENCHMARKS.md)."""
    head = ["row", "answer", "check", "nodes", "entries", "runs", "median", "worst", "CPU median", "peak MB",
            "target", "met"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for r in rows:
        mb = r.get("peak_mb")
        peak = "-" if mb is None else f"{mb:.1f}" if mb >= 1 else f"{mb:.2f}"
        if r.get("wasm_heap_mb") is not None:
            peak += f" (heap {r['wasm_heap_mb']:.0f})"
        met = {True: "yes", False: "NO", None: "-"}[r.get("met")]
        nodes = "-" if r.get("nodes") is None else f"{r['nodes']:,}"
        entries = "-" if r.get("entries") is None else f"{r['entries']:,}"
        cells = [r["name"], (r.get("answer") or r.get("status") or "").replace("|", "/"),
                 str(r.get("check")).replace("|", "/"), nodes, entries, str(r.get("runs")),
                 fmt_seconds(r.get("median_s")), fmt_seconds(r.get("worst_s")), fmt_seconds(r.get("cpu_median_s")),
                 peak, r.get("target") or "-", met]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
