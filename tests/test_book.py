"""The book of results found in minutes (pyapp/proofs/book.py): every impossible entry is well formed and
needed (the class test and the quick proofs do not settle it), the solver answers it and its images at once, and
nothing else; ``PEG_PROVE_BOOK=1`` proves each entry again with the integer programme (minutes).  Every solved entry
(pyapp/proofs/book_solved.py) and every image of it replays; one that does not is ignored with a warning."""

from __future__ import annotations

import os
import warnings
from dataclasses import replace

import pytest

from pyapp.analysis.table import DEFAULT_PROBLEM_SECONDS
from pyapp.core.budget import Budget, drive
from pyapp.core.catalogue import get_board
from pyapp.core.goal import Goal
from pyapp.core.problem import Problem
from pyapp.proofs.book import BOOK, BookWarning, book_proof, book_solution
from pyapp.proofs.book_solved import SOLVED
from pyapp.proofs.pagoda import pagoda_proof
from pyapp.proofs.separation import separation_steps
from pyapp.search.ilp import solve_ilp
from pyapp.search.solver import search


def _problem(entry):
    board = get_board(entry.board)
    return Problem(board, board.start(entry.start), Goal("hole", 1 << board.hole(entry.finish)))


@pytest.mark.parametrize("entry", BOOK, ids=lambda e: f"{e.board}-{e.start}-{e.finish}")
def test_entries_are_well_formed_and_needed(entry):
    problem = _problem(entry)
    board, start, target = problem.board, problem.start, problem.goal.exact
    assert board.position_class(start) == board.position_class(target)  # else the class test answers
    assert pagoda_proof(board, start, [target]) is None
    assert drive(separation_steps(board, start, target)) is None
    assert entry.command.startswith(f"python -m pyapp solve {entry.board} --start {entry.start} --goal {entry.finish}")
    assert "--engine ilp" in entry.command and entry.date.startswith("20")


def test_the_solver_answers_the_entries_images_at_once():
    board = get_board("diamond41")
    cells = [(s, f) for s in board.names for f in board.names if book_proof(board, board.start(s), 1 << board.hole(f))]
    assert sorted(cells) == sorted([("d2", "f8"), ("f2", "d8"), ("b4", "h6"), ("h4", "b6"), ("b6", "h4"),
                                    ("h6", "b4"), ("d8", "f2"), ("f8", "d2")])
    result = drive(search(Problem(board, board.start("h4"), Goal("hole", 1 << board.hole("b6"))), max_nodes=1000))
    assert result.status == "impossible" and result.method == "book" and result.nodes == 0
    assert result.reason.startswith("book: Diamond 41 d2 -> f8") and "--engine ilp" in result.reason


def test_the_book_answers_nothing_else():
    board = get_board("diamond41")
    solvable = Problem(board, board.start("d2"), Goal("hole", 1 << board.hole("f2")))
    assert drive(search(solvable, max_nodes=400_000)).status == "solved"
    assert book_proof(board, board.start("d2"), 1 << board.hole("f2")) is None
    # a custom board with the same holes is not the catalogue's: the book does not apply
    from pyapp.core.custom import board_from_text

    rows = ["    o    ", "   ooo   ", "  ooooo  ", " ooooooo ", "ooooooooo", " ooooooo ", "  ooooo  ", "   ooo   ",
            "    o    "]
    custom, _ = board_from_text("/".join(rows))
    assert book_proof(custom, custom.start("d2"), 1 << custom.hole("f8")) is None


@pytest.mark.skipif(os.environ.get("PEG_PROVE_BOOK") != "1", reason="minutes per entry: set PEG_PROVE_BOOK=1")
@pytest.mark.parametrize("entry", BOOK, ids=lambda e: f"{e.board}-{e.start}-{e.finish}")
def test_each_entry_is_proved_again(entry):
    result = solve_ilp(_problem(entry), max_seconds=3600)
    assert result.status == "impossible" and result.reason.startswith("integer programme infeasible")


# ---------------------------------------------------------------------------------------------- solved entries

def _ends(board, start, target, jumps):
    from pyapp.core.game import replay
    from pyapp.core.notation import format_moves

    return replay(board, start, format_moves(board, jumps)).not_one_peg_on(target.bit_length() - 1)


@pytest.mark.parametrize("entry", SOLVED, ids=lambda e: f"{e.board}-{e.start}-{e.finish}")
def test_every_solved_entry_and_image_replays(entry):
    board = get_board(entry.board)
    s, g, full = board.start(entry.start), 1 << board.hole(entry.finish), board.full()
    assert board.position_class(s) == board.position_class(g)
    assert entry.command.startswith(f"python -m pyapp solve {entry.board} --start {entry.start} --goal {entry.finish}")
    assert "--no-book" in entry.command and entry.date.startswith("20")
    cells = set()
    for i in range(len(board.symmetries)):
        si, gi = board.transform(s, i), board.transform(g, i)
        for start, target in ((si, gi), (full ^ gi, full ^ si)):
            with warnings.catch_warnings():
                warnings.simplefilter("error", BookWarning)
                found = book_solution(board, start, target)
            assert found is not None, (i, start, target)
            assert _ends(board, start, target, found[0]) is None
            assert found[1].startswith(f"book: {entry.title} {entry.start} -> {entry.finish}")
            cells.add((start, target))
    assert len(cells) >= 2


def test_a_stored_solution_that_does_not_replay_is_ignored():
    board = get_board("german")
    good = next((e for e in SOLVED if e.board == "german"), None)
    assert good is not None
    s, g = board.start(good.start), 1 << board.hole(good.finish)
    moves = good.moves.split()
    bad = [replace(good, moves=" ".join(moves[:-1])),  # ends with two pegs
           replace(good, moves=" ".join(moves[1:])),  # the first jump is missing: an illegal jump
           replace(good, moves="zz-a1 " + good.moves)]  # not notation
    for entry in bad:
        with pytest.warns(BookWarning, match=f"book: {good.title} {good.start} -> {good.finish}"):
            assert book_solution(board, s, g, (entry,)) is None
    assert book_solution(board, s, g, (good,)) is not None


def test_the_solver_answers_a_solved_entry_at_once():
    entry = SOLVED[0]
    board = get_board(entry.board)
    full = board.full()
    start, target = full ^ (1 << board.hole(entry.finish)), full ^ board.start(entry.start)  # the time reversal
    result = drive(search(Problem(board, start, Goal("hole", target)), max_nodes=1000))
    assert result.status == "solved" and result.method == "book" and result.nodes == 0
    assert result.reason.startswith("book: ") and _ends(board, start, target, result.jumps) is None
    # without the book (``solve --no-book``: how an entry is found again) the search starts from scratch
    result = drive(search(Problem(board, start, Goal("hole", target)), max_nodes=1000, use_book=False))
    assert result.method != "book" and result.nodes > 0


# the German cells that `table german` (10 s a problem) left unknown on a loaded 2-core machine, e1 -> e1 aside
GERMAN_SLOW_CELLS = [("d1", "d1"), ("d1", "a4"), ("d1", "d4"), ("d1", "g4"), ("d1", "d7"), ("e1", "b4"), ("e1", "e4"),
                     ("e1", "h4"), ("e1", "e7"), ("d2", "d2"), ("d2", "a5"), ("d2", "d5"), ("d2", "g5"), ("d3", "d9"),
                     ("e3", "e9"), ("d4", "d1"), ("d4", "a4"), ("d4", "d4"), ("d4", "g4"), ("d4", "d7"),
                     ("b5", "b5"), ("e2", "e2")]


def test_the_german_table_answers_its_slow_cells_within_its_budget():
    """Through the function the table runs for each cell (the solver on one problem, 10 s a problem): answered
    by the book at once, with a solution that replays."""
    board = get_board("german")
    for s, f in GERMAN_SLOW_CELLS:
        start, target = board.start(s), 1 << board.hole(f)
        budget = Budget(DEFAULT_PROBLEM_SECONDS)
        result = drive(search(Problem(board, start, Goal("hole", target)), budget=budget))
        assert (result.status, result.method, result.nodes) == ("solved", "book", 0), (s, f)
        assert _ends(board, start, target, result.jumps) is None and budget.elapsed() < 1.0, (s, f)
