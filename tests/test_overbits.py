"""A winnable set held from some level up as one bit per reachable position, over the goal's endgame table
(pyapp.exact.overbits, its files pyapp.exact.bitfiles), checked on English d1 -> d4: its verdicts, never-lose
answers and lines equal the whole set's on random reachable positions; its size is about 1.23 bits a reachable
class; a damaged or mislabelled file is refused with its reason; the build makes and checks such a file."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_overtable import D1D4, _own_loaded_sets, table, whole  # noqa: F401 - the fixtures
from test_partial_sets import _random_positions, _with_header, same_never_lose

from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.exact import endgame
from pyapp.exact.bitfiles import decode_bits, encode_bits, reachable_levels
from pyapp.exact.overbits import BitsOverTable, over_bits
from pyapp.exact.overtable import over_table
from pyapp.exact.store import StoreError, decode, encode
from pyapp.exact.winnable import member
from pyapp.web.setfiles import checked, compute_set
from pyapp.web.sets import Game

FLOOR = 24
"""Two above d1 -> d4's table's ceiling (23 pegs here): as high as a set over the table may start."""


@pytest.fixture(scope="module")
def reach() -> dict:
    """The classes d1 reaches from 32 pegs down to the floor (a few thousand: swept here in a second)."""
    return reachable_levels(D1D4.problem(), FLOOR)


@pytest.fixture(scope="module")
def part(whole, reach) -> BitsOverTable:  # noqa: F811 - the fixture
    return over_bits(whole, reach, FLOOR)


def test_verdicts_through_a_file_equal_the_whole_sets(whole, table, part):  # noqa: F811
    endgame.install(table)
    back = decode(encode(part), D1D4.problem())  # the store's own entry points hand the kind over
    assert isinstance(back, BitsOverTable) and back.floor == FLOOR and set(back.bits) == set(range(FLOOR, 33))
    assert back.counts() == {p: n for p, n in whole.counts().items() if p >= FLOOR}
    board, seen, searched = D1D4.problem().board, set(), {True: 0, False: 0}
    for history in _random_positions(whole, 3, 6):
        pos = history[-1]
        if FLOOR - 1 > pos.bit_count() > 14:  # the table's searches, as OverTable's own tests check them
            continue
        seen.add(back.via(pos.bit_count()))
        # at the floor, the position's own lookup: each jump from it is a table search of FLOOR - 1 pegs (0.2 s
        # each, most of the test's time); the game's next position is one of them, checked in its turn with its
        # own jumps (FLOOR - 2 pegs, by the table too)
        afters = [] if pos.bit_count() == FLOOR else [apply_jump(pos, jump) for jump in legal_jumps(board, pos)]
        for p in [pos, *afters]:
            assert back.can_win(p) == whole.can_win(p), board.pegs(p)
            if FLOOR - 2 <= p.bit_count() < FLOOR:
                searched[whole.can_win(p)] += 1
    assert seen == {"lookup", "table"}
    assert searched[True] >= 10 and searched[False] >= 10, searched  # both verdicts just under the floor (17, 47)


def test_every_reachable_class_of_a_held_level_gets_its_own_bit(whole, reach, part):  # noqa: F811
    for pegs, keys in reach.items():
        held, wins = part.bits[pegs], whole.levels[pegs]
        assert [held.get(key) for key in keys] == [member(wins, key) for key in keys]


def test_its_size_is_about_one_and_a_quarter_bits_a_reachable_class(whole, reach, part):  # noqa: F811
    classes = sum(len(keys) for keys in reach.values())
    data = encode_bits(part)
    assert part.reachable_classes == classes
    # 1.23 bits a class, and 32 slack slots and a 24-byte header per level
    assert part.nbytes <= classes * 1.23 / 8 + 13 * 13
    assert len(data) < part.nbytes + 13 * 24 + 2_000
    assert len(data) * 8 < len(encode(over_table(whole, FLOOR))) * 8 / 4  # far under the keys' file


def test_never_lose_matches_the_whole_set_and_its_lines_replay(whole, table, part):  # noqa: F811
    endgame.install(table)
    problem = D1D4.problem()
    # 3 games (two of them playing any jump, each lost from 25 pegs down, across the floor): 18 positions, 6 lost
    histories = [h for h in _random_positions(whole, 18, 3) if FLOOR - 1 <= h[-1].bit_count() <= FLOOR + 4]
    got = same_never_lose(problem, whole, part, histories, "one bit per position the start reaches")
    assert {g.status for g in got} == {"winnable", "lost"}
    lost_at = sorted(h[-1].bit_count() for g, h in zip(got, histories) if g.status == "lost")
    assert len(histories) == 18 and len(lost_at) == 6 and lost_at[0] == FLOOR - 1 and lost_at[-1] > FLOOR, lost_at
    lost = next(g for g in got if g.status == "winnable" and g.jumps.bad and g.jumps.good)
    assert any("marks it lost" in why or "endgame table" in why for why in lost.jumps.reasons.values())


def _level_sizes(h: dict) -> None:
    h["levels"][0][1] += 1


@pytest.mark.parametrize(("damage", "why"), [
    (lambda d: d[:-3], "short"),
    (lambda d: d[:-20] + bytes(b ^ 1 for b in d[-20:]), "checksum"),
    (lambda d: _with_header(d, lambda h: h.update({"from": FLOOR + 1})), "lack some level"),
    (lambda d: _with_header(d, lambda h: h.pop("closed")), "do not say how the rest is answered"),
    (lambda d: _with_header(d, _level_sizes), "not those of its"),
    (lambda d: _with_header(d, lambda h: h.update(wins=[[p, n * 10] for p, n in h["wins"]])), "winnable classes of"),
    (lambda d: _with_header(d, lambda h: h.update(kind="winnable-from")), "does not decompress"),
])
def test_a_damaged_or_mislabelled_file_is_refused_with_its_reason(part, damage, why):
    with pytest.raises(StoreError, match=why):
        decode(damage(encode_bits(part)), D1D4.problem())


def test_the_build_makes_and_checks_a_games_bits_file(whole, part, tmp_path: Path):  # noqa: F811
    game = Game("english", "d1", "d4", floor=FLOOR, over_table=True, bits=True)
    made = compute_set(game, encode(whole))
    assert made == encode_bits(part)  # the same sweep, the same seeds: the same bytes
    assert isinstance(checked(game, {"winnable": made}), BitsOverTable)
    keys = Game("english", "d1", "d4", floor=FLOOR, over_table=True)
    with pytest.raises(StoreError, match="as bits over the reachable positions over the goal's endgame table, the "
                                         "game ships them from 24 over the goal's"):
        checked(keys, {"winnable": made})
    with pytest.raises(StoreError, match="ships them from 24 as bits"):
        checked(game, {"winnable": encode(over_table(whole, FLOOR))})
    assert isinstance(decode_bits(made, D1D4.problem()), BitsOverTable)


def test_pagoda_learning_walks_a_set_over_the_table_to_its_floor_then_any_jump(part):
    """``scripts/learn_table_pagodas.py`` trains on positions one peg above its table's ceiling, reached by winnable
    jumps where the game's set is loaded: only down to the set's floor (under it a lookup says nothing), then by any
    jump. (It once kept filtering under the floor and replayed its first game forever: hence the thread's limit.)"""
    import sys
    import threading

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    import learn_table_pagodas

    problem, got = D1D4.problem(), []
    walk = threading.Thread(target=lambda: got.extend(learn_table_pagodas._edge(problem, part, FLOOR - 3, seed)
                                                      for seed in range(4)), daemon=True)
    walk.start()
    walk.join(60)
    assert len(got) == 4 and {pos.bit_count() for pos in got} == {FLOOR - 3}
