"""The benchmark suite's solver, analysis and table rows: what each row runs (see :mod:`pyapp.bench.suite`).

How each answer is checked (replays, re-derived proofs, the exhaustive :class:`~.rows.Oracle`)
is :mod:`.rows`; the exact sweeps' rows are :mod:`.exact_rows`.
"""

from __future__ import annotations

from ..analysis.finishes import finishes
from ..core.budget import Budget
from ..core.catalogue import ENTRIES, get_board
from ..core.moves import group_moves
from ..core.problem import Problem, default_problem
from ..exact.count import count_solutions
from ..exact.fewest import fewest_moves
from ..search.solver import solve
from .exact_rows import cases as exact_cases
from .game_rows import cases as game_cases
from .instant_rows import cases as instant_cases
from .rows import (
    ORACLE_MAX_HOLES,
    SEEDS,
    Case,
    Outcome,
    _bit,
    _check_solution,
    _class_proof,
    _goal_name,
    _problem,
    oracle,
    replay_error,
)


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
    # issue 9's rows (full runs only): whole tables and random positions, in pyapp.bench.tables
    from .tables import random_case, table_case

    out += [table_case(b, Case, Outcome, replay_error, oracle, ORACLE_MAX_HOLES) for b in ("diamond41", "german")]
    out += [random_case(b, g, Case, Outcome, replay_error) for b in ("english", "german", "diamond41")
            for g in ("any", "min")]

    return out + exact_cases() + instant_cases() + game_cases()
