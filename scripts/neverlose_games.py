"""Never-lose at every position of seeded games, as the page plays them; two such runs compared position by position.

    python scripts/neverlose_games.py french d2 d6 --games 3 --seed 7 --jsonl RUN.jsonl [--follow OTHER.jsonl]
    python scripts/neverlose_games.py french d2 d6 --compare BEFORE.jsonl AFTER.jsonl --pegs 23 31 \\
        --label "what changed" [--out benchmarks/books.json]

The first form plays ``--games`` games from the start with the game's shipped opening book (``sets/``) and endgame
table (the build's cache) installed, as the page has them: at each position never-lose on Hint's 10 s budget in CPU
seconds, with the engine's game-long table of proved positions; the next jump is one the check filed good with
probability 0.8, else any legal jump.  One JSON line per position (pegs, CPU seconds, status, jump verdicts good /
bad / unknown, the jump played next).  ``--follow`` plays the jumps of another run instead, so two versions of the
engine (two checkouts, run side by side) are measured on the same positions.  The second form summarises two such
runs over the positions with ``--pegs LO HI`` pegs (median and p95 CPU seconds, jump verdicts decided and left
unknown) and adds the figures to the game's list of comparisons in ``--out`` (``along``, one per ``--label``;
BENCHMARKS.md shows them).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from opening_book import _merge, _read  # noqa: E402  (beside this script: one JSON file of figures per game)

from pyapp.bench.rows import percentile  # noqa: E402
from pyapp.core.catalogue import get_board  # noqa: E402
from pyapp.core.problem import Problem, make_problem  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("board")
    ap.add_argument("start")
    ap.add_argument("goal")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--jsonl", help="write one JSON line per position here")
    ap.add_argument("--follow", help="play the jumps of this earlier run")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    ap.add_argument("--pegs", nargs=2, type=int, metavar=("LO", "HI"), default=(1, 99))
    ap.add_argument("--label", default="")
    ap.add_argument("--out")
    args = ap.parse_args()
    problem = make_problem(get_board(args.board), start=args.start, goal=args.goal)
    if args.compare:
        figures = compare(*(_read(p) for p in args.compare), *args.pegs)
        figures["label"] = args.label
        print(json.dumps(figures))
        _merge(args.out, problem, {"along": figures}, listed=True)
        return 0
    if not args.jsonl:
        ap.error("--jsonl is required to play")
    with open(args.jsonl, "w", encoding="utf-8") as out:
        for row in play(problem, args.games, args.seed, _read(args.follow) if args.follow else None):
            out.write(json.dumps(row) + "\n")
            out.flush()
    return 0


def play(problem: Problem, games: int, seed: int, follow: list[dict] | None):
    """One row per position of ``games`` seeded games (or of the games in ``follow``, jump for jump), with the game's
    shipped book and endgame table (:func:`pyapp.bench.game_rows.played`, as the ``neverlose-play-*`` rows play)."""
    from pyapp.bench.game_rows import install_shipped, played

    install_shipped(problem)
    paths: dict[int, list] | None = None
    if follow is not None:
        paths = {}
        for row in follow:
            paths.setdefault(row["game"], []).append(row["jump"])
    for game, pos, r, seconds, jump in played(problem, games, random.Random(seed), paths):
        yield {"game": game, "pegs": pos.bit_count(), "s": round(seconds, 3), "status": r.status,
               "good": len(r.jumps.good), "bad": len(r.jumps.bad), "unknown": len(r.jumps.unknown), "jump": jump}


def compare(before: list[dict], after: list[dict], lo: int, hi: int) -> dict:
    """Both runs over the positions with ``lo`` to ``hi`` pegs (the same positions when one followed the other)."""
    pairs = [(a, b) for a, b in zip(before, after) if lo <= a["pegs"] <= hi and a["pegs"] == b["pegs"]]

    def summary(k: int) -> dict:
        t = sorted(p[k]["s"] for p in pairs)
        return {"median": round(statistics.median(t), 3) if t else 0.0,
                "p95": percentile(t, 0.95), "cpu": round(sum(t), 1),
                "decided": sum(p[k]["good"] + p[k]["bad"] for p in pairs),
                "unknown": sum(p[k]["unknown"] for p in pairs)}

    return {"positions": len(pairs), "pegs": [lo, hi], "games": len({a["game"] for a, _ in pairs}),
            "before": summary(0), "after": summary(1)}


if __name__ == "__main__":
    sys.exit(main())
