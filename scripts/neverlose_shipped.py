"""Never-lose over seeded random games of the games shipped with an exact set, in CPython, as the page's engine
answers them.

For each named game (``board:start:goal``) of :data:`pyapp.web.sets.SHIPPED` with a winnable set (whole, or from a
level up: :mod:`pyapp.exact.partial`): its files as the build ships them (:func:`pyapp.web.setfiles.game_files`,
from the build's cache or ``sets/``) loaded through the page's own call (:func:`pyapp.web.api.load_set`: the set,
then the solution counts where shipped), then ``--games`` seeded random games from the start.  At each position
the page's request (:func:`pyapp.web.api.start` ``never_lose`` with the game's moves so far, run to its answer) and
its CPU seconds; the next jump is one the answer filed good with probability 0.8, else any legal jump (the
method of :mod:`pyapp.bench.game_rows` and ``scripts/neverlose_chromium.py``); a game ends when no jump is left
or the position is lost.

Per game: positions, the answers' methods, jump verdicts left unknown, CPU milliseconds per position (median,
p95, max, and the slowest positions with their pegs), the shipped bytes, and the checks.  The requests ask for no
line, as the page's do (a set over the goal's table would settle one: :func:`pyapp.analysis.neverlose_exact.
exact_lines`); the sampled positions (``--solve``) are asked again with their line, which must replay to the
goal, as must any line an answer gives.  Where this machine
holds the game's whole set (the build's cache), every verdict of a position and of each jump agrees with it (for a
game shipped whole that is the shipped set itself: a check of the page's lookup path, not of the set); and a sample
of the positions (``--solve``) agrees with ``solve`` wherever it decides within 5 s (the independent check, for a
set shipped from a level up too).  ``--out FILE`` writes the rows (JSON; BENCHMARKS.md shows
them beside ``scripts/neverlose_chromium.py``'s page figures).

    python scripts/neverlose_shipped.py english:d1:d1 english:c1:c1 triangle7:4:any [--games 50] [--seed 28]
                                        [--solve 40] [--out benchmarks/neverlose_games.json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from pyapp.bench.rows import percentile  # noqa: E402
from pyapp.core.budget import Budget  # noqa: E402
from pyapp.core.errors import PegError  # noqa: E402
from pyapp.core.moves import apply_jump  # noqa: E402
from pyapp.core.notation import parse_moves  # noqa: E402
from pyapp.core.problem import Problem  # noqa: E402
from pyapp.exact.partial import PartialWinnable  # noqa: E402
from pyapp.exact.store import decode, key_version, sets_cache  # noqa: E402
from pyapp.exact.winnable import Winnable  # noqa: E402
from pyapp.search.solver import solve  # noqa: E402
from pyapp.web import api  # noqa: E402
from pyapp.web.setfiles import game_files  # noqa: E402
from pyapp.web.sets import SHIPPED, Game  # noqa: E402

GOOD = 0.8
"""How often the next jump is one filed good (else any legal jump)."""
SLOWEST = 8
"""The slowest positions listed in a row (milliseconds, pegs, the answer's method and status): where time goes."""


def _game(spec: str) -> Game:
    board, start, goal = spec.split(":")
    for g in SHIPPED:
        if (g.board, g.start, g.goal) == (board, start, goal) and g.kind == "winnable":
            return g
    raise SystemExit(f"error: {spec}: not a game shipped with a winnable set")


def _whole(game: Game, problem: Problem) -> Winnable | None:
    """The game's whole winnable set from the build's cache, when it is there (not the shipped part of one)."""
    path = sets_cache() / f"{game.stem}-{key_version(problem)}.bin"
    if not path.is_file():
        return None
    try:
        win = decode(path.read_bytes(), problem)
    except PegError:  # a stale or damaged file: no check against a whole set then
        return None
    return None if isinstance(win, PartialWinnable) else win


def _move(names: list[str]) -> str:
    """A jump as the page's answers name it (from, over, to) in notation: ``d3-d1``."""
    return f"{names[0]}-{names[-1]}"


def _replays(board, problem: Problem, pos: int, line: list[str], where: str) -> list[str]:
    """[] when ``line`` (moves in notation) plays from ``pos`` to the goal, else what went wrong."""
    for jump in parse_moves(board, line):
        pos = apply_jump(pos, jump)
    return [] if line and problem.goal.reached(pos) else \
        [f"{where}: a winnable line does not reach the goal at {board.pegs(pos)} pegs"]


def _ask(request: dict) -> dict:
    job = api.start("never_lose", json.dumps(request))
    while not (out := json.loads(job.step()))["done"]:
        pass
    if "error" in out:
        raise SystemExit(f"error: never_lose refused {request}: {out['error']}")
    return out["result"]


def run_game(spec: str, games: int, seed: int, sample: int) -> dict:
    game = _game(spec)
    problem = game.problem()
    board = problem.board
    files = game_files(game, build.SETS_CACHE, build.SETS_ARTEFACTS)
    if files is None:
        raise SystemExit(f"error: {spec}: no shipped file here (build.py or scripts/make_sets.py makes it)")
    loads = [(f"{kind} file", files[kind][1]) for kind in ("winnable", "ways") if kind in files]
    if game.over_table:  # the page fetches the goal's endgame table with such a set: it answers under the floor
        table = next(g for g in SHIPPED if g.endgame and (g.board, g.goal) == (game.board, game.goal))
        found = game_files(table, build.SETS_CACHE, build.SETS_ARTEFACTS)
        if found is None:
            raise SystemExit(f"error: {spec}: no endgame table for its goal here (build.py makes it)")
        loads.append(("endgame table", found["winnable"][1]))
    shipped = sum(len(data) for _, data in loads)
    for what, data in loads:
        loaded = json.loads(api.load_set(data))
        if "error" in loaded:
            raise SystemExit(f"error: {spec}: the shipped {what} is refused: {loaded['error']}")
    whole = _whole(game, problem)
    rng = random.Random(seed)
    request = {"board": game.board, "start": game.start, "goal": game.goal, "line": False}  # as the page asks
    times, unknown, wrong, positions, slow = [], 0, [], [], []
    methods: dict[str, int] = {}
    for g in range(games):
        moves: list[str] = []
        pos = problem.start
        while True:
            t = time.process_time()
            r = _ask({**request, "moves": moves})
            times.append(time.process_time() - t)
            slow.append((round(times[-1] * 1000, 1), pos.bit_count(), r["method"], r["status"]))
            methods[r["method"]] = methods.get(r["method"], 0) + 1
            unknown += len(r["unknown"]) + (r["status"] == "unknown")
            positions.append((pos, r["status"], list(moves)))
            if r["status"] == "winnable" and r["line"]:
                wrong += _replays(board, problem, pos, r["line"], f"game {g}")
            if whole is not None:
                claims = [(pos, r["status"] == "winnable")] if r["status"] in ("winnable", "lost") else []
                claims += [(apply_jump(pos, j), True) for j in parse_moves(board, [_move(x) for x in r["good"]])]
                bad = [_move(x["jump"]) for x in r["bad"]]
                claims += [(apply_jump(pos, j), False) for j in parse_moves(board, bad)]
                wrong += [f"game {g}: disagrees with the whole set at {board.pegs(p)} pegs"
                          for p, wins in claims if whole.can_win(p) != wins]
            legal = [*r["good"], *(x["jump"] for x in r["bad"]), *(x["jump"] for x in r["unknown"])]
            if r["status"] in ("lost", "over") or not legal:
                break
            jump = rng.choice(r["good"] if r["good"] and rng.random() < GOOD else legal)
            moves.append(_move(jump))
            pos = apply_jump(pos, parse_moves(board, moves[-1:])[0])
    solved = {"checked": 0, "undecided": 0}
    if sample:
        picks = rng.sample(positions, min(sample, len(positions)))
        for pos, status, played in picks:
            if status not in ("winnable", "lost"):
                continue
            if status == "winnable":  # its line, asked as a caller that shows it would
                wrong += _replays(board, problem, pos, _ask({**request, "moves": played, "line": True})["line"],
                                  "asked with its line")
            got = solve(Problem(board, pos, problem.goal), budget=Budget(5.0)).status
            if got == "unknown":
                solved["undecided"] += 1
                continue
            solved["checked"] += 1
            if (got == "solved") != (status == "winnable"):
                wrong.append(f"solve says {got} where the set says {status} at {board.pegs(pos)} pegs")
    ms = sorted(t * 1000 for t in times)
    return {"game": spec, "games": games, "seed": seed, "positions": len(ms), "methods": methods,
            "unknown_jumps": unknown, "median_ms": round(statistics.median(ms), 2),
            "p95_ms": round(percentile(ms, 0.95), 2), "max_ms": round(ms[-1], 2),
            "shipped_bytes": shipped, "files": sorted(name for name, _ in files.values()),
            "checked_against": ("the whole set and " if whole is not None else "")
            + f"solve on {solved['checked']} positions ({solved['undecided']} undecided in 5 s)",
            "disagreements": wrong, "slowest": [list(x) for x in sorted(slow, reverse=True)[:SLOWEST]]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+", help="board:start:goal of a game shipped with a winnable set")
    ap.add_argument("--games", type=int, default=50, dest="count", help="seeded random games per game (50)")
    ap.add_argument("--seed", type=int, default=28)
    ap.add_argument("--solve", type=int, default=40, help="positions checked by solve where no whole set is here")
    ap.add_argument("--out", help="write the rows as JSON to this file (rewritten after each game)")
    args = ap.parse_args(argv)
    rows, load = [], os.getloadavg()
    for spec in args.games:
        row = run_game(spec, args.count, args.seed, args.solve)
        row["load"] = [round(load[0], 1), round(os.getloadavg()[0], 1)]
        row["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        rows.append(row)
        print(json.dumps(row), flush=True)
        if args.out:
            Path(args.out).write_text(json.dumps(rows, indent=1) + "\n")
    return 1 if any(r["disagreements"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
