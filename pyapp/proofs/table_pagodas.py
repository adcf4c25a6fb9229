"""The pagodas that prune the goal's endgame table's search (:mod:`pyapp.exact.pagoda_prune`), per board.

They are learned for one goal (``scripts/learn_table_pagodas.py``: linear programmes on the lost positions the
table's search meets, :func:`pyapp.proofs.pagoda.find_pagoda`) and kept as generated data in
:mod:`.table_pagoda_library`.  A pagoda is valid whatever the goal, so each is checked again here against every
jump of its board (a wrong line is an error, never a wrong answer), and its threshold is computed here for the
goal asked: the least value it takes on the goal's positions.
"""

from __future__ import annotations

from functools import lru_cache

from ..core.board import Board
from .pagoda import _catalogue_board, make_pagoda


def parse(board: Board, rows: tuple[str, ...]) -> list[dict[int, int]]:
    """The weights (by layout bit) of each row of a library (weights in ``board.bits`` order), each checked to be a
    pagoda of ``board`` (:class:`ValueError` otherwise)."""
    out = []
    for i, text in enumerate(rows):
        values = [int(v) for v in text.split()]
        if len(values) != len(board.bits):
            raise ValueError(f"table pagoda {board.id}#{i + 1} has {len(values)} weights, the board {len(board.bits)} "
                             "holes")
        weights = dict(zip(board.bits, values))
        make_pagoda(board, f"table pagoda {board.id}#{i + 1}", weights)
        out.append(weights)
    return out


@lru_cache(maxsize=16)
def table_pagodas(board: Board, ends: tuple[int, ...]) -> tuple[tuple[dict[int, int], int], ...]:
    """``(weights, threshold)`` for each library pagoda of ``board`` that can prune a search toward ``ends`` (a
    position worth less than ``threshold``, the least value of an end, cannot reach any); () without a library."""
    from .table_pagoda_library import LIBRARY

    rows = LIBRARY.get(board.id)
    if not rows or not ends or board is not _catalogue_board(board.id):
        return ()
    out = []
    for weights in parse(board, rows):
        threshold = min(sum(w for bit, w in weights.items() if end >> bit & 1) for end in ends)
        if threshold > sum(w for w in weights.values() if w < 0):  # else no position is worth less: it never prunes
            out.append((weights, threshold))
    return tuple(out)
