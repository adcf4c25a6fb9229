"""The benchmark suite: one definition shared by every runtime.

CPython (``python -m pyapp bench``), Pyodide under Node (``node scripts/bench_pyodide.mjs``)
and Pyodide in the browser worker (``bench.html``) all run :func:`iter_suite`, which yields
one JSON-able row per benchmark as soon as it is measured, so every runtime reports the same
rows measured the same way.

Each row runs its work ``repeat`` times (a seed row runs once per seed instead), times every
run with the wall clock (``perf_counter``) and the CPU clock (``process_time``) (a run under
2 ms is re-timed as the mean of enough calls to fill 20 ms: browsers coarsen their clocks), and then
*checks its own answer*, outside the timed part: solutions are replayed jump by jump against
the board's lines, impossibility proofs are re-derived (position classes), and on boards small
enough for it (up to :data:`ORACLE_MAX_HOLES` holes) finishes tables, exact counts and
fewest-move answers are compared with a small memoised exhaustive enumeration written here,
independent of the solver.  A wrong answer is never hidden: the row's ``check`` starts with
``WRONG``.  A budget spent without an answer is ``unanswered`` (and the row is not repeated:
that would only time the budget again); a missing analysis module is ``not available``.

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
from dataclasses import dataclass, field
from typing import Any

from .board import Board
from .catalogue import ENTRIES, get_board
from .moves import Jump, group_moves
from .problem import Problem, default_problem, make_problem
from .solver import solve

ORACLE_MAX_HOLES = 21
"""Boards with at most this many holes get exhaustive cross-checks (2^21 positions at most)."""

DEFAULT_REPEAT = 5
QUICK_REPEAT = 1
SEEDS = 20
QUICK_SEEDS = 5
BUDGET_SECONDS = 60.0
"""Time budget of one solver call in a full run (a run that spends it is ``unanswered``)."""
QUICK_BUDGET_SECONDS = 10.0
SHORT_RUN_SECONDS = 0.002
"""A run shorter than this is re-timed as the mean of many calls (see :func:`_amortised`)."""
AMORTISE_SECONDS = 0.02
AMORTISE_MAX_CALLS = 1000


class NotAvailable(Exception):
    """The row needs an API that this build does not have (e.g. ``pyapp.analysis``)."""


@dataclass
class Outcome:
    """The verified answer of one run."""

    status: str
    answer: str
    nodes: int = 0
    entries: int = 0
    wrong: str | None = None
    """Why the answer is wrong (None when it checked out)."""
    unanswered: str | None = None
    """Why there is no answer (budget spent), when there is none."""


@dataclass(frozen=True)
class Case:
    """One benchmark row: timed work, and an untimed check of what the work returned."""

    name: str
    title: str
    work: Callable[[int, float], Any]
    """``work(run_index, budget_seconds)``: the timed part (a seed row uses the index as the seed)."""
    check: Callable[[int, Any], Outcome]
    """``check(run_index, raw)``: verify the answer and summarise it."""
    expected: str
    """The known answer and where it comes from."""
    quick: bool = False
    seeds: int = 0
    """When > 0 the row runs once per seed ``0..seeds-1`` instead of ``repeat`` times."""
    target: str = ""
    """The goal of issue 4 for this row (measured in Pyodide in Chromium)."""
    limits: tuple[float | None, float | None] = (None, None)
    """Targets in seconds: (median, worst)."""
    tags: tuple[str, ...] = field(default=())


# ---------------------------------------------------------------------------- checking helpers

def _line_set(board: Board) -> set[tuple[int, int]]:
    pairs = set()
    for a, _, c in board.lines:
        pairs.add((a, c))
        pairs.add((c, a))
    return pairs


def replay_error(board: Board, start: int, jumps: Sequence[Jump]) -> tuple[str | None, int]:
    """Replay ``jumps`` from ``start`` against the board's lines; return (error or None, final position)."""
    lines = _line_set(board)
    pos = start
    for i, jump in enumerate(jumps, 1):
        a, b, c = jump
        if (a, c) not in lines or 2 * b != a + c:
            return f"jump {i} {jump} is not along a line of three holes", pos
        if not (pos >> a & 1 and pos >> b & 1) or pos >> c & 1:
            return f"jump {i} ({board.name_of.get(a)}-{board.name_of.get(c)}) is illegal in its position", pos
        pos ^= (1 << a) | (1 << b) | (1 << c)
    return None, pos


def _check_solution(problem: Problem, jumps: Sequence[Jump], final: int | None = None) -> str | None:
    err, pos = replay_error(problem.board, problem.start, jumps)
    if err:
        return f"solution does not replay: {err}"
    if final is not None and pos != final:
        return "replayed final position differs from the reported one"
    if not problem.goal.reached(pos):
        return f"replay ends with {pos.bit_count()} pegs, not at the goal"
    return None


def _class_proof(problem: Problem) -> bool:
    """True when position classes alone prove ``problem`` impossible (re-derived here, not read from the answer)."""
    return problem.goal.obstacle(problem.board, problem.start) is not None


class Oracle:
    """Exhaustive, memoised answers for small boards: the independent check of the analyses."""

    def __init__(self, board: Board) -> None:
        if len(board) > ORACLE_MAX_HOLES:
            raise ValueError(f"board {board.id!r} is too large for the exhaustive oracle")
        self.board = board
        self.moves: list[tuple[int, int, int]] = []
        for a, b, c in board.lines:
            self.moves.append((a, b, c))
            self.moves.append((c, b, a))
        self._finish: dict[int, int] = {}
        self._count: dict[tuple[int, int], int] = {}
        self._fewest: dict[tuple[int, int, int], float] = {}

    def children(self, pos: int) -> Iterator[tuple[int, int, int]]:
        """``(child, src, dst)`` for each legal jump."""
        for a, b, c in self.moves:
            if pos >> a & 1 and pos >> b & 1 and not pos >> c & 1:
                yield pos ^ ((1 << a) | (1 << b) | (1 << c)), a, c

    def finishes(self, pos: int) -> int:
        """Mask of the holes where a single last peg can stand, starting from ``pos``."""
        memo = self._finish
        if pos in memo:
            return memo[pos]
        out = pos if pos.bit_count() == 1 else 0
        for child, _, _ in self.children(pos):
            out |= self.finishes(child)
        memo[pos] = out
        return out

    def count(self, pos: int, goal: int) -> int:
        """Number of jump sequences from ``pos`` to one peg (at ``goal``, or anywhere when ``goal`` is 0)."""
        key = (pos, goal)
        memo = self._count
        if key in memo:
            return memo[key]
        if pos.bit_count() == 1:
            n = 1 if goal in (0, pos) else 0
        else:
            n = sum(self.count(child, goal) for child, _, _ in self.children(pos))
        memo[key] = n
        return n

    def fewest(self, pos: int, goal: int, last: int = -1) -> float:
        """Fewest moves (a peg's chain of jumps is one move) from ``pos`` to one peg; inf if none."""
        key = (pos, goal, last)
        memo = self._fewest
        if key in memo:
            return memo[key]
        if pos.bit_count() == 1:
            best = 0.0 if goal in (0, pos) else float("inf")
        else:
            best = float("inf")
            for child, src, dst in self.children(pos):
                cost = (0 if src == last else 1) + self.fewest(child, goal, dst)
                if cost < best:
                    best = cost
        memo[key] = best
        return best


_ORACLES: dict[str, Oracle] = {}


def oracle(board: Board) -> Oracle:
    """The (cached) oracle of a catalogue board."""
    if board.id not in _ORACLES:
        _ORACLES[board.id] = Oracle(board)
    return _ORACLES[board.id]


def _analysis():
    try:
        from . import analysis  # imported lazily: written separately, may be absent in a build
    except ImportError as err:
        raise NotAvailable(f"pyapp.analysis not available ({err})") from None
    return analysis


def _analysis_fn(name: str):
    fn = getattr(_analysis(), name, None)
    if fn is None:
        raise NotAvailable(f"pyapp.analysis.{name} not available")
    return fn


def _bit(board: Board, key: int) -> int:
    """A hole's bit index from an analysis key (a bit index, or a one-bit mask)."""
    if key in board.name_of:
        return key
    if key > 0 and key & (key - 1) == 0 and key.bit_length() - 1 in board.name_of:
        return key.bit_length() - 1
    raise ValueError(f"analysis returned {key!r}, which is not a hole of {board.id}")


# ---------------------------------------------------------------------------- the cases

def _goal_name(problem: Problem) -> str:
    return problem.goal.short(problem.board)


def _problem(board_id: str, start: str, goal: str) -> Problem:
    return make_problem(get_board(board_id), start=start, goal=goal)


def _solve_case(name: str, title: str, problem: Problem, expected_status: str, source: str, *,
                quick: bool, seeds: int = 0, target: str = "",
                limits: tuple[float | None, float | None] = (None, None)) -> Case:
    def work(i: int, budget: float):
        return solve(problem, seed=i if seeds else None, max_seconds=budget)

    def check(i: int, r) -> Outcome:
        method = getattr(r, "method", "")
        if r.status == "solved":
            answer = f"solved, {len(r.jumps)} jumps / {len(group_moves(r.jumps))} moves" + (
                f" ({method})" if method else "")
        else:
            answer = r.status + (f" ({r.reason})" if r.reason else "")
        out = Outcome(r.status, answer, r.nodes, r.entries)
        if r.status == "solved":
            out.wrong = _check_solution(problem, r.jumps, r.final)
            if out.wrong is None and expected_status == "impossible":
                out.wrong = f"solved a problem known to be impossible ({source})"
        elif r.status == "impossible":
            if expected_status == "solved":
                out.wrong = f"answered impossible, but it is solvable ({source}): {r.reason}"
            elif not _class_proof(problem) and "class" in (r.reason or ""):
                out.wrong = f"claims a position-class proof that does not hold: {r.reason}"
        else:
            out.unanswered = f"{r.status}: {r.reason}"
        return out

    return Case(name, title, work, check, f"{expected_status} ({source})", quick, seeds, target, limits)


def _finishes_case(board_id: str) -> Case:
    board = get_board(board_id)
    pairs = len(board) * len(board)

    def work(i: int, budget: float):
        finishes = _analysis_fn("finishes")
        return [(b, finishes(board, board.mask ^ (1 << b))) for b in board.bits]

    def check(i: int, table) -> Outcome:
        possible = 0
        for b, f in table:
            start = board.mask ^ (1 << b)
            name = board.name_of[b]
            can = {_bit(board, k): v for k, v in dict(f.possible).items()}
            cannot = {_bit(board, k) for k in dict(f.impossible)}
            if set(can) & cannot or set(can) | cannot != set(board.bits):
                return Outcome("wrong", "", wrong=f"start {name}: finishes and impossible do not partition the holes")
            for hole, jumps in can.items():
                err, pos = replay_error(board, start, jumps)
                if err or pos != 1 << hole:
                    why = err or f"ends with {pos.bit_count()} pegs, not one at {board.name_of[hole]}"
                    return Outcome("wrong", "", wrong=f"start {name}, finish {board.name_of[hole]}: {why}")
            if len(board) <= ORACLE_MAX_HOLES:
                truth = oracle(board).finishes(start)
                mask = sum(1 << h for h in can)
                if mask != truth:
                    got = sorted(board.name_of[h] for h in can)
                    want = sorted(board.name_of[h] for h in board.bits if truth >> h & 1)
                    return Outcome("wrong", "", wrong=f"start {name}: finishes {got}, exhaustive search says {want}")
            possible += len(can)
        return Outcome("table", f"{possible} of {pairs} (start, finish) pairs possible, each with a solution")

    return Case(f"{board_id}-finishes", f"{board.title}: finishes table, every start x every finish", work, check,
                "exhaustive enumeration (checked here)", True, 0, "whole table < 2 s", (2.0, None))


def _count_case(board_id: str, start: str, goal: str) -> Case:
    problem = _problem(board_id, start, goal)
    board = problem.board

    def work(i: int, budget: float):
        return _analysis_fn("count_solutions")(problem)

    def check(i: int, n) -> Outcome:
        out = Outcome("counted", f"{n} solutions (jump sequences)")
        if not isinstance(n, int) or n < 0:
            out.wrong = f"count is not a whole number: {n!r}"
        elif len(board) <= ORACLE_MAX_HOLES:
            want = oracle(board).count(problem.start, problem.goal.exact or 0)
            if n != want:
                out.wrong = f"counted {n}, exhaustive enumeration gives {want}"
        return out

    return Case(f"{board_id}-count-{start}-{goal}", f"{board.title}: exact count, {start} -> {_goal_name(problem)}",
                work, check, "exhaustive enumeration (checked here)", True, 0, "< 1 s", (1.0, None))


def _fewest_case(board_id: str, start: str, goal: str) -> Case:
    problem = _problem(board_id, start, goal)
    board = problem.board

    def work(i: int, budget: float):
        return _analysis_fn("fewest_moves")(problem, max_seconds=budget)

    def check(i: int, r) -> Outcome:
        moves = getattr(r, "moves", None)
        out = Outcome(r.status, f"{r.status}, {moves} moves" + (", proven minimal" if r.proven else ", not proven"))
        if r.status == "solved":
            err = _check_solution(problem, r.jumps)
            if err:
                out.wrong = err
            elif len(group_moves(list(r.jumps))) != moves:
                out.wrong = f"reports {moves} moves but its solution has {len(group_moves(list(r.jumps)))}"
            elif len(board) <= ORACLE_MAX_HOLES:
                want = oracle(board).fewest(problem.start, problem.goal.exact or 0)
                if moves < want or (moves > want and r.proven):
                    out.wrong = f"{moves} moves (proven: {r.proven}), exhaustive search gives {want:.0f}"
        elif r.status == "impossible":
            out.wrong = "answered impossible for a solvable problem"
        else:
            out.unanswered = f"{r.status}"
        return out

    return Case(f"{board_id}-fewest-{start}-{goal}", f"{board.title}: fewest moves, {start} -> {_goal_name(problem)}",
                work, check, "exhaustive search over moves (checked here)", True, 0, "", (None, None))


def _cap_case(board_id: str, cap: int, seconds: float) -> Case:
    """A hard problem under a small transposition-table cap: the cap must hold, the answer stay honest."""
    problem = default_problem(board_id)

    def work(i: int, budget: float):
        return solve(problem, table_cap=cap, max_seconds=min(budget, seconds))

    def check(i: int, r) -> Outcome:
        out = Outcome(r.status, f"{r.status} with {r.entries:,} entries (cap {cap:,})", r.nodes, r.entries)
        if r.entries > cap:
            out.wrong = f"table holds {r.entries:,} entries, over its cap of {cap:,}"
        elif r.status == "solved":
            out.wrong = _check_solution(problem, r.jumps, r.final)
        elif r.status == "impossible":
            out.wrong = f"answered impossible, but it is solvable (catalogue default): {r.reason}"
        return out

    title = f"{get_board(board_id).title}: default problem, table capped at {cap:,} entries, {seconds:g} s budget"
    return Case(f"table-cap-{board_id}", title, work, check, "solved or unknown, never over the cap", True, 0,
                "cap enforced", (None, None))


def cases() -> list[Case]:
    """Every row of the suite, in order."""
    english = default_problem("english")
    out = [
        _solve_case("english", "English 33: d4 -> d4 (central game)", english, "solved",
                    "Bergholt 1912; Winning Ways ch. 23", quick=True, target="< 50 ms median", limits=(0.05, None)),
        _solve_case("english-seeds", f"English 33: d4 -> d4, seeds 0..{SEEDS - 1}", english, "solved",
                    "Bergholt 1912; Winning Ways ch. 23", quick=True, seeds=SEEDS,
                    target="< 50 ms median, < 250 ms worst", limits=(0.05, 0.25)),
    ]
    small = {"triangle4", "triangle5", "triangle6"}
    for entry in ENTRIES:
        if entry.id == "english":
            continue
        problem = default_problem(entry.id)
        title = f"{entry.title}: {entry.start} -> {_goal_name(problem)} (catalogue default)"
        limit = 10.0 if entry.id == "diamond41" else 2.0
        out.append(_solve_case(f"default-{entry.id}", title, problem, "solved", f"catalogue: {entry.source}",
                               quick=entry.id in small, target=f"< {limit:g} s", limits=(limit, None)))
    out += [
        _finishes_case("triangle5"),
        _count_case("triangle5", "1", "any"),
        _count_case("triangle5", "4", "any"),
        _fewest_case("triangle5", "1", "any"),
        _cap_case("german", 20_000, 2.0),
        _solve_case("impossible-french-centre", "French 37: d4 -> d4 (proof of impossibility)",
                    _problem("french", "d4", "d4"), "impossible", "position class; Winning Ways ch. 23",
                    quick=True, target="< 10 ms", limits=(0.01, None)),
        _solve_case("impossible-diamond41-centre", "Diamond 41: e5 -> one peg (proof of impossibility)",
                    _problem("diamond41", "e5", "any"), "impossible", "position class (rule of three)",
                    quick=True, target="< 10 ms", limits=(0.01, None)),
    ]
    return out


# ---------------------------------------------------------------------------- running

def _wasm_heap_bytes() -> int | None:
    """Size of the WebAssembly heap under Pyodide (None elsewhere)."""
    if sys.platform != "emscripten":
        return None
    try:
        import pyodide_js  # type: ignore[import-not-found]  # only exists inside Pyodide

        return int(pyodide_js._module.HEAP8.length)
    except Exception:
        return None


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


def _amortised(case: Case, i: int, budget: float, first: float) -> tuple[float, float]:
    """Wall and CPU seconds of one call of a very short run, as the mean of enough calls to fill
    about :data:`AMORTISE_SECONDS` (browsers coarsen their clocks to 0.1 ms, so one call is unmeasurable)."""
    k = max(2, min(AMORTISE_MAX_CALLS, int(AMORTISE_SECONDS / max(first, 1e-6))))
    c0 = time.process_time()
    t0 = time.perf_counter()
    for _ in range(k):
        case.work(i, budget)
    return (time.perf_counter() - t0) / k, (time.process_time() - c0) / k


def run_case(case: Case, *, repeat: int, quick: bool, memory: bool, budget: float) -> dict:
    """Run one case and return its row."""
    runs = (min(case.seeds, QUICK_SEEDS) if quick else case.seeds) if case.seeds else repeat
    walls: list[float] = []
    cpus: list[float] = []
    outcomes: list[Outcome] = []
    row: dict[str, Any] = {"name": case.name, "title": case.title, "expected": case.expected,
                           "target": case.target, "runs": runs}
    try:
        for i in range(runs):
            c0 = time.process_time()
            t0 = time.perf_counter()
            raw = case.work(i, budget)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            if wall < SHORT_RUN_SECONDS:
                wall, cpu = _amortised(case, i, budget, wall)
            walls.append(wall)
            cpus.append(cpu)
            outcomes.append(case.check(i, raw))
            if not case.seeds and outcomes[0].unanswered:
                break  # the first run spent the whole budget: repeating it would only time the budget again
    except NotAvailable as err:
        row.update(status="not available", answer="", check=f"not available: {err}", nodes=None, entries=None,
                   median_s=None, worst_s=None, cpu_median_s=None, peak_mb=None, memory=None, met=None)
        return row
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
    if memory:
        tracemalloc.start()
        try:
            case.work(worst, budget)
            peak_mb = round(tracemalloc.get_traced_memory()[1] / 2**20, 3)
        finally:
            tracemalloc.stop()
    median_s, worst_s = _median(walls), max(walls)
    lim_med, lim_worst = case.limits
    met = None
    if check == "ok" and (lim_med is not None or lim_worst is not None):
        met = (lim_med is None or median_s < lim_med) and (lim_worst is None or worst_s < lim_worst)
    heap = _wasm_heap_bytes()
    row.update(
        status=outcomes[0].status if len({o.status for o in outcomes}) == 1 else "mixed",
        answer=answer, check=check,
        nodes=int(_median([o.nodes for o in outcomes])), nodes_max=max(o.nodes for o in outcomes),
        entries=int(_median([o.entries for o in outcomes])), entries_max=max(o.entries for o in outcomes),
        median_s=round(median_s, 6), worst_s=round(worst_s, 6), cpu_median_s=round(_median(cpus), 6),
        peak_mb=peak_mb, memory=("tracemalloc peak of one untimed run of the slowest case" if memory else None),
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
            from .errors import PegError

            raise PegError(f"unknown benchmark {', '.join(map(repr, unknown))}: expected one of {', '.join(known)}")
        return [c for c in every if c.name in set(only)]
    return [c for c in every if c.quick] if quick else every


def iter_suite(quick: bool = False, repeat: int | None = None, only: Sequence[str] | None = None,
               memory: bool | None = None, budget: float | None = None) -> Iterator[dict]:
    """Run the suite, yielding one JSON-able row dict per benchmark as soon as it is measured.

    ``quick``: the cheap subset, one run each (five seeds), no memory run: meant for CI.
    ``repeat``: runs per row (default 5, quick 1).  ``memory``: add the tracemalloc run
    (default: on unless quick).  ``budget``: seconds allowed to one solver call.
    """
    if repeat is None:
        repeat = QUICK_REPEAT if quick else DEFAULT_REPEAT
    repeat = max(1, int(repeat))
    if memory is None:
        memory = not quick
    if budget is None:
        budget = QUICK_BUDGET_SECONDS if quick else BUDGET_SECONDS
    for case in select(quick=quick, only=only):
        yield run_case(case, repeat=repeat, quick=quick, memory=memory, budget=budget)


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
