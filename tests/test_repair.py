"""Lines adapted from a neighbouring position's known line (pyapp.analysis.repair, Proven.adapted): every line
made replays to the goal, the endgame table finishes a line once it can look the position up, a lost position is
never given a line, and never-lose answers the jumps it repairs without a search."""

from __future__ import annotations

from pyapp.analysis import proven
from pyapp.analysis.proven import REPAIRED, Proven, decide_steps
from pyapp.analysis.repair import adapt, repaired, templates
from pyapp.core.budget import Budget, drive
from pyapp.core.catalogue import get_board
from pyapp.core.game import illegal_reason
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import Problem, make_problem
from pyapp.exact import endgame
from pyapp.exact.endgame import endgame_steps
from pyapp.search.solver import solve


def _replays(problem: Problem, pos: int, line: list) -> bool:
    for jump in line:
        if illegal_reason(problem.board, pos, jump) is not None:
            return False
        pos = apply_jump(pos, jump)
    return problem.goal.reached(pos)


def _along(problem: Problem, line: list, steps: int) -> int:
    pos = problem.start
    for jump in line[:steps]:
        pos = apply_jump(pos, jump)
    return pos


def test_a_sibling_is_solved_by_the_parents_line_with_its_jump_moved_first():
    problem = make_problem(get_board("english"), start="d4", goal="d4")
    found = solve(problem, max_seconds=20)
    assert found.status == "solved"
    table = Proven()
    table.record(problem, found)
    parent = _along(problem, found.jumps, 6)
    made = 0
    for jump in legal_jumps(problem.board, parent):
        child = apply_jump(parent, jump)
        if child in table.won:
            continue
        line = repaired(problem.board, problem.goal, child, table.won.get, None)
        if line is not None:
            made += 1
            assert _replays(problem, child, line)
            truth = solve(Problem(problem.board, child, problem.goal), max_seconds=20)
            assert truth.status == "solved"
    assert made >= 1  # measured: 1 of the 4 other jumps at this point of the line


def test_the_endgame_table_finishes_a_line_once_it_can_look_the_position_up():
    endgame.clear()
    problem = make_problem(get_board("french"), start="d2", goal="d6")
    table = drive(endgame_steps(problem.board, problem.goal, problem.start, Budget(60)))
    assert table is not None
    found = solve(problem, max_seconds=30)
    assert found.status == "solved"
    parent = _along(problem, found.jumps, 10)
    template = tuple(found.jumps[10:])
    made = 0
    for jump in legal_jumps(problem.board, parent):
        child = apply_jump(parent, jump)
        line = adapt(problem.goal, child, template, table)
        if line is None:
            continue
        made += 1
        assert _replays(problem, child, line)
        own = child.bit_count() - table.low  # the template's jumps, in its order, down to the table's level
        it = iter(template)
        assert all(any(j == t for t in it) for j in line[:own])
    assert made >= 2  # measured: 5 of the 14 jumps here (26 pegs; the table built here looks up 10)
    endgame.clear()


def test_a_lost_position_is_never_given_a_line():
    problem = make_problem(get_board("english"), start="d4", goal="d4")
    found = solve(problem, max_seconds=20)
    table = Proven()
    table.record(problem, found)
    checked = 0
    # the children of the line's positions 6 to 11 jumps in: 9 of them lost (measured; from 2 to 5 jumps in every
    # child is winnable)
    for steps in range(6, 12):
        parent = _along(problem, found.jumps, steps)
        for jump in legal_jumps(problem.board, parent):
            child = apply_jump(parent, jump)
            truth = solve(Problem(problem.board, child, problem.goal), max_seconds=20)
            line = repaired(problem.board, problem.goal, child, table.won.get, None)
            if truth.status == "impossible":
                checked += 1
                assert line is None
            elif line is not None:
                assert _replays(problem, child, line)
    assert checked >= 5


def test_the_table_names_an_adapted_line_and_retries_only_after_learning(monkeypatch):
    problem = make_problem(get_board("english"), start="d4", goal="d4")
    found = solve(problem, max_seconds=20)
    table = Proven()
    table.record(problem, found)
    parent = _along(problem, found.jumps, 6)
    learned = table.learned
    answers = {}
    for jump in legal_jumps(problem.board, parent):
        child = Problem(problem.board, apply_jump(parent, jump), problem.goal)
        if child.start in table.won:
            continue
        answers[jump] = drive(decide_steps(child, Budget(20), table))
    adapted = [r for r in answers.values() if r.method == REPAIRED]
    assert adapted and all(r.nodes == 0 and r.status == "solved" for r in adapted)
    assert table.learned > learned
    # a position it could not answer is tried again only once the table has recorded a new solution
    calls = []
    monkeypatch.setattr(proven, "repaired", lambda *args: calls.append(args[2]))
    lost = next(r for r in answers.values() if r.status == "impossible")
    asked = Problem(problem.board, lost.final, problem.goal)
    table.won.pop(asked.start, None)
    assert table.adapted(asked) is None and table.adapted(asked) is None and len(calls) == 1
    table.record(problem, found)  # a solution recorded again: something new to try
    assert table.adapted(asked) is None and len(calls) == 2


def test_templates_are_the_parents_lines_then_their_childrens():
    problem = make_problem(get_board("english"), start="d4", goal="d4")
    found = solve(problem, max_seconds=20)
    parent = _along(problem, found.jumps, 4)
    after = apply_jump(parent, found.jumps[4])
    sibling_jump = next(j for j in legal_jumps(problem.board, parent) if j != found.jumps[4])
    sibling = apply_jump(parent, sibling_jump)
    won = {parent: tuple(found.jumps[4:]), after: tuple(found.jumps[5:])}
    listed = list(templates(problem.board, sibling, won.get))
    assert listed[0] == won[parent]
    assert (found.jumps[4], *won[after]) in listed
