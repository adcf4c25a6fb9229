"""Endgame tables as shipped files (pyapp.exact.endgame_files): a table read back from its file holds the same
levels and answers as the one swept; a damaged, truncated or foreign file is refused with the reason, never used;
the site's loader (pyapp.web.sets.load) installs one so that never-lose on its board answers from it."""

from __future__ import annotations

import json
import struct

import pytest
from steps_support import pauses_and_value

from pyapp.analysis.neverlose import never_lose_steps
from pyapp.core.budget import CPU_CLOCK, Budget, drive
from pyapp.core.catalogue import get_board
from pyapp.core.errors import PegError
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import Problem, make_problem
from pyapp.exact import endgame, subtree
from pyapp.exact.endgame_files import decode_table, encode_table
from pyapp.exact.store import MAGIC, StoreError, read_header
from pyapp.search.solver import search
from pyapp.web import sets


@pytest.fixture(autouse=True)
def _fresh_tables():
    endgame.clear()
    yield
    endgame.clear()


def _french(max_classes: int = 100_000) -> tuple[Problem, endgame.Endgame]:
    problem = make_problem(get_board("french"), start="d2", goal="d6")
    table = drive(endgame.endgame_steps(problem.board, problem.goal, problem.start, Budget(60), max_classes))
    assert table is not None
    return problem, table


def test_a_table_read_back_from_its_file_is_the_same_table():
    problem, table = _french()
    data = encode_table(table)
    back = decode_table(data, problem)
    assert back.levels == table.levels and back.low == table.low == 9 and back.ceiling == table.ceiling
    assert back.ends == table.ends and back.shipped and not table.shipped
    assert "shipped with the site" in back.answered(problem.start)
    pos = problem.start
    for jump in drive(search(problem, seed=1, budget=Budget(30, clock=CPU_CLOCK))).jumps:
        pos = apply_jump(pos, jump)
        if pos.bit_count() == table.ceiling:
            break
    for after in [apply_jump(pos, j) for j in legal_jumps(problem.board, pos)]:
        table.question(), back.question()
        assert back.can_win(after) == table.can_win(after)


def _header(data: bytes, **changes) -> bytes:
    """The file with its header's fields changed (the body kept)."""
    head, body = read_header(data)
    text = json.dumps({**head, **changes}, separators=(",", ":")).encode()
    return MAGIC + struct.pack("<I", len(text)) + text + body


@pytest.mark.parametrize(("damage", "why"), [
    (lambda b: b[:-9], "short"),
    (lambda b: b[:-30] + bytes(b[-30] ^ 1 for _ in range(1)) + b[-29:], "checksum"),
    (lambda b: _header(b, kind="winnable"), "holds winnable"),
    (lambda b: _header(b, low=99), "levels do not run down"),
])
def test_a_damaged_file_is_refused(damage, why):
    problem, table = _french(20_000)
    with pytest.raises(StoreError, match=why):
        decode_table(damage(encode_table(table)), problem)


def test_a_file_for_another_goal_or_class_is_refused():
    problem, table = _french(20_000)
    data = encode_table(table)
    with pytest.raises(StoreError, match="not this problem"):
        decode_table(data, make_problem(problem.board, start="d2", goal="d2"))
    ends = _header(data, ends=[1, *read_header(data)[0]["ends"]])
    with pytest.raises(StoreError, match="another class of ends"):
        decode_table(ends, problem)


def test_the_sites_loader_installs_it_and_never_lose_answers_from_it():
    problem, table = _french()
    data = encode_table(table)
    game = next(g for g in sets.SHIPPED if g.endgame and g.board == "french")
    entry = sets.index_entry(game, data, None)  # what the worker matches: board and goal, any start
    assert entry["kind"] == "endgame" and entry["goal"] == "d6" and entry["images"] == [] and entry["low"] == table.low
    assert entry["file"].endswith(".endgame.bin")
    with pytest.raises(PegError, match="no shipped winnable set"):  # a table is not the game's winnable set
        sets.game_of("german")
    endgame.clear()
    answer = sets.load(data)
    assert answer["kind"] == "endgame" and answer["keys"] == len(table)
    loaded = endgame.endgame_for(problem.board, problem.goal, problem.start)
    assert loaded is not None and loaded.shipped and loaded.levels == table.levels
    assert loaded._subtree is not None  # its search's filter made while the file loaded, not at its first search
    pos = problem.start  # a solver line's position the loaded table answers (its ceiling + 1 pegs)
    for jump in drive(search(problem, seed=1, budget=Budget(30, clock=CPU_CLOCK))).jumps:
        pos = apply_jump(pos, jump)
        if pos.bit_count() == loaded.ceiling + 1:
            break
    result = drive(never_lose_steps(Problem(problem.board, pos, problem.goal), budget=Budget(10, clock=CPU_CLOCK)))
    assert result.answered and "shipped with the site" in result.answered and not result.jumps.unknown
    assert endgame.endgame_for(problem.board, problem.goal, pos) is loaded  # not swept again


def test_the_play_rows_install_the_shipped_table_from_the_build_cache(tmp_path, monkeypatch):
    from pyapp.bench import game_rows
    from pyapp.exact.store import key_version

    problem, table = _french(20_000)
    monkeypatch.setattr(game_rows, "sets_cache", lambda: tmp_path)
    assert game_rows.shipped_table(problem, "french-d2-d6") is None  # not built here: the rows search as before
    path = tmp_path / f"french-d2-d6-{key_version(problem)}.endgame.bin"
    path.write_bytes(encode_table(table))
    found = game_rows.shipped_table(problem, "french-d2-d6")
    assert found is not None and found.shipped and found.levels == table.levels
    path.write_bytes(path.read_bytes()[:-5])
    assert game_rows.shipped_table(problem, "french-d2-d6") is None  # a truncated file is never used


@pytest.mark.parametrize("at", [7, 8])
def test_a_table_decoded_in_pieces_is_the_same_and_still_checked(at, monkeypatch):
    """decode_table_steps sums the keys PIECE at a time (a pause after each, so the worker takes its messages while a
    big table decodes): with pieces of 7 the table is the same, and a repeated key is refused whether it falls on a
    piece's first difference (at 7) or inside one (at 8)."""
    import json as jsonlib

    from pyapp.exact import endgame_files, store
    from pyapp.web import api

    monkeypatch.setattr(store, "PIECE", 7)
    problem, table = _french(20_000)
    data = encode_table(table)
    pauses, back = pauses_and_value(endgame_files.decode_table_steps(data, problem))
    assert back.levels == table.levels and pauses >= len(table) // 7
    made = sum(1 for _ in back.subtree_steps())  # then the search's filter, in pieces too
    job = api.load_set_steps(data)  # the worker's loader: the same, one step a piece
    outs = [jsonlib.loads(job.step()) for _ in range(pauses + made + 1)]
    assert [o["done"] for o in outs] == [False] * (pauses + made) + [True]
    assert outs[-1]["result"]["keys"] == len(table)
    pegs = max(p for p, keys in table.levels.items() if len(keys) > 10)
    keys = table.levels[pegs]
    table.levels[pegs] = type(keys)(keys.typecode, [*keys[:at], keys[at - 1], *keys[at + 1:]])  # one key twice
    with pytest.raises(StoreError, match=f"keys with {pegs} pegs are not strictly increasing"):
        decode_table(encode_table(table), problem)


def test_the_search_filter_is_made_in_pieces(monkeypatch):
    """pyapp.exact.subtree.filter_steps: a pause every FILTER_PIECE keys (the page's worker makes French's while the
    table loads: 0.8 s of CPython in one go), a slot set for each key and no other."""
    from array import array

    monkeypatch.setattr(subtree, "FILTER_PIECE", 3)
    keys = array("Q", [5, 17, 40, 41, 1 << 60, 99, 12345])
    pauses, filt = pauses_and_value(subtree.filter_steps(keys))
    slots = subtree.SLOTS_PER_KEY * len(keys) + 1
    assert pauses == 3 and len(filt) == slots
    assert {i for i, b in enumerate(filt) if b} == {k % slots for k in keys}
