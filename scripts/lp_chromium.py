"""Time the page's linear programmes in Chromium: the first proof that needs one (HiGHS's WebAssembly fetched
and compiled by the engine worker) against the next ones (HiGHS loaded).

Serves a build (``--dist DIR``, or a fresh one in a temporary folder), opens the app with the service worker
blocked (a cold first visit), and solves Diamond 41 cells that only pagoda separation settles, one after the
other, each a linear programme or two, then d2 -> f8 and an image of it, which the page answers from the book
(:mod:`pyapp.proofs.book`: the integer programme's proof).  Prints JSON: per cell the answer, the first words of
its proof, the engine's seconds and the seconds from the click to the answer, and when HiGHS's file was requested.

    python scripts/lp_chromium.py [--dist dist] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_chromium import CHROMIUM, CHROMIUM_ARGS, served_site  # noqa: E402

CELLS = ("e1&goal=e9", "e1&goal=b6", "d2&goal=i5", "e3&goal=e1", "d2&goal=f8", "h4&goal=b6")
"""Diamond 41 cells settled by pagoda separation (the first pays for loading HiGHS), then d2 -> f8 and its image
h4 -> b6, which the page answers from the book (the integer programme's proof, minutes in CPython)."""


def run_once(browser, url: str) -> list[dict]:
    context = browser.new_context(service_workers="block")
    asked: list[float] = []
    context.on("request", lambda r: asked.append(time.perf_counter()) if r.url.endswith("/highs/highs.wasm") else None)
    page = context.new_page()
    page.goto(f"{url}/#board=diamond41&start=e1&goal=e9")
    page.wait_for_function("() => window.pegLab && window.pegLab.timings.engineReady", timeout=180_000)
    out = []
    for cell in CELLS:
        page.evaluate("f => { location.hash = f; }", f"#board=diamond41&start={cell}")
        page.wait_for_timeout(300)
        before = page.evaluate("window.pegLab.solves.length")
        page.select_option("#budget", "10")
        clicked = time.perf_counter()
        page.click("#solve")
        page.wait_for_function("n => window.pegLab.solves.length > n", arg=before, timeout=120_000)
        s = page.evaluate("window.pegLab.solves[window.pegLab.solves.length - 1]")
        out.append({"cell": cell.replace("&goal=", " -> "), "status": s["status"], "engine_s": s["engineSeconds"],
                    "proof": (s.get("reason") or "")[:60],
                    "click_to_answer_s": round(time.perf_counter() - clicked, 3),
                    "highs_requested_after_click_s": round(asked[0] - clicked, 3) if asked and asked[0] >= clicked
                    else None})
    context.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dist", help="an existing build (default: build into a temporary folder)")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with served_site(args.dist, "lp") as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        browser_version = browser.version
        runs = [run_once(browser, url) for _ in range(args.runs)]
        browser.close()
    cells = []
    for i in range(len(CELLS)):
        rows = [r[i] for r in runs]
        cells.append({"cell": rows[0]["cell"], "statuses": sorted({r["status"] for r in rows}),
                      "proofs": sorted({r["proof"] for r in rows}),
                      "click_to_answer_median_s": statistics.median(r["click_to_answer_s"] for r in rows),
                      "engine_median_s": statistics.median(r["engine_s"] for r in rows), "runs": rows})
    print(json.dumps({"runtime": f"Pyodide in Chromium {browser_version}", "runs": args.runs, "cells": cells},
                     indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
