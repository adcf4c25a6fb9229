"""``scripts/make_overtable.py``, which makes the file of a game shipped from K pegs up over its goal's endgame
table when its sweeps need several processes (French d2 -> d6): on triangle 6's game 1 -> 5 (35,805 winnable
classes; not a complement game, as French d2 -> d6 is not), its levels equal the whole set's from the floor up, the
file decodes as the build checks it, and a second run resumes from the checkpoint (no sweep again) to the same
bytes; an own complement game (triangle 6 5 -> 5) takes one sweep for both sides, and its bits from the floor up
(``--bits``) answer as the whole set does."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from pyapp.exact.store import decode
from pyapp.exact.winnable import winnable
from pyapp.web.sets import Game

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("make_overtable", ROOT / "scripts" / "make_overtable.py")
assert spec is not None and spec.loader is not None
make_overtable = importlib.util.module_from_spec(spec)
sys.modules["make_overtable"] = make_overtable  # its join's functions pickle by module name
spec.loader.exec_module(make_overtable)

FLOOR = 13


def test_the_levels_from_the_floor_up_equal_the_whole_set_and_a_rerun_resumes(tmp_path, capsys):
    out = tmp_path / "set.bin"
    args = ["triangle6-1-5", "--checkpoint", str(tmp_path / "ck"), "--workers", "2", "--floor", str(FLOOR),
            "--out", str(out)]
    assert make_overtable.main(args) == 0
    first = capsys.readouterr().out
    assert '"stage": "reachable"' in first and '"stage": "can reach the goal"' in first
    data = out.read_bytes()
    game = Game("triangle6", "1", "5", artefact=True, floor=FLOOR, over_table=True)
    held = decode(data, game.problem())
    whole = winnable(game.problem())
    assert held.floor == FLOOR and held.counts() == {p: n for p, n in whole.counts().items() if p >= FLOOR}
    assert all(list(held.levels[p]) == list(whole.levels[p]) for p in held.levels)
    assert make_overtable.main(args) == 0
    again = capsys.readouterr().out
    assert '"stage": "reachable"' not in again and out.read_bytes() == data
    assert json.loads(again.splitlines()[-1])["classes"] == len(held)


def test_its_own_complement_game_takes_one_sweep_and_equals_the_whole_set(tmp_path, capsys):
    """Triangle 6's game 5 -> 5, like asymmetric d5 -> d5, is its own complement game: the forward sweep is both
    sides, so no backward sweep runs, and the levels still equal the whole set's."""
    out = tmp_path / "set.bin"
    args = ["triangle6-5-5", "--checkpoint", str(tmp_path / "ck"), "--workers", "2", "--floor", "12",
            "--out", str(out)]
    assert make_overtable.main(args) == 0
    printed = capsys.readouterr().out
    assert '"stage": "reachable"' in printed and '"stage": "can reach the goal"' not in printed
    game = Game("triangle6", "5", "5", artefact=True, floor=12, over_table=True)
    held = decode(out.read_bytes(), game.problem())
    whole = winnable(game.problem())
    assert held.counts() == {p: n for p, n in whole.counts().items() if p >= 12} and len(held) > 0
    assert all(list(held.levels[p]) == list(whole.levels[p]) for p in held.levels)


def test_bits_over_the_reachable_levels_answer_as_the_whole_set(tmp_path, capsys):
    """With ``--bits`` the file holds one bit per reachable class from the floor up (as asymmetric d5 -> d5 ships):
    on every reachable class of those levels, its bit is the whole set's answer."""
    from pyapp.exact.bitfiles import reachable_levels
    from pyapp.exact.overbits import BitsOverTable
    from pyapp.exact.winnable import member

    out = tmp_path / "bits.bin"
    args = ["triangle6-5-5", "--checkpoint", str(tmp_path / "ck"), "--workers", "2", "--floor", "12", "--bits",
            "--out", str(out)]
    assert make_overtable.main(args) == 0
    assert '"stage": "bits"' in capsys.readouterr().out
    game = Game("triangle6", "5", "5", artefact=True, floor=12, over_table=True, bits=True)
    held = decode(out.read_bytes(), game.problem())
    whole = winnable(game.problem())
    assert isinstance(held, BitsOverTable) and held.counts() == {p: n for p, n in whole.counts().items() if p >= 12}
    for pegs, keys in reachable_levels(game.problem(), 12).items():
        assert [held.bits[pegs].get(k) for k in keys] == [member(whole.levels[pegs], k) for k in keys]
