"""Look for a solution of a single-vacancy complement problem (start: every hole but ``s``; finish: one peg on ``s``) by
meeting a forward search with its own complement.

Time reversal (:mod:`pyapp.search.formulations`): if the jumps take ``S`` (all but ``s``) through ``P0 .. Pn`` to
``{s}``, the complements ``~Pn .. ~P0`` are a solution too, so a position ``p`` reached from ``S`` in ``k`` jumps is on
a solution exactly when its complement ``~p`` is reached from ``S`` in ``n - k`` jumps.  One forward sweep from ``S``
serves both halves: every position it reaches at levels ``k`` and ``n - k`` is kept, and a position whose complement is
kept too joins two paths from ``S`` into a solution (the second read backwards and complemented).

The sweep is a beam (numpy arrays of 64-bit keys over the board's holes, canonical under the problem's symmetries, which
fix ``s``): each level keeps the ``--width`` best of the positions reached, scored by isolated pegs and a weight per
hole with random noise, and pruned by every pagoda the project knows toward ``s`` (each checked on every jump by
:func:`pyapp.proofs.pagoda.make_pagoda` before it is used).  All the positions reached at the middle levels (before the
beam cuts them) are kept for the meeting.  A meeting is replayed by :func:`pyapp.core.game.replay` before it is printed.
Not a proof of anything when it finds nothing.
    python scripts/complement_beam.py german e1 [--width 400000] [--runs 4] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pyapp.core.catalogue import get_board  # noqa: E402
from pyapp.core.game import replay  # noqa: E402
from pyapp.core.goal import stabilizer  # noqa: E402
from pyapp.core.notation import format_jump  # noqa: E402
from pyapp.proofs.pagoda import make_pagoda, pagodas_for  # noqa: E402

U64 = np.uint64


class Compact:
    """The board's holes renumbered 0..N-1 (N <= 64), with byte tables for the maps that are unions over
    pegs (a symmetry, the neighbours of the pegs) and sums over pegs (a pagoda, a score)."""

    def __init__(self, board, target_bit: int) -> None:
        self.board = board
        self.bits = list(board.bits)
        self.n = n = len(self.bits)
        assert n <= 64, "the board has more than 64 holes"
        self.index = {b: i for i, b in enumerate(self.bits)}
        self.nbytes = (n + 7) // 8
        self.full = (1 << n) - 1
        self.jumps = [(self.index[a], self.index[b], self.index[c])
                      for x, y, z in board.lines for (a, b, c) in ((x, y, z), (z, y, x))]
        self.syms = [s for s in stabilizer(board, 1 << target_bit)]
        # neighbours along the board's lines
        nb = [0] * n
        for a, b, _c in self.jumps:
            nb[a] |= 1 << b
            nb[b] |= 1 << a
        self.nb_tables = self.or_tables(lambda i: nb[i])

    def to_board(self, p: int) -> int:
        out = 0
        for i in range(self.n):
            if p >> i & 1:
                out |= 1 << self.bits[i]
        return out

    def from_board(self, pos: int) -> int:
        return sum(1 << i for i, b in enumerate(self.bits) if pos >> b & 1)

    def or_tables(self, image) -> np.ndarray:
        t = np.zeros((self.nbytes, 256), dtype=U64)
        for k in range(self.nbytes):
            for v in range(256):
                m = 0
                for j in range(8):
                    i = 8 * k + j
                    if v >> j & 1 and i < self.n:
                        m |= image(i)
                t[k, v] = m
        return t

    def sum_tables(self, weight) -> np.ndarray:
        t = np.zeros((self.nbytes, 256), dtype=np.int64)
        for k in range(self.nbytes):
            for v in range(256):
                t[k, v] = sum(weight(8 * k + j) for j in range(8) if v >> j & 1 and 8 * k + j < self.n)
        return t

    def apply_or(self, tables: np.ndarray, p: np.ndarray) -> np.ndarray:
        out = np.zeros_like(p)
        for k in range(self.nbytes):
            out |= tables[k][((p >> U64(8 * k)) & U64(255)).astype(np.intp)]
        return out

    def apply_sum(self, tables: np.ndarray, p: np.ndarray) -> np.ndarray:
        out = np.zeros(p.shape, dtype=np.int64)
        for k in range(self.nbytes):
            out += tables[k][((p >> U64(8 * k)) & U64(255)).astype(np.intp)]
        return out

    def sym_tables(self) -> list[np.ndarray]:
        tabs = []
        for s in self.syms:
            if s == 0:
                continue
            img = [self.index[self.board.transform(1 << b, s).bit_length() - 1] for b in self.bits]
            tabs.append(self.or_tables(lambda i, img=img: 1 << img[i]))
        return tabs


def canonical(c: Compact, tabs: list[np.ndarray], p: np.ndarray) -> np.ndarray:
    out = p.copy()
    for t in tabs:
        np.minimum(out, c.apply_or(t, p), out=out)
    return out


def expand(c: Compact, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every child of every position: (children, index of the parent)."""
    kids, parents = [], []
    idx = np.arange(len(p))
    for a, b, cc in c.jumps:
        pre, m = U64(1 << a | 1 << b), U64(1 << a | 1 << b | 1 << cc)
        ok = (p & m) == pre
        if ok.any():
            kids.append(p[ok] ^ m)
            parents.append(idx[ok])
    if not kids:
        return np.zeros(0, dtype=U64), np.zeros(0, dtype=np.intp)
    return np.concatenate(kids), np.concatenate(parents)


def sweep(board_id: str, hole: str, width: int, seed: int, middle: int, log, symmetric: bool = False,
          learned: tuple = ()) -> dict:
    """One beam from the single-vacancy start: its levels (canonical keys, index of the parent in the level
    before) and every position reached at the middle levels.  ``learned``: more pagodas to prune with (each
    with its threshold toward the finish)."""
    board = get_board(board_id)
    t = board.hole(hole)
    c = Compact(board, t)
    tabs = c.sym_tables()
    start = c.full ^ (1 << c.index[t])
    steps = c.n - 2
    pagodas = [*pagodas_for(board, [1 << t]), *learned]  # the library's, with Bell's resource count on German
    pag = [(c.sum_tables(lambda i, w=dict(p.weights): w.get(c.bits[i], 0)), thr) for p, thr in pagodas]
    rng = np.random.default_rng(seed)
    # score: isolated pegs and a weight per hole (far from the centre is worse), with noise so runs differ
    rows = {b: board.cell_of[b] for b in c.bits}
    cx = sum(r[1] for r in rows.values()) / c.n
    cy = sum(r[0] for r in rows.values()) / c.n
    noise = rng.uniform(0.0, 1.0, c.n)
    wt = [abs(rows[b][0] - cy) + abs(rows[b][1] - cx) + noise[i] for i, b in enumerate(c.bits)]
    score_tab = c.sum_tables(lambda i: int(10 * wt[i]))
    levels: list[np.ndarray] = [np.array([start], dtype=U64)]
    parent: list[np.ndarray] = [np.zeros(1, dtype=np.intp)]
    keep_from, keep_to = steps // 2 - middle, steps - steps // 2 + middle
    kept: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    t0 = time.perf_counter()
    for k in range(1, keep_to + 1):
        kids, par = expand(c, levels[-1])
        ok = np.ones(len(kids), dtype=bool)
        for tab, thr in pag:
            ok &= c.apply_sum(tab, kids) >= thr
        kids, par = canonical(c, tabs, kids[ok]), par[ok]
        kids, first = np.unique(kids, return_index=True)
        par = par[first]
        if keep_from <= k:
            kept[k] = (kids, par)
        if len(kids) > width:
            iso = np.bitwise_count(kids & ~c.apply_or(c.nb_tables, kids)).astype(np.int64)
            holes = U64(c.full) ^ kids
            iso_c = np.bitwise_count(holes & ~c.apply_or(c.nb_tables, holes)).astype(np.int64)
            # far from the middle: a plain score; near it, one that rates a position and its complement alike
            fade = max(0.0, 1.0 - k / (steps / 2)) if symmetric else 1.0
            score = (40 * iso + (40 * iso_c if symmetric else 0)
                     + (fade * c.apply_sum(score_tab, kids)).astype(np.int64) + rng.integers(0, 20, len(kids)))
            best = np.argpartition(score, width)[:width]
            kids, par = kids[best], par[best]
        levels.append(kids)
        parent.append(par)
        log(f"seed {seed} level {k}: {len(kids):,} kept of {len(first):,} ({time.perf_counter() - t0:.0f} s)")
    return {"c": c, "tabs": tabs, "levels": levels, "parent": parent, "kept": kept, "steps": steps,
            "range": range(keep_from, keep_to + 1), "seed": seed}


def learn(board_id: str, hole: str, seeds: int, per_level: int, log) -> list:
    """Pagodas toward the finish that refute positions of small beams (found by linear programming, each
    rounded to integers and checked on every jump by :func:`make_pagoda` before it is used)."""
    import random

    from pyapp.proofs.pagoda import find_pagoda

    board = get_board(board_id)
    finish = 1 << board.hole(hole)
    out: list = []
    seen: set = set()
    for seed in range(seeds):
        run = sweep(board_id, hole, 20_000, 1000 + seed, 4, lambda s: None, True, tuple(out))
        c = run["c"]
        rng = random.Random(seed)
        for k in sorted(run["kept"]):
            keys = run["kept"][k][0]
            for i in rng.sample(range(len(keys)), min(per_level, len(keys))):
                p = c.to_board(int(keys[i]))
                if any(pg.value(p) < thr for pg, thr in out):
                    continue
                w = find_pagoda(board, p, [finish])
                if w is None:
                    continue
                key = tuple(sorted(w.items()))
                if key in seen:
                    continue
                seen.add(key)
                pg = make_pagoda(board, f"learned #{len(out) + 1}", w)
                out.append((pg, pg.value(finish)))
        log(f"learning: {len(out)} pagodas after {seed + 1} small beams")
    return out


def meetings(a: dict, b: dict, log) -> tuple[int, int] | None:
    """A position kept by sweep ``a`` whose complement sweep ``b`` kept at the level that fits: (level, index)."""
    c, tabs, steps = a["c"], a["tabs"], a["steps"]
    for k in a["range"]:
        if steps - k not in b["kept"] or (a is b and k > steps - k):  # one beam: each pair of levels once
            continue
        a_keys, b_keys = a["kept"][k][0], b["kept"][steps - k][0]
        comp = canonical(c, tabs, U64(c.full) ^ a_keys)
        hit = np.isin(comp, b_keys)
        log(f"seeds {a['seed']} and {b['seed']}: levels {k} and {steps - k}: {len(a_keys):,} x {len(b_keys):,}, "
            f"{int(hit.sum())} meetings")
        if hit.any():
            return k, int(np.flatnonzero(hit)[0])
    return None


def path_to(run: dict, k: int, i: int) -> list[int]:
    """Canonical keys from the start to entry ``i`` of level ``k``'s kept positions."""
    levels, parent, kept = run["levels"], run["parent"], run["kept"]
    keys = [int(kept[k][0][i])]
    j = int(kept[k][1][i])
    for lev in range(k - 1, -1, -1):
        keys.append(int(levels[lev][j]))
        j = int(parent[lev][j])
    return keys[::-1]


def unfold(c: Compact, tabs, keys: list[int]) -> list[int]:
    """Actual positions along a path of canonical keys (each a jump from the last)."""
    out = [keys[0]]
    for key in keys[1:]:
        p = out[-1]
        for a, b, cc in c.jumps:
            if p >> a & 1 and p >> b & 1 and not p >> cc & 1:
                q = p ^ (1 << a | 1 << b | 1 << cc)
                if int(canonical(c, tabs, np.array([q], dtype=U64))[0]) == key:
                    out.append(q)
                    break
        else:
            raise AssertionError("broken path")
    return out


def join(a: dict, b: dict, k: int, i: int) -> list[str]:
    """The moves of the solution through entry ``i`` of sweep ``a``'s level ``k`` and its complement in ``b``."""
    c, tabs, steps = a["c"], a["tabs"], a["steps"]
    first = path_to(a, k, i)
    want = int(canonical(c, tabs, np.array([c.full ^ first[-1]], dtype=U64))[0])
    j = int(np.flatnonzero(b["kept"][steps - k][0] == U64(want))[0])
    return join_paths(c, tabs, first, path_to(b, steps - k, j))


def join_paths(c: Compact, tabs, first_keys: list[int], second_keys: list[int]) -> list[str]:
    """Two paths of canonical keys from the start, the second ending on the complement of the first's end
    (under a symmetry), as the moves of one solution: the first path, then the second backwards, complemented."""
    first = unfold(c, tabs, first_keys)
    second = unfold(c, tabs, second_keys)
    target = c.full ^ first[-1]
    for tab in [None, *tabs]:
        mapped = second if tab is None else [int(c.apply_or(tab, np.array([q], dtype=U64))[0]) for q in second]
        if mapped[-1] == target:
            second = mapped
            break
    else:
        raise AssertionError("no symmetry maps the meeting")
    path = first + [c.full ^ q for q in reversed(second)][1:]
    moves = []
    for p, q in zip(path, path[1:]):
        gone, came = p & ~q, q & ~p
        a = [x for x in range(c.n) if gone >> x & 1]
        cc = came.bit_length() - 1
        src = mid = -1
        for x, y in ((a[0], a[1]), (a[1], a[0])):
            if (x, y, cc) in c.jumps:
                src, mid = x, y
        moves.append(format_jump(c.board, (c.bits[src], c.bits[mid], c.bits[cc])))
    return moves


def deeper(run: dict, log, chunk: int = 1_000_000) -> list[str] | None:
    """Meetings one level further: the children of every position kept at level ``k`` (not only of the beam)
    against the complements of the positions kept at level ``steps - k - 1``."""
    c, tabs, steps, kept = run["c"], run["tabs"], run["steps"], run["kept"]
    for k in sorted(kept):
        other = steps - k - 1
        if other not in kept:
            continue
        keys, targets = kept[k][0], kept[other][0]
        found = 0
        for s in range(0, len(keys), chunk):
            kids, par = expand(c, keys[s:s + chunk])
            kids = canonical(c, tabs, kids)
            comp = canonical(c, tabs, U64(c.full) ^ kids)
            pos = np.searchsorted(targets, comp)
            pos[pos == len(targets)] = 0
            hit = targets[pos] == comp
            found += int(hit.sum())
            if hit.any():
                h = int(np.flatnonzero(hit)[0])
                second = path_to(run, k, s + int(par[h])) + [int(kids[h])]
                first = path_to(run, other, int(pos[h]))
                log(f"seed {run['seed']}: children of level {k} meet level {other}")
                return join_paths(c, tabs, first, second)
        log(f"seed {run['seed']}: children of the {len(keys):,} positions of level {k} against the complements "
            f"of level {other}'s {len(targets):,}: {found} meetings")
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("board")
    ap.add_argument("hole")
    ap.add_argument("--width", type=int, default=400_000)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--symmetric", action="store_true",
                    help="score a position and its complement alike near the middle")
    ap.add_argument("--middle", type=int, default=1, help="levels either side of the middle kept for meetings")
    ap.add_argument("--learn", type=int, default=0,
                    help="first learn pagodas from this many small beams (positions a linear programme refutes)")
    ap.add_argument("--deeper", action="store_true",
                    help="also meet the children of every middle position (not only of the beam's) with complements")
    ap.add_argument("--keep", action="store_true",
                    help="keep every run's middle levels in memory and look for meetings across runs too")
    args = ap.parse_args()
    board = get_board(args.board)

    def log(s: str) -> None:
        print(s, file=sys.stderr, flush=True)

    learned = tuple(learn(args.board, args.hole, args.learn, 40, log)) if args.learn else ()

    def again(seed: int) -> dict:
        return sweep(args.board, args.hole, args.width, seed, args.middle, log, args.symmetric, learned)

    earlier: list[dict] = []
    for r in range(args.runs):
        now = again(args.seed + r)
        found = None
        for other in [now, *earlier]:
            hit = meetings(now, other, log)  # every level of the middle: both orders at once
            if hit is None:
                continue
            found = join(now, other if other is now else again(other["seed"]), *hit)
            break
        if not found and args.deeper:
            found = deeper(now, log)
        if found:
            start = board.start(args.hole)
            check = replay(board, start, found)
            ok = check.valid and check.final == 1 << board.hole(args.hole)
            print(("REPLAYS: " if ok else "DOES NOT REPLAY: ") + " ".join(found), flush=True)
            return 0 if ok else 1
        if args.keep:  # the middle levels only: the paths are found again by running the seed once more
            earlier.append({**now, "levels": now["levels"][:1], "parent": now["parent"][:1],
                            "kept": {k: (v[0], v[0][:0]) for k, v in now["kept"].items()}})
    print("no meeting found", flush=True)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
