"""scripts/complement_beam.py: the resource count it prunes with is a pagoda function (no jump raises it), and a
meeting of the forward beam with its own complement is a solution that replays (the English central game)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import complement_beam as cb  # noqa: E402

from pyapp.core.catalogue import get_board  # noqa: E402
from pyapp.core.game import replay  # noqa: E402
from pyapp.proofs.pagoda import violations  # noqa: E402


def test_the_resource_count_is_a_pagoda_worth_4_at_a_single_vacancy_and_0_at_e1():
    board = get_board("german")
    [(count, threshold)] = cb.extra_pagodas(board, 1 << board.hole("e1"))
    assert violations(board, count.as_dict()) == []
    assert threshold == 0 and count.value(board.start("e1")) == 4 and count.value(board.start("e5")) == 4
    weights = {board.name_of[h]: w for h, w in count.weights}
    assert sorted(h for h, w in weights.items() if w < 0) == ["a4", "a6", "d1", "d9", "f1", "f9", "i4", "i6"]
    # +1 on every hole of even row and column (counted from 1), a class no jump lands in from outside
    even = sorted(board.name_of[h] for h in board.bits if all(x % 2 == 1 for x in board.cell_of[h]))
    assert sorted(h for h, w in weights.items() if w > 0) == even and len(even) == 12
    # filling a corner from beside it spends 2 of the count (worth 5 with the corner d1 empty)
    after = replay(board, board.start("d1"), ["d3-d1"]).final
    assert count.value(board.start("d1")) == 5 and count.value(after) == 3
    assert cb.extra_pagodas(get_board("english"), 1) == []


def test_a_meeting_with_the_complement_is_a_solution_that_replays():
    run = cb.sweep("english", "d4", 2000, 1, 1, lambda s: None, True)
    hit = cb.meetings(run, run, lambda s: None)
    assert hit is not None
    moves = cb.join(run, run, *hit)
    board = get_board("english")
    check = replay(board, board.start("d4"), moves)
    assert check.valid and check.final == 1 << board.hole("d4") and len(moves) == 31


def test_the_sat_rows_hold_on_every_position_of_a_known_solution_and_its_complements():
    pytest.importorskip("pysat")
    import sat_pagoda

    from pyapp.core.goal import Goal
    from pyapp.core.notation import parse_moves
    from pyapp.core.problem import Problem
    from pyapp.proofs.book_solved import SOLVED
    from pyapp.sat.encode import encode

    board = get_board("german")
    entry = next(e for e in SOLVED if e.board == "german" and e.start == e.finish == "d1")
    finish = 1 << board.hole("d1")
    enc = encode(Problem(board, board.start("d1"), Goal("hole", finish)))
    positions = [board.start("d1")]
    for a, b, c in parse_moves(board, entry.moves):
        positions.append(positions[-1] ^ (1 << a | 1 << b | 1 << c))
    assert positions[-1] == finish and len(positions) == enc.steps + 1
    true = {enc.peg(t, k) if p >> bit & 1 else -enc.peg(t, k)
            for t, p in enumerate(positions) for k, bit in enumerate(enc.holes)}
    pagodas = sat_pagoda.usable_pagodas(board, finish)
    assert len(pagodas) == 2  # the parity pagoda and the resource count
    for complement in (False, True):
        rows = sat_pagoda.pagoda_rows(enc, pagodas, complement)
        assert rows and all(sum(lit in true for lit in lits) >= bound for lits, bound in rows)
