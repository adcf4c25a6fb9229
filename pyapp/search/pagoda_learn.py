"""Learning pagoda functions from the dead ends of the search (a development tool).

``python -m pyapp.search.pagoda_learn BOARD [--start HOLE] [--goal G]`` runs the depth-first
search on a problem for a few thousand nodes with several seeds, collects positions it
proved dead, and asks the linear program of :func:`pyapp.proofs.pagoda.find_pagoda` for a
pagoda function that proves each one dead at once.  Repeating with the new pagodas
switched on finds the dead ends they miss.  The output is a block for
:mod:`pyapp.proofs.pagoda_library`; every stored pagoda is checked again when loaded, so the
library can only make the search faster, never wrong.
"""

from __future__ import annotations

import argparse
import random
import sys

from ..core.problem import Problem, default_problem, make_problem
from ..proofs.pagoda import Pagoda, find_pagoda, make_pagoda, pagodas_for
from .compiled import build_tables
from .dfs import Stats, dfs
from .table import BoundedTable


def _run(problem: Problem, pagodas: list[tuple[Pagoda, int]], seed: int, nodes: int) -> tuple[bool, int, list[int]]:
    board, goal = problem.board, problem.goal
    t = build_tables(board, pagodas, list(goal.symmetries(board)), seed)
    table = BoundedTable(1_000_000, t.images)
    st = Stats(dead_sample=[])
    gen = dfs(t, problem.start, table, st, final_pegs=goal.final_pegs,
              target=goal.exact, stop_at=nodes)
    found = False
    try:
        while st.nodes < nodes:
            next(gen)
    except StopIteration as stop:
        found = stop.value[0]
    gen.close()
    return found, st.nodes, st.dead_sample or []


def learn(problem: Problem, *, rounds: int = 5, seeds: int = 8, nodes: int = 20000, per_seed: int = 25,
          log=None) -> list[dict[int, int]]:
    """Pagodas (as ``{bit: weight}``) that prune dead ends of ``problem``'s search."""
    board = problem.board
    finishes = problem.goal.pagoda_targets(board, problem.start)
    learned: list[dict[int, int]] = []
    rng = random.Random(1)
    for rnd in range(rounds):
        pagodas = pagodas_for(board, finishes) + [
            (p, min(p.value(f) for f in finishes))
            for p in (make_pagoda(board, f"new{i}", w) for i, w in enumerate(learned))]
        counts = []
        added = 0
        for seed in range(seeds):
            found, used, dead = _run(problem, pagodas, seed, nodes)
            counts.append(used if found else -1)
            for pos in rng.sample(dead, min(per_seed, len(dead))):
                if any(p.value(pos) < thr for p, thr in pagodas):
                    continue
                if any(sum(w.get(b, 0) for b in board.bits if pos >> b & 1)
                       < min(sum(w.get(b, 0) for b in board.bits if f >> b & 1) for f in finishes) for w in learned):
                    continue
                w = find_pagoda(board, pos, finishes)
                if w is not None and w not in learned:
                    learned.append(w)
                    added += 1
        if log:
            log(f"round {rnd}: nodes per seed {counts} (-1: not solved), {added} new pagodas, {len(learned)} total")
        if not added:
            break
    return learned


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pyapp.search.pagoda_learn", description=__doc__.split("\n\n")[0])
    ap.add_argument("board")
    ap.add_argument("--start")
    ap.add_argument("--goal")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--nodes", type=int, default=20000)
    args = ap.parse_args(argv)
    if args.start is None and args.goal is None:
        problem = default_problem(args.board)
    else:
        from ..core.catalogue import get_board

        problem = make_problem(get_board(args.board), start=args.start, goal=args.goal)
    learned = learn(problem, rounds=args.rounds, nodes=args.nodes, log=lambda m: print(m, file=sys.stderr))
    board = problem.board
    print(f"    {board.id!r}: (")
    for w in learned:
        print(f"        {' '.join(str(w.get(b, 0)) for b in board.bits)!r},")
    print("    ),")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
