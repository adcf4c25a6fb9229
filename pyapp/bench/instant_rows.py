"""Benchmark rows of the answers a player waits for after every move (never lose).

* ``neverlose-english-exact``: the English central game answered from its shipped winnable set
  (:mod:`pyapp.web.sets`): the *first verdict* is the set's decode (the file from the build's cache, or
  computed and encoded once, untimed) plus the start position's never-lose answer; then *later verdicts*
  over :data:`GAMES` seeded random games (every position of each, one never-lose answer per move).  The
  answer quotes the first verdict, the median and the 95th percentile of the later ones (goals: first
  under 1 s, later under 50 ms at the 95th percentile).  The check: every verdict agrees with a direct
  lookup in the set, and a sample of 12 agrees with the solver.
* ``neverlose-fallback-puzzles``: generated 20-30-peg puzzles of English, German and Diamond 41 (solvable
  by construction), answered by the search path with each puzzle's own table; the answer quotes the
  95th percentile of the position's verdict time (goal: under 2 s).  A verdict of ``lost`` on a puzzle
  is wrong (its generator's line replays to the goal); ``unknown`` counts as unanswered.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from ..analysis.neverlose import never_lose_steps
from ..analysis.neverlose_exact import never_lose_exact
from ..analysis.proven import Proven, decide_steps
from ..analysis.puzzle import make_puzzle
from ..core.budget import CPU_CLOCK, Budget, drive
from ..core.catalogue import get_board
from ..core.moves import apply_jump, legal_jumps
from ..core.problem import Problem, default_problem
from ..exact.store import decode, encode, engine_version
from ..exact.winnable import Winnable, cached, winnable
from ..search.solver import solve
from .rows import Case, Outcome

GAMES = 200
"""Random games of the exact row (fixed seed)."""
PUZZLES = (("english", 6), ("german", 6), ("diamond41", 6))
"""Boards and puzzles per board of the fallback row (20-30 pegs, fixed seeds)."""
PUZZLE_SECONDS = 10.0
"""Never lose's budget (the page's: Hint's 10 s), in CPU seconds here."""


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _set_file() -> bytes:
    """The English central game's set file: the one this process loaded (the page's worker fetches it
    before a bench run), else the build's cached copy, else computed (about a minute in CPython)."""
    from pathlib import Path

    problem = default_problem("english")
    loaded = cached(problem)
    if loaded is not None and loaded.source is not None:
        return loaded.source
    path = Path(__file__).resolve().parents[2] / ".cache" / "sets" / engine_version() / "english-d4-d4.bin"
    return path.read_bytes() if path.is_file() else encode(winnable(problem))


def exact_case() -> Case:
    problem = default_problem("english")
    board, goal = problem.board, problem.goal
    data: list[bytes] = []

    def work(i: int, budget: Budget) -> dict:
        if not data:
            data.append(_set_file())  # untimed in spirit: the download; the decode below is timed
        t0 = time.perf_counter()
        win = decode(data[0], problem)
        first_answer = _exact(win, [problem.start])
        first = time.perf_counter() - t0
        rng = random.Random(21)
        later: list[float] = []
        verdicts: list[tuple[int, str]] = []
        for _ in range(GAMES):
            history = [problem.start]
            while jumps := legal_jumps(board, history[-1]):
                history.append(apply_jump(history[-1], rng.choice(jumps)))
                t = time.perf_counter()
                answer = _exact(win, history)
                later.append(time.perf_counter() - t)
                verdicts.append((history[-1], answer.status))
        return {"win": win, "first": first, "first_status": first_answer.status, "later": later,
                "verdicts": verdicts}

    def _exact(win: Winnable, history: list[int]) -> Any:
        from ..exact.winnable import register

        register(win)
        out = never_lose_exact(board, goal, history)
        assert out is not None
        return out

    def check(i: int, raw: dict) -> Outcome:
        later = raw["later"]
        answer = (f"first verdict {raw['first'] * 1000:.0f} ms (decode included); later verdicts median "
                  f"{statistics.median(later) * 1000:.2f} ms, p95 {_percentile(later, 0.95) * 1000:.2f} ms "
                  f"over {len(later):,} moves of {GAMES} random games")
        out = Outcome("exact", answer)
        if raw["first_status"] != "winnable":
            out.wrong = f"the start is {raw['first_status']}, not winnable"
            return out
        win = raw["win"]
        for pos, status in raw["verdicts"]:
            wins = win.can_win(pos)
            if status == "lost" and wins or status == "winnable" and not wins:
                out.wrong = f"verdict {status} disagrees with the winnable set at {board.pegs(pos)}"
                return out
        for pos, status in random.Random(5).sample(raw["verdicts"], 12):
            if status in ("lost", "winnable") and legal_jumps(board, pos):
                solved = solve(Problem(board, pos, goal), budget=Budget(30, clock=CPU_CLOCK)).status
                if (solved == "solved") != (status == "winnable") and solved != "unknown":
                    out.wrong = f"verdict {status} disagrees with the solver ({solved})"
                    return out
        return out

    return Case("neverlose-english-exact", "English 33: never-lose verdicts from the shipped winnable set",
                work, check, "every verdict agrees with the sweeps' winnable set and the solver",
                target="first < 1 s, later p95 < 50 ms", runs=1, traced=False)


def fallback_case() -> Case:
    def work(i: int, budget: Budget) -> list[tuple[str, float, str]]:
        out: list[tuple[str, float, str]] = []
        for board_id, count in PUZZLES:
            board = get_board(board_id)
            for seed in range(count):
                pegs = 20 + (seed * 7) % 11
                puzzle = make_puzzle(board, pegs, seed=seed)
                problem = Problem(board, puzzle.position, puzzle.goal)
                t = time.process_time()
                verdict = drive(decide_steps(problem, Budget(PUZZLE_SECONDS / 2, clock=CPU_CLOCK), Proven()))
                first = time.process_time() - t
                drive(never_lose_steps(problem, budget=Budget(PUZZLE_SECONDS, clock=CPU_CLOCK)))
                out.append((f"{board_id} {pegs} pegs seed {seed}", first, verdict.status))
        return out

    def check(i: int, raw: list[tuple[str, float, str]]) -> Outcome:
        times = [t for _, t, _ in raw]
        unknown = [name for name, _, status in raw if status not in ("solved", "impossible")]
        answer = (f"{len(raw)} puzzles: position verdict p95 {_percentile(times, 0.95):.2f} CPU s, "
                  f"median {statistics.median(times):.2f} s, {len(unknown)} unknown")
        out = Outcome("fallback", answer)
        lost = [name for name, _, status in raw if status == "impossible"]
        if lost:
            out.wrong = f"solvable puzzles called lost: {', '.join(lost)}"
        elif unknown:
            out.unanswered = f"unknown: {', '.join(unknown)}"
        return out

    return Case("neverlose-fallback-puzzles", "English, German, Diamond 41: never lose on 20-30-peg puzzles (search)",
                work, check, "solvable by construction (reverse jumps from one peg)", target="verdict p95 < 2 s",
                runs=1, traced=False)


def cases() -> list[Case]:
    return [exact_case(), fallback_case()]
