"""Compute whole single-vacancy tables in Pyodide inside headless Chromium, one board at a time.

Builds the site with ``build.py`` (into a temporary folder; ``--dist DIR`` serves an existing
build), then for each board opens ``bench.html?table=BOARD&problem_seconds=N`` in Debian's
Chromium through Playwright (a new page each: one board at a time, nothing else running in
that worker) and collects the table the page's worker computes (the page's own ``table``
request, :mod:`pyapp.analysis.table`).  Every answer is checked here in CPython: each solution is
replayed (:func:`pyapp.core.game.replay`) to its finishing hole, each position-class proof re-derived.
Progress goes to stderr, a Markdown table (or ``--json``) to stdout.

    python scripts/table_chromium.py english french triangle5 [--problem-seconds 25] [--out FILE]

Exit code 1 when an answer does not check.  Times are the worker's wall clock (Chromium gives
no CPU time): the load average at the start and end of each board is printed next to them, and
the WebAssembly heap after the table (it only grows: a bound on the peak of every problem).
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

from bench_chromium import CHROMIUM, CHROMIUM_ARGS, STATE, served_site  # noqa: E402

from pyapp.core.catalogue import get_board  # noqa: E402
from pyapp.core.game import replay  # noqa: E402


def summarise(board_id: str, table: dict) -> dict:
    """Counts as in BENCHMARKS.md (class-allowed, beyond-class impossible, unknown), and the checks."""
    board = get_board(board_id)
    out = {"board": board_id, "cells": len(table["cells"]), "allowed": 0, "solved": 0, "impossible_beyond_class": 0,
           "impossible_class": 0, "unknown": [], "wrong": [], "seconds": table["seconds"],
           "cancelled": table["cancelled"], "slowest": None, "heap_mb": table.get("wasm_heap_mb")}
    slowest = 0.0
    for c in table["cells"]:
        start = board.start(c["start"])
        hole = 1 << board.hole(c["finish"])
        allowed = board.position_class(start) == board.position_class(hole)
        out["allowed"] += allowed
        name = f"{c['start']}->{c['finish']}"
        if c["seconds"] > slowest:
            slowest, out["slowest"] = c["seconds"], f"{name} {c['seconds']:.2f} s ({c['status']})"
        if c["status"] == "solved":
            out["solved"] += 1
            rep = replay(board, start, c["moves"])
            if not rep.valid or rep.final != hole:
                out["wrong"].append(f"{name}: the solution does not replay ({rep.error})")
        elif c["status"] == "impossible":
            if allowed:
                out["impossible_beyond_class"] += 1
            else:
                out["impossible_class"] += 1
        else:
            out["unknown"].append(name)
        if not allowed and c["status"] != "impossible":
            out["wrong"].append(f"{name}: the position class rules it out, yet it is {c['status']}")
    return out


def run_board(page, base: str, board: str, seconds: float, timeout: float) -> dict:
    page.goto(f"{base}/bench.html?table={board}&problem_seconds={seconds}")
    load = os.getloadavg()[0]
    deadline = time.monotonic() + timeout
    last = ""
    while True:
        state = page.evaluate(STATE)
        if state in ("done", "failed"):
            break
        p = page.evaluate("window.benchProgress || null")
        if p and p.get("problem") != last:
            last = p.get("problem")
            print(f"table {board}: {p['done']} of {p['total']} done, now {last}, {p['seconds']:.0f} s",
                  file=sys.stderr, flush=True)
        if time.monotonic() > deadline:
            raise SystemExit(f"the {board} table did not finish within {timeout} s")
        time.sleep(2.0)
    result = page.evaluate("window.benchResult")
    if result.get("error"):
        raise SystemExit(f"the {board} table failed in Chromium: {result['error']}")
    summary = summarise(board, result["table"])
    summary.update(load_start=round(load, 1), load_end=round(os.getloadavg()[0], 1),
                   date=result["environment"]["date"], problem_seconds=seconds)
    return summary


def markdown(rows: list[dict]) -> str:
    lines = ["| board | cells | class-allowed | solved | impossible (beyond class) | unknown | table wall time "
             "| slowest problem | wasm heap after | load avg |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        unknown = f"{len(r['unknown'])}" + (f" ({', '.join(r['unknown'])})" if r["unknown"] else "")
        heap = "-" if r.get("heap_mb") is None else f"{r['heap_mb']:.0f} MB"
        lines.append(f"| {r['board']} | {r['cells']} | {r['allowed']} | {r['solved']} | "
                     f"{r['impossible_beyond_class']} | {unknown} | {r['seconds']:.1f} s | {r['slowest']} | "
                     f"{heap} | {r['load_start']}-{r['load_end']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("boards", nargs="+", help="catalogue ids, computed one at a time in this order")
    parser.add_argument("--problem-seconds", type=float, default=25.0,
                        help="budget of each start/finish problem (default 25: about 10 s of CPython in Pyodide)")
    parser.add_argument("--dist", help="serve this existing build instead of building into a temporary folder")
    parser.add_argument("--timeout", type=float, default=7200, help="seconds to wait for one board")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--out", help="also save the rows as JSON to this file (rewritten after each board)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    rows: list[dict] = []
    with served_site(args.dist, "table") as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        for board in args.boards:
            page = browser.new_context().new_page()
            row = run_board(page, base, board, args.problem_seconds, args.timeout)
            row["chromium"] = browser.version
            rows.append(row)
            page.context.close()
            print(f"table {board}: {row['solved']} solved, {row['impossible_beyond_class']} + "
                  f"{row['impossible_class']} impossible, {len(row['unknown'])} unknown in "
                  f"{row['seconds']:.1f} s", file=sys.stderr, flush=True)
            if args.out:
                Path(args.out).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
        browser.close()
    print(json.dumps(rows) if args.json else markdown(rows))
    wrong = [w for r in rows for w in r["wrong"]]
    for w in wrong:
        print(f"WRONG: {w}", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
