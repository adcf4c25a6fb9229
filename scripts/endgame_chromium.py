"""Never-lose in the page (Pyodide in headless Chromium) at the positions ``scripts/endgame_tables.py`` measures.

For each game (``BOARD:START:GOAL``): the same seeded positions (``--games`` games from ``--top`` pegs down,
:func:`endgame_tables.positions`), each opened by a link in one page of a fresh profile with never-lose on and the
page's pool of ``--workers`` workers; per position the milliseconds the page itself records from the position's
change to its verdict (the note's ``data-ms``), whether the note says the shipped endgame table answered, and the
verdict.  The shipped table is fetched beside the game's first check, as for a player.  ``--out FILE`` adds each
game's figures to that JSON (``benchmarks/endgame.json``) under ``chromium``; the load average is recorded.

With ``--opening`` the positions are those ``scripts/opening_book.py --measure`` asks about (seeded games from the
start, in the levels of the game's opening book, the committed file in ``sets/``), the note is checked for the
book, and ``--out`` names ``benchmarks/books.json``.

With ``--follow RUN.jsonl --pegs LO HI`` (one game) the positions are those of a ``scripts/neverlose_games.py`` run in
CPython (its games replayed jump by jump) with LO to HI pegs: past the book, where the page searches; per position also
the jump verdicts the page left unknown; ``--out`` names ``benchmarks/books.json`` (the game's list ``chromium_past``,
one entry per run and ``--workers``, beside the CPython run's figures at the same positions).

    python scripts/endgame_chromium.py french:d2:d6 [german:e5:e5 ...] [--games 4] [--top 24] [--dist DIR] [--out FILE]
    python scripts/endgame_chromium.py french:d2:d6 --opening [--games 4] [--out benchmarks/books.json]
    python scripts/endgame_chromium.py french:d2:d6 --follow RUN.jsonl --pegs 23 31 [--out benchmarks/books.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import endgame_tables  # noqa: E402
import opening_book  # noqa: E402
from browser_support import Server, go, wait_ready  # noqa: E402

from pyapp.bench.rows import percentile  # noqa: E402
from pyapp.core.catalogue import get_board  # noqa: E402
from pyapp.core.position import format_position  # noqa: E402
from pyapp.core.problem import make_problem  # noqa: E402

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DONE = ("n => { const el = document.getElementById('neverlose-note'); const d = el.dataset; return d.pegs === String(n)"
        " && ['win', 'lose', 'unknown'].includes(d.verdict) && !el.textContent.includes('checking'); }")


def link(board_id: str, goal: str, text: str) -> str:
    rows = "/".join(line.replace(" ", "") for line in text.splitlines())
    return f"#board={board_id}&pos={rows}&goal={goal}"


def _book(problem):
    from pyapp.exact.openingbook_files import decode_book, file_name

    return decode_book((ROOT / "sets" / file_name(problem)).read_bytes(), problem)


def followed(problem, run: Path, lo: int, hi: int) -> tuple[list[int], list[float]]:
    """The positions of a ``scripts/neverlose_games.py`` run with ``lo`` to ``hi`` pegs (its games replayed from the
    start), and the CPU seconds the run took at each."""
    from pyapp.core.moves import apply_jump

    where, seconds, pos, game = [], [], problem.start, None
    for line in run.read_text().splitlines():
        row = json.loads(line)
        if row["game"] != game:
            pos, game = problem.start, row["game"]
        if lo <= pos.bit_count() <= hi:
            where.append(pos)
            seconds.append(row["s"])
        if row["jump"]:
            pos = apply_jump(pos, tuple(row["jump"]))
    return where, seconds


def measure(browser, dist: Path, spec: str, games: int, top: int, workers: int, opening: bool = False,
            follow: tuple[Path, int, int] | None = None) -> dict:
    board_id, start, goal = spec.split(":")
    problem = make_problem(get_board(board_id), start=start, goal=goal)
    cpython: list[float] = []
    if follow is not None:
        where, cpython = followed(problem, *follow)
    else:
        where = opening_book.opening_positions(problem, _book(problem), games) if opening else \
            endgame_tables.positions(problem, games, top)
    marker = "opening book of this game" if opening else "shipped with the site"
    server = Server(dist)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    rows = []
    try:
        page = context.new_page()
        page.goto(f"{server.url}?workers={workers}#board={board_id}")
        wait_ready(page)
        page.get_by_role("button", name="Never lose").click()
        for pos in where:
            go(page, link(board_id, goal, format_position(problem.board, pos)))
            page.wait_for_function(DONE, arg=pos.bit_count(), timeout=180_000)
            d = page.eval_on_selector("#neverlose-note", "el => ({...el.dataset, text: el.textContent})")
            left = page.evaluate("() => (window.pegLab.store.state.neverlose.result?.unknown ?? []).length")
            rows.append([pos.bit_count(), round(float(d.get("ms") or 0)), d["verdict"],
                         marker in d["text"], left])
    finally:
        context.close()
    ms = sorted(r[1] for r in rows)
    out = {"positions": len(rows), "median_ms": ms[len(ms) // 2], "p95_ms": percentile(ms, 0.95),
           "max_ms": ms[-1], "unknown": sum(r[2] == "unknown" for r in rows), "by_shipped": sum(r[3] for r in rows),
           "unknown_jumps": sum(r[4] for r in rows),
           "fetched": [h for h in server.hits if h.endswith((".endgame.bin", ".book.bin"))], "workers": workers,
           "per_position": rows}
    if follow is not None:
        cs = sorted(cpython)
        out.update(run=str(follow[0].relative_to(ROOT)) if follow[0].is_relative_to(ROOT) else str(follow[0]),
                   pegs=[follow[1], follow[2]], cpython_median=cs[len(cs) // 2],
                   cpython_p95=percentile(cs, 0.95))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+", help="BOARD:START:GOAL")
    ap.add_argument("--games", type=int, default=4, dest="count")
    ap.add_argument("--top", type=int, default=24)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--dist", type=Path, default=ROOT / "dist")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--opening", action="store_true", help="the opening book's positions (module docstring)")
    ap.add_argument("--follow", type=Path, help="a scripts/neverlose_games.py run whose positions to open")
    ap.add_argument("--pegs", nargs=2, type=int, metavar=("LO", "HI"), default=(1, 99))
    args = ap.parse_args()
    if args.follow and len(args.games) != 1:
        ap.error("--follow measures one game")
    follow = (args.follow.resolve(), *args.pegs) if args.follow else None
    from playwright.sync_api import sync_playwright

    load = [os.getloadavg()[0]]
    found = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
        try:
            for spec in args.games:
                found[spec] = measure(browser, args.dist, spec, args.count, args.top, args.workers, args.opening,
                                      follow)
                print(spec, json.dumps({k: v for k, v in found[spec].items() if k != "per_position"}), flush=True)
        finally:
            browser.close()
    load.append(os.getloadavg()[0])
    if args.out:
        record = json.loads(args.out.read_text())
        stamp = {"load": [round(x, 1) for x in load], "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                 "command": "python scripts/endgame_chromium.py " + " ".join(sys.argv[1:])}
        for spec, figures in found.items():
            if args.opening or follow:  # books.json: games by name
                board_id, start, goal = spec.split(":")
                name = opening_book.game_name(make_problem(get_board(board_id), start=start, goal=goal))
                game = record["games"].setdefault(name, {})
                if follow:  # one entry per run and number of workers, the latest kept
                    game["chromium_past"] = [c for c in game.get("chromium_past", [])
                                             if (c["run"], c["workers"]) != (figures["run"], figures["workers"])]
                    game["chromium_past"].append({**figures, **stamp})
                else:
                    game["chromium"] = {**figures, **stamp}
            for game in [] if args.opening or follow else record["games"]:
                if game["game"] == spec:
                    game["chromium"] = {**figures, **stamp}
        args.out.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
