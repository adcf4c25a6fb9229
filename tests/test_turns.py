"""Searches side by side in doubling turns (pyapp.analysis.turns): the same answers as one by one, an
easy question answered early while a hard one gets the rest of the budget, a search's own clock, dropped
searches, and a spent budget answered as unknown with how far each search got."""

from __future__ import annotations

import time

from pyapp.analysis.proven import Proven
from pyapp.analysis.turns import TaskClock, turns_steps
from pyapp.core.budget import Budget, drive
from pyapp.core.game import replay
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import Problem, default_problem
from pyapp.search.solver import solve


def _after_each_jump(problem: Problem) -> list[Problem]:
    board, start = problem.board, problem.start
    return [Problem(board, apply_jump(start, j), problem.goal) for j in legal_jumps(board, start)]


def test_the_answers_are_the_solvers_one_by_one():
    problem = default_problem("triangle5")
    first = _after_each_jump(problem)[0]
    problems = [first, *_after_each_jump(first)]
    seen: list[int] = []
    results = drive(turns_steps(problems, Budget(20), on_result=lambda i, r: seen.append(i), table=Proven()))
    assert sorted(seen) == list(range(len(problems)))
    for p, r in zip(problems, results):
        assert r is not None and r.status == solve(p, max_seconds=20).status
        if r.status == "solved":
            end = p.start
            for jump in r.jumps:
                end = apply_jump(end, jump)
            assert p.goal.reached(end)


def test_an_easy_question_is_answered_early_and_a_hard_one_gets_the_rest():
    # German e5 -> e5 after c5-e5 a5-c5 f5-d5 h5-f5 is not decided in 20,000 nodes; three jumps from the end of
    # a solution the goal is found at once.  Equal shares would give the hard one half the nodes; turns give
    # it the rest.
    problem = default_problem("german")
    board = problem.board
    hard = Problem(board, replay(board, problem.start, ["c5-e5", "a5-c5", "f5-d5", "h5-f5"]).final, problem.goal)
    line = solve(problem, max_seconds=30).jumps
    assert line
    pos = problem.start
    for jump in line[:-3]:
        pos = apply_jump(pos, jump)
    easy = Problem(board, pos, problem.goal)
    budget = Budget(max_nodes=20_000)
    slow, quick = drive(turns_steps([hard, easy], budget, table=Proven()))
    assert quick is not None and quick.status == "solved"
    assert slow is not None and slow.status == "unknown" and "budget spent" in (slow.reason or "")
    assert slow.nodes > 0.9 * budget.max_nodes


def test_a_dropped_search_has_no_answer():
    problem = default_problem("english")
    problems = [problem, *_after_each_jump(problem)[:2]]
    results = drive(turns_steps(problems, Budget(10), wanted=lambda i: i != 1, table=Proven()))
    assert results[1] is None and results[0] is not None and results[2] is not None


def test_a_spent_budget_leaves_unknown_answers_that_say_how_far_they_got():
    problem = default_problem("german")
    problems = _after_each_jump(problem)[:1] + [Problem(problem.board, problem.start, problem.goal)]
    results = drive(turns_steps(problems, Budget(0.05), table=Proven()))
    assert any(r is not None and r.status == "unknown" for r in results)
    for r in results:
        assert r is None or r.status != "unknown" or "budget spent" in (r.reason or "")


def test_a_task_clock_runs_only_during_its_turns():
    clock = TaskClock(time.perf_counter)
    time.sleep(0.02)
    assert clock() == 0.0
    clock.resume()
    time.sleep(0.02)
    clock.pause()
    spent = clock()
    time.sleep(0.02)
    assert 0.015 < spent == clock() < 0.5


def test_two_portfolios_side_by_side_give_one_answer_per_problem():
    problem = default_problem("triangle5")
    first = _after_each_jump(problem)[0]
    problems = [first, *_after_each_jump(first)]
    seen: list[int] = []
    results = drive(turns_steps(problems, Budget(20), on_result=lambda i, r: seen.append(i), table=Proven(),
                                portfolios=(None, (128,))))
    assert sorted(seen) == list(range(len(problems)))  # once each, whichever search decided it
    assert [r.status for r in results if r] == [solve(p, max_seconds=20).status for p in problems]


def test_the_lead_problem_runs_longer_turns():
    """With ``lead`` the first problem's searches run that many times as long each turn (never-lose's own position):
    two German questions neither decides in 50,000 nodes share them about equally without it, most to the first with
    it."""
    problem = default_problem("german")
    board = problem.board
    hard = [Problem(board, replay(board, problem.start, moves).final, problem.goal)
            for moves in (["c5-e5", "a5-c5", "f5-d5", "h5-f5"], ["e3-e5", "e1-e3", "e6-e4", "e8-e6"])]
    nodes = {}
    for lead in (1.0, 8.0):
        results = drive(turns_steps(hard, Budget(max_nodes=50_000, slice_seconds=0.005), table=Proven(),
                                    lead=lead, lead_from=0))
        assert all(r is not None and r.status == "unknown" for r in results)
        nodes[lead] = [r.nodes for r in results if r is not None]
    assert nodes[1.0][0] < 2 * nodes[1.0][1]
    assert nodes[8.0][0] > 4 * nodes[8.0][1]
