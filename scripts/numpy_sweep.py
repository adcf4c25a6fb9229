"""The levels of a big own-complement game's winnable set from its middle up, on numpy arrays of 64-bit keys: the
work of ``scripts/make_overtable.py``'s sweep and join, tens of times faster than the engine's pure-Python loops,
for the games whose middle levels hold hundreds of millions of classes (asymmetric d5 -> d5).  Offline only: the
engine and the page never use numpy.

    nice python scripts/numpy_sweep.py asymmetric-d5-d5 --checkpoint DIR [--from K] [--workers 2] [--check]

The keys are the engine's own canonical keys (:mod:`pyapp.core.codec.compiled`: one bit per hole in reading order,
the least image under the symmetries that fix the goal), so the levels read from and written to ``DIR`` are the
ones ``make_overtable.py`` reads and writes:

1. the forward sweep from the last level ``DIR`` records (``--from``: another one) down to the middle, each level's
   classes the canonical children of the level above (numpy level files ``DIR/numpy/R<pegs>.npy``);
2. the join, written to ``DIR/join/W<pegs>`` as ``make_overtable.py`` writes it (so that its ``--bits`` step then
   finds every level saved): a game that is its own complement game reaches its goal from a position exactly when
   the start reaches the position's complement (time reversal), so the middle level's winnable classes are its
   reachable ones with a child whose complement is reachable at the middle level too, and each level above the
   reachable parents of the winnable ones below.

``--check`` first makes one level the engine's sweep recorded from the level above and compares the two, key for
key: the expansion, canonical keys and order are the engine's, or nothing is written.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import get_context
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pyapp.core.problem import Problem  # noqa: E402
from pyapp.exact.setup import sides  # noqa: E402
from pyapp.exact.sharded import Checkpoint  # noqa: E402
from pyapp.exact.shards import load_bucket  # noqa: E402
from pyapp.web.sets import Game  # noqa: E402

U64 = np.uint64
CHUNK = 4_000_000
"""Parents expanded at once by a worker (about 40 million children, 0.3 GB, before they are made unique)."""
MERGE_EVERY = 8
"""Chunks' results merged into one array every so often, so duplicates across chunks do not pile up."""
COMPACT_EVERY = 3
"""Merged arrays made one (:func:`union`) every so often: asymmetric's level 20 would otherwise hold its
children's keys about twice over (10 GB) before the last union."""


class Dense:
    """A problem's board in the engine's dense keys: its jumps as masks, its symmetry images as byte tables."""

    def __init__(self, problem: Problem) -> None:
        board = problem.board
        codec = sides(problem).wide_codec
        self.n = n = len(board)
        self.full = U64((1 << n) - 1)
        index_of = {b: i for i, b in enumerate(board.bits)}
        jumps = []
        for a, b, c in board.lines:
            for x, z in ((a, c), (c, a)):
                xb, yb, zb = 1 << index_of[x], 1 << index_of[b], 1 << index_of[z]
                jumps.append((xb | yb, zb))
        self.need = np.array([j[0] for j in jumps], dtype=U64)
        self.empty = np.array([j[1] for j in jumps], dtype=U64)
        self.bytes = (n + 7) // 8
        self.tables = []
        for sym in codec.group[1:]:
            perm = board.symmetries[sym]
            image = [1 << index_of[perm[i]] for i in range(n)]
            tables = np.zeros((self.bytes, 256), dtype=U64)
            for j in range(self.bytes):
                for v in range(256):
                    tables[j, v] = sum(image[8 * j + k] for k in range(8) if v >> k & 1 and 8 * j + k < n)
            self.tables.append(tables)

    def canon(self, keys: np.ndarray) -> np.ndarray:
        """The least image of each key under the group (the engine's canonical key): each image the union of
        its bytes' images, a byte read through a view of the keys (indexing by a uint8 array is about 20 times
        faster than by masked 64-bit words)."""
        keys = np.ascontiguousarray(keys, dtype="<u8")
        octets = keys.view(np.uint8).reshape(-1, 8)
        out = keys
        for tables in self.tables:
            image = tables[0][octets[:, 0]]
            for j in range(1, self.bytes):
                image |= tables[j][octets[:, j]]
            out = np.minimum(out, image)
        return out

    def children(self, keys: np.ndarray, complement: bool = False) -> np.ndarray:
        """The canonical children of ``keys`` (or their complements'), sorted, each once."""
        parts = []
        for need, empty in zip(self.need, self.empty):
            hit = keys[((keys & need) == need) & ((keys & empty) == 0)]
            parts.append(hit ^ (need | empty))
        out = np.concatenate(parts)
        if complement:
            out ^= self.full
        return unique(self.canon(out))

    def parents(self, keys: np.ndarray) -> np.ndarray:
        """The canonical parents of ``keys`` (a jump undone), sorted, each once."""
        parts = []
        for need, empty in zip(self.need, self.empty):
            hit = keys[((keys & need) == 0) & ((keys & empty) == empty)]
            parts.append(hit ^ (need | empty))
        return unique(self.canon(np.concatenate(parts)))


def unique(keys: np.ndarray) -> np.ndarray:
    """``keys`` sorted, each once, in place of ``keys`` (numpy 2's ``np.unique`` hashes: 60 times slower here on
    tens of millions of 64-bit keys than a sort and a compare).

    >>> list(unique(np.array([5, 1, 5, 3, 1], dtype=U64)))
    [np.uint64(1), np.uint64(3), np.uint64(5)]
    """
    keys.sort()
    if len(keys) < 2:
        return keys
    keep = np.empty(len(keys), dtype=bool)
    keep[0] = True
    np.not_equal(keys[1:], keys[:-1], out=keep[1:])
    return keys[keep]


_SHARED: dict = {}


def among(keys: np.ndarray, within: np.ndarray) -> np.ndarray:
    """The sorted ``keys`` that are in the sorted ``within``.

    >>> list(among(np.array([1, 4, 7, 9], dtype=U64), np.array([2, 4, 9], dtype=U64)))
    [np.uint64(4), np.uint64(9)]
    """
    at = np.searchsorted(within, keys)
    found = at < len(within)
    found[found] = within[at[found]] == keys[found]
    return keys[found]


def _chunk(job: tuple[str, int, int]) -> np.ndarray:
    how, lo, hi = job
    dense, keys, within = _SHARED["dense"], _SHARED["keys"], _SHARED["within"]
    part = keys[lo:hi]
    got = dense.parents(part) if how == "parents" else dense.children(part, complement=how == "complement")
    return got if within is None else among(got, within)


def expand(dense: Dense, keys: np.ndarray, how: str, workers: int, say, within: np.ndarray | None = None
           ) -> np.ndarray:
    """``how`` (``children``, ``complement``: the complements' children, ``parents``) of every key, sorted, each
    once (only those in ``within`` when given: each chunk's are cut to them at once, so a join holds no more than
    its answer's duplicates): chunks of :data:`CHUNK` keys over ``workers`` forked processes, merged as they
    come."""
    _SHARED.update(dense=dense, keys=keys, within=within)
    jobs = [(how, lo, min(lo + CHUNK, len(keys))) for lo in range(0, len(keys), CHUNK)]
    merged: list[np.ndarray] = []
    pending: list[np.ndarray] = []
    t0 = time.time()
    try:
        with get_context("fork").Pool(workers) as pool:
            for i, got in enumerate(pool.imap(_chunk, jobs), 1):
                pending.append(got)
                if len(pending) >= MERGE_EVERY:
                    merged.append(unique(np.concatenate(pending)))
                    pending = []
                    if len(merged) >= COMPACT_EVERY:  # the duplicates across merges, dropped
                        merged = [union(merged)]
                    say({"stage": how, "chunks": i, "of": len(jobs), "held": int(sum(map(len, merged))),
                         "wall": round(time.time() - t0)})
    finally:
        _SHARED.clear()
    merged.extend(pending)
    return union(merged)


def union(parts: list[np.ndarray], buckets: int = 64) -> np.ndarray:
    """The sorted union of sorted arrays, made bucket by bucket of the key range (a bucket's pieces at a time in
    memory besides the parts and the answer)."""
    if not parts:
        return np.zeros(0, dtype=U64)
    top = max(int(p[-1]) for p in parts if len(p)) + 1 if any(len(p) for p in parts) else 1
    edges = [U64(top * i // buckets) for i in range(buckets + 1)]
    out = []
    for b in range(buckets):
        lo, hi = edges[b], edges[b + 1]
        pieces = [p[np.searchsorted(p, lo):np.searchsorted(p, hi)] for p in parts]
        out.append(unique(np.concatenate(pieces)))
    parts.clear()
    answer = np.empty(sum(map(len, out)), dtype=U64)
    at = 0
    for i, piece in enumerate(out):  # each bucket freed once copied: the answer is held once, not twice
        answer[at:at + len(piece)] = piece
        at += len(piece)
        out[i] = np.zeros(0, dtype=U64)
    return answer


def recorded(ck: Checkpoint, pegs: int) -> np.ndarray | None:
    """Level ``pegs`` of the engine's forward sweep recorded in the checkpoint (its shards read by
    :func:`pyapp.exact.shards.load_bucket`), or None."""
    for sweep_id in ck.manifest["sweeps"]:
        done = ck.finished(sweep_id)
        if sweep_id.startswith("reachable-") and str(pegs) in done["levels"]:
            keys = np.concatenate([np.frombuffer(load_bucket(ck.shard_path(sweep_id, pegs, j), False)[0], dtype="<u8")
                                   for j in range(done["shards"])]).astype(U64)
            keys.sort()
            assert len(keys) == done["levels"][str(pegs)]
            return keys
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game", help="BOARD-START-GOAL, its own complement game (asymmetric-d5-d5)")
    ap.add_argument("--checkpoint", required=True, help="make_overtable.py's folder for this game")
    ap.add_argument("--from", dest="start", type=int, help="the recorded level to sweep on from (default: the last)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--check", action="store_true", help="first remake the recorded level under --from and compare")
    args = ap.parse_args(argv)
    board, start, goal = args.game.rsplit("-", 2)
    problem = Game(board, start, goal).problem()
    s = sides(problem)
    if not s.complement_problem:
        ap.error(f"{args.game} is not its own complement game")
    folder = Path(args.checkpoint)
    ck = Checkpoint(str(folder))
    own = folder / "numpy"
    own.mkdir(exist_ok=True)
    dense, meet = Dense(problem), s.meet()
    say = lambda d: print(json.dumps(d), flush=True)  # noqa: E731
    top = args.start or min(int(p) for e in ck.manifest["sweeps"].values() for p in e["levels"])
    keys = recorded(ck, top)
    assert keys is not None, f"no recorded level of {top} pegs"
    if args.check:
        check = recorded(ck, top - 1)
        assert check is not None, f"--check: no recorded level of {top - 1} pegs"
        made = expand(dense, keys, "children", args.workers, say)
        same = bool(np.array_equal(made, check))
        say({"check": top - 1, "engine": len(check), "numpy": len(made), "equal": same})
        if not same:
            return 1
        del check
        np.save(own / f"R{top - 1}.npy", made)
        keys, top = made, top - 1
    for pegs in range(top - 1, meet - 1, -1):
        path = own / f"R{pegs}.npy"
        if path.exists():
            keys = np.load(path)
        else:
            keys = expand(dense, keys, "children", args.workers, say)
            np.save(path, keys)
        say({"stage": "reachable", "recorded": pegs, "size": len(keys)})
    join = folder / "join"
    join.mkdir(exist_ok=True)
    reach = keys
    wins = expand(dense, reach, "complement", args.workers, say, within=reach)
    wins.tofile(join / f"W{meet}")
    say({"stage": "can still win", "recorded": meet, "size": len(wins)})
    for pegs in range(meet + 1, s.first_pegs + 1):
        reach = np.load(own / f"R{pegs}.npy") if (own / f"R{pegs}.npy").exists() else recorded(ck, pegs)
        assert reach is not None
        wins = expand(dense, wins, "parents", args.workers, say, within=reach)
        wins.tofile(join / f"W{pegs}")
        say({"stage": "can still win", "recorded": pegs, "size": len(wins)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
