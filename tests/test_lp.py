"""The one interface of linear and integer programmes (pyapp/proofs/lp.py) and its HiGHS back ends: answers
checked against known optima, failures answered (never raised), and a missing back end simulated: the
proofs that need no programme still answer, the others say why they could not."""

from __future__ import annotations

import random
import sys

import pytest

from pyapp.core.budget import drive
from pyapp.core.catalogue import get_board
from pyapp.core.goal import Goal
from pyapp.core.problem import Problem, make_problem
from pyapp.proofs import lp
from pyapp.proofs.lp_backends import Highspy, Unavailable, choose, status_of
from pyapp.proofs.pagoda import find_pagoda, pagoda_proof
from pyapp.search.solver import search


def knapsack(time_limit: float = 10.0) -> lp.Model:
    """max 5a + 4b + 3c, 2a + 3b + c <= 5, 4a + b + 2c <= 11, 3a + 4b + 2c <= 8, binaries: optimum 13 (a, c... )."""
    m = lp.Model(sense="max", time_limit=time_limit)
    a, b, c = (m.add_var(0, 1, cost=w, integer=True) for w in (5, 4, 3))
    for coef, cap in (((2, 3, 1), 5), ((4, 1, 2), 11), ((3, 4, 2), 8)):
        m.add_row(dict(zip((a, b, c), coef)), upper=cap)
    return m


def pigeons(n: int, time_limit: float) -> lp.Model:
    """n + 1 pigeons in n holes, each pigeon somewhere, each hole at most one: infeasible, and hard for
    branch and bound as n grows."""
    m = lp.Model(sense="min", time_limit=time_limit)
    x = [[m.add_var(0, 1, integer=True) for _ in range(n)] for _ in range(n + 1)]
    for row in x:
        m.add_row({v: 1 for v in row}, lower=1)
    for h in range(n):
        m.add_row({row[h]: 1 for row in x}, upper=1)
    return m


def market_split(time_limit: float) -> lp.Model:
    """Cornuejols and Dawande's market split: four equality knapsacks on 30 binaries, hopeless for
    branch and bound in well under a minute."""
    rng = random.Random(1)
    m = lp.Model(sense="min", time_limit=time_limit)
    xs = [m.add_var(0, 1, integer=True) for _ in range(30)]
    for _ in range(4):
        a = [rng.randint(0, 99) for _ in xs]
        m.add_row(dict(zip(xs, a)), lower=sum(a) // 2, upper=sum(a) // 2)
    return m


@pytest.fixture
def no_highspy(monkeypatch):
    """This runtime as if highspy were not installed."""
    monkeypatch.setitem(sys.modules, "highspy", None)  # `import highspy` raises ImportError
    old = lp.use_backend(None)
    yield
    lp.use_backend(old)


def test_lp_optimum_and_point():
    m = lp.Model(sense="min")
    x, y = m.add_var(0, None, cost=2), m.add_var(0, None, cost=3)
    m.add_row({x: 1, y: 1}, lower=4)
    m.add_row({x: 1, y: -1}, upper=2)
    s = lp.solve(m)
    assert s.status == "optimal" and abs(s.objective - 9) < 1e-9  # x = 3, y = 1
    assert s.x is not None and abs(s.x[0] - 3) < 1e-9 and abs(s.x[1] - 1) < 1e-9
    assert "HiGHS" in s.backend


def test_mip_optimum_and_infeasible():
    s = lp.solve(knapsack())
    assert s.status == "optimal" and round(s.objective) == 9 and [round(v) for v in s.x] == [1, 1, 0]
    s = lp.solve(pigeons(4, 30))
    assert s.status == "infeasible" and s.x is None


def test_unbounded_and_time_limit():
    m = lp.Model(sense="max")
    m.add_var(0, None, cost=1)
    m.add_row({0: 1}, lower=0)
    assert lp.solve(m).status in ("unbounded", "other")  # HiGHS may only say "unbounded or infeasible"
    s = lp.solve(market_split(0.3))
    assert s.status == "time limit" and s.seconds < 5 and s.nodes > 0
    assert "time limit" in lp.describe(s) and "gap" in lp.describe(s)


def test_highs_options_reach_the_solver_and_a_node_limit_is_its_own_status():
    m = market_split(60)
    m.options["mip_max_nodes"] = 20
    s = lp.solve(m)
    assert s.status == "node limit" and 20 <= s.nodes < 40 and "node limit" in lp.describe(s), s
    assert lp.solve(m.copy()).nodes == s.nodes  # the copy keeps its options
    m.options["no_such_option"] = 1
    s = lp.solve(m)
    assert s.status == "error" and "no_such_option" in s.message


def test_a_cpu_limit_stops_highspy_on_this_process_s_clock():
    import time

    m = market_split(60)
    m.cpu_limit = 0.3
    c0 = time.process_time()
    s = lp.solve(m)
    assert s.status == "time limit" and s.nodes > 0 and time.process_time() - c0 < 3, s


def test_bad_models_are_refused_when_built():
    m = lp.Model()
    m.add_var()
    with pytest.raises(ValueError, match="column 3"):
        m.add_row({3: 1}, upper=1)
    with pytest.raises(ValueError, match="bound"):
        m.add_row({0: 1})


def test_status_unbounded_or_infeasible_is_infeasible_only_when_every_column_is_bounded():
    bounded = knapsack()
    assert status_of(9, bounded) == "infeasible"
    free = lp.Model()
    free.add_var(None, None)
    assert status_of(9, free) == "other" and status_of(7, free) == "optimal"


def test_a_failing_back_end_answers_error_not_an_exception():
    class Broken(lp.Backend):
        name = "broken"

        def run(self, model):
            raise RuntimeError("wasm trap")

    old = lp.use_backend(Broken())
    try:
        s = lp.solve(knapsack())
    finally:
        lp.use_backend(old)
    assert s.status == "error" and "wasm trap" in s.message


def test_a_loading_back_end_is_waited_for_by_steps_only():
    class Slow(lp.Backend):
        name = "slow"
        polls = 0

        def state(self):
            self.polls += 1
            return "ready" if self.polls > 3 else "loading"

        def run(self, model):
            return lp.Solution("optimal", (0.0,), 0.0, backend=self.name)

    old = lp.use_backend(Slow())
    try:
        assert lp.solve(knapsack()).status == "unavailable"  # solve does not wait
        gen = lp.solve_steps(knapsack())
        pauses = 0
        try:
            while True:
                next(gen)
                pauses += 1
        except StopIteration as stop:
            assert stop.value.status == "optimal"
        assert pauses == 2
    finally:
        lp.use_backend(old)


def test_highspy_missing_is_reported(no_highspy):
    b = choose()
    assert isinstance(b, Unavailable) and "highspy is not installed" in b.state()
    s = lp.solve(knapsack())
    assert s.status == "unavailable" and "highspy is not installed" in s.message


def test_without_a_back_end_proofs_that_need_no_programme_still_answer(no_highspy):
    french = make_problem(get_board("french"), start="d4", goal="d4")  # the position class answers
    assert drive(search(french, max_nodes=10_000)).status == "impossible"
    english = make_problem(get_board("english"), start="d4", goal="d4")
    assert drive(search(english, max_nodes=200_000)).status == "solved"
    board = get_board("english")
    dead = (1 << board.hole("c1")) | (1 << board.hole("e1")) | (1 << board.hole("d4"))
    assert find_pagoda(board, dead, [1 << board.hole("d4")]) is None  # no programme, no pagoda: no crash
    # the board's known pagodas still prove it
    assert pagoda_proof(board, dead, [1 << board.hole("d4")]).startswith("pagoda function: learned pagoda")


def test_without_a_back_end_the_separation_cell_is_unknown_and_says_why(no_highspy):
    board = get_board("diamond41")
    problem = Problem(board, board.start("e1"), Goal("hole", 1 << board.hole("e9")))
    result = drive(search(problem, max_nodes=30_000))
    assert result.status == "unknown"
    assert "no linear programming: linear programming back end unavailable (highspy is not installed" \
        in result.reason


def test_with_highspy_the_same_cell_is_proved_by_separation():
    board = get_board("diamond41")
    problem = Problem(board, board.start("e1"), Goal("hole", 1 << board.hole("e9")))
    result = drive(search(problem, max_nodes=30_000))
    assert result.status == "impossible" and "pagoda separation" in result.reason
    assert "simplex iterations" in result.reason


def test_the_cpython_back_end_is_highspy_pinned_to_the_wasm_version():
    b = lp.backend()
    assert isinstance(b, Highspy) and b.name == "HiGHS 1.15.1 (highspy)"
