"""The solver: answers on every catalogue problem, proofs with reasons, budgets, cancel, seeds, table cap, min.

Solutions are always replayed jump by jump with the rules (``pyapp.core.moves``), and the
impossibility answers on the 15-hole triangle are checked against a brute-force walk
over every reachable position.  No test asserts a time: speed is the benchmark's job.
"""

from __future__ import annotations

import pytest

from pyapp.core.catalogue import ENTRIES, get_board
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.position import parse_position
from pyapp.core.problem import Goal, Problem, Result, default_problem, make_problem
from pyapp.search.solver import Progress, class_proof, search, solve


def replay_ok(problem: Problem, result: Result) -> int:
    """Replay ``result.jumps`` from the start with the rules; return the final position."""
    pos = problem.start
    for jump in result.jumps:
        assert jump in legal_jumps(problem.board, pos), f"illegal jump {jump}"
        pos = apply_jump(pos, jump)
    assert pos == result.final
    return pos


def reachable(board, start: int) -> set[int]:
    """Every position reachable from ``start`` (brute force; small boards only)."""
    seen = {start}
    todo = [start]
    while todo:
        pos = todo.pop()
        for j in legal_jumps(board, pos):
            nxt = apply_jump(pos, j)
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


class TestCatalogueDefaults:
    @pytest.mark.parametrize("board_id", [e.id for e in ENTRIES])
    def test_default_problem_is_solved(self, board_id):
        problem = default_problem(board_id)
        result = solve(problem, max_seconds=60)
        assert result.status == "solved", (board_id, result.reason)
        final = replay_ok(problem, result)
        assert problem.goal.reached(final)
        assert len(result.jumps) == problem.start.bit_count() - problem.goal.final_pegs
        assert result.nodes >= 0 and result.seconds >= 0

    def test_english_central_game(self):
        # Winning Ways ch. 23: the central game of the 33-hole board ends with one peg at d4 after 31 jumps.
        problem = default_problem("english")
        result = solve(problem)
        assert result.status == "solved"
        assert len(result.jumps) == 31
        assert result.final == 1 << problem.board.hole("d4")


class TestImpossible:
    def test_french_centre_game_by_position_class(self):
        # Berlekamp, Conway & Guy, Winning Ways vol. 4 ch. 23; Beasley, The Ins and Outs of
        # Peg Solitaire (1985): the French 37-hole board's centre game is impossible by position class.
        problem = make_problem(get_board("french"), start="d4", goal="d4")
        result = solve(problem)
        assert result.status == "impossible"
        assert result.reason.startswith("position class")
        assert result.nodes == 0

    def test_diamond_centre_to_one_peg_by_position_class(self):
        problem = make_problem(get_board("diamond41"), start="e5", goal="any")
        result = solve(problem)
        assert result.status == "impossible" and result.reason.startswith("position class")

    def test_pagoda_proof(self):
        # Four pegs in d4's position class but none on a hole with odd (row, column) from 0
        # like d4 itself: a jump never moves a peg to another (row, column) parity class, so
        # the parity pagoda proves that no peg can ever reach d4.
        board = get_board("english")
        pos = parse_position(board, "  o../  .../......./o....../.....o./  o../  ...")
        goal = Goal("hole", 1 << board.hole("d4"))
        assert board.position_class(pos) == board.position_class(goal.target)
        result = solve(Problem(board, pos, goal))
        assert result.status == "impossible"
        assert result.reason.startswith("pagoda function: parity pagoda")
        assert result.nodes == 0

    def test_pagoda_from_linear_programming(self):
        # A position no stored pagoda rules out but a pagoda found by the linear program does;
        # the portfolio is set to reach its linear-programming step before any long search.
        board = get_board("english")
        pos = parse_position(board, "  .../  .../o....o./.....o./.o...o./  .oo/  .oo")
        problem = Problem(board, pos, Goal("hole", 1 << board.hole("d4")))
        result = solve(problem, restarts=(), beam_widths=(1, 1))
        assert result.status == "impossible"
        assert result.reason.startswith("pagoda function: a pagoda found by linear programming")
        assert result.method == "pagoda (linear programming)"
        assert solve(problem).status == "impossible"  # whatever part of the portfolio answers

    def test_triangle5_every_finish_against_brute_force(self):
        # For the 15-hole triangle with vacancy 1, each hole as the goal: the solver's answer must
        # agree with a brute-force walk of every reachable position.
        board = get_board("triangle5")
        start = board.start("1")
        singles = {p for p in reachable(board, start) if p.bit_count() == 1}
        reasons = set()
        for name in board.names:
            problem = make_problem(board, start="1", goal=name)
            result = solve(problem)
            if 1 << board.hole(name) in singles:
                assert result.status == "solved", name
                assert replay_ok(problem, result) == 1 << board.hole(name)
            else:
                assert result.status == "impossible", name
                reasons.add(result.reason.split(":")[0])
        assert "exhaustive search" in reasons

    def test_start_with_too_few_pegs(self):
        board = get_board("english")
        problem = Problem(board, 0, Goal("any"))
        assert solve(problem).status == "impossible"


class TestBudgetsAndCancel:
    def test_node_budget_gives_unknown(self):
        result = solve(default_problem("diamond41"), max_nodes=300)
        assert result.status == "unknown" and "budget" in result.reason
        assert result.jumps == [] and result.final == default_problem("diamond41").start

    def test_time_budget_gives_unknown(self):
        result = solve(default_problem("diamond41"), max_seconds=0.01)
        assert result.status == "unknown" and "budget" in result.reason

    def test_closing_the_generator_cancels(self):
        gen = search(default_problem("diamond41"), slice_seconds=0.001)
        prog = next(gen)
        assert isinstance(prog, Progress) and prog.nodes >= 0
        gen.close()
        with pytest.raises(StopIteration):
            next(gen)

    def test_should_stop_cancels(self):
        seen: list[Progress] = []
        result = solve(default_problem("diamond41"), slice_seconds=0.001, on_progress=seen.append,
                       should_stop=lambda: len(seen) >= 2)
        assert result.status == "unknown" and result.reason == "cancelled"
        assert len(seen) == 2 and seen[1].nodes >= seen[0].nodes

    def test_progress_is_reported(self):
        # slice_seconds=0: a report at every pause of the search, so their number does not depend on speed
        problem = make_problem(get_board("diamond41"), start="d2", goal="f5")
        reports: list[Progress] = []
        result = solve(problem, slice_seconds=0, on_progress=reports.append, max_nodes=20_000)
        assert result.status in ("unknown", "solved")
        assert len(reports) >= 20
        assert all(a.nodes <= b.nodes and a.seconds <= b.seconds for a, b in zip(reports, reports[1:]))
        assert all(r.entries >= 0 and r.depth >= 0 for r in reports)


class TestSeeds:
    def test_seeds_give_valid_and_different_solutions(self):
        problem = default_problem("english")
        solutions = set()
        for seed in range(6):
            result = solve(problem, seed=seed)
            assert result.status == "solved"
            assert replay_ok(problem, result) == problem.goal.target
            solutions.add(tuple(result.jumps))
        assert len(solutions) >= 3

    def test_same_seed_same_solution(self):
        problem = default_problem("english")
        assert solve(problem, seed=7).jumps == solve(problem, seed=7).jumps


class TestTableCap:
    @pytest.mark.parametrize("cap", [0, 1, 50, 1000])
    def test_tiny_cap_still_answers(self, cap):
        problem = default_problem("english")
        result = solve(problem, table_cap=cap, max_nodes=200_000)
        assert result.status in ("solved", "unknown")
        assert result.entries <= cap
        if result.status == "solved":
            assert replay_ok(problem, result) == problem.goal.target

    def test_cap_does_not_break_an_exhaustive_proof(self):
        # 10-hole triangle, vacancy 2, last peg on 9: same position class, but no jump sequence
        # gets there (checked here by brute force); the proof must survive a 3-entry table.
        board = get_board("triangle4")
        assert 1 << board.hole("9") not in reachable(board, board.start("2"))
        problem = make_problem(board, start="2", goal="9")
        assert class_proof(problem) is None
        full = solve(problem)
        capped = solve(problem, table_cap=3)
        assert full.status == capped.status == "impossible"
        assert capped.reason.startswith("exhaustive search") and capped.entries <= 3
        assert capped.nodes >= full.nodes

    def test_negative_cap_is_refused(self):
        with pytest.raises(ValueError):
            solve(default_problem("english"), table_cap=-1)


class TestMinGoal:
    def test_english_min_is_one_peg(self):
        problem = make_problem(get_board("english"), start="d4", goal="min")
        result = solve(problem)
        assert result.status == "solved" and result.pegs_left == 1
        replay_ok(problem, result)

    @pytest.mark.parametrize("board_id,hole", [("triangle4", "1"), ("triangle4", "5"), ("triangle5", "5")])
    def test_min_matches_brute_force(self, board_id, hole):
        board = get_board(board_id)
        problem = make_problem(board, start=hole, goal="min")
        fewest = min(p.bit_count() for p in reachable(board, problem.start))
        result = solve(problem)
        assert result.status == "solved"
        assert result.pegs_left == fewest
        replay_ok(problem, result)

    def test_min_with_budget_returns_best_found(self):
        problem = make_problem(get_board("german"), start="e5", goal="min")
        result = solve(problem, max_nodes=50)
        assert result.status in ("unknown", "solved")
        if result.status == "unknown":
            assert "minimality not proven" in result.reason
        replay_ok(problem, result)


class TestTargetGoal:
    def test_target_position(self):
        board = get_board("english")
        start = board.start("d4")
        # play three jumps of a solution, then ask the solver to reach that exact position
        full = solve(Problem(board, start, Goal("hole", 1 << board.hole("d4"))))
        pos = start
        for j in full.jumps[:3]:
            pos = apply_jump(pos, j)
        result = solve(Problem(board, start, Goal("target", pos)))
        assert result.status == "solved" and replay_ok(Problem(board, start, Goal("target", pos)), result) == pos


class TestEngineParts:
    def test_expand_keys_follow_the_score(self):
        from pyapp.search.compiled import build_tables, score
        from pyapp.search.dfs import make_expand

        problem = default_problem("german")
        board = problem.board
        tables = build_tables(board, [], list(problem.goal.symmetries(board)), 3)
        pos = problem.start
        for iso, edge in ((1, 0), (3, 2)):
            kids = make_expand(tables, set(), iso, edge)(pos, tables.pack(pos))
            assert sorted(nxt for _, nxt, _, _ in kids) == sorted(apply_jump(pos, j) for j in legal_jumps(board, pos))
            for key, nxt, _, i in kids:
                assert key // 64 == score(tables, nxt, iso, edge) and key % 64 == tables.ties[i]

    def test_packed_images_match_the_board_symmetries(self):
        from pyapp.search.compiled import build_tables

        board = get_board("diamond41")
        tables = build_tables(board, [], list(Goal("any").symmetries(board)), None)
        problem = default_problem("diamond41")
        result = solve(problem)
        pos, packed = problem.start, tables.pack_images(problem.start)
        for jump in result.jumps:
            pos = apply_jump(pos, jump)
            a, _, c = jump
            s = (c - a) // 2
            d = next(i for i, dd in enumerate(board.directions) if dd.shift == s)
            top = max(board.bits) + 2
            packed ^= tables.sym_deltas[d * top + a]
            assert sorted(tables.unpack_images(packed)) == sorted(board.images(pos))
