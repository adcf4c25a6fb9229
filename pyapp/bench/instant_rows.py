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
* ``neverlose-english-scenario``: issue 21's losing jump (:data:`SCENARIO`, then d5-d7) answered cold by
  the search path (a fresh table: the player jumped before the check of the position before finished;
  goal under 2 CPU s) and from the shipped set (decode and lookup); every answer must be ``lost``.
* ``funnel-english-total``: the survival funnel's dynamic programme (:mod:`pyapp.exact.ways`) over the
  English central game's set, computed (about 45 CPU s); the start's total must equal the published
  40,861,647,040,079,968 (:data:`~pyapp.bench.exact_rows.ENGLISH_SOLUTIONS`), the counts through the
  legal jumps must add up to it, and the build's cached counts file, when there is one, must hold the same
  numbers.  The peak is the decoded set's and counts' arrays (8 bytes a class each).
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path
from typing import Any

from ..analysis.neverlose import never_lose_steps
from ..analysis.neverlose_exact import never_lose_exact
from ..analysis.proven import Proven, decide_steps
from ..analysis.puzzle import make_puzzle
from ..core.budget import CPU_CLOCK, Budget, drive
from ..core.catalogue import get_board
from ..core.moves import apply_jump, legal_jumps
from ..core.notation import parse_moves
from ..core.problem import Problem, default_problem
from ..exact.store import StoreError, decode, decode_ways, encode, key_version, sets_cache
from ..exact.ways import ways_of, ways_steps
from ..exact.winnable import Winnable, cached, register, winnable
from ..search.solver import solve
from .exact_rows import ENGLISH_SOLUTIONS, _budget
from .rows import Case, Outcome, percentile

GAMES = 200
"""Random games of the exact row (fixed seed)."""
PUZZLES = (("english", 6), ("german", 6), ("diamond41", 6))
"""Boards and puzzles per board of the fallback row (20-30 pegs, fixed seeds)."""
PUZZLE_SECONDS = 10.0
"""Never lose's budget (the page's: Hint's 10 s), in CPU seconds here."""


def _set_file() -> bytes:
    """The English central game's set file: the one this process loaded (the page's worker fetches it
    before a bench run), else the build's cached copy, else computed (about a minute in CPython)."""
    problem = default_problem("english")
    loaded = cached(problem)
    if loaded is not None and loaded.source is not None:
        return loaded.source
    path = _cache_file(problem, "")
    return path.read_bytes() if path.is_file() else encode(winnable(problem))


def _cache_file(problem: Problem, kind: str) -> Path:
    """The build's cached file of the English central game (``build.py``'s ``SETS_CACHE``, named as
    :func:`pyapp.web.sets.file_name` names it): ``kind`` ``""`` the set, ``".ways"`` the solutions left."""
    return sets_cache() / f"english-d4-d4-{key_version(problem)}{kind}.bin"


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
        register(win)
        out = never_lose_exact(board, goal, history)
        assert out is not None
        return out

    def check(i: int, raw: dict) -> Outcome:
        later = raw["later"]
        answer = (f"first verdict {raw['first'] * 1000:.0f} ms (decode included); later verdicts median "
                  f"{statistics.median(later) * 1000:.2f} ms, p95 {percentile(later, 0.95) * 1000:.2f} ms "
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
        answer = (f"{len(raw)} puzzles: position verdict p95 {percentile(times, 0.95):.2f} CPU s, "
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


SCENARIO = ("f4-d4", "e6-e4", "g5-e5", "d5-f5", "b5-d5", "c7-c5", "c4-c6", "e7-c7-c5", "d5-d7")
"""Issue 21's English game: the last jump loses."""


def scenario_case() -> Case:
    problem = default_problem("english")
    board, goal = problem.board, problem.goal

    def work(i: int, budget: Budget) -> dict:
        history = [problem.start]
        for jump in parse_moves(board, list(SCENARIO)):
            history.append(apply_jump(history[-1], jump))
        t = time.process_time()
        cold = drive(decide_steps(Problem(board, history[-1], goal), Budget(PUZZLE_SECONDS, clock=CPU_CLOCK), Proven()))
        search = time.process_time() - t
        data = _set_file()
        t = time.perf_counter()
        register(decode(data, problem))
        exact = never_lose_exact(board, goal, history)
        lookup = time.perf_counter() - t
        return {"search": search, "cold": cold.status, "nodes": cold.nodes, "lookup": lookup,
                "exact": exact.status if exact else None}

    def check(i: int, raw: dict) -> Outcome:
        out = Outcome("lost", f"search path (cold) {raw['cold']} in {raw['search']:.2f} CPU s "
                              f"({raw['nodes']:,} nodes); shipped set {raw['exact']} in "
                              f"{raw['lookup'] * 1000:.0f} ms (decode included)",
                      nodes=raw["nodes"])
        if raw["cold"] != "impossible" or raw["exact"] != "lost":
            out.wrong = f"the losing jump answered {raw['cold']} by the search and {raw['exact']} by the set"
        return out

    return Case("neverlose-english-scenario", "English 33: issue 21's losing jump d5-d7 (search path and shipped set)",
                work, check, "lost (python -m pyapp solve proves it)", target="search < 2 s, set < 1 s", runs=1,
                traced=False)


def funnel_case() -> Case:
    problem = default_problem("english")

    def work(i: int, budget: Budget) -> dict:
        win = decode(_set_file(), problem)
        t = time.process_time()
        ways = drive(ways_steps(win, _budget(budget)))  # measured, not capped: the exact rows' budget
        return {"win": win, "ways": ways, "seconds": time.process_time() - t}

    def check(i: int, raw: dict) -> Outcome:
        win, ways = raw["win"], raw["ways"]
        total = ways_of(win, ways, problem.start)
        through = [ways_of(win, ways, apply_jump(problem.start, j)) for j in legal_jumps(problem.board, problem.start)]
        held = 8 * sum(len(level) for level in win.levels.values()) * 2
        out = Outcome("counted", f"{total:,} solutions from the start ({raw['seconds']:.1f} CPU s over {len(win):,} "
                                 f"classes; through the 4 first jumps {through[0]:,} each)", peak_bytes=held)
        if total != ENGLISH_SOLUTIONS or sum(through) != total:
            out.wrong = f"{total:,} (through the jumps {sum(through):,}), published {ENGLISH_SOLUTIONS:,}"
            return out
        path = _cache_file(problem, ".ways")
        if path.is_file():
            try:
                stored = decode_ways(path.read_bytes(), win)
            except StoreError as err:
                out.wrong = f"the build's cached counts are refused: {err}"
                return out
            if stored != ways:
                out.wrong = "the build's cached counts differ from the computed ones"
        return out

    return Case("funnel-english-total", "English 33: survival funnel counts over the winnable set (dynamic programme)",
                work, check, f"{ENGLISH_SOLUTIONS:,} (Durango Bill; G. I. Bell)", target="build time only", runs=1,
                traced=False)


def cases() -> list[Case]:
    return [exact_case(), fallback_case(), scenario_case(), funnel_case()]
