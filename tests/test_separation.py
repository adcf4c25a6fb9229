"""Pagoda separation of a problem's two ends (pyapp/proofs/separation.py): never claimed on a solvable
problem (exhaustive enumeration on triangle5/6), proofs re-checked independently, and end to end
through the solver on Diamond 41 cells no other proof settles."""

from __future__ import annotations

import random

import pytest
from test_levels import reachable

from pyapp.core.budget import drive
from pyapp.core.catalogue import get_board
from pyapp.core.goal import Goal
from pyapp.core.problem import Problem
from pyapp.proofs.pagoda import _drive, integer_pagoda
from pyapp.proofs.separation import each_reason, frontier, separate_each, separation_steps
from pyapp.search.solver import search


def _separate(board, start, goal):
    return _drive(separation_steps(board, start, goal))


def _jumps(board):
    return [(a, b, c) for a, b, c in board.lines] + [(c, b, a) for a, b, c in board.lines]


def _levels(board, pos, depth, backward):
    """Independent frontier: positions ``depth`` jumps from ``pos`` (backward: undoing jumps)."""
    level = {pos}
    for _ in range(depth):
        nxt = set()
        for p in level:
            for a, b, c in _jumps(board):
                need, hole = ((1 << c), (1 << a) | (1 << b)) if backward else ((1 << a) | (1 << b), 1 << c)
                if p & need == need and not p & hole:
                    nxt.add(p ^ need ^ hole)
        level = nxt
    return level


@pytest.mark.parametrize("board_id,full_starts", [("triangle5", 4), ("triangle6", 1)])
def test_never_claims_impossible_on_a_solvable_problem(board_id, full_starts):
    """Single-vacancy starts (up to symmetry) and random 8-11-peg starts; every one-peg goal and a sample
    of 2-4-peg goals, reachable or not: a claimed separation is always an unreachable goal."""
    board = get_board(board_id)
    rng = random.Random(5)
    starts = sorted({board.canonical(board.start(h)) for h in board.names})[:full_starts]
    starts += [sum(1 << b for b in rng.sample(board.bits, rng.randint(8, 11))) for _ in range(12)]
    claimed = solvable = 0
    for start in starts:
        seen = reachable(board, start)
        goals = [1 << b for b in board.bits]
        goals += rng.sample(sorted(p for p in seen if 2 <= p.bit_count() <= 4), min(12, len(seen) // 4))
        goals += [sum(1 << b for b in rng.sample(board.bits, k)) for k in (2, 3, 4) for _ in range(4)]
        for goal in goals:
            proof = _separate(board, start, goal)
            if goal in seen:
                solvable += 1
                assert proof is None, (start, goal)
            elif proof is not None:
                claimed += 1
    assert solvable > 100 and claimed > 0


@pytest.mark.parametrize("vacancy,finish", [("e1", "b6"), ("e1", "h6"), ("e1", "e9"), ("d2", "i5"), ("e1", "e3")])
def test_diamond41_cells_are_separated_and_the_proof_checks(vacancy, finish):
    """The Diamond 41 cells no pagoda, class or level search settled (and e1 -> e3, known impossible):
    the weights are a pagoda on every jump, the frontiers are the independently enumerated ones, and
    every forward position is worth less than every backward one."""
    board = get_board("diamond41")
    start, goal = board.start(vacancy), 1 << board.hole(finish)
    proof = _separate(board, start, goal)
    assert proof is not None
    w = proof.weights
    assert all(w.get(c, 0) <= w.get(a, 0) + w.get(b, 0) for a, b, c in _jumps(board))
    front = _levels(board, start, proof.depth, False)
    back = _levels(board, goal, proof.depth, True)
    assert front == frontier(board, start, proof.depth, False) and back == frontier(board, goal, proof.depth, True)
    assert (proof.forward, proof.backward) == (len(front), len(back))
    value = lambda p: sum(x for b, x in w.items() if p >> b & 1)  # noqa: E731
    assert max(map(value, front)) == proof.high < proof.low == min(map(value, back))
    assert "pagoda separation" in proof.reason(board)


@pytest.mark.parametrize("board_id,vacancy,finish", [("diamond41", "d2", "f2"), ("diamond41", "e3", "b4"),
                                                     ("diamond41", "d2", "c5"), ("german", "d2", "a5")])
def test_solvable_cells_are_not_separated(board_id, vacancy, finish):
    """Cells the table solves (replayed solutions; german d2 -> a5 through an equivalent problem)."""
    board = get_board(board_id)
    assert _separate(board, board.start(vacancy), 1 << board.hole(finish)) is None


@pytest.mark.parametrize("board_id,full_starts", [("triangle5", 4), ("triangle6", 1)])
def test_one_peg_anywhere_is_never_claimed_impossible_when_some_finish_is_reachable(board_id, full_starts):
    """:func:`separate_each` over every one-peg finish of a start's class, against exhaustive enumeration:
    a proof only when no one-peg position is reachable, and the sample has starts of both kinds, with
    some finishes separated and others reachable (the case a proof for only some finishes would get wrong).
    Single-vacancy starts up to symmetry (all of triangle 5's four; one of triangle 6's five, the others alike
    reaching one-peg finishes, each 1-2.5 s to enumerate) and 40 random 6-11-peg starts (the lost and mixed ones)."""
    board = get_board(board_id)
    rng = random.Random(11)
    starts = sorted({board.canonical(board.start(h)) for h in board.names})[:full_starts]
    starts += [sum(1 << b for b in rng.sample(board.bits, rng.randint(6, 11))) for _ in range(40)]
    proven = mixed = 0
    for start in starts:
        seen = reachable(board, start)
        finishes = Goal("any").pagoda_targets(board, start)
        proofs = _drive(separate_each(board, start, finishes))
        reached = [f for f in finishes if f in seen]
        if reached:
            assert proofs is None, start
            mixed += any(_separate(board, start, f) is not None for f in finishes)
        elif proofs is not None:
            proven += 1
            assert [f for f, _ in proofs] == finishes
    assert proven > 0 and mixed > 0


def test_solver_answers_diamond41_e1_one_peg_anywhere_by_separation():
    """Formerly unknown at 10 s (issue 9's list: e1 -> any): each of the five finishes its class allows
    (e3, b6, e6, h6, e9) is separated from the start."""
    board = get_board("diamond41")
    result = drive(search(Problem(board, board.start("e1"), Goal("any")), max_nodes=400_000))
    assert result.status == "impossible" and result.method == "pagoda (linear programming)"
    assert result.reason.startswith("every one-peg finish the position class allows is ruled out")
    for hole in ("e3", "b6", "e6", "h6", "e9"):
        assert f"{hole}: pagoda separation" in result.reason
    proofs = _drive(separate_each(board, board.start("e1"), Goal("any").pagoda_targets(board, board.start("e1"))))
    assert proofs is not None and each_reason(board, proofs) == result.reason


def test_rounding_to_a_non_pagoda_is_rejected():
    board = get_board("triangle5")
    # weight 2 on one hole, 0 elsewhere: a jump onto that hole from two 0-weight holes raises it
    w = [0.0] * len(board.bits)
    w[0] = 2.0
    assert integer_pagoda(board, w) is None
    assert integer_pagoda(board, [0.0] * len(board.bits)) == {}
    # a programme's vertex with rounding noise is scaled to coprime integers
    assert integer_pagoda(board, [0.5 + 1e-10] * len(board.bits)) == {b: 1 for b in board.bits}


def test_short_problems_use_no_frontier_deeper_than_half_the_jumps():
    """Two pegs to one: one jump, so not even depth 1 applies (the frontiers would pass each other)."""
    board = get_board("triangle5")
    a1, b2, c3 = (1 << b for b in board.bits[:3])
    assert _separate(board, a1 | b2, c3) is None
    assert frontier(board, a1, 1, False) == set() and frontier(board, c3, 1, True) == _levels(board, c3, 1, True)


def test_solver_answers_diamond41_e1_e9_by_separation():
    """End to end with a node budget: formerly unknown at 10 s (level search of 14 + 12 levels)."""
    board = get_board("diamond41")
    problem = Problem(board, board.start("e1"), Goal("hole", target=1 << board.hole("e9")))
    result = drive(search(problem, max_nodes=400_000))
    assert result.status == "impossible" and result.method == "pagoda (linear programming)"
    assert result.reason.startswith("pagoda separation") and "1 jump after the start" in result.reason


@pytest.mark.parametrize("board_id", ["triangle5", "english", "diamond41"])
def test_frontiers_match_an_independent_enumeration(board_id):
    board = get_board(board_id)
    rng = random.Random(3)
    for _ in range(6):
        pos = sum(1 << b for b in rng.sample(board.bits, len(board.bits) // 2))
        for depth in (1, 2):
            for backward in (False, True):
                assert frontier(board, pos, depth, backward) == _levels(board, pos, depth, backward)


def test_an_unknown_answer_lists_the_proofs_tried():
    """German e1 -> e1 (no proof known): stopped by a node budget past the linear programmes, the answer
    names every proof tried, with the separation's frontier sizes and what each programme came to."""
    board = get_board("german")
    problem = Problem(board, board.start("e1"), Goal("hole", target=1 << board.hole("e1")))
    result = drive(search(problem, max_nodes=100_000))
    assert result.status == "unknown" and result.reason.startswith("budget spent")
    tried = "proofs tried: position class, 2 known pagodas, a pagoda by linear programming, pagoda separation ("
    assert tried + "1 jump from each end: 1 x 1 positions, no separating pagoda" in result.reason
    assert "2 jumps from each end: 1 x 1 positions, no separating pagoda" in result.reason
    assert "fewest pegs reached by the depth-first searches" in result.reason
