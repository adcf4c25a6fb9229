"""Pagoda functions: validity, the library, the linear program, and their use as proofs.

Source of the method: Berlekamp, Conway & Guy, *Winning Ways* vol. 4 ch. 23 (pagoda
functions); J. D. Beasley, *The Ins and Outs of Peg Solitaire* (1985), ch. 4.
"""

from __future__ import annotations

import random

import pytest

from pyapp.core.catalogue import ENTRIES, get_board
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.position import parse_position
from pyapp.core.problem import Goal, Problem, default_problem, make_problem
from pyapp.proofs.pagoda import (
    find_pagoda,
    library_pagodas,
    make_pagoda,
    pagoda_proof,
    pagodas_for,
    parity_pagodas,
    violations,
)
from pyapp.search.solver import explain_pagoda, solve

BOARDS = [e.id for e in ENTRIES]


class TestValidity:
    @pytest.mark.parametrize("board_id", BOARDS)
    def test_parity_pagodas_are_pagodas(self, board_id):
        board = get_board(board_id)
        pagodas = parity_pagodas(board)
        assert len(pagodas) == 4
        for p in pagodas:
            assert violations(board, p.as_dict()) == []
        # the four parity classes partition the holes
        assert sorted(b for p in pagodas for b, _ in p.weights) == sorted(board.bits)

    @pytest.mark.parametrize("board_id", BOARDS)
    def test_library_pagodas_are_pagodas(self, board_id):
        board = get_board(board_id)
        for p in library_pagodas(board):
            assert violations(board, p.as_dict()) == []

    def test_english_library_is_present(self):
        assert len(library_pagodas(get_board("english"))) > 0

    def test_german_resource_count_is_in_the_library_and_used_toward_e1(self):
        """Bell's resource count for Wiegleb's board: -1 on the 8 arm corners, +1 on 12 holes, a pagoda worth 4
        with only e1 empty and 0 on e1, which the solver and the integer programme get toward e1."""
        board = get_board("german")
        named = {p.name: p for p in library_pagodas(board)}
        count = named["resource count (Bell's, for Wiegleb's board)"]
        weights = {board.name_of[b]: w for b, w in count.weights}
        assert sorted(h for h, w in weights.items() if w == -1) == ["a4", "a6", "d1", "d9", "f1", "f9", "i4", "i6"]
        assert sorted(h for h, w in weights.items() if w == 1) == [
            "b4", "b6", "d2", "d4", "d6", "d8", "f2", "f4", "f6", "f8", "h4", "h6"]
        assert violations(board, count.as_dict()) == []
        e1 = 1 << board.hole("e1")
        assert count.value(board.start("e1")) == 4 and count.value(e1) == 0
        assert (count, 0) in pagodas_for(board, [e1])
        # filling a corner from beside it spends 2 of the count (worth 5 with the corner d1 empty)
        assert count.value(board.start("d1")) == 5 and count.value(apply_jump(board.start("d1"), (
            board.hole("d3"), board.hole("d2"), board.hole("d1")))) == 3
        # pegs on d1, f1 and e3 pass the parity pagodas toward e1 but are worth -2 < 0: the count proves it
        pos = board.start() ^ board.start("d1", "f1", "e3")
        assert pagoda_proof(board, pos, [e1]) == (f"pagoda function: {count.name} is worth -2 at the start but "
                                                  "at least 0 at the goal")

    def test_make_pagoda_refuses_a_non_pagoda(self):
        board = get_board("english")
        with pytest.raises(ValueError, match="not a pagoda function"):
            make_pagoda(board, "centre only", {board.hole("d4"): 1})

    @pytest.mark.parametrize("board_id", ["english", "french", "diamond41", "triangle6"])
    def test_values_never_increase_in_random_games(self, board_id):
        board = get_board(board_id)
        entry = next(e for e in ENTRIES if e.id == board_id)
        pagodas = list(parity_pagodas(board)) + list(library_pagodas(board))
        rng = random.Random(5)
        for _ in range(20):
            pos = board.start(entry.start)
            while True:
                jumps = legal_jumps(board, pos)
                if not jumps:
                    break
                nxt = apply_jump(pos, rng.choice(jumps))
                for p in pagodas:
                    assert p.value(nxt) <= p.value(pos), p.name
                pos = nxt


class TestLinearProgram:
    def test_finds_a_pagoda_for_a_dead_position(self):
        # Two pegs in the top corners c1, e1 and one on d4: the corner pegs can never be cleared.
        board = get_board("english")
        pos = parse_position(board, "o.o/.../......./...o.../......./.../...")
        goal = 1 << board.hole("d4")
        weights = find_pagoda(board, pos, [goal])
        assert weights is not None
        assert violations(board, weights) == []
        value = sum(w for b, w in weights.items() if pos >> b & 1)
        assert value < weights.get(board.hole("d4"), 0)

    def test_no_pagoda_for_a_solvable_problem(self):
        problem = default_problem("english")
        assert find_pagoda(problem.board, problem.start, [problem.goal.target]) is None

    def test_finishes_are_required(self):
        board = get_board("english")
        with pytest.raises(ValueError):
            find_pagoda(board, board.full(), [])

    def test_pagoda_proof_explains_with_the_linear_program(self):
        board = get_board("english")
        pos = parse_position(board, "o.o/.../......./...o.../......./.../...")
        reason = explain_pagoda(Problem(board, pos, Goal("hole", 1 << board.hole("d4"))))
        assert reason is not None and reason.startswith("pagoda function")
        assert explain_pagoda(default_problem("english")) is None


class TestAsProofs:
    def test_solver_names_the_pagoda(self):
        board = get_board("english")
        pos = parse_position(board, "  o../  .../......./o....../.....o./  o../  ...")
        result = solve(Problem(board, pos, Goal("hole", 1 << board.hole("d4"))))
        assert result.status == "impossible" and "parity pagoda" in result.reason

    def test_pagoda_targets_of_any_goal_follow_position_class(self):
        board = get_board("diamond41")
        start = board.start("d2")
        finishes = Goal("any").pagoda_targets(board, start)
        assert finishes and all(board.position_class(f) == board.position_class(start) for f in finishes)

    def test_thresholds_are_goal_values(self):
        problem = make_problem(get_board("english"), start="d4", goal="d4")
        for p, threshold in pagodas_for(problem.board, [problem.goal.target]):
            assert threshold == p.value(problem.goal.target)
            assert p.value(problem.start) >= threshold  # the start is solvable, so no pagoda may rule it out

    def test_pagoda_proof_none_for_solvable(self):
        problem = default_problem("triangle5")
        finishes = Goal("any").pagoda_targets(problem.board, problem.start)
        assert pagoda_proof(problem.board, problem.start, finishes) is None
