"""Never-lose from the sets shipped from a level up, in Pyodide inside headless Chromium.

For each named game of :data:`pyapp.web.sets.SHIPPED` shipped from a level up (``Game.floor``,
:mod:`pyapp.exact.partial`): the page's engine worker is asked ``never_lose`` first at the game's start (the
worker fetches the game's set file, decodes it and answers: that first call's wall milliseconds), then at every
position of seeded games (half of them playing a random winnable jump while one is left, half any random jump,
as ``scripts/measure_sets.py --floors`` does) whose answer needs the search between the shipped levels and
their complements (or the shipped low levels).
Per game: the answers' milliseconds as Python in the worker measures them (the JSON's
``seconds``) and as the page sees them (the request's round trip): median, p95 and max, and the CPU seconds
of the whole browser over those answers (from /proc); every answer must be ``method: exact``.  The worker
keeps its search's verdicts across answers, as in play.  The load average is printed before and after;
``--out FILE`` adds each game's figures to that JSON (``benchmarks/sets.json``) under ``chromium``.

    python scripts/sets_chromium.py english-c1-c1 [english-c3-c3 ...] [--games 40] [--dist DIR] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_chromium import CHROMIUM, CHROMIUM_ARGS, served_site  # noqa: E402
from neverlose_chromium import browser_cpu_seconds  # noqa: E402

from pyapp.core.moves import apply_jump, legal_jumps  # noqa: E402
from pyapp.exact.partial import PartialWinnable  # noqa: E402
from pyapp.exact.store import decode  # noqa: E402
from pyapp.web.sets import SHIPPED, Game, file_name  # noqa: E402

ASK = """async ([args]) => {
  if (!window.__engine) {
    const { Engine } = await import(new URL("static/engine/protocol.mjs", location.href).href);
    window.__engine = new Engine(new URL("static/engine/worker.mjs", location.href));
  }
  const engine = window.__engine;
  await engine.ready;
  const t0 = performance.now();
  const out = await engine.request("never_lose", args).promise;
  return { ms: performance.now() - t0, seconds: out.seconds, status: out.status, method: out.method };
}"""


def asked(game: Game, games: int, seed: int) -> list[list[str]]:
    """The moves to every position of seeded games whose answer needs the search (see the module docstring)."""
    problem = game.problem()
    board = problem.board
    win = decode((ROOT / "sets" / file_name(game)).read_bytes(), problem)
    rng, out = random.Random(seed), []
    assert game.floor is not None and isinstance(win, PartialWinnable)
    for k in range(games):
        pos, moves = problem.start, []
        while jumps := legal_jumps(board, pos):
            if win.low < pos.bit_count() <= game.floor:
                out.append(list(moves))
            good = [j for j in jumps if win.can_win(apply_jump(pos, j))] if k % 2 == 0 else []
            jump = rng.choice(good or jumps)
            moves.append(f"{board.name_of[jump[0]]}-{board.name_of[jump[2]]}")
            pos = apply_jump(pos, jump)
    return out


def _stats(values: list[float]) -> dict:
    ordered = sorted(values)
    return {"p50": round(statistics.median(ordered), 1), "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 1),
            "max": round(ordered[-1], 1)}


def run_game(page, game: Game, games: int, seed: int) -> dict:
    args = {"board": game.board, "start": game.start, "goal": game.goal}
    first = page.evaluate(ASK, [{**args, "moves": []}])
    if first["method"] != "exact":
        raise SystemExit(f"{game.stem}: the first answer is not from the set ({first})")
    python_ms, page_ms = [], []
    cpu = browser_cpu_seconds()
    for moves in asked(game, games, seed):
        r = page.evaluate(ASK, [{**args, "moves": moves}])
        if r["method"] != "exact":
            raise SystemExit(f"{game.stem}: an answer not from the set after {moves}: {r}")
        python_ms.append(r["seconds"] * 1e3)
        page_ms.append(r["ms"])
    return {"game": game.stem, "from": game.floor, **({"upto": game.upto} if game.upto else {}),
            "first_ms": round(first["ms"]), "answers": len(python_ms),
            "python_ms": _stats(python_ms), "page_ms": _stats(page_ms),
            "browser_cpu_s": round(browser_cpu_seconds() - cpu, 1)}


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", help="board-start-goal of games shipped from a level up")
    parser.add_argument("--games", type=int, default=40, dest="count", help="seeded games per game (default 40)")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--dist", help="serve this existing build instead of building into a temporary folder")
    parser.add_argument("--out", help="a JSON written by measure_sets.py: add each game's figures to its row")
    args = parser.parse_args(argv)
    chosen = {g.stem: g for g in SHIPPED if g.floor is not None}
    unknown = [name for name in args.games if name not in chosen]
    if unknown:
        print(f"not a game shipped from a level up: {', '.join(unknown)}", file=sys.stderr)
        return 2
    print(f"load average before: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    rows = []
    with served_site(args.dist, "sets") as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name in args.games:
            page = browser.new_page()  # a fresh worker per game: its first answer fetches and decodes the set
            page.goto(base)
            rows.append(run_game(page, chosen[name], args.count, args.seed))
            print(json.dumps(rows[-1]), flush=True)
            page.close()
        browser.close()
    load = os.getloadavg()[0]
    print(f"load average after: {load:.1f}", file=sys.stderr)
    if args.out:
        with open(args.out, encoding="utf-8") as f:
            data = json.load(f)
        for row in rows:
            for game in data["games"]:
                if f"{game['board']}-{game['start']}-{game['goal']}" == row["game"]:
                    game["chromium"] = {**{k: v for k, v in row.items() if k != "game"}, "load": round(load, 1)}
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
