"""The opening book (pyapp.web.opening, opening.json): every default game's start and the positions after
its first jumps, decided at build time; a symmetric twin's mapped answer is the answer computed directly."""

from __future__ import annotations

from pyapp.core.catalogue import get_board
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import default_problem
from pyapp.web import opening


def test_the_book_answers_the_start_and_every_first_jump_as_the_engine_does():
    """Triangle 4: its start's one good and one bad jump, and the position after the bad one lost.  Triangle 5 (1 ->
    one peg anywhere, its start on the mirror axis) for the twins: its two first jumps are mirror images, so the book
    decides the first and maps its answer onto the second, and each equals the answer computed directly (a start
    that only the identity fixes, as triangle 6's, would map none)."""
    book = opening.opening_book(boards=["triangle4", "triangle5"])["games"]
    t4 = book["triangle4"]
    assert t4["result"]["status"] == "winnable" and t4["result"]["method"] == "book"
    assert t4["result"]["good"] == [["7", "4", "2"]] and [b["jump"] for b in t4["result"]["bad"]] == [["9", "5", "2"]]
    assert t4["after"]["9-2"]["status"] == "lost" and t4["after"]["9-2"]["reason"]
    problem = default_problem("triangle5")
    board = get_board("triangle5")
    assert len(opening._fixing(problem)) == 2  # the identity and the mirror through 1
    after = book["triangle5"]["after"]
    first = legal_jumps(board, problem.start)
    assert len(after) == len(first) == 2
    assert board.transform(apply_jump(problem.start, first[0]), opening._fixing(problem)[1]) == \
        apply_jump(problem.start, first[1])  # twins: the second one's answer is the first one's, mapped
    for jump in first:  # the mapped twin included: each as computed directly
        direct = opening._decided(problem, [problem.start, apply_jump(problem.start, jump)], 30)
        key = f"{board.name_of[jump[0]]}-{board.name_of[jump[2]]}"
        for field in ("status", "good", "bad", "unknown"):
            assert sorted(map(str, after[key][field])) == sorted(map(str, direct[field])), (key, field)
    assert after["4-1"]["good"] != after["6-1"]["good"]  # the mapping moved the holes
