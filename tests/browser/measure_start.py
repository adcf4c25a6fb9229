"""Measure the web app's start-up in Chromium: cold (fresh profile: the service worker
downloads and caches everything, then Pyodide starts from that cache) and cached (a reload:
everything from the cache), plus the in-browser solve time of the English central game.

    python tests/browser/measure_start.py [--runs 5]

Prints one JSON object: medians and every run.  Times are ms since navigation start, as the
page records them in ``window.pegLab.timings`` (serviceWorker: the cache is ready;
engineReady: Pyodide and pyapp loaded; firstBoard: the live board is shown).  The solve starts
once the page's idle-time warm-up (importing the solver) is done, as a user's first click would.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_support import CHROMIUM, CHROMIUM_ARGS, Server, build, wait_ready  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

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
                page.goto(server.url)
                wait_ready(page)
                cold = page.evaluate("window.pegLab.timings")
                page.reload()
                wait_ready(page)
                cached = page.evaluate("window.pegLab.timings")
                page.wait_for_function("window.pegLab.timings.warm !== undefined")  # the idle-time imports
                page.get_by_role("button", name="Solve").click()
                page.wait_for_function("window.pegLab.solves.length > 0", timeout=300_000)
                solve = page.evaluate("window.pegLab.solves[0]")
                runs.append({"cold": cold, "cached": cached, "solve": solve})
                context.close()
            browser.close()
        server.stop()

    def med(path):
        values = [r[path[0]][path[1]] for r in runs]
        return round(statistics.median(values) / (1000 if path[0] != "solve" else 1), 3)

    summary = {
        "cold_engine_ready_s": med(("cold", "engineReady")),
        "cold_cache_ready_s": med(("cold", "serviceWorker")),
        "cold_board_shown_s": med(("cold", "firstBoard")),
        "cached_engine_ready_s": med(("cached", "engineReady")),
        "cached_board_shown_s": med(("cached", "firstBoard")),
        "english_solve_engine_s": med(("solve", "engineSeconds")),
        "english_solve_wall_s": med(("solve", "wallSeconds")),
        "runs": len(runs),
    }
    print(json.dumps({"median": summary, "runs": runs}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
