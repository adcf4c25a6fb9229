"""``scripts/numpy_sweep.py``, the numpy sweep and join of a big own-complement game's levels: on triangle 6's game
5 -> 5 (its own complement game, like asymmetric d5 -> d5), from a checkpoint of the engine's sweep, its levels
equal the engine's sweep key for key (``--check`` and every remade level), and the winnable levels it writes equal
the whole set's from the middle up, read by ``make_overtable.py --bits`` as its own join's."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

from pyapp.exact.setup import sides
from pyapp.exact.sharded import Checkpoint
from pyapp.exact.store import decode
from pyapp.exact.winnable import winnable
from pyapp.web.sets import Game

ROOT = Path(__file__).resolve().parents[1]


def _script(name: str):
    """The script's module, loaded once per process (its forked workers find their functions by module name, so a
    second copy under the same name would leave the first copy's callers without their shared state)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # functions its forked workers run pickle by module name
    spec.loader.exec_module(module)
    return module


def test_the_numpy_levels_are_the_engines_and_the_join_is_the_whole_sets(tmp_path, capsys, monkeypatch):
    make_overtable, numpy_sweep = _script("make_overtable"), _script("numpy_sweep")
    # small chunks, merged and compacted often: every path of the merging runs on this small game
    monkeypatch.setattr(numpy_sweep, "CHUNK", 300)
    monkeypatch.setattr(numpy_sweep, "MERGE_EVERY", 2)
    monkeypatch.setattr(numpy_sweep, "COMPACT_EVERY", 2)
    game = Game("triangle6", "5", "5", artefact=True, floor=12, over_table=True, bits=True)
    problem = game.problem()
    meet = sides(problem).meet()
    ck = tmp_path / "ck"
    out = tmp_path / "bits.bin"
    assert make_overtable.main(["triangle6-5-5", "--checkpoint", str(ck), "--floor", "12", "--bits",
                                "--out", str(out)]) == 0
    engine_join = {p.name: p.read_bytes() for p in (ck / "join").iterdir()}
    for path in (ck / "join").iterdir():
        path.unlink()
    capsys.readouterr()
    assert numpy_sweep.main(["triangle6-5-5", "--checkpoint", str(ck), "--from", str(meet + 4), "--check",
                             "--workers", "2"]) == 0
    printed = capsys.readouterr().out
    assert '"equal": true' in printed
    for pegs in range(meet, meet + 4):  # remade by numpy: the engine's recorded levels, key for key
        assert np.array_equal(np.load(ck / "numpy" / f"R{pegs}.npy"), numpy_sweep.recorded(Checkpoint(str(ck)), pegs))
    whole = winnable(problem)
    for pegs in range(meet, problem.start.bit_count() + 1):
        assert list(np.fromfile(ck / "join" / f"W{pegs}", dtype="<u8")) == list(whole.levels[pegs]), pegs
    assert {p.name: p.read_bytes() for p in (ck / "join").iterdir()} == engine_join
    again = tmp_path / "again.bin"
    assert make_overtable.main(["triangle6-5-5", "--checkpoint", str(ck), "--floor", "12", "--bits",
                                "--out", str(again)]) == 0
    assert again.read_bytes() == out.read_bytes() and decode(out.read_bytes(), problem).floor == 12
