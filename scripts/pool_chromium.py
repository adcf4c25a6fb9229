"""Time an exact count, a whole-board table or "where can one peg finish?" in headless Chromium on one engine
worker and on the page's pool of N workers.

Builds the site (``--dist DIR`` uses an existing build), serves it on 127.0.0.1 and opens the app
(``index.html?workers=N``) in Debian's Chromium.  It starts the pool with one untimed count (of
``--warm``'s game, small by default, so the pool's start-up is not timed), then
counts the same game ``--repeat`` times on 1 worker (the page's engine, no pool) and on N pool
workers, alternating, in the same page, and prints JSON: the wall seconds of each run (click to
answer, as the page shows it), the medians, the ratio (1-worker median / pool median), the answers
(which must agree) and the machine's load average before and after.

    python scripts/pool_chromium.py [--board triangle6] [--workers 2] [--repeat 3] [--warm triangle5]
                                    [--dist DIR] [--out FILE]
    python scripts/pool_chromium.py --table --board asymmetric [--workers 2] [--repeat 3]

``--table`` times the whole-board table instead (its starts side by side on the pool; the browser's
stored copy is cleared before each run): the answers compared are the table's counts.

    python scripts/pool_chromium.py --finishes --board "triangle8&start=1" [--workers 2] [--repeat 3]

``--finishes`` times "Where can one peg finish?" (``--board`` is the game's fragment; on the pool the
exhaustive method runs first in the page's engine worker, the solver method's hole shares side by side):
the answers compared are the holes by verdict.  Each finishes run is in a freshly loaded page (the
engine's table of proved positions would answer a repeated run at once), after the untimed warm-up game.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "scripts"))

from bench_chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (the browser, launched as for the bench)

import build  # noqa: E402  (the project's build script, at the repository root)

DONE = "() => /jump sequences|no answer/.test(document.querySelector('#analysis').textContent)"


def new_game(page, game: str, size: int) -> None:
    """Set the pool's size (1: no pool) and open ``game`` (a fragment) as a new game (a hashchange)."""
    page.evaluate("n => window.pegLab.store.do('pool/set', {size: n})", size)
    for fragment in ("#board=triangle4", f"#board={game}"):
        before = page.evaluate("window.pegLab.states")
        page.evaluate("f => { location.hash = f; }", fragment)
        page.wait_for_function("n => window.pegLab.states > n && !window.pegLab.store.state.task", arg=before)


def count_once(page, board: str, size: int) -> dict:
    """One count of ``board``'s default game on ``size`` workers (1: no pool): wall seconds and the answer."""
    new_game(page, board, size)
    page.evaluate("document.querySelector('#analysis').textContent = ''")
    t0 = time.perf_counter()
    page.get_by_role("button", name="Count all solutions").click()
    page.wait_for_function(DONE, timeout=3_600_000, polling=50)
    wall = time.perf_counter() - t0
    r = page.evaluate("window.pegLab.exact")
    out = {"workers": r.get("workers"), "wall_seconds": round(wall, 3), "engine_seconds": r["seconds"],
           "solutions": r["solutions"], "positions": r["positions"]}
    levels = r.get("level_stats")
    if levels:  # where a pooled run's time goes: the levels' wall time against the steps' own time
        out["levels"] = {"count": len(levels), "seconds": round(sum(lv["seconds"] for lv in levels), 3),
                         "slowest_shard_seconds": round(sum(max(lv["shard_seconds"]) for lv in levels), 3),
                         "shard_seconds": round(sum(sum(lv["shard_seconds"]) for lv in levels), 3),
                         "bytes_moved": sum(lv["bytes"] for lv in levels)}
    return out


TABLE_DONE = "() => { const t = window.pegLab.store.state.table; return !!t.result && !t.progress; }"


def table_once(page, board: str, size: int) -> dict:
    """One whole-board table of ``board`` on ``size`` workers (1: the page's engine alone)."""
    page.evaluate("() => localStorage.clear()")  # no stored table: computed every time
    new_game(page, board, size)
    page.get_by_role("button", name="Whole-board table").click()
    page.wait_for_function("() => !document.getElementById('table-panel').hidden")
    t0 = time.perf_counter()
    page.click("#table-compute")
    page.wait_for_function(TABLE_DONE, timeout=3_600_000, polling=50)
    wall = time.perf_counter() - t0
    r = page.evaluate("window.pegLab.store.state.table.result")
    c = r["counts"]
    # "solutions"/"positions" carry the table's answer, so the runs' agreement is checked as for a count
    return {"workers": r.get("workers", 1), "wall_seconds": round(wall, 3), "engine_seconds": r["seconds"],
            "solutions": c["solved"], "positions": f"{c['impossible']} impossible, {c['unknown']} unknown"}


FINISHES_DONE = "() => !window.pegLab.store.state.task && window.pegLab.store.state.finishes.shown"


def finishes_once(page, game: str, size: int) -> dict:
    """One "Where can one peg finish?" of the game ``game`` (a fragment) on ``size`` workers (1: no pool)."""
    new_game(page, game, size)
    t0 = time.perf_counter()
    page.get_by_role("button", name="Where can one peg finish?", exact=True).click()
    page.wait_for_function(FINISHES_DONE, timeout=3_600_000, polling=50)
    wall = time.perf_counter() - t0
    holes = page.evaluate("window.pegLab.store.state.finishes.holes")
    by = {v: sorted(h for h, w in holes.items() if w == v) for v in ("yes", "no", "unknown")}
    return {"workers": page.evaluate("window.pegLab.store.state.pool.ran"), "wall_seconds": round(wall, 3),
            "engine_seconds": None, "solutions": " ".join(by["yes"]),
            "positions": f"{len(by['no'])} impossible, unknown: {' '.join(by['unknown'])}"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="triangle6")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--warm", default=None, help="the game run once on the pool first, untimed (default: "
                    "triangle5; triangle7&start=4 with --finishes, which takes the solver method)")
    ap.add_argument("--table", action="store_true", help="time the whole-board table instead of a count")
    ap.add_argument("--finishes", action="store_true", help="time 'where can one peg finish?' instead of a count")
    ap.add_argument("--dist", default=None)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    tmp = None
    if args.dist:
        dist = Path(args.dist).resolve()
    else:
        tmp = tempfile.TemporaryDirectory(prefix="peg-pool-dist-")
        dist = Path(tmp.name) / "dist"
        build.build(dist)
    server = build.make_server(dist, 0, verbose=False)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/?workers={args.workers}"
    load_before = os.getloadavg()
    runs: list[dict] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_context(bypass_csp=True).new_page()
            page.on("dialog", lambda dialog: dialog.accept())

            def load() -> None:
                page.goto(url)
                page.wait_for_function("() => window.pegLab && window.pegLab.timings.firstBoard", timeout=120_000)
                page.evaluate("document.querySelector('#count-all').closest('details').open = true")

            load()
            once = table_once if args.table else finishes_once if args.finishes else count_once
            warm_game = args.warm or ("triangle7&start=4" if args.finishes else "triangle5")
            warm = once(page, warm_game, args.workers)  # starts the pool: not timed
            print(f"warm-up (pool start included): {warm}", file=sys.stderr)
            for i in range(args.repeat):
                for size in (1, args.workers) if i % 2 == 0 else (args.workers, 1):
                    if args.finishes and (i or size != args.workers):
                        # a fresh page: no proved positions kept from the last run (they answer at once);
                        # the pool started (untimed) by the warm-up game
                        load()
                        once(page, warm_game, size)
                    run = once(page, args.board, size)
                    print(run, file=sys.stderr)
                    runs.append(run)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
        if tmp:
            tmp.cleanup()
    one = [r["wall_seconds"] for r in runs if r["workers"] == 1]
    many = [r["wall_seconds"] for r in runs if r["workers"] == args.workers]
    answers = {(r["solutions"], r["positions"]) for r in runs}
    analysis = "table" if args.table else "finishes" if args.finishes else "count"
    out = {"analysis": analysis, "board": args.board, "workers": args.workers, "repeat": args.repeat,
           "cpu_count": os.cpu_count(),
           "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in os.getloadavg()],
           "median_seconds_1": statistics.median(one), f"median_seconds_{args.workers}": statistics.median(many),
           "speedup": round(statistics.median(one) / statistics.median(many), 3),
           "answers_agree": len(answers) == 1, "runs": runs, "warm_up": warm}
    text = json.dumps(out, indent=2)
    if args.out:
        Path(args.out).write_text(text + "\n")
    print(text)
    return 0 if len(answers) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
