"""The time-indexed integer programme (pyapp/search/ilp.py, ``solve --engine ilp``): its answers agree with
exhaustive enumeration, every solution replays, every proof names HiGHS and its nodes, a spent budget says
how far it got, and a missing back end gives an answer, not a crash."""

from __future__ import annotations

import json
import random
import re
import sys

import pytest
from test_levels import reachable

from pyapp.cli.main import main
from pyapp.core.catalogue import get_board
from pyapp.core.errors import PegError
from pyapp.core.game import replay
from pyapp.core.goal import Goal
from pyapp.core.notation import format_jump
from pyapp.core.problem import Problem, default_problem, make_problem
from pyapp.core.request import build
from pyapp.proofs import lp
from pyapp.search.ilp import IlpFormulation, solve_ilp

NINE_PEGS = "o/oo/ooo/o.../o..o."
"""Triangle 5 five jumps into a game from 1 (6-1 15-6 8-3 14-5 12-14), 9 pegs left: HiGHS solves its programme (one
peg anywhere) in a tenth of a second, where the whole game's takes it 1-3 s.  The tests of what is around the
programme (the command line, the budget handed to HiGHS, the portfolio phase) ask it; the whole game is solved in
test_default_triangle5_is_solved_and_replays."""


def _nine_pegs() -> Problem:
    problem = build("triangle5", position=NINE_PEGS, goal="any").problem
    assert problem.start.bit_count() == 9
    return problem


def _replays(problem, result) -> bool:
    board = problem.board
    check = replay(board, problem.start, [format_jump(board, j) for j in result.jumps])
    return check.valid and problem.goal.reached(check.final) and check.final == result.final


def test_default_triangle5_is_solved_and_replays():
    problem = default_problem("triangle5")
    result = solve_ilp(problem, max_seconds=60)
    assert result.status == "solved" and _replays(problem, result)
    assert result.method == "integer programming (HiGHS 1.15.1 (highspy))"


def test_one_peg_cells_agree_with_enumeration():
    """Random starts on triangle 5 and every one-peg finish: solved exactly where enumeration reaches the
    finish (each solution replayed), impossible elsewhere, and some of each (so the test can fail both ways)."""
    board = get_board("triangle5")
    rng = random.Random(3)
    solved = impossible = 0
    for _ in range(4):
        start = sum(1 << b for b in rng.sample(board.bits, 7))
        seen = reachable(board, start)
        for finish in rng.sample(board.bits, 5):
            goal = 1 << finish
            problem = Problem(board, start, Goal("hole", goal))
            result = solve_ilp(problem, max_seconds=60)
            if goal in seen:
                assert result.status == "solved" and _replays(problem, result), (start, finish)
                solved += 1
            else:
                assert result.status == "impossible", (start, finish, result)
                impossible += 1
    assert solved > 0 and impossible > 0


def test_a_proof_names_the_programme_and_its_size():
    board = get_board("diamond41")
    result = solve_ilp(Problem(board, board.start("e1"), Goal("hole", 1 << board.hole("e9"))), max_seconds=120)
    assert result.status == "impossible"
    assert re.match(r"integer programme infeasible \(HiGHS, \d+ nodes?, \d+\.\d s; ", result.reason), result.reason
    assert "39 steps" in result.reason


def test_the_formulation_has_one_binary_per_jump_and_step():
    problem = default_problem("triangle5")
    f = IlpFormulation(problem, cuts=False)
    assert f.steps == 13 and len(f.jumps) == 2 * len(problem.board.lines)
    assert sum(f.model.integer) == f.steps * len(f.jumps)
    assert f.model.columns == sum(f.model.integer) + (f.steps + 1) * len(problem.board.bits)


def test_a_spent_budget_is_unknown_with_nodes_and_gap():
    problem = make_problem(get_board("french"), start="c1", goal="any")
    result = solve_ilp(problem, max_seconds=0.3)
    assert result.status == "unknown"
    assert "integer programme unsettled (time limit" in result.reason and "gap" in result.reason
    assert re.search(r"\d+ nodes?, ", result.reason), result.reason


def test_min_goal_is_refused_clearly():
    with pytest.raises(PegError, match="fixed number of pegs"):
        solve_ilp(make_problem(get_board("english"), start="d4", goal="min"))


def test_class_obstacle_answers_before_any_programme():
    result = solve_ilp(make_problem(get_board("french"), start="d4", goal="d4"))
    assert result.status == "impossible" and result.method == "position class"


def test_without_a_back_end_the_answer_is_unknown_and_says_why(monkeypatch):
    monkeypatch.setitem(sys.modules, "highspy", None)
    old = lp.use_backend(None)
    try:
        result = solve_ilp(default_problem("triangle5"), max_seconds=10)
    finally:
        lp.use_backend(old)
    assert result.status == "unknown" and "highspy is not installed" in result.reason


def test_cli_engine_ilp(capsys):
    position = ["--position", NINE_PEGS, "--goal", "any"]
    assert main(["solve", "triangle5", *position, "--engine", "ilp", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "solved" and out["method"].startswith("integer programming (HiGHS")
    assert out["pegs_left"] == 1 and out["jumps"] == 8
    assert main(["solve", "triangle5", *position, "--engine", "ilp"]) == 0
    assert "by integer programming (HiGHS" in capsys.readouterr().out
    assert main(["solve", "english", "--goal", "min", "--engine", "ilp"]) == 2
    assert "fixed number of pegs" in capsys.readouterr().err


_INFEASIBLE_TRIANGLE5 = make_problem(get_board("triangle5"), start="1", goal="5")
"""Triangle 5 from 1 to one peg at 5: in the start's position class and allowed by every known pagoda, proved
impossible by the integer programme in a hundredth of a second."""


def _drive_phase(phase, run):
    gen = phase.run(run, 0)
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value


def _run(problem, seconds):
    from types import SimpleNamespace

    from pyapp.core.budget import Budget

    return SimpleNamespace(budget=Budget(max_seconds=seconds), start=problem.start, st=SimpleNamespace(tried=[]))


def test_the_portfolio_phase_runs_only_on_long_budgets():
    from pyapp.core.budget import Budget
    from pyapp.search.ilp import IntegerProgram, integer_program_applies

    board = get_board("diamond41")
    problem = Problem(board, board.start("e1"), Goal("hole", 1 << board.hole("e9")))
    assert integer_program_applies(problem, Budget(max_seconds=600))
    assert not integer_program_applies(problem, Budget(max_seconds=60))
    assert not integer_program_applies(problem, Budget())
    assert not integer_program_applies(make_problem(board, start="e1", goal="min"), Budget(max_seconds=600))
    assert _drive_phase(IntegerProgram(problem), _run(problem, 60)) is None
    # the proof on a programme HiGHS settles at once (Diamond 41's, 2.8 s of CPU, is proved in the test above)
    lost = _INFEASIBLE_TRIANGLE5
    proof = _drive_phase(IntegerProgram(lost), _run(lost, 600))
    assert proof.status == "proof" and proof.method.startswith("integer programme infeasible (HiGHS")
    assert proof.engine.startswith("integer programming (HiGHS")
    easy = _nine_pegs()
    found = _drive_phase(IntegerProgram(easy), _run(easy, 600))
    assert found.status == "found" and found.path[0] == easy.start and easy.goal.reached(found.path[-1])


def test_the_solver_reports_the_phase_s_proof(monkeypatch):
    """With the portfolio cut down to its complete search, the programme placed before it answers first (on a
    problem the position class and the known pagodas leave open)."""
    from pyapp.core.budget import drive
    from pyapp.search import solver

    monkeypatch.setattr(solver, "portfolio", lambda restarts, widths, lp, complete, **kw: [complete])
    result = drive(solver.search(_INFEASIBLE_TRIANGLE5, max_seconds=600))
    assert result.status == "impossible" and result.method.startswith("integer programming (HiGHS")
    assert result.reason.startswith("integer programme infeasible (HiGHS")


def test_a_programme_too_big_to_write_down_is_refused_clearly(capsys):
    rows = "/".join(["o" * 20] * 20)
    start = rows[:2] + "." + rows[3:]  # c1 empty: one-peg finishes in its position class exist
    assert main(["solve", f"square:{rows}", "--position", start, "--goal", "any", "--engine", "ilp"]) == 2
    assert "columns (at most 100,000)" in capsys.readouterr().err


class _Recorder(lp.Backend):
    """The runtime's back end, recording each programme it is given."""

    def __init__(self, inner: lp.Backend) -> None:
        self.inner, self.name, self.models = inner, inner.name, []

    def run(self, model: lp.Model) -> lp.Solution:
        self.models.append(model)
        return self.inner.run(model)


def _recorded(problem, **kw):
    recorder = _Recorder(lp.backend())
    old = lp.use_backend(recorder)
    try:
        return solve_ilp(problem, **kw), recorder.models
    finally:
        lp.use_backend(old)


def test_the_node_budget_is_highs_s_and_leaves_the_reachable_levels_alone():
    from pyapp.core.budget import Budget

    problem = make_problem(get_board("triangle5"), start="13", goal="13")
    result, models = _recorded(problem, budget=Budget(max_seconds=60, max_nodes=0))
    assert [m.options["mip_max_nodes"] for m in models] == [0] and result.nodes == 0
    assert models[0].upper == IlpFormulation(problem).model.upper  # every reachability fixing, as without the budget


def test_a_symmetric_problem_is_solved_at_the_root_with_every_addition():
    """The English board's pyramid (16 pegs to d4, mirror symmetric): the programme with symmetry breaking and the
    other additions finds its point by HiGHS's root heuristics, on a node budget (not a clock), so an addition that
    hid solutions from the heuristics would show here as a tree of nodes or an unknown."""
    from pyapp.bench.sat_compare import pattern_problem
    from pyapp.core.budget import Budget

    problem = pattern_problem("pyramid")
    assert any(n.startswith("symmetry breaking") for n in IlpFormulation(problem).notes)
    result = solve_ilp(problem, budget=Budget(max_seconds=600, max_nodes=50))
    assert result.status == "solved" and _replays(problem, result) and result.nodes <= 50, result


def test_a_budget_on_the_cpu_clock_limits_highs_s_cpu_seconds():
    """``--cpu-time``: the programme gets the budget's CPU seconds (HiGHS stopped by its interrupt callbacks), and a
    loaded machine's wall clock only up to CPU_WALL_SLACK times as much."""
    from pyapp.core.budget import CPU_CLOCK, Budget
    from pyapp.search.ilp import CPU_WALL_SLACK

    problem = _nine_pegs()
    result, models = _recorded(problem, budget=Budget(max_seconds=60, clock=CPU_CLOCK))
    assert result.status == "solved" and 50 < models[0].cpu_limit <= 60
    assert models[0].time_limit == CPU_WALL_SLACK * models[0].cpu_limit
    result, models = _recorded(problem, max_seconds=60)
    assert models[0].cpu_limit is None and 50 < models[0].time_limit <= 60
