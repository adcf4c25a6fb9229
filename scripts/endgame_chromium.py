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

    python scripts/endgame_chromium.py french:d2:d6 [german:e5:e5 ...] [--games 4] [--top 24] [--dist DIR] [--out FILE]
    python scripts/endgame_chromium.py french:d2:d6 --opening [--games 4] [--out benchmarks/books.json]
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


def measure(browser, dist: Path, spec: str, games: int, top: int, workers: int, opening: bool = False) -> dict:
    board_id, start, goal = spec.split(":")
    problem = make_problem(get_board(board_id), start=start, goal=goal)
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
            rows.append([pos.bit_count(), round(float(d.get("ms") or 0)), d["verdict"],
                         marker in d["text"]])
    finally:
        context.close()
    ms = sorted(r[1] for r in rows)
    return {"positions": len(rows), "median_ms": ms[len(ms) // 2], "p95_ms": ms[min(len(ms) - 1, int(0.95 * len(ms)))],
            "max_ms": ms[-1], "unknown": sum(r[2] == "unknown" for r in rows), "by_shipped": sum(r[3] for r in rows),
            "fetched": [h for h in server.hits if h.endswith((".endgame.bin", ".book.bin"))], "workers": workers,
            "per_position": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+", help="BOARD:START:GOAL")
    ap.add_argument("--games", type=int, default=4, dest="count")
    ap.add_argument("--top", type=int, default=24)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--dist", type=Path, default=ROOT / "dist")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--opening", action="store_true", help="the opening book's positions (module docstring)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    load = [os.getloadavg()[0]]
    found = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
        try:
            for spec in args.games:
                found[spec] = measure(browser, args.dist, spec, args.count, args.top, args.workers, args.opening)
                print(spec, json.dumps({k: v for k, v in found[spec].items() if k != "per_position"}), flush=True)
        finally:
            browser.close()
    load.append(os.getloadavg()[0])
    if args.out:
        record = json.loads(args.out.read_text())
        stamp = {"load": [round(x, 1) for x in load], "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                 "command": "python scripts/endgame_chromium.py " + " ".join(sys.argv[1:])}
        for spec, figures in found.items():
            if args.opening:  # books.json: games by name
                board_id, start, goal = spec.split(":")
                name = opening_book.game_name(make_problem(get_board(board_id), start=start, goal=goal))
                record["games"].setdefault(name, {})["chromium"] = {**figures, **stamp}
            for game in [] if args.opening else record["games"]:
                if game["game"] == spec:
                    game["chromium"] = {**figures, **stamp}
        args.out.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
