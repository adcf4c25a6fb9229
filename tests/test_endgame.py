"""The goal's endgame table (pyapp.exact.endgame): every verdict it gives equals the whole winnable set's on random
reachable positions (English d1 -> d1 from its committed set, triangle 6 to one peg anywhere computed here); it
refuses what it cannot answer (too many pegs, past its node limit) instead of guessing; and never-lose and Hint
on a French game answer exactly from it, with lines that replay and losing jumps named by it, in the worker's
JSON too."""

from __future__ import annotations

import random

import pytest

from pyapp.analysis import proven
from pyapp.analysis.hint import hint
from pyapp.analysis.neverlose import never_lose_steps
from pyapp.bench.game_rows import exact_set
from pyapp.core.budget import CPU_CLOCK, Budget, drive
from pyapp.core.catalogue import get_board
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import Problem, make_problem
from pyapp.exact import endgame
from pyapp.exact.endgame import Endgame, Overrun, endgame_for, endgame_steps
from pyapp.exact.winnable import clear_cache, winnable
from pyapp.search.solver import search
from pyapp.web.play import never_lose_job
from tests.test_partial_sets import _random_positions

SEED = 1
"""A solver line whose 19-peg position has losing jumps."""


@pytest.fixture(autouse=True)
def _fresh_tables():
    endgame.clear()
    yield
    endgame.clear()


def _table(problem: Problem, max_classes: int) -> Endgame:
    table = drive(endgame_steps(problem.board, problem.goal, problem.start, Budget(60), max_classes))
    assert table is not None
    return table


@pytest.mark.parametrize(("board", "start", "goal", "classes", "low", "games"),
                         [("english", "d1", "d1", 20_000, 9, 4), ("triangle6", "4", "any", 5_000, 6, 24)])
def test_every_verdict_equals_the_whole_set(board, start, goal, classes, low, games):
    """``games`` random games' positions and the positions one jump after them: English's 4 games (two playing
    winnable jumps, two any jump) ask the table about 430 positions (120 by lookup, the rest by search, 1 s; 10
    games asked about 1,000 in 3 s, 24 games 2,600 in 7.5 s)."""
    problem = make_problem(get_board(board), start=start, goal=goal)
    if board == "english":
        whole = exact_set(problem, "english-d1-d1")
        assert whole is not None, "the committed English d1 -> d1 set decodes"
    else:
        clear_cache()
        whole = winnable(problem)
    table = _table(problem, classes)
    assert table.low == low and table.ceiling == low + endgame.SEARCH_LEVELS
    assert endgame_for(problem.board, problem.goal, problem.start) is table
    asked = {"lookup": 0, "search": 0}
    for history in _random_positions(whole, 7, games):
        pos = history[-1]
        for after in [pos, *(apply_jump(pos, j) for j in legal_jumps(problem.board, pos))]:
            if table.covers(after):
                table.question()
                assert table.can_win(after) == whole.can_win(after), problem.board.pegs(after)
                asked[table.via(after.bit_count())] += 1
    assert asked["lookup"] > 50 and asked["search"] > 50


def test_it_refuses_what_it_cannot_answer():
    problem = make_problem(get_board("english"), start="d1", goal="d1")
    table = _table(problem, 20_000)
    with pytest.raises(Overrun, match="answers up to"):
        table.can_win(problem.start)
    pos = problem.start
    rng = random.Random(3)
    while pos.bit_count() > table.ceiling:
        pos = apply_jump(pos, rng.choice(legal_jumps(problem.board, pos)))
    table.memo.clear()
    table.limit = 3
    table.question()
    with pytest.raises(Overrun, match="more than 3 positions"):
        table.can_win(pos)


def _french_line_at(pegs: int, seed: int = SEED) -> tuple[Problem, int]:
    """French d2 -> d6 and the position with ``pegs`` pegs on a solver line (``seed``, by default :data:`SEED`)."""
    problem = make_problem(get_board("french"), start="d2", goal="d6")
    pos = problem.start
    for jump in drive(search(problem, seed=seed, budget=Budget(30, clock=CPU_CLOCK))).jumps:
        if pos.bit_count() == pegs:
            break
        pos = apply_jump(pos, jump)
    return problem, pos


def test_a_question_searched_in_chunks_gives_the_verdicts_of_one_search(monkeypatch):
    # 20 pegs: the jumps' 16 positions take 270,000 nodes (135 chunks) to settle, 1.3 s a search (from 21 pegs:
    # 850,000 nodes, 4 s, and the test searches them twice)
    problem, pos = _french_line_at(20)
    table = _table(problem, endgame.MAX_CLASSES)
    afters = [apply_jump(pos, j) for j in legal_jumps(problem.board, pos)]
    assert all(table.covers(a) for a in afters)
    monkeypatch.setattr(endgame, "CHUNK", 2_000)
    yields = 0
    gen = table.settle_steps(afters, Budget(60), 1 << 40)
    try:
        while True:
            next(gen)
            yields += 1
    except StopIteration as stop:
        assert stop.value is True
    chunked = [table.can_win(a) for a in afters]
    assert yields > 3 and table.limit == endgame.SEARCH_NODES
    # a lookup right after settling keeps a full memo (it reads what the settling found); a new question empties it
    monkeypatch.setattr(endgame, "MEMO_ENTRIES", 1)
    kept = len(table.memo)
    assert [(found or (None,))[0] for found in (table.answer(a, settled=True) for a in afters)] == chunked
    assert len(table.memo) >= kept > 1
    table.question()
    assert not table.memo
    monkeypatch.setattr(endgame, "MEMO_ENTRIES", 1 << 20)
    table.memo.clear()
    table.limit = 1 << 40
    table.question()
    assert [table.can_win(a) for a in afters] == chunked and any(chunked)
    table.memo.clear()
    assert drive(table.settle_steps(afters, Budget(60), 1_000)) is False  # its node allowance ends first


def test_never_lose_on_a_french_game_answers_from_the_table():
    problem, pos = _french_line_at(19)  # the table (its ceiling 20) answers every jump from there
    board = problem.board
    answer = drive(never_lose_steps(Problem(board, pos, problem.goal), budget=Budget(10, clock=CPU_CLOCK)))
    assert answer.answered and answer.answered.startswith("the endgame table of this goal")
    assert not answer.jumps.unknown and answer.status == "winnable" and answer.jumps.bad
    for jump in answer.jumps.good:
        end = apply_jump(pos, jump)
        for step in answer.jumps.lines[jump]:
            end = apply_jump(end, step)
        assert problem.goal.reached(end)
    for jump in answer.jumps.bad:
        assert answer.jumps.reasons[jump].startswith("endgame table: ")
        checked = drive(search(Problem(board, apply_jump(pos, jump), problem.goal), budget=Budget(20)))
        assert checked.status != "solved", "a losing jump the solver can win"
    endgame.clear()  # Hint builds the table itself, and files every jump from it as never-lose does
    proven._TABLES.clear()
    filed = hint(Problem(board, pos, problem.goal), max_seconds=10)
    assert not filed.unknown and sorted(filed.bad) == sorted(answer.jumps.bad)
    assert all(filed.reasons[jump].startswith("endgame table: ") for jump in filed.bad)
    page = drive(never_lose_job(Problem(board, pos, problem.goal), 10.0, [problem.start, pos]))
    assert page["method"] == "exact" and page["answered"] == answer.answered
    assert len(page["good"]) == len(answer.jumps.good) and not page["unknown"]


def test_a_check_above_the_table_builds_it_after_its_search_on_what_is_left():
    # 24 pegs on seed 3's line (8 jumps, about 4 CPU s of never-lose): between FIRST_PEGS and BUILD_PEGS
    problem, pos = _french_line_at(24, seed=3)
    board = problem.board
    here = Problem(board, pos, problem.goal)
    assert endgame.when_to_build(here) == "after"
    answer = drive(never_lose_steps(here, budget=Budget(30, clock=CPU_CLOCK)))
    assert answer.status == "winnable" and answer.answered is None  # the search answered: 24 pegs is above it
    table = endgame_for(board, problem.goal, pos)
    assert table is not None and table.ceiling + 1 < 24
    assert endgame.when_to_build(Problem(board, problem.start, problem.goal)) is None


def test_the_sweep_stops_at_the_callers_memory_ceiling_and_keeps_nothing():
    problem = make_problem(get_board("french"), start="d2", goal="d6")
    tight = Budget(60, max_bytes=2_000_000)  # the 10-peg level alone needs about 24 MB while it is built
    assert drive(endgame_steps(problem.board, problem.goal, problem.start, tight)) is None
    assert endgame_for(problem.board, problem.goal, problem.start) is None
    assert _table(problem, endgame.MAX_CLASSES).low == 10  # with the default ceiling it is built


def test_a_question_to_the_table_stops_with_its_budget():
    """proven.decide_steps searches the table in chunks on the question's budget: a budget spent after one chunk
    stops it there (a pool share or Hint never holds its worker for the table's whole limit)."""
    problem, pos = _french_line_at(21)
    table = _table(problem, endgame.MAX_CLASSES)
    after = apply_jump(pos, legal_jumps(problem.board, pos)[0])
    assert table.covers(after)
    proven._TABLES.clear()
    before = table.searched
    drive(proven.decide_steps(Problem(problem.board, after, problem.goal), Budget(60, max_nodes=1)))
    assert 0 < table.searched - before <= endgame.CHUNK
    # a question paused between chunks whose budget then expires (turns_steps asking each search still running for
    # what it has, once the check's time is up) stops at once: not one chunk more
    for jump in legal_jumps(problem.board, pos):
        budget = Budget(60)
        steps = table.settle_steps([apply_jump(pos, jump)], budget.share(1), table.limit)
        try:
            next(steps)  # one chunk, then paused
        except StopIteration:
            continue  # settled within one chunk: nothing left to stop
        searched = table.searched
        budget.expire()
        with pytest.raises(StopIteration) as stop:
            next(steps)
        assert stop.value.value is False and table.searched == searched
        break
    else:
        pytest.fail("every jump's question was settled within one chunk")
