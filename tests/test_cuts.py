"""Pagodas learned during the level search (:mod:`pyapp.search.cuts`) prune only what cannot matter.

Checked against brute-force enumeration (:func:`test_levels.reachable`) on sparse random
German and Diamond 41 positions: every pagoda the search learns is a true pagoda; a
backward-side pagoda never drops a position reachable from the start; a forward-side one
never drops a reachable position that can still reach a goal; and the answers agree.
"""

from __future__ import annotations

import pytest
from test_levels import _drive, _lines, _random_positions, check_path, reachable

from pyapp.core.catalogue import get_board
from pyapp.core.goal import Goal
from pyapp.core.problem import Problem
from pyapp.proofs.pagoda import Pagoda, violations
from pyapp.search import cuts, levelside
from pyapp.search.decide import decide
from pyapp.search.levels import level_search


def _can_reach(board, closure: set[int], finishes: set[int]) -> set[int]:
    """The positions of ``closure`` from which some position of ``finishes`` is reachable."""
    lines = _lines(board)
    good = closure & finishes
    for k in sorted({p.bit_count() for p in closure}):
        for p in closure:
            if p.bit_count() != k or p in good:
                continue
            for a, b, c in lines:
                if p >> a & 1 and p >> b & 1 and not p >> c & 1 and p ^ ((1 << a) | (1 << b) | (1 << c)) in good:
                    good.add(p)
                    break
    return good


@pytest.fixture
def learned(monkeypatch) -> list[tuple[str, Pagoda, list[int]]]:
    """Every pagoda the level searches of a test learn: (side, pagoda, the side's finishes then)."""
    out: list[tuple[str, Pagoda, list[int]]] = []
    add = levelside.Side.add

    def record(side, pagodas):
        out.extend((side.name, p, list(side.finishes)) for p in pagodas)
        add(side, pagodas)

    monkeypatch.setattr(levelside.Side, "add", record)
    return out


@pytest.mark.parametrize("board_id", ["german", "diamond41"])
def test_learned_pagodas_prune_only_dead_positions(board_id, learned, monkeypatch):
    board = get_board(board_id)
    monkeypatch.setattr(cuts, "POOL", 64)  # learn eagerly: small searches would otherwise learn little
    mask = board.mask
    for start in _random_positions(board, 4, 11, 14, seed=31):
        closure = reachable(board, start)
        singles = {p for p in closure if p.bit_count() == 1}
        before = len(learned)
        problem = Problem(board, start, Goal("any"))
        answer = _drive(decide(problem))
        assert answer.status == ("solved" if singles else "impossible"), answer.reason
        if answer.status == "solved":
            check_path(board, problem, answer.path)
        for side, p, finishes in learned[before:]:
            assert not violations(board, p.as_dict())
            threshold = min(p.value(f) for f in finishes)
            if side == "backward":  # complements: nothing reachable from the start may fall below
                assert all(p.value(mask ^ q) >= threshold for q in closure)
            else:
                alive = _can_reach(board, closure, {f for f in finishes})
                assert all(p.value(q) >= threshold for q in alive)
    assert {side for side, _, _ in learned} == {"forward", "backward"}


def test_forward_search_to_the_bottom_returns_the_fewest_pegs():
    """``goals`` None: an empty level ends the search, and the path leads to the fewest pegs reachable."""
    board = get_board("english")
    for start in _random_positions(board, 3, 12, 16, seed=8):
        fewest = min(p.bit_count() for p in reachable(board, start))
        res = _drive(level_search(board, start, None, 1, list(range(len(board.symmetries)))))
        assert res.status == ("solved" if fewest == 1 else "impossible")
        assert res.path[0] == start and res.path[-1].bit_count() == fewest
        check_path(board, Problem(board, start, Goal("min")), res.path)


@pytest.mark.parametrize(("start", "finish", "side"), [("e1", "e3", "forward"), ("e3", "e1", "backward")])
def test_diamond41_cells_proved_by_learned_pagodas(start, finish, side, learned):
    """Two cells of the Diamond 41 table that the known pagodas and the linear program at the start
    leave open (unknown at 10 s before the level search learned pagodas): e1 -> e3 has one first jump
    (up to symmetry), and a learned pagoda rules out the position after it; e3 -> e1 has goal
    predecessors (two pegs) that a learned pagoda shows out of reach from the start.  The proof is
    re-checked here: the pagodas are true pagodas, and every child of the start (resp. every
    two-peg predecessor of the goal) falls below one of them."""
    board = get_board("diamond41")
    pos, goal = board.start(start), 1 << board.hole(finish)
    res = _drive(level_search(board, pos, [goal], 1, list(Goal("hole", goal).symmetries(board))))
    assert res.status == "impossible" and "learned by linear programming" in res.reason, res.reason
    pagodas = [(p, fins) for name, p, fins in learned if name == side]
    assert pagodas and all(not violations(board, p.as_dict()) for p, _ in pagodas)
    lines = _lines(board)
    if side == "forward":
        kids = [pos ^ ((1 << a) | (1 << b) | (1 << c)) for a, b, c in lines
                if pos >> a & 1 and pos >> b & 1 and not pos >> c & 1]
        assert kids and all(any(p.value(k) < p.value(goal) for p, _ in pagodas) for k in kids)
    else:  # on complements: a predecessor q is out of reach when P(mask ^ q) < P(mask ^ start)
        mask = board.mask
        preds = [goal ^ ((1 << a) | (1 << b) | (1 << c)) for a, b, c in lines
                 if not goal >> a & 1 and not goal >> b & 1 and goal >> c & 1]
        assert preds and all(any(p.value(mask ^ q) < p.value(mask ^ pos) for p, _ in pagodas) for q in preds)
