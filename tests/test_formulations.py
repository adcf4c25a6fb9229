"""Equivalent formulations of single-vacancy problems (symmetry and time reversal) and the
solver phase that searches them (pyapp.search.formulations)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from test_levels import reachable

from pyapp.bench.cases import replay_error
from pyapp.core.budget import budget_of, drive
from pyapp.core.catalogue import get_board
from pyapp.core.goal import Goal, stabilizer
from pyapp.core.problem import Problem
from pyapp.proofs.pagoda import pagodas_for
from pyapp.search.compiled import build_tables
from pyapp.search.dfs import Stats
from pyapp.search.formulations import Alongside, formulations, replays
from pyapp.search.phases import run_phases
from pyapp.search.runstate import Outcome, Run
from pyapp.search.solver import solve
from pyapp.search.table import BoundedTable


def _forward(board, form, path):
    """The image of a path of the original problem in ``form``'s frame (the inverse of ``form.back``),
    written independently: transform every position, then (dual) reverse the order and complement."""
    path = [board.transform(p, form.sym) for p in path]
    return [board.mask ^ p for p in reversed(path)] if form.dual else path


def test_formulation_counts():
    german = get_board("german")
    # d2 is fixed by no symmetry but the identity: 8 images x 2 (direct, dual), less the problem itself
    assert len(formulations(german, german.start("d2"), 1 << german.hole("a5"))) == 15
    # e1 -> e1: four distinct images (e1, a5, i5, e9), each its own dual
    forms = formulations(german, german.start("e1"), 1 << german.hole("e1"))
    assert sorted(f.text() for f in forms) == ["a5 -> a5", "e9 -> e9", "i5 -> i5"]
    english = get_board("english")
    assert formulations(english, english.start("d4"), 1 << english.hole("d4")) == []
    # not a single-vacancy, one-peg problem: nothing to do
    assert formulations(english, english.start("d4", "d3"), 1 << english.hole("d4")) == []
    assert formulations(english, english.start("d4"), english.start("d4")) == []
    assert formulations(english, english.start("d4"), None) == []


@pytest.mark.parametrize("board_id,vacancy,finish", [("triangle5", "1", "13"), ("english", "c1", "f4"),
                                                     ("french", "d2", "d6")])
def test_every_formulation_is_solved_by_the_mapped_solution(board_id, vacancy, finish):
    """A solution of the problem, carried into each formulation, replays there (duality: the reversed,
    complemented game is a game), and ``back`` carries it home unchanged."""
    board = get_board(board_id)
    start, target = board.start(vacancy), 1 << board.hole(finish)
    result = solve(Problem(board, start, Goal.parse(board, finish)), max_nodes=2_000_000)
    assert result.status == "solved"
    path = [start]
    for a, b, c in result.jumps:
        path.append(path[-1] ^ (1 << a | 1 << b | 1 << c))
    forms = formulations(board, start, target)
    assert forms and any(f.dual for f in forms)
    for form in forms:
        image = _forward(board, form, path)
        assert replays(board, image, form.start, form.target), form.text()
        assert form.back(image) == path


def test_replays_rejects_bad_paths():
    board = get_board("english")
    start = board.start("d4")
    d2_d4 = start ^ (1 << board.hole("d2") | 1 << board.hole("d3") | 1 << board.hole("d4"))
    assert replays(board, [start, d2_d4], start, d2_d4)
    assert not replays(board, [start, d2_d4], start, start)  # does not end at the target
    assert not replays(board, [d2_d4, start], d2_d4, start)  # a peg appears
    # d1 and d3 leave, d4 fills: not a jump along a line of three
    odd = start ^ (1 << board.hole("d1") | 1 << board.hole("d3") | 1 << board.hole("d4"))
    assert not replays(board, [start, odd], start, odd)


def test_german_cell_solved_through_an_equivalent_problem():
    """Issue 9's German cell d2 -> a5 was unknown (every search of the problem as posed failed); the
    solver now solves it through a symmetric or time-reversed formulation, and the solution replays.
    Node budget, so the answer does not depend on the machine's speed.  Without the book, which now holds a
    solution of this cell (``pyapp/proofs/book_solved.py``): the search is what is tested here."""
    board = get_board("german")
    problem = Problem(board, board.start("d2"), Goal.parse(board, "a5"))
    result = solve(problem, max_nodes=3_000_000, use_book=False)
    assert result.status == "solved", result.reason
    assert "equivalent problem" in result.method
    err, final = replay_error(board, problem.start, result.jumps)
    assert err is None and final == 1 << board.hole("a5")


@dataclass(frozen=True)
class _Endless:
    """A stand-in for the complete phase: pauses ``slices`` times, then answers (or never, if None)."""

    slices: int | None
    name: str = "stand-in"

    def run(self, run, number):
        n = 0
        while self.slices is None or n < self.slices:
            n += 1
            run.st.nodes += 1
            yield
        return Outcome("exhausted", [], "stand-in proof")


def _german_run(vacancy, finish, nodes=3_000_000):
    board = get_board("german")
    start, target = board.start(vacancy), 1 << board.hole(finish)
    tables = build_tables(board, pagodas_for(board, [target]), list(stabilizer(board, target)), None)
    return board, Run(tables, BoundedTable(1 << 16, tables.images), Stats(), budget_of(None, None, nodes, 0.05),
                      start, 1, target, [target], None, nodes)


@pytest.mark.parametrize("vacancy,finish", [("d4", "d1"), ("e1", "h4")])
def test_equivalent_problems_solve_german_cells_beside_the_complete_phase(vacancy, finish):
    """The other two German cells of issue 9 (unknown before): the formulations, run beside a complete
    phase that never ends, find a solution of the problem as posed."""
    board, run = _german_run(vacancy, finish)
    outcome = drive(run_phases(run, [Alongside(_Endless(None))]))
    assert outcome.status == "found", outcome
    assert replays(board, outcome.path, run.start, run.target)


def test_the_complete_phase_answers_when_it_settles_first():
    board, run = _german_run("d4", "d1")
    outcome = drive(run_phases(run, [Alongside(_Endless(3))]))
    assert (outcome.status, outcome.method) == ("exhausted", "stand-in proof")


def test_time_reversal_by_enumeration():
    """The duality the formulations rest on, checked by brute force: from vacancy s one can finish
    on f exactly when from vacancy f one can finish on s (and symmetric images agree)."""
    board = get_board("triangle5")  # triangle6 agrees too, but its closure takes 35 s
    ends = {h: {p for p in reachable(board, board.start(board.name_of[h])) if p.bit_count() == 1}
            for h in board.bits}
    pairs = {(s, f.bit_length() - 1) for s, fs in ends.items() for f in fs}
    assert pairs and all((f, s) in pairs for s, f in pairs)
    for s, f in pairs:
        for form in formulations(board, board.mask ^ (1 << s), 1 << f):
            vacancy = (board.mask ^ form.start).bit_length() - 1
            assert (vacancy, form.target.bit_length() - 1) in pairs
    assert len(pairs) < len(board.bits) ** 2  # some cells are impossible: the check can fail
