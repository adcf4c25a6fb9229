"""The book of impossibility results proved in minutes (pyapp/proofs/book.py): every entry is well formed and
needed (the class test and the quick proofs do not settle it), the solver answers it and its images at once, and
nothing else; ``PEG_PROVE_BOOK=1`` proves each entry again with the integer programme (minutes)."""

from __future__ import annotations

import os

import pytest

from pyapp.core.budget import drive
from pyapp.core.catalogue import get_board
from pyapp.core.goal import Goal
from pyapp.core.problem import Problem
from pyapp.proofs.book import BOOK, book_proof
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
    from pyapp.core.board import board_from_text

    rows = ["    o    ", "   ooo   ", "  ooooo  ", " ooooooo ", "ooooooooo", " ooooooo ", "  ooooo  ", "   ooo   ",
            "    o    "]
    custom, _ = board_from_text("/".join(rows))
    assert book_proof(custom, custom.start("d2"), 1 << custom.hole("f8")) is None


@pytest.mark.skipif(os.environ.get("PEG_PROVE_BOOK") != "1", reason="minutes per entry: set PEG_PROVE_BOOK=1")
@pytest.mark.parametrize("entry", BOOK, ids=lambda e: f"{e.board}-{e.start}-{e.finish}")
def test_each_entry_is_proved_again(entry):
    result = solve_ilp(_problem(entry), max_seconds=3600)
    assert result.status == "impossible" and result.reason.startswith("integer programme infeasible")
