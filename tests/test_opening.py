"""The opening book (pyapp.web.opening, opening.json): every default game's start and the positions after
its first jumps, decided at build time; a symmetric twin's mapped answer is the answer computed directly."""

from __future__ import annotations

from pyapp.core.catalogue import get_board
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import default_problem
from pyapp.web import opening


def test_the_book_answers_the_start_and_every_first_jump_as_the_engine_does():
    book = opening.opening_book(boards=["triangle4", "triangle6"])["games"]
    t4 = book["triangle4"]
    assert t4["result"]["status"] == "winnable" and t4["result"]["method"] == "book"
    assert t4["result"]["good"] == [["7", "4", "2"]] and [b["jump"] for b in t4["result"]["bad"]] == [["9", "5", "2"]]
    assert t4["after"]["9-2"]["status"] == "lost" and t4["after"]["9-2"]["reason"]
    problem = default_problem("triangle6")
    board = get_board("triangle6")
    after = book["triangle6"]["after"]
    assert len(after) == len(legal_jumps(board, problem.start)) == 4
    for jump in legal_jumps(board, problem.start):  # mapped twins included: each as computed directly
        direct = opening._decided(problem, [problem.start, apply_jump(problem.start, jump)], 30)
        key = f"{board.name_of[jump[0]]}-{board.name_of[jump[2]]}"
        for field in ("status", "good", "bad", "unknown"):
            assert sorted(map(str, after[key][field])) == sorted(map(str, direct[field])), (key, field)
