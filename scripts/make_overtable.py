"""Make the committed file of a game shipped from K pegs up over its goal's endgame table (``Game.over_table``,
:mod:`pyapp.exact.overtable`) when its sweeps are too big for one process (French d2 -> d6: 464 million
reachable classes down to the middle, about 5 hours on 2 cores here).

    nice python scripts/make_overtable.py french-d2-d6 --checkpoint DIR [--workers 2] [--exchange DIR]
                                          [--floor K] [--bits] [--out FILE]

Four steps, each resumed from ``DIR`` after a stop (Ctrl+C, a reboot: a level in progress is done again):

1. the forward sweep ("reachable") from the start down to the middle level, sharded over ``--workers`` local
   processes (:mod:`pyapp.exact.sharded`) and recorded level by level in ``DIR`` (the driver keeps no level in
   memory; ``--exchange`` puts the workers' buckets on disk instead of ``/dev/shm``, which is memory);
2. the backward sweep ("can reach the goal"), the same way, down to the level one short of the middle only (none
   for a game that is its own complement game, such as asymmetric d5 -> d5: the positions that can reach its goal
   are the complements of the reachable ones, so the forward sweep, down to the lower of the two levels, is both);
3. the join, in ``--workers`` forked processes, saved level by level in ``DIR/join``: the middle level's
   winnable positions are the reachable parents of the positions that can reach the goal one level down
   (the complements of that backward level's children), and each level above the reachable parents of the
   winnable ones below (both :func:`pyapp.exact.winnable.reachable_parents`); when ``scripts/numpy_sweep.py``
   has saved every winnable level there already (asymmetric d5 -> d5: hundreds of millions of classes at the
   middle, hours of this script's loops), no sweep or join runs again;
4. the levels from ``K`` pegs up (the game's ``floor``) encoded as an :class:`~pyapp.exact.overtable.OverTable`,
   checked as the build checks it (:func:`pyapp.web.setfiles.checked`) and written to ``sets/`` (its file name
   says the game and the key version); for a game shipped as bits (``Game.bits``, or ``--bits``: asymmetric
   d5 -> d5, whose winnable keys are too many to ship) each level's bits over its reachable classes instead
   (:class:`~pyapp.exact.overbits.BitsOverTable`), built one level at a time from the sweep's recorded level.

Every level below the middle is left to the goal's endgame table, which the site ships: that is why the
backward sweep can stop one level short of it.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import sys
import time
from array import array
from multiprocessing import get_context

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from pyapp.core.budget import Budget, drive  # noqa: E402
from pyapp.exact.overbits import over_bits  # noqa: E402
from pyapp.exact.overtable import OverTable  # noqa: E402
from pyapp.exact.processes import Processes  # noqa: E402
from pyapp.exact.setup import Sides, sides  # noqa: E402
from pyapp.exact.sharded import Checkpoint, Parallel, _disk_fetch  # noqa: E402
from pyapp.exact.store import encode  # noqa: E402
from pyapp.exact.sweep import Level  # noqa: E402
from pyapp.exact.winnable import Winnable, _up, reachable_parents  # noqa: E402
from pyapp.web.setfiles import checked  # noqa: E402
from pyapp.web.sets import SHIPPED, Game, file_name  # noqa: E402

SHARDS = 8


def sweep(ck: Checkpoint, workers: int, exchange: str | None, stage: str, codec, sources: list[int], last: int) -> str:
    """One side's sweep down to ``last`` pegs, resumed from the checkpoint, or the one it already holds (a sweep of
    this stage that recorded that level: one checkpoint folder serves one game); its sweep id there."""
    def done() -> list[str]:
        return [k for k, v in ck.manifest["sweeps"].items()
                if k.startswith(stage.replace(" ", "-") + "-") and str(last) in v["levels"]]
    if done():
        return done()[0]
    par = Parallel(Processes(workers, exchange), ck, shards=SHARDS)
    w0, shown = time.time(), 0.0
    try:
        for item in par.sweep(codec, sources, last, weights=False, stage=stage, keep=lambda pegs: False):
            if isinstance(item, Level):
                print(json.dumps({"stage": stage, "recorded": item.pegs, "size": item.size,
                                  "wall": round(time.time() - w0)}), flush=True)
            elif time.time() - shown > 60:
                shown = time.time()
                print(json.dumps({**item.as_dict(), "wall": round(time.time() - w0)}), flush=True)
    finally:
        par.pool.close()
    return done()[0]


def level(ck: Checkpoint, sweep_id: str, pegs: int) -> array:
    done = ck.finished(sweep_id)
    paths = [ck.shard_path(sweep_id, pegs, j) for j in range(done["shards"])]
    return Level(pegs, array("Q"), size=done["levels"][str(pegs)], fetch=_disk_fetch(paths, False)).load().keys


_SHARED: dict = {}
"""What the forked join processes read (inherited, not pickled)."""


def _middle_part(part: tuple[int, int]) -> array:
    """The winnable positions of the middle level among the parents of one slice of the backward level below (it
    stores complements)."""
    i, parts = part
    back, reach = _SHARED["back"], _SHARED["reach"]
    lo, hi = len(back) * i // parts, len(back) * (i + 1) // parts
    return drive(reachable_parents(_SHARED["sides"].wide_codec, back, reach, _SHARED["pegs"], Budget(), lo, hi))


def _up_part(part: tuple[int, int]) -> array:
    i, parts = part
    below = _SHARED["below"]
    lo, hi = len(below) * i // parts, len(below) * (i + 1) // parts
    return drive(_up(_SHARED["sides"].wide_codec, below[lo:hi], _SHARED["reach"], _SHARED["pegs"], Budget()))


def _across(workers: int, fn, **shared) -> array:
    """``fn`` over ``workers`` slices in forked processes, the answers merged (sorted, each key once)."""
    _SHARED.update(shared)
    try:
        with get_context("fork").Pool(workers) as pool:
            parts = pool.map(fn, [(i, workers) for i in range(workers)])
    finally:
        _SHARED.clear()
    return merged(parts)


def merged(parts: list[array]) -> array:
    """The union of sorted arrays of keys, sorted, each key once: merged in order rather than through one set of
    every key (asymmetric d5 -> d5's middle level holds hundreds of millions, several GB as a set of ints).

    >>> list(merged([array("Q", [1, 4, 9]), array("Q", [2, 4, 10]), array("Q")]))
    [1, 2, 4, 9, 10]
    """
    out = array("Q")
    last = -1
    for key in heapq.merge(*parts):
        if key != last:
            out.append(key)
            last = key
    return out


def _saved(folder: str, pegs: int) -> array | None:
    path = os.path.join(folder, f"W{pegs}")
    if not os.path.exists(path):
        return None
    keys = array("Q")
    with open(path, "rb") as f:
        keys.frombytes(f.read())
    return keys


def _save(folder: str, pegs: int, keys: array) -> None:
    with open(os.path.join(folder, f"W{pegs}.part"), "wb") as f:
        keys.tofile(f)
    os.replace(os.path.join(folder, f"W{pegs}.part"), os.path.join(folder, f"W{pegs}"))


def join(ck: Checkpoint, s: Sides, fwd: str, back: str, workers: int, folder: str) -> dict[int, array]:
    """The winnable levels from the middle up (step 3), each saved in ``folder`` as it is made."""
    os.makedirs(folder, exist_ok=True)
    n, meet = s.holes, s.meet()
    win = _saved(folder, meet)
    if win is None:
        reach = level(ck, fwd, meet)
        backward = reach if (back, n - meet + 1) == (fwd, meet) else level(ck, back, n - meet + 1)  # loaded once
        win = _across(workers, _middle_part, sides=s, reach=reach, back=backward, pegs=meet)
        del reach, backward
        _save(folder, meet, win)
    levels = {meet: win}
    for pegs in range(meet + 1, s.first_pegs + 1):
        got = _saved(folder, pegs)
        if got is None:
            got = _across(workers, _up_part, sides=s, below=levels[pegs - 1], reach=level(ck, fwd, pegs), pegs=pegs)
            _save(folder, pegs, got)
        levels[pegs] = got
        print(json.dumps({"stage": "can still win", "recorded": pegs, "size": len(got)}), flush=True)
    return levels


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game", help="a game shipped over its table (pyapp.web.sets: french-d2-d6), or "
                                 "BOARD-START-GOAL with --floor")
    ap.add_argument("--checkpoint", required=True, help="the folder the sweeps and the join are recorded in")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--exchange", help="a folder on disk for the workers' buckets (default /dev/shm)")
    ap.add_argument("--floor", type=int, help="the fewest pegs held (default: the shipped game's floor)")
    ap.add_argument("--bits", action="store_true", help="one bit per reachable class from the floor up (for a game "
                                                          "not shipped: a shipped one says which it is)")
    ap.add_argument("--out", help="the file to write (default: sets/ and the shipped file name)")
    args = ap.parse_args(argv)
    game = next((g for g in SHIPPED if g.over_table and g.stem == args.game), None)
    if game is None:
        board, start, goal = args.game.rsplit("-", 2)
        if args.floor is None:
            ap.error(f"{args.game} is not shipped over its table: give --floor")
        game = Game(board, start, goal, artefact=True, floor=args.floor, over_table=True, bits=args.bits)
    problem = game.problem()
    s = sides(problem)
    if not s.complement_problem and s.back_codec is not s.wide_codec:
        ap.error(f"{args.game}: for a game whose sides share one codec, or its own complement game")
    n, meet = s.holes, s.meet()
    floor = args.floor or game.floor or 0
    if floor < meet:
        ap.error(f"--floor {floor}: the join makes the levels from the middle ({meet} pegs) up")
    ck = Checkpoint(args.checkpoint)
    t0 = time.time()
    joined = os.path.join(args.checkpoint, "join")
    done = [k for k, v in ck.manifest["sweeps"].items() if k.startswith("reachable-") and str(floor) in v["levels"]]
    if done and all(os.path.exists(os.path.join(joined, f"W{p}")) for p in range(meet, s.first_pegs + 1)):
        fwd = back = done[0]  # every winnable level saved (numpy_sweep.py's join): only the levels from the floor up
        # are read, from the sweep that recorded them
    elif s.complement_problem:  # its own complement game: the positions that can reach the goal are the reachable
        # ones' complements, so one sweep serves both sides (asymmetric d5 -> d5)
        fwd = back = sweep(ck, args.workers, args.exchange, "reachable", s.wide_codec, [s.start],
                           min(meet, n - meet + 1))
    else:
        fwd = sweep(ck, args.workers, args.exchange, "reachable", s.wide_codec, [s.start], meet)
        back = sweep(ck, args.workers, args.exchange, "can reach the goal", s.back_codec, list(s.backward),
                     n - meet + 1)
    levels = join(ck, s, fwd, back, args.workers, joined)
    if game.bits:
        def reachable():
            for pegs in range(s.first_pegs, floor - 1, -1):
                print(json.dumps({"stage": "bits", "level": pegs, "wall": round(time.time() - t0)}), flush=True)
                yield pegs, level(ck, fwd, pegs)
        held: OverTable = over_bits(Winnable(problem, s.wide_codec, levels=levels), reachable(), floor)
    else:
        held = OverTable(problem, s.wide_codec, floor=floor)
        held.levels = {pegs: keys for pegs, keys in levels.items() if pegs >= floor}
    data = encode(held)
    checked(game, {"winnable": data})
    out = args.out or os.path.join(ROOT, "sets", file_name(game))
    with open(out, "wb") as f:
        f.write(data)
    print(json.dumps({"file": out, "bytes": len(data), "classes": len(held), "levels": held.counts(),
                      "wall": round(time.time() - t0)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
