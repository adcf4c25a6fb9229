"""Per-board caches are keyed by the board's canonical spec (a board rebuilt by every request still
hits) and bounded (least recently used dropped), so memory stays flat over many requests."""

from __future__ import annotations

import gc
import json
import tracemalloc

from pyapp.core import board as board_module
from pyapp.core.board import BOARD_CACHE_SIZE, COMPILED_BOARDS
from pyapp.core.codec import canonical as _common
from pyapp.core.custom import board_from_text
from pyapp.core.spec import resolve_board
from pyapp.proofs import pagoda
from pyapp.search import compiled, solver
from pyapp.web import api as webapi

BORDER = [(0, c) for c in range(9)] + [(8, c) for c in range(9)] + [(r, 0) for r in range(1, 8)] + \
    [(r, 8) for r in range(1, 8)]


def notched_9x9(i: int) -> str:
    """A 9 x 9 square board without one or two border holes (which depends on ``i``), the centre empty."""
    rows = [["o"] * 9 for _ in range(9)]
    for r, c in (BORDER[i % len(BORDER)], BORDER[(i // len(BORDER) + 5) % len(BORDER)]):
        rows[r][c] = "_"
    rows[4][4] = "."
    return "square:" + "/".join("".join(r) for r in rows)


def request(i: int, spec: str) -> None:
    kind = i % 3
    if kind == 0:
        out = json.loads(webapi.call("hint", json.dumps({"board": spec, "max_seconds": 0.01})))
    elif kind == 1:
        job = webapi.start("solve", json.dumps({"board": spec, "max_seconds": 0.01}))
        while not (out := json.loads(job.step()))["done"]:
            pass
    else:
        out = json.loads(webapi.call("state", json.dumps({"board": spec, "moves": ["e3-e5"]})))
    assert "error" not in out, out


def test_a_rebuilt_board_equals_the_first_and_hits_the_caches():
    a, _ = board_from_text("ooo/o.o/ooo/ooo")
    board_module._COMPILED.clear()
    b, _ = board_from_text("ooo/ooo/o.o/ooo")  # same holes, other pegs: compiled again, equal
    assert a is not b and a == b and hash(a) == hash(b) and a.key == b.key
    c, _ = board_from_text("ooo/ooo/ooo/oo_")
    assert c != a
    pagoda.parity_pagodas.cache_clear()
    pagoda.parity_pagodas(a)
    pagoda.parity_pagodas(b)
    assert pagoda.parity_pagodas.cache_info().hits == 1


def test_every_per_board_cache_is_bounded():
    for cache in (pagoda.parity_pagodas, pagoda.library_pagodas, pagoda.known_weights, compiled._layout,
                  _common.jump_table, _common.corner_mask):
        assert cache.cache_info().maxsize == BOARD_CACHE_SIZE, cache
    for cache in (solver._pagodas_for, solver._base_tables):  # per goal: a few boards' every single-hole goal
        assert cache.cache_info().maxsize == solver.GOAL_CACHE_SIZE >= 45, cache
    for i in range(COMPILED_BOARDS + 5):
        resolve_board(notched_9x9(i))
    assert len(board_module._COMPILED) == COMPILED_BOARDS


def test_memory_stays_flat_over_60_requests_on_custom_boards():
    # the issue: +62.6 MB of peak RSS over 60 hints on one 9x9 custom board (caches keyed by board object); with
    # the caches keyed by board object again (and every request compiling its board) these 60 requests (20 of each
    # kind) hold 7.6 MB more, 200 held 11 MB
    one = notched_9x9(0)
    for i in range(6):
        request(i, one)
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for i in range(60):
            request(i, one)
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (current - base) / 1e6 < 1.0 and (peak - base) / 1e6 < 4.0, (current - base, peak - base)


def test_memory_is_bounded_over_many_different_custom_boards():
    specs = [notched_9x9(i) for i in range(2 * BOARD_CACHE_SIZE + 1)]
    for i, spec in enumerate(specs):  # fill every cache to its bound
        request(i, spec)
    gc.collect()
    tracemalloc.start()
    try:
        held = []
        for _ in range(2):  # every board again, twice: each request misses every cache and evicts another
            for i in range(len(specs)):
                request(i, specs[(i * 7) % len(specs)])
            gc.collect()
            held.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    assert (held[1] - held[0]) / 1e6 < 1.0, held
