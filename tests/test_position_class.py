"""Conway's position classes (the rule of three) as the solver uses them.

Sources: Berlekamp, Conway & Guy, *Winning Ways* vol. 4 ch. 23 (position classes);
J. D. Beasley, *The Ins and Outs of Peg Solitaire* (1985): the French board's centre game
and every single-vacancy complement problem on it are impossible, while on the 33-hole
English board every complement problem passes the class test.
"""

from __future__ import annotations

import random

import pytest

from pyapp.core.catalogue import ENTRIES, get_board
from pyapp.core.goal import fewest_in_class
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import make_problem
from pyapp.search.solver import class_proof, solve


class TestInvariant:
    @pytest.mark.parametrize("board_id", [e.id for e in ENTRIES])
    def test_jumps_keep_the_class(self, board_id):
        board = get_board(board_id)
        rng = random.Random(11)
        for name in board.names[:6]:
            pos = board.start(name)
            cls = board.position_class(pos)
            for _ in range(40):
                jumps = legal_jumps(board, pos)
                if not jumps:
                    break
                pos = apply_jump(pos, rng.choice(jumps))
                assert board.position_class(pos) == cls


class TestPublished:
    def test_french_centre_game_impossible(self):
        problem = make_problem(get_board("french"), start="d4", goal="d4")
        reason = class_proof(problem)
        assert reason is not None and "position class" in reason
        assert solve(problem).status == "impossible"

    def test_french_has_no_complement_problem(self):
        board = get_board("french")
        for name in board.names:
            assert class_proof(make_problem(board, start=name, goal=name)) is not None, name

    def test_english_complement_problems_pass_the_class_test(self):
        board = get_board("english")
        for name in board.names:
            assert class_proof(make_problem(board, start=name, goal=name)) is None, name

    def test_triangle4_corner_cannot_end_with_one_peg(self):
        # Bell, "Triangular peg solitaire" (arXiv:0711.0486): the 10-hole triangle from a corner.
        problem = make_problem(get_board("triangle4"), start="1", goal="any")
        result = solve(problem)
        assert result.status == "impossible" and result.reason.startswith("position class")

    def test_class_lower_bound(self):
        assert fewest_in_class(get_board("english"), get_board("english").start("d4")) == 1
        assert fewest_in_class(get_board("triangle4"), get_board("triangle4").start("1")) == 2
