"""Measure the web app's start-up in Chromium: cold (fresh profile: the service worker downloads
and caches everything, then Pyodide starts from that cache), cached (a reload: everything from
the cache) and offline (a reload with the network off), each with Solve pressed on the English
board as soon as the board can be played, as an impatient user would.

    python tests/browser/measure_start.py [--runs 5] [--no-offline]

Prints one JSON object: medians and every run, with the load average.  Times are ms since
navigation start, as the page records them in ``window.pegLab`` (firstPlayable: the board can be
played; engineReady: Python and pyapp loaded and warmed; solved: the English answer is shown;
stages: ms per worker start-up stage; files: when each runtime file's last byte arrived, ms since
the worker started).  Each run also opens the French board in a fresh profile and presses Never lose
as soon as the board plays: ``first_verdict`` gives the verdict's time since the first paint (goal: under
a second, answered from opening.json before Python is ready) and since the press.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_support import CHROMIUM, CHROMIUM_ARGS, Server, build  # noqa: E402

SOLVE_TIMEOUT_MS = 300_000


def one_load(page, *, reload: bool, url: str) -> dict:
    """Load (or reload), press Solve as soon as the board is playable, wait for the answer."""
    if reload:
        page.reload()
    else:
        page.goto(url)
    page.wait_for_function("() => window.pegLab && window.pegLab.timings.firstPlayable", timeout=SOLVE_TIMEOUT_MS)
    page.get_by_role("button", name="Solve").click()
    page.wait_for_function("() => window.pegLab.solves.length > 0", timeout=SOLVE_TIMEOUT_MS)
    lab = page.evaluate("({timings: window.pegLab.timings, stages: window.pegLab.stages || {},"
                        " files: window.pegLab.files || {}, solve: window.pegLab.solves[0],"
                        " offline: window.pegLab.offline})")
    t = lab["timings"]
    return {"first_playable_ms": round(t["firstPlayable"]), "engine_ready_ms": round(t["engineReady"]),
            "solved_ms": round(lab["solve"]["at"]), "solve_status": lab["solve"]["status"],
            "stages_ms": lab["stages"], "files_ms": lab["files"], "offline_mode": lab["offline"]}


VERDICT_JS = """() => new Promise((resolve) => {
    const note = document.getElementById('neverlose-note');
    const pressed = performance.now();
    const done = () => resolve({pressed, verdict: performance.now(),
        paint: performance.getEntriesByName('first-paint')[0]?.startTime ?? 0,
        engine: window.pegLab.timings.engineReady ?? null});
    new MutationObserver((_, obs) => {
        if (note.dataset.verdict) { obs.disconnect(); done(); }
    }).observe(note, {attributes: true});
    document.getElementById('never-lose').click();
})"""


def first_verdict(browser, url: str) -> dict:
    """A first visit to the French board, Never lose pressed (from inside the page) as soon as the board plays:
    ms from the first paint and from the press to the verdict, and whether the engine was ready by then."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url + "#board=french")
        page.wait_for_function("() => window.pegLab && window.pegLab.timings.firstPlayable", timeout=SOLVE_TIMEOUT_MS)
        t = page.evaluate(VERDICT_JS)
        return {"from_paint_ms": round(t["verdict"] - t["paint"]), "from_press_ms": round(t["verdict"] - t["pressed"]),
                "engine_ready_before": t["engine"] is not None and t["engine"] < t["verdict"]}
    finally:
        context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-offline", action="store_true", help="skip the offline reload")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "dist"
        build.build(site)
        server = Server(site)
        runs = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for _ in range(args.runs):
                context = browser.new_context()
                page = context.new_page()
                run = {"cold": one_load(page, reload=False, url=server.url + "#board=english")}
                run["cached"] = one_load(page, reload=True, url=server.url)
                if not args.no_offline:
                    context.set_offline(True)
                    run["offline"] = one_load(page, reload=True, url=server.url)
                context.close()
                run["first_verdict"] = first_verdict(browser, server.url)
                runs.append(run)
            browser.close()
        server.stop()

    def med(kind: str, key: str, sub: str | None = None):
        values = [r[kind][key][sub] if sub else r[kind][key] for r in runs if kind in r]
        values = [v for v in values if v is not None]
        return round(statistics.median(values)) if values else None

    summary: dict = {"runs": len(runs), "load_average": {"before": [round(x, 2) for x in load_before],
                                                         "after": [round(x, 2) for x in os.getloadavg()]}}
    for kind in ("cold", "cached", "offline"):
        if not any(kind in r for r in runs):
            continue
        summary[kind] = {key: med(kind, key) for key in ("first_playable_ms", "engine_ready_ms", "solved_ms")}
        stages = runs[0][kind]["stages_ms"]
        summary[kind]["stages_ms"] = {name: med(kind, "stages_ms", name) for name in stages}
        summary[kind]["files_ms"] = {name: med(kind, "files_ms", name) for name in runs[0][kind]["files_ms"]}
    summary["first_verdict"] = {key: med("first_verdict", key) for key in ("from_paint_ms", "from_press_ms")}
    summary["first_verdict"]["engine_ready_before"] = sum(r["first_verdict"]["engine_ready_before"] for r in runs)
    print(json.dumps({"median": summary, "runs": runs}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
