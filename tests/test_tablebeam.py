"""The beam that stops at the goal's endgame table (pyapp.search.tablebeam, pyapp.exact.endgame.TableFinisher): a line
it finds replays to the goal; the table, asked about the beam's positions, calls winnable only what the whole
winnable set holds (English d4 -> d4, its committed set); the solver's own portfolio gets the table beams when a
table is handed in, a prover's does not; and never-lose's searches are handed the goal's table once it is built."""

from __future__ import annotations

import random

import pytest

from pyapp.analysis import proven
from pyapp.bench.game_rows import exact_set
from pyapp.core.budget import Budget, drive
from pyapp.core.catalogue import get_board
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import Problem, make_problem
from pyapp.exact import endgame
from pyapp.exact.endgame import Endgame, TableFinisher, endgame_steps
from pyapp.search import solver
from pyapp.search.solver import search
from pyapp.search.tablebeam import METHOD, WIDTHS, TableBeam


@pytest.fixture(autouse=True)
def _fresh_tables():
    endgame.clear()
    proven._TABLES.clear()
    yield
    endgame.clear()
    proven._TABLES.clear()


def _english() -> tuple[Problem, Endgame]:
    problem = make_problem(get_board("english"), start="d4", goal="d4")
    table = drive(endgame_steps(problem.board, problem.goal, problem.start, Budget(60), 50_000))
    assert table is not None
    return problem, table


def _replays(problem: Problem, pos: int, jumps: list) -> bool:
    for jump in jumps:
        if jump not in legal_jumps(problem.board, pos):
            return False
        pos = apply_jump(pos, jump)
    return problem.goal.reached(pos)


def test_a_line_found_at_the_table_replays_to_the_goal():
    problem, table = _english()
    budget = Budget(30)
    # no short depth-first runs: the table beams come first, so the answer is theirs
    result = drive(search(problem, budget=budget, restarts=(), finisher=TableFinisher(table, budget)))
    assert result.status == "solved" and result.method == METHOD
    assert _replays(problem, problem.start, result.jumps)


def test_the_table_calls_winnable_only_what_the_whole_set_holds():
    problem, table = _english()
    whole = exact_set(problem, "english-d4-d4")
    assert whole is not None
    budget = Budget(60)
    finisher = TableFinisher(table, budget)
    rng = random.Random(5)
    seen = {True: 0, False: 0}
    found = 0
    for _ in range(40):
        pos = problem.start
        while pos.bit_count() > finisher.pegs:  # a winnable jump 7 times in 10, where there is one
            children = [apply_jump(pos, jump) for jump in legal_jumps(problem.board, pos)]
            good = [c for c in children if whole.can_win(c)]
            pos = rng.choice(good if good and rng.random() < 0.7 else children)
        path = drive(finisher.finish_steps(pos))
        wins = whole.can_win(pos)
        seen[wins] += 1
        if path is None:
            continue
        assert wins, "the table called a lost position winnable"
        found += 1
        assert path[0] == pos and problem.goal.reached(path[-1])
        assert all(a.bit_count() == b.bit_count() + 1 for a, b in zip(path, path[1:]))
    assert seen[True] and seen[False], "the sample should hold both kinds"
    assert found == seen[True], "a winnable position this close to the table is settled within its share"


def _phases_of(monkeypatch, **options) -> list:
    got: list = []
    real = solver.run_phases

    def record(run, phases):
        got.extend(phases)
        return (yield from real(run, phases))

    monkeypatch.setattr(solver, "run_phases", record)
    problem, table = _english()
    budget = Budget(max_nodes=2000)
    drive(search(problem, budget=budget, finisher=TableFinisher(table, budget), **options))
    return got


def test_the_solvers_portfolio_gets_the_table_beams_after_its_short_runs(monkeypatch):
    phases = _phases_of(monkeypatch)
    beams = [i for i, p in enumerate(phases) if isinstance(p, TableBeam)]
    assert [phases[i].width for i in beams] == list(WIDTHS)
    assert beams[0] == solver.EARLY_RESTARTS


def test_a_provers_portfolio_gets_none(monkeypatch):
    assert not [p for p in _phases_of(monkeypatch, beam_widths=(128, 256)) if isinstance(p, TableBeam)]


def test_never_loses_searches_are_handed_the_goals_table_once_it_is_built(monkeypatch):
    problem = make_problem(get_board("english"), start="d4", goal="d4")
    handed: list = []

    def fake_search(problem, **options):
        handed.append(options.get("finisher"))
        return (yield from search(problem, **options))

    monkeypatch.setattr(proven, "search", fake_search)
    pos = problem.start
    drive(proven.decide_steps(Problem(problem.board, pos, problem.goal), Budget(max_nodes=500)))
    assert handed == [None]  # no table built for this goal yet
    _, table = _english()  # swept and kept, as never-lose keeps it
    proven._TABLES.clear()
    drive(proven.decide_steps(Problem(problem.board, pos, problem.goal), Budget(max_nodes=500)))
    assert isinstance(handed[-1], TableFinisher) and handed[-1].table is table


def test_the_opening_books_solver_is_handed_the_goals_table_too(monkeypatch):
    from pyapp.exact import openingbook

    handed: list = []

    def fake_solve(problem, **options):
        handed.append(options.get("finisher"))
        return solver.solve(problem, **options)

    monkeypatch.setattr(openingbook, "solve", fake_solve)
    problem, table = _english()
    cd, levels = openingbook.frontier(problem, 30)
    record = openingbook.decide(problem, cd, levels[30][0], 5.0)
    assert record["status"] == "solved"
    assert isinstance(handed[-1], TableFinisher) and handed[-1].table is table
