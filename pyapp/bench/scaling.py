"""The scaling study (``python -m pyapp bench --scaling``): how the cost of a solve grows, and where it stops.

Why: the benchmark rows answer "how fast on these problems"; someone choosing a solver or planning a
research run needs "how does the cost grow with the size of the position".  The ParallelProject study
answered it for its solver by generating English start states backwards from the won position and
fitting time against elements searched and against solution length; this reproduces that experiment
on four boards, for our solver and for a plain reference search (:mod:`.baseline`), under one budget.

What: for every board of :data:`BOARDS` and every peg count from :data:`MIN_PEGS` to the full board
(one vacancy), a few puzzles from :func:`pyapp.analysis.puzzle.make_puzzle` with fixed seeds (solvable by
construction, goal one peg on the generator's finishing hole); each is solved by
:func:`pyapp.search.solver.solve` ("ours") and :func:`.baseline.baseline_solve` ("baseline"), each
with the same budget on the CPU clock (so a loaded machine gives the same answers).  One record per run:
board, pegs, seed, solver, length (moves of the solution found; its jumps are always ``pegs - 1``),
nodes, CPU seconds, status.  :func:`fixed_cost` measures the cost of one solve in a fresh process
(cold) and in a process that has solved before (warm), as ``solve --batch`` runs them, and the warm cost
of a whole answer (the position's text in, the JSON line out, as ``solve --batch --json`` answers a line).  The fits are
:mod:`.fits`'s; the plots :mod:`.plots`'.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass

from ..analysis.puzzle import make_puzzle
from ..core.board import Board
from ..core.budget import CPU_CLOCK, Budget
from ..core.catalogue import get_board
from ..core.errors import PegError
from ..core.moves import count_moves
from ..core.position import format_position
from ..core.problem import Problem, Result
from ..core.request import build, result_json
from ..search.solver import solve
from .baseline import baseline_solve
from .fits import study_fits
from .rows import percentile

BOARDS = ("english", "german", "diamond41", "triangle7")
MIN_PEGS = 3
"""The smallest puzzle (two pegs is one jump: nothing to search)."""
FULL = {"budget": 5.0, "per_count": 2, "step": 1, "cold_runs": 5, "warm_solves": 200}
"""The full study: every peg count, 2 puzzles each, 5 CPU seconds per solve (about 10 minutes in CPython)."""
QUICK = {"budget": 0.2, "per_count": 1, "step": 6, "cold_runs": 2, "warm_solves": 40}
"""The CI study: every sixth peg count, one puzzle, 0.2 CPU seconds per solve (well under a minute)."""
SOLVERS = ("ours", "baseline")
CPP_MEDIAN_MS = (0.5, 1.5)
"""ParallelProject's compiled C++ solver: median milliseconds per English state (the anchor of the fixed cost)."""


@dataclass(frozen=True)
class Plan:
    """What one study runs."""

    boards: tuple[str, ...]
    budget: float
    per_count: int
    step: int
    cold_runs: int
    warm_solves: int
    quick: bool
    max_pegs: int | None = None
    """The largest peg count (None: the full board); a smaller study for a quick look, same code."""

    @classmethod
    def of(cls, quick: bool, boards: Sequence[str] | None = None, budget: float | None = None,
           max_pegs: int | None = None) -> Plan:
        base = QUICK if quick else FULL
        return cls(tuple(boards or BOARDS), float(budget or base["budget"]), int(base["per_count"]),
                   int(base["step"]), int(base["cold_runs"]), int(base["warm_solves"]), quick, max_pegs)

    def peg_counts(self, board: Board) -> list[int]:
        """From :data:`MIN_PEGS` to the full board (or ``max_pegs``), every ``step``-th, the last always included."""
        full = len(board) - 1 if self.max_pegs is None else max(MIN_PEGS, min(self.max_pegs, len(board) - 1))
        counts = list(range(MIN_PEGS, full + 1, self.step))
        if counts[-1] != full:
            counts.append(full)
        return counts

    def planned_runs(self) -> int:
        """How many runs the plan asks for (puzzles the generator cannot build drop out as the study goes)."""
        return sum(len(self.peg_counts(get_board(b))) for b in self.boards) * self.per_count * len(SOLVERS)


def run_one(solver: str, problem: Problem, budget_seconds: float) -> tuple[Result, float]:
    """Solve ``problem`` with ``solver`` under ``budget_seconds`` of CPU; the result and its CPU seconds."""
    budget = Budget(budget_seconds, clock=CPU_CLOCK)
    t0 = time.process_time()
    if solver == "ours":
        result = solve(problem, budget=budget)
    else:
        result = baseline_solve(problem.board, problem.start, problem.goal.target, budget)
    return result, time.process_time() - t0


def record(board: Board, pegs: int, seed: int, solver: str, problem: Problem, result: Result,
           seconds: float) -> dict:
    """One run as the study stores it; a solution is replayed first (a wrong one raises)."""
    if result.status == "solved" and _replay(problem.start, result.jumps) != problem.goal.target:
        raise AssertionError(f"{solver} gave a wrong solution on {board.id} {pegs} pegs seed {seed}")
    return {"board": board.id, "pegs": pegs, "seed": seed, "solver": solver,
            "length": count_moves(result.jumps) if result.status == "solved" else None,
            "nodes": result.nodes, "seconds": round(seconds, 6), "status": result.status}


def _replay(pos: int, jumps: Sequence[tuple[int, int, int]]) -> int | None:
    """The position after ``jumps`` from ``pos``, or None at the first illegal one."""
    for a, b, c in jumps:
        if not (pos >> a & 1 and pos >> b & 1 and not pos >> c & 1):
            return None
        pos ^= (1 << a) | (1 << b) | (1 << c)
    return pos


def warm_up(board: Board) -> None:
    """One untimed solve per solver on ``board``: the tables built on a board's first use (a fixed cost,
    measured apart by :func:`fixed_cost`) must not be charged to the first puzzle of the study."""
    puzzle = make_puzzle(board, min(12, len(board) - 1), seed=0)
    problem = Problem(board, puzzle.position, puzzle.goal)
    for solver in SOLVERS:
        run_one(solver, problem, 1.0)


def iter_runs(plan: Plan, skipped: list[dict] | None = None) -> Iterator[dict]:
    """Every run of the study, board by board, peg count by peg count (a generator: progress as it goes).
    Puzzles the generator could not build (its backward walk gives up near the full board on some boards)
    are appended to ``skipped``."""
    for board_id in plan.boards:
        board = get_board(board_id)
        warm_up(board)
        for pegs in plan.peg_counts(board):
            for seed in range(1, plan.per_count + 1):
                try:
                    puzzle = make_puzzle(board, pegs, seed=seed)
                except PegError:
                    if skipped is not None:
                        skipped.append({"board": board_id, "pegs": pegs, "seed": seed})
                    continue
                problem = Problem(board, puzzle.position, puzzle.goal)
                for solver in SOLVERS:
                    result, seconds = run_one(solver, problem, plan.budget)
                    yield record(board, pegs, seed, solver, problem, result, seconds)


COLD_SCRIPT = """\
import json, sys, time
from pyapp.analysis.puzzle import make_puzzle
from pyapp.core.catalogue import get_board
from pyapp.core.problem import Problem
from pyapp.search.solver import solve
board = get_board("english")
p = make_puzzle(board, int(sys.argv[1]), seed=int(sys.argv[2]))
t0 = time.perf_counter()
r = solve(Problem(board, p.position, p.goal))
print(json.dumps({"seconds": time.perf_counter() - t0, "status": r.status}))
"""


def english_states(n: int, low: int, high: int) -> list[Problem]:
    """``n`` English start states of ``low`` to ``high`` pegs built backwards (as ParallelProject's were);
    a seed the generator gives up on (near the full board) is passed over for the next."""
    board = get_board("english")
    out: list[Problem] = []
    seed = 1000
    while len(out) < n:
        try:
            p = make_puzzle(board, low + len(out) % (high - low + 1), seed=seed)
            out.append(Problem(board, p.position, p.goal))
        except PegError:
            pass
        seed += 1
    return out


def _timed(states: Sequence[Problem]) -> list[float]:
    times = []
    for problem in states:
        t0 = time.perf_counter()
        solve(problem)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def _answered(states: Sequence[Problem]) -> tuple[list[float], float]:
    """Wall ms per state from the position's text to its JSON line, as ``solve --batch --json`` answers a line
    (the problem built from the text and the goal, solved, the answer dict made and dumped), and the CPU ms
    per state over the lot.  An answer that is not "solved" raises (these states are solvable by construction)."""
    lines = [(p.board.id, format_position(p.board, p.start), p.goal.text(p.board)) for p in states]
    times = []
    c0 = time.process_time()
    for board, text, goal in lines:
        t0 = time.perf_counter()
        problem = build(board, position=text, goal=goal).problem
        answer = result_json(problem.board, solve(problem))
        json.dumps(answer)
        times.append((time.perf_counter() - t0) * 1000)
        if answer["status"] != "solved":
            raise AssertionError(f"{board} {text}: {answer['status']}")
    return times, (time.process_time() - c0) * 1000 / max(1, len(lines))


def fixed_cost(cold_runs: int, warm_solves: int, python: str | None = None) -> dict:
    """The wall time of English solves, in ms.  ``cold``: the first solve in a fresh process (imports done,
    tables built on first use), on a 6-peg state; ``warm``: the same small states (4-8 pegs, a handful of
    nodes: the fixed cost of a call) in a process that has solved before, ``solve`` alone (a goal met for the
    first time builds its tables then: about 0.16 ms, in the p95); ``warm_answer``: the same states from their
    text to their JSON line (:func:`_answered`), timed after, so with every goal's tables built; ``state``:
    states of 8-31 pegs
    (search included), the figure to set beside ParallelProject's C++ median per state."""
    cold = []
    for i in range(cold_runs):
        out = subprocess.run([python or sys.executable, "-c", COLD_SCRIPT, "6", str(1000 + i)],
                             capture_output=True, text=True, timeout=120, check=True)
        cold.append(json.loads(out.stdout)["seconds"] * 1000)
    small = english_states(warm_solves, 4, 8)
    solve(small[0])  # warm-up: what the cold figure paid once
    warm = _timed(small)
    answers, answer_cpu = _answered(small)
    states = _timed(english_states(warm_solves, 8, 31))
    return _cost(cold, warm, states, warm_solves, answers, answer_cpu)


def _cost(cold: list[float], warm: list[float], states: list[float], warm_solves: int,
          answers: list[float], answer_cpu_ms: float) -> dict:
    """The ``fixed_cost`` record from the measured milliseconds (``cold`` may be empty: not measured)."""
    return {"cold_ms": round(statistics.median(cold), 3) if cold else None, "cold_runs": len(cold),
            "warm_ms": round(statistics.median(warm), 3), "warm_p95_ms": round(percentile(warm, 0.95), 3),
            "warm_answer_ms": round(statistics.median(answers), 3),
            "warm_answer_p95_ms": round(percentile(answers, 0.95), 3),
            "warm_answer_cpu_ms": round(answer_cpu_ms, 3),
            "state_ms": round(statistics.median(states), 3), "state_p95_ms": round(percentile(states, 0.95), 3),
            "warm_solves": warm_solves, "cpp_median_ms": list(CPP_MEDIAN_MS),
            "warm_below_cpp": statistics.median(warm) < CPP_MEDIAN_MS[1],
            "state_below_cpp": statistics.median(states) < CPP_MEDIAN_MS[1]}


def run_study(plan: Plan, environment: dict, command: str,
              on_run: Callable[[dict], object] | None = None) -> dict:
    """The whole study as the JSON of ``DIR/scaling.json``: what ran, every run, the fits, the fixed cost."""
    t0 = time.perf_counter()
    cost = fixed_cost(plan.cold_runs, plan.warm_solves)  # first: it is short, and nothing long is lost if it fails
    runs: list[dict] = []
    skipped: list[dict] = []
    for run in iter_runs(plan, skipped):
        runs.append(run)
        if on_run is not None:
            on_run(run)
    return _study_data(plan, environment, command, time.perf_counter() - t0, runs, skipped, cost)


def study_steps(plan: Plan, environment: dict, command: str) -> Generator[dict, None, dict]:
    """The study as the web page runs it (``pyapp.web.jobs_bench.study_job``): the runs of :func:`run_study`, one
    step per run, so the worker shows progress and sees Cancel between two runs; then the fixed cost,
    measured in this process, one step per solve and one per answer (a page cannot start a fresh interpreter,
    so ``cold_ms`` is None).  Yields ``{"phase": "runs" | "fixed cost", "done", "planned", "run"}`` (``run``: the record
    just made, or None); returns the same JSON as :func:`run_study`."""
    t0 = time.perf_counter()
    runs: list[dict] = []
    skipped: list[dict] = []
    for run in iter_runs(plan, skipped):
        runs.append(run)
        planned = plan.planned_runs() - len(SOLVERS) * len(skipped)
        yield {"phase": "runs", "done": len(runs), "planned": planned, "run": run}
    small = english_states(plan.warm_solves, 4, 8)
    solve(small[0])  # warm-up, as in fixed_cost
    timed: list[float] = []
    answers: list[float] = []
    cpu = 0.0
    for problem in small + english_states(plan.warm_solves, 8, 31):
        timed.extend(_timed([problem]))
        yield {"phase": "fixed cost", "done": len(timed) + len(answers), "planned": 3 * plan.warm_solves,
               "run": None}
        if len(answers) < plan.warm_solves:  # the answer of each small state, after its solve
            ms, cpu_ms = _answered([problem])
            answers.extend(ms)
            cpu += cpu_ms
            yield {"phase": "fixed cost", "done": len(timed) + len(answers), "planned": 3 * plan.warm_solves,
                   "run": None}
    cost = _cost([], timed[:plan.warm_solves], timed[plan.warm_solves:], plan.warm_solves, answers,
                 cpu / max(1, len(answers)))
    return _study_data(plan, environment, command, time.perf_counter() - t0, runs, skipped, cost)


def _study_data(plan: Plan, environment: dict, command: str, wall: float, runs: list[dict],
                skipped: list[dict], cost: dict) -> dict:
    """The ``scaling.json`` record of a finished study."""
    return {"study": {"boards": list(plan.boards), "budget_cpu_seconds": plan.budget, "per_count": plan.per_count,
                      "peg_step": plan.step, "quick": plan.quick, "environment": environment, "command": command,
                      "wall_seconds": round(wall, 1), "not_generated": skipped,
                      **({"max_pegs": plan.max_pegs} if plan.max_pegs is not None else {})},
            "runs": runs, "fits": study_fits(runs, plan.boards), "fixed_cost": cost}


def validate(data: dict) -> list[str]:
    """What is wrong with a ``scaling.json`` (an empty list: it validates)."""
    errors = []
    for key in ("study", "runs", "fits", "fixed_cost"):
        if key not in data:
            errors.append(f"missing {key!r}")
    types: dict[str, type | tuple[type, ...]] = {"board": str, "pegs": int, "seed": int, "solver": str,
                                                 "nodes": int, "seconds": (int, float), "status": str}
    for i, run in enumerate(data.get("runs", [])):
        for key, kind in types.items():
            if not isinstance(run.get(key), kind):
                errors.append(f"run {i}: {key!r} is {run.get(key)!r}")
        if run.get("solver") not in SOLVERS or run.get("status") not in ("solved", "impossible", "unknown"):
            errors.append(f"run {i}: solver or status out of range")
        if not (run.get("length") is None or isinstance(run.get("length"), int)):
            errors.append(f"run {i}: length is {run.get('length')!r}")
    return errors
