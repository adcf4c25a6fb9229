"""Learn the pagodas that prune the goal's endgame table's search for one game, and measure what they save.

The table proves a position lost by searching everything under it (:mod:`pyapp.exact.subtree`); on French
d2 -> d6 the positions of 22 pegs after a 23-peg one's jumps take 150,000-400,000 classes each.  Nearly every lost
position met there is proved lost by some pagoda function, found by a linear programme
(:func:`pyapp.proofs.pagoda.find_pagoda`).  This script walks seeded random winnable games of a game shipped with
a set over its goal's table (:class:`pyapp.exact.overtable.OverTable`; of any jumps for a game shipped with the
table only) down to the table's ceiling + 1 pegs,
searches every position after each jump there (a plain search with the pagodas learned so far packed as the
table's search packs them, :mod:`pyapp.exact.pagoda_prune`) and, at each lost position of at least ``--min-pegs``
pegs that no pagoda proves yet, asks the programme for one and keeps it.  ``--write`` stores them in
``pyapp/proofs/table_pagoda_library.py`` (replacing the board's entry).  ``--check N`` then measures the table's own
search on N other games' positions, without the library and with it: classes and CPU seconds per position.

    python scripts/learn_table_pagodas.py french d2 d6 [--train 12] [--seed 1] [--min-pegs 15] [--max-pagodas N]
                                          [--keep K] [--write] [--check 6]

Every pagoda is one more lane of the packed test that each position the search meets pays for, so past some size a
library costs more than it prunes (asymmetric d5 -> d5: its 12 training games give 2,932 pagodas, which cut the
classes of 24-peg never-lose answers 2.3-fold but their CPU only 1.2-fold; the first 300 cut the CPU 1.8-fold,
measured side by side).
``--max-pagodas N`` stops learning once the library holds N; ``--keep K`` learns them all, then keeps the K that
prove the most lost positions of the training searches (:func:`rank`, greedily): asymmetric's 300 so chosen took 10%
less CPU and 7% fewer classes than its first 300 on the same 24 answers (two processes side by side).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from pyapp.core.board import Board  # noqa: E402
from pyapp.core.budget import Budget, drive  # noqa: E402
from pyapp.core.moves import apply_jump, legal_jumps  # noqa: E402
from pyapp.core.problem import Problem  # noqa: E402
from pyapp.exact import endgame  # noqa: E402
from pyapp.exact.endgame import Endgame, endgame_for  # noqa: E402
from pyapp.exact.overtable import OverTable  # noqa: E402
from pyapp.exact.pagoda_prune import PackedPagodas, pack  # noqa: E402
from pyapp.exact.winnable import Winnable, cached  # noqa: E402
from pyapp.proofs import table_pagoda_library  # noqa: E402
from pyapp.proofs.pagoda import find_pagoda  # noqa: E402
from pyapp.proofs.table_pagodas import table_pagodas  # noqa: E402
from pyapp.web import api  # noqa: E402
from pyapp.web.setfiles import game_files  # noqa: E402
from pyapp.web.sets import SHIPPED, Game  # noqa: E402

LIBRARY = ROOT / "pyapp" / "proofs" / "table_pagoda_library.py"


def _load(board: str, start: str, goal: str) -> Game:
    """Load the game's goal's table as the page does, and the game's set when it ships over it; the game."""
    table = next((g for g in SHIPPED if g.endgame and (g.board, g.start, g.goal) == (board, start, goal)), None)
    if table is None:
        raise SystemExit(f"error: no endgame table ships for {board} {start} -> {goal}")
    game = next((g for g in SHIPPED if g.over_table and (g.board, g.start, g.goal) == (board, start, goal)), table)
    for g in {game, table}:
        files = game_files(g, build.SETS_CACHE, build.SETS_ARTEFACTS)
        if files is None:
            raise SystemExit(f"error: no file for {g.stem} here (build.py makes it)")
        loaded = json.loads(api.load_set(files["winnable"][1]))
        if "error" in loaded:
            raise SystemExit(f"error: {g.stem}: {loaded['error']}")
    return game


def _edge(problem: Problem, win: Winnable | None, pegs: int, seed: int) -> int:
    """A position with ``pegs`` pegs at the end of a seeded random game: a winnable one (each jump kept in the set)
    down to the floor of the game's set where it is loaded, then (and without a set) of any jumps (a game that ends
    sooner is played again, the seed moved on)."""
    board, rng = problem.board, random.Random(seed)
    while True:
        pos = problem.start
        while pos.bit_count() > pegs:
            afters = [apply_jump(pos, j) for j in legal_jumps(board, pos)]
            if win is not None:  # a set over the table: only its levels are looked up (the table would search)
                floor = win.floor if isinstance(win, OverTable) else 0
                afters = [c for c in afters if c.bit_count() < floor or win.lookup(c)]
            if not afters:
                break
            pos = rng.choice(afters)
        if pos.bit_count() == pegs:
            return pos


def _packed(board: Board, table: Endgame, library: list[dict[int, int]]) -> PackedPagodas:
    """``library`` packed as the table's search packs it (each pagoda's threshold: its least value on an end)."""
    ends = sorted(table.ends)
    return pack(board, [(w, min(sum(x for b, x in w.items() if e >> b & 1) for e in ends)) for w in library])


def _searcher(board: Board, table: Endgame, min_pegs: int, cut: Callable[[int, int], bool],
              lost: Callable[[int], None]) -> Callable[[int], bool]:
    """The table's plain search (each class once, its verdict kept), stopped at a position of at least ``min_pegs``
    pegs that ``cut(pos, pegs)`` proves lost; ``lost(pos)`` is told of each such position the search itself proves
    lost."""
    memo: dict[int, bool] = {}
    sys.setrecursionlimit(10_000)

    def search(pos: int) -> bool:
        pegs = pos.bit_count()
        if pegs <= table.low:
            return table.can_win(pos)
        key = table.codec.canon(pos)
        if (seen := memo.get(key)) is not None:
            return seen
        if pegs >= min_pegs and cut(pos, pegs):
            memo[key] = False
            return False
        won = any(search(apply_jump(pos, j)) for j in legal_jumps(board, pos))
        if not won and pegs >= min_pegs:
            lost(pos)
        memo[key] = won
        return won

    return search


def learn(board: Board, table: Endgame, roots: list[int], min_pegs: int, library: list[dict[int, int]],
          most: int) -> None:
    """Search every position after the jumps of each of ``roots`` with the pagodas of ``library`` pruning, adding
    one for each lost position of at least ``min_pegs`` pegs none proves, while the library holds fewer than
    ``most``."""
    ends = sorted(table.ends)
    packed = [_packed(board, table, library)]

    def cut(pos: int, pegs: int) -> bool:
        return bool(packed[0].count) and packed[0].lost(packed[0].sum(pos), pegs)

    def lost(pos: int) -> None:
        if len(library) < most and (weights := find_pagoda(board, pos, ends)) is not None \
                and weights not in library:
            library.append(weights)
            packed[0] = _packed(board, table, library)

    search = _searcher(board, table, min_pegs, cut, lost)
    for root in roots:
        for jump in legal_jumps(board, root):
            search(apply_jump(root, jump))


def rank(board: Board, table: Endgame, roots: list[int], min_pegs: int, library: list[dict[int, int]],
         keep: int) -> list[dict[int, int]]:
    """The ``keep`` pagodas of ``library`` that prove the most lost positions the search of ``roots``' jumps meets
    with all of them pruning (greedily: each next one the pagoda that proves the most positions the ones kept so
    far do not), in that order."""
    packed = _packed(board, table, library)
    by_lane: list[list[int]] = [[] for _ in library]  # per pagoda, the proved positions (their indices)
    proofs: list[list[int]] = []  # per proved position, the pagodas that prove it

    def cut(pos: int, pegs: int) -> bool:
        proving = packed.provers(packed.sum(pos), pegs)
        for k in proving:
            by_lane[k].append(len(proofs))
        if proving:
            proofs.append(proving)
        return bool(proving)

    search = _searcher(board, table, min_pegs, cut, lambda pos: None)
    for root in roots:
        for jump in legal_jumps(board, root):
            search(apply_jump(root, jump))
    counts = [len(found) for found in by_lane]
    covered = bytearray(len(proofs))
    kept: list[int] = []
    while len(kept) < min(keep, len(library)):
        best = max(range(len(library)), key=counts.__getitem__)
        kept.append(best)
        counts[best] = -1
        for i in by_lane[best]:
            if not covered[i]:
                covered[i] = 1
                for k in proofs[i]:
                    if counts[k] > 0:
                        counts[k] -= 1
    return [library[k] for k in kept]


def check(table: Endgame, roots: list[int]) -> list[dict]:
    """The table's own search of every position after each root's jumps, from an empty memo: classes and CPU s."""
    rows = []
    for root in roots:
        table.memo.clear()
        before, t = table.searched, time.process_time()
        afters = [apply_jump(root, j) for j in legal_jumps(table.problem.board, root)]
        assert drive(table.settle_steps(afters, Budget(), 50_000_000))
        rows.append({"classes": table.searched - before, "cpu_s": round(time.process_time() - t, 2)})
    return rows


def write(board: Board, library: list[dict[int, int]], command: str) -> None:
    """Replace the board's entry of the generated library (the other boards' entries and commands kept)."""
    entries = dict(table_pagoda_library.LIBRARY)
    commands = dict(table_pagoda_library.COMMANDS)
    entries[board.id] = tuple(" ".join(str(w.get(b, 0)) for b in board.bits) for w in library)
    commands[board.id] = command
    head = LIBRARY.read_text().split("COMMANDS:", 1)[0]
    made = "".join(f"    {board_id!r}: {commands[board_id]!r},\n" for board_id in sorted(entries))
    body = "".join(f"    {board_id!r}: (  # {len(rows)} pagoda{'' if len(rows) == 1 else 's'}\n"
                   + "".join("        " + " ".join(f"{row!r}," for row in rows[i:i + 2]) + "\n"
                             for i in range(0, len(rows), 2)) + "    ),\n"
                   for board_id, rows in sorted(entries.items()))
    doc = '"""The command that learned each board\'s pagodas."""'
    LIBRARY.write_text(f"{head}COMMANDS: dict[str, str] = {{\n{made}}}\n{doc}\n\n"
                       f"LIBRARY: dict[str, tuple[str, ...]] = {{\n{body}}}\n")


def _fresh(game: Game, library: bool) -> Endgame:
    """The game's goal's table loaded again, its search compiled with the library as written or without one."""
    importlib.reload(table_pagoda_library)
    if not library:
        table_pagoda_library.LIBRARY = {}
    table_pagodas.cache_clear()
    endgame.clear()
    _load(game.board, game.start, game.goal)
    problem = game.problem()
    table = endgame_for(problem.board, problem.goal, problem.start)
    assert table is not None
    assert (table.subtree().pagodas > 0) == (library and bool(table_pagoda_library.LIBRARY.get(game.board)))
    return table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("board")
    ap.add_argument("start")
    ap.add_argument("goal")
    ap.add_argument("--train", type=int, default=12, help="games whose positions the pagodas are learned on")
    ap.add_argument("--seed", type=int, default=1, help="the first training game's seed (then seed + 1, ...)")
    ap.add_argument("--min-pegs", type=int, default=15, help="the fewest pegs of a position a pagoda is learned on")
    ap.add_argument("--max-pagodas", type=int, default=10**9, metavar="N",
                    help="stop learning at N pagodas (the packed test's cost grows with each one)")
    ap.add_argument("--keep", type=int, default=0, metavar="K",
                    help="then keep the K pagodas that prove the most lost positions of the training searches")
    ap.add_argument("--write", action="store_true", help="store the pagodas in " + str(LIBRARY.relative_to(ROOT)))
    ap.add_argument("--check", type=int, default=0, help="measure on this many other games' positions")
    args = ap.parse_args(argv)
    game = _load(args.board, args.start, args.goal)
    problem = game.problem()
    win = cached(problem)
    board = problem.board
    probe = endgame_for(board, problem.goal, problem.start)
    assert probe is not None
    table: Endgame = probe
    library: list[dict[int, int]] = []
    t0 = time.process_time()
    trained: list[int] = []
    for n in range(args.train):
        if len(library) >= args.max_pagodas:
            break
        trained.append(_edge(problem, win, table.ceiling + 1, args.seed + n))
        learn(board, table, trained[-1:], args.min_pegs, library, args.max_pagodas)
        print(json.dumps({"trained": n + 1, "pagodas": len(library), "cpu_s": round(time.process_time() - t0, 1)}),
              flush=True)
    if args.keep:
        library = rank(board, table, trained, args.min_pegs, library, args.keep)
        print(json.dumps({"kept": len(library), "cpu_s": round(time.process_time() - t0, 1)}), flush=True)
    if args.write:
        command = f"python scripts/learn_table_pagodas.py {args.board} {args.start} {args.goal} " \
                  f"--train {args.train} --seed {args.seed} --min-pegs {args.min_pegs}" \
                  + (f" --max-pagodas {args.max_pagodas}" if args.max_pagodas < 10**9 else "") \
                  + (f" --keep {args.keep}" if args.keep else "")
        write(board, library, command)
    if args.check:
        roots = [_edge(problem, win, table.ceiling + 1, 10_000 + n) for n in range(args.check)]
        without = check(_fresh(game, library=False), roots)
        with_them = check(_fresh(game, library=True), roots)
        for a, b in zip(without, with_them):
            print(json.dumps({"without": a, "with": b}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
