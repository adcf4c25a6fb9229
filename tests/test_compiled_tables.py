"""The solver's compiled tables (``pyapp.search.compiled``) packed the fast way equal the plain definitions:
each hole's pagoda weights in lanes (``sum(w << LANE * k)``), every jump's packed change, and the packed
alive check, which must say exactly "every pagoda value is at least its threshold" where ``lanes_exact``."""

from __future__ import annotations

import random

import pytest

from pyapp.core.catalogue import CATALOGUE, get_board
from pyapp.proofs.pagoda import Pagoda, pagodas_for
from pyapp.search.compiled import BIAS, HIGH, LANE, _packed_weights, build_tables


def plain_weights(pagodas: list[tuple[Pagoda, int]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for k, (p, _) in enumerate(pagodas):
        for b, w in p.weights:
            out[b] = out.get(b, 0) + (w << (LANE * k))
    return {b: v for b, v in out.items() if v}


@pytest.mark.parametrize("board_id", sorted(CATALOGUE))
def test_packed_tables_equal_the_plain_sums(board_id):
    board = get_board(board_id)
    rng = random.Random(board_id)
    for hole in board.bits:
        pagodas = pagodas_for(board, [1 << hole])
        t = build_tables(board, pagodas, [0], None)
        assert t.packed_weights == plain_weights(pagodas)
        assert t.x0_bias == sum(BIAS << (LANE * k) for k in range(len(pagodas)))
        assert t.check_c == sum((HIGH - (thr + BIAS)) << (LANE * k) for k, (_, thr) in enumerate(pagodas))
        for _ in range(5):
            pos = sum(1 << b for b in board.bits if rng.random() < 0.5)
            if t.lanes_exact:
                assert t.alive(t.pack(pos)) == all(p.value(pos) >= thr for p, thr in pagodas)


def test_pagodas_outside_the_known_list_and_outside_a_lane_are_packed_exactly():
    board = get_board("english")
    rng = random.Random(7)
    for _ in range(200):
        weights = {rng.choice(board.bits): rng.choice([rng.randrange(-40000, 40000), rng.randrange(-5, 6)])
                   for _ in range(rng.randrange(1, 20))}
        pagodas = [(Pagoda("p", tuple(sorted((b, w) for b, w in weights.items() if w))), 0)
                   for _ in range(rng.randrange(1, 30))]
        assert _packed_weights(board, pagodas) == plain_weights(pagodas)


def test_any_choice_of_known_pagodas_in_any_order_is_cut_from_the_board_bytes_exactly():
    """Known pagodas are cut from per-board bytes in runs of consecutive indices: gaps, reversals and repeats
    must give the same lanes as packing them one by one."""
    from pyapp.proofs.pagoda import known_weights

    board = get_board("english")
    known = known_weights(board)[0]
    rng = random.Random(3)
    for _ in range(50):
        picks = [rng.randrange(len(known)) for _ in range(rng.randrange(1, 40))]
        if rng.random() < 0.5:
            start = rng.randrange(len(known) - 10)
            picks = list(range(start, start + 10)) + picks[:3] + list(range(start + 9, start - 1, -1))
        pagodas = [(known[k], 0) for k in picks]
        assert _packed_weights(board, pagodas) == plain_weights(pagodas)
