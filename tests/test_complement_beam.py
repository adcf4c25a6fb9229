"""scripts/complement_beam.py: it prunes with the library's resource count, and a meeting of the forward beam with
its own complement is a solution that replays (the English central game)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import complement_beam as cb  # noqa: E402

from pyapp.core.catalogue import get_board  # noqa: E402
from pyapp.core.game import replay  # noqa: E402


def test_the_beam_prunes_with_the_library_s_resource_count():
    """The German resource count comes from the pagoda library (pyapp.proofs.pagoda_library), once."""
    board = get_board("german")
    names = [p.name for p, _ in cb.pagodas_for(board, [1 << board.hole("e1")])]
    assert names.count("resource count (Bell's, for Wiegleb's board)") == 1


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
