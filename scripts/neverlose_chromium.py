"""Never-lose over seeded random games in headless Chromium: the page's pool of N workers against one.

The Chromium side of the ``neverlose-play-*`` rows (:mod:`pyapp.bench.game_rows`), with their method: seeded
random games of one game of the catalogue, the next jump one the check filed good with probability 0.8
(else any legal jump), a game over when no jump is left or a position is lost.  The games are played in the
app page with never-lose on (clicks on the board, as a player plays): first in a page opened with
``?workers=N`` (the check's questions side by side on N pool workers, merged in the engine worker:
``static/panels/neverpool.mjs``), choosing the moves; then the same moves in a page with ``?workers=1`` (the
engine worker alone).  Both pages stay open for the whole row (each keeps its engine's game-long table of
proved positions across the games, as the CPython rows keep theirs), the two alternate game by game (so a
change of the machine's load hits both), and each is warmed first by an untimed check on triangle 7 (which
also starts the pool).

Per page and row: positions, jump verdicts left unknown (and positions left unknown), wall seconds per
position as the page measures them (from the position's change to the check's answer: median, p95, max),
the nodes searched, and the CPU seconds of the whole browser over the row's games (every process under
this script, from /proc: Chromium gives no per-request CPU time).  The verdicts of the two pages are
compared at every position: 0 disagreements (a jump good in one and bad in the other, or a position
winnable in one and lost in the other).  The load average is printed before and after.

    python scripts/neverlose_chromium.py french:d2:d6 german:e5:e5 [--games 2] [--workers 2] [--dist DIR]
                                        [--seed 28] [--out FILE] [--further] [--positions]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_chromium import CHROMIUM, CHROMIUM_ARGS, served_site  # noqa: E402

from pyapp.bench.rows import percentile  # noqa: E402

GOOD = 0.8
NOTE = "document.getElementById('neverlose-note').dataset"
WARM = "#board=triangle7&start=4&goal=any&moves=1-4,6-1,4-6"
"""The untimed first check (a search: past triangle 7's opening book) that warms a page and starts its pool."""
DONE = ("() => { const d = document.getElementById('neverlose-note').dataset;"
        " const nl = window.pegLab.store.state.neverlose;"
        " return !nl.checking && nl.result && ['win', 'lose', 'unknown'].includes(d.verdict) ? d.pegs : null; }")


def browser_cpu_seconds() -> float:
    """CPU seconds (user + system) used so far by every live process under this one (the browser's)."""
    parent: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(entry)] = int(fields[1])
        ticks[int(entry)] = int(fields[11]) + int(fields[12])
    me, total = os.getpid(), 0
    for pid in ticks:
        p = pid
        while p in parent and p not in (me, 0, 1):
            p = parent[p]
        if p == me and pid != me:
            total += ticks[pid]
    return total / os.sysconf("SC_CLK_TCK")


def wait_answer(page, pegs: int, timeout: float = 600.0) -> dict:
    """The never-lose answer for the position shown (``pegs`` pegs), polled (the page's CSP refuses string
    predicates in wait_for_function)."""
    deadline = time.monotonic() + timeout
    while page.evaluate(DONE) != str(pegs):
        if time.monotonic() > deadline:
            raise SystemExit(f"no never-lose answer within {timeout} s at {pegs} pegs")
        time.sleep(0.05)
    return page.evaluate("window.pegLab.store.state.neverlose.result")


def open_page(browser, base: str, workers: int):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    page.goto(f"{base}/?workers={workers}{WARM}")
    deadline = time.monotonic() + 300
    while not page.evaluate("!!(window.pegLab && window.pegLab.timings.firstBoard && window.pegLab.store"
                            " && window.pegLab.store.state.engine.status === 'idle')"):
        if time.monotonic() > deadline:
            raise SystemExit("the page did not get ready within 300 s")
        time.sleep(0.2)
    page.get_by_role("button", name="Never lose").click()
    wait_answer(page, pegs(page))
    return page


def pegs(page) -> int:
    return int(page.evaluate("window.pegLab.store.state.board.pegs.length"))


def new_game(page, fragment: str) -> None:
    before = page.evaluate("window.pegLab.states")
    page.evaluate("f => { location.hash = f; }", fragment)
    while page.evaluate("window.pegLab.states") <= before:
        time.sleep(0.05)


def wait_further(page, first: dict, timeout: float = 120.0) -> dict:
    """After an answer with undecided jumps: the answer of the check that goes on while the position stays shown
    (``FURTHER_SECONDS``), with ``first_unknown`` (the first answer's undecided jumps)."""
    deadline = time.monotonic() + timeout
    while page.evaluate("window.pegLab.store.state.neverlose.further") is not None:
        if time.monotonic() > deadline:
            raise SystemExit(f"the further check did not end within {timeout} s")
        time.sleep(0.1)
    return {**page.evaluate("window.pegLab.store.state.neverlose.result"), "first_unknown": len(first["unknown"])}


def play(page, fragment: str, moves: list[list[str]] | None, rng: random.Random | None,
         further: bool = False) -> tuple[list, list]:
    """One game: the given moves, or (``moves`` None) moves chosen by ``rng`` from the answers.  Returns
    (the answers, one per position; the moves played).  ``further``: where an answer leaves jumps undecided, the
    further check's answer is waited for and kept too (``further`` in the answer)."""
    new_game(page, fragment)
    answers, played = [], []
    while True:
        n = pegs(page)
        r = {**wait_answer(page, n), "pegs": n}
        if further and page.evaluate("window.pegLab.store.state.neverlose.further") is not None:
            r = {**r, "further": wait_further(page, r)}
        answers.append(r)
        legal = page.evaluate("window.pegLab.store.state.board.legal")
        if moves is not None:
            if len(played) == len(moves):
                break
            jump = moves[len(played)]
        else:
            if r["status"] in ("lost", "over") or not legal:
                break
            assert rng is not None
            jump = rng.choice(r["good"] if r["good"] and rng.random() < GOOD else legal)
        n = pegs(page)
        page.click(f"[data-hole='{jump[0]}']")
        page.click(f"[data-hole='{jump[2]}']")
        while pegs(page) != n - 1:
            time.sleep(0.02)
        played.append(jump)
    return answers, played


def summary(answers: list[dict], cpu: float) -> dict:
    times = sorted(a["ms"] / 1000 for a in answers)
    return {"positions": len(answers), "unknown_jumps": sum(len(a["unknown"]) for a in answers),
            "unknown_positions": sum(a["status"] == "unknown" for a in answers),
            "median_s": round(statistics.median(times), 3), "p95_s": round(percentile(times, 0.95), 3),
            "max_s": round(times[-1], 3), "nodes": sum(a["nodes"] or 0 for a in answers),
            "browser_cpu_s": round(cpu, 1), "on_pool": sum((a.get("workers") or 1) > 1 for a in answers),
            **further_summary([a["further"] for a in answers if "further" in a])}


def further_summary(later: list[dict]) -> dict:
    """The further checks' figures (none without ``--further``): positions, the jumps they left undecided of those
    the first answers left, and their wall seconds from the position's change."""
    if not later:
        return {}
    return {"further_positions": len(later), "further_unknown_before": sum(a["first_unknown"] for a in later),
            "further_unknown_after": sum(len(a["unknown"]) for a in later),
            "further_max_s": round(max(a["ms"] for a in later) / 1000, 3)}


def disagreements(a: list[dict], b: list[dict]) -> list[str]:
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if {x["status"], y["status"]} == {"winnable", "lost"}:
            out.append(f"position {i}: {x['status']} against {y['status']}")
        good = {tuple(j) for j in x["good"]} | {tuple(j) for j in y["good"]}
        bad = {tuple(j["jump"]) for j in x["bad"]} | {tuple(j["jump"]) for j in y["bad"]}
        out += [f"position {i}: {'-'.join(j)} good in one, bad in the other" for j in sorted(good & bad)]
    return out


def per_position(pool: list[dict], one: list[dict]) -> list[dict]:
    """The two pages' answers side by side, position by position (``--positions``): where one path is slower."""
    return [{"pegs": a["pegs"], "pool_ms": a["ms"], "one_ms": b["ms"], "pool_unknown": len(a["unknown"]),
             "one_unknown": len(b["unknown"]), "pool_workers": a.get("workers") or 1, "method": b.get("method")}
            for a, b in zip(pool, one)]


def run_row(browser, base: str, game: str, games: int, workers: int, seed: int, further: bool = False,
            positions: bool = False) -> dict:
    board, start, goal = game.split(":")
    fragment = f"#board={board}&start={start}&goal={goal}"
    pool, one = open_page(browser, base, workers), open_page(browser, base, 1)
    rng = random.Random(seed)
    load = os.getloadavg()
    got: dict[str, list] = {"pool": [], "one": []}
    cpu = {"pool": 0.0, "one": 0.0}
    wrong: list[str] = []
    for g in range(games):
        t = browser_cpu_seconds()
        a, moves = play(pool, fragment, None, rng)
        cpu["pool"] += browser_cpu_seconds() - t
        t = browser_cpu_seconds()
        b, _ = play(one, fragment, moves, None, further)
        cpu["one"] += browser_cpu_seconds() - t
        got["pool"] += a
        got["one"] += b
        wrong += [f"game {g}, {w}" for w in disagreements(a, b)]
        print(f"{game} game {g}: {len(moves)} moves; {workers} workers {summary(a, 0)}; one {summary(b, 0)}",
              file=sys.stderr, flush=True)
    errors = pool.errors + one.errors
    pool.context.close()
    one.context.close()
    return {"game": game, "games": games, "seed": seed, "workers": workers,
            "pool": summary(got["pool"], cpu["pool"]), "one": summary(got["one"], cpu["one"]),
            "disagreements": wrong, "page_errors": errors, "load_before": [round(x, 1) for x in load],
            "load_after": [round(x, 1) for x in os.getloadavg()],
            **({"positions": per_position(got["pool"], got["one"])} if positions else {})}


def game_arguments(parser: argparse.ArgumentParser, games: int) -> None:
    """The arguments every never-lose Chromium script takes: the games, how many of each, the pool, the site."""
    parser.add_argument("games", nargs="+", help="board:start:goal, e.g. french:d2:d6")
    parser.add_argument("--games", type=int, default=games, dest="count", help=f"seeded random games per row ({games})")
    parser.add_argument("--workers", type=int, default=2, help="the pool's size (2)")
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--dist", help="serve this existing build instead of building into a temporary folder")
    parser.add_argument("--out", help="also save the rows as JSON to this file (rewritten after each row)")


def run_rows(args: argparse.Namespace, label: str, row_of: Callable[[Any, str, str], dict]) -> list[dict]:
    """``row_of(browser, base URL, game)`` for each game of ``args`` in one headless Chromium on the served site,
    with the browser's version; saved to ``--out`` after each row, printed as JSON at the end."""
    from playwright.sync_api import sync_playwright

    rows = []
    with served_site(args.dist, label) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        for game in args.games:
            row = row_of(browser, base, game)
            row["chromium"] = browser.version
            rows.append(row)
            if args.out:
                Path(args.out).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
        browser.close()
    print(json.dumps(rows, indent=1))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    game_arguments(parser, 2)
    parser.add_argument("--further", action="store_true",
                        help="in the one-worker page, wait where an answer leaves jumps undecided for the check that "
                             "goes on (static/panels/neverlose.mjs, FURTHER_SECONDS) and report what it decided")
    parser.add_argument("--positions", action="store_true",
                        help="also save each position's pegs, wall ms and unknown verdicts in both pages")
    args = parser.parse_args(argv)
    rows = run_rows(args, "neverlose", lambda browser, base, game: run_row(
        browser, base, game, args.count, args.workers, args.seed, args.further, args.positions))
    return 1 if any(r["disagreements"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
