"""The benchmark suite's rows: what each row runs, and how its answer is checked (see :mod:`pyapp.bench`).

Each row's answer is checked outside the timed part: solutions are replayed jump by jump
against the board's lines, impossibility proofs are re-derived (position classes), and on
boards small enough for it (up to :data:`ORACLE_MAX_HOLES` holes) finishes tables, exact
counts and fewest-move answers are compared with :class:`Oracle`, a small memoised
exhaustive enumeration written here, independent of the solver.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .analysis import count_solutions, fewest_moves, finishes
from .board import Board
from .budget import Budget
from .catalogue import ENTRIES, get_board
from .moves import Jump, group_moves
from .problem import Problem, default_problem, make_problem
from .solver import solve

ORACLE_MAX_HOLES = 21
"""Boards with at most this many holes get exhaustive cross-checks (2^21 positions at most)."""
SEEDS = 20
"""Seeds of a seed row in a full run (a quick run uses the first few)."""


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
    peak_bytes: int | None = None
    """The analysis's own estimate of the memory it held (rows that are not traced)."""


@dataclass(frozen=True)
class Case:
    """One benchmark row: timed work, and an untimed check of what the work returned."""

    name: str
    title: str
    work: Callable[[int, Budget], Any]
    """``work(run_index, budget)``: the timed part (a seed row uses the index as the seed), under a
    fresh :class:`~pyapp.budget.Budget` per run."""
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
    runs: int | None = None
    """At most this many runs (rows of minutes run once)."""
    traced: bool = True
    """False: no tracemalloc run (it would take several times as long); the peak is the analysis's estimate."""


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
    def work(i: int, budget: Budget):
        return solve(problem, seed=i if seeds else None, budget=budget)

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

    def work(i: int, budget: Budget):
        return [(b, finishes(board, board.mask ^ (1 << b), budget=budget)) for b in board.bits]

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

    def work(i: int, budget: Budget):
        return count_solutions(problem, budget=budget)

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

    def work(i: int, budget: Budget):
        return fewest_moves(problem, budget=budget)

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

    def work(i: int, budget: Budget):
        limit = seconds if budget.max_seconds is None else min(budget.max_seconds, seconds)
        return solve(problem, table_cap=cap, budget=Budget(limit, budget.max_nodes, budget.max_bytes))

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
    # issue 9's rows (full runs only): whole tables and random positions, in pyapp.bench_tables
    from .bench_tables import random_case, table_case

    out += [table_case(b, Case, Outcome, replay_error, oracle, ORACLE_MAX_HOLES) for b in ("diamond41", "german")]
    out += [random_case(b, g, Case, Outcome, replay_error) for b in ("english", "german", "diamond41")
            for g in ("any", "min")]
    from .exact.bench_rows import cases as exact_cases  # imports this module: load it last

    return out + exact_cases()
