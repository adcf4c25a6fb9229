"""Searches side by side in doubling turns (pyapp.analysis.turns): the same answers as one by one, an
easy question answered early while a hard one gets the rest of the budget, a search's own clock, dropped
searches, a spent budget answered as unknown with how far each search got, rounds run in steps, and a portfolio
without the complete search that ends of itself."""

from __future__ import annotations

import time

from pyapp.analysis import turns
from pyapp.analysis.proven import Proven
from pyapp.analysis.turns import TaskClock, turns_steps
from pyapp.core.budget import Budget, drive
from pyapp.core.game import replay
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import Problem, Result, default_problem
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


FRENCH_LOST = 0x71767e9b1214
"""A French d2 -> d6 position of 24 pegs (12 random jumps from the start, seed 2), lost, that neither the short
searches nor the beams prove (the complete search does)."""


def test_a_round_in_steps_stops_the_other_search_of_a_problem_sooner(monkeypatch):
    """Of the two searches of one problem the second decides mid-round: run in one step, the first spends the whole
    round's share before the second runs; in four steps, at most a step more than the second.  Scripted searches
    (100 nodes between pauses; the first never decides, the second at 30,000 nodes) make the counts exact: the round
    of 25,600 to 51,200 nodes decides it, so one step spends 51,200 + 30,000 and four steps 32,000 + 30,000."""

    def scripted(problem, budget, table, widths, complete):
        while widths is None or budget.nodes < 30_000:
            budget.spend(100)
            yield budget.progress()
        return Result("impossible", "scripted", nodes=budget.nodes)

    monkeypatch.setattr(turns, "decide_steps", scripted)
    problem = default_problem("french")
    spent = {}
    for steps in (1, 4):
        budget = Budget(max_nodes=400_000)
        (result,) = drive(turns.turns_steps([problem], budget, table=Proven(), portfolios=(None, (128, 256)),
                                            steps_per_round=steps))
        assert result is not None and result.status == "impossible"
        spent[steps] = budget.nodes
    assert spent == {1: 51_200 + 30_000, 4: 32_000 + 30_000}


def test_a_portfolio_without_the_complete_search_ends_when_its_beams_found_nothing():
    p0 = default_problem("french")
    lost = Problem(p0.board, FRENCH_LOST, p0.goal)
    budget = Budget(max_nodes=400_000)
    (result,) = drive(turns_steps([lost], budget, table=Proven(), portfolios=((128,),), complete=(False,)))
    assert result is not None and result.status == "unknown"
    assert "no complete search" in (result.reason or "")
    assert budget.nodes < 100_000  # it ended of itself, with budget left
