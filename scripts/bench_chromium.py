"""Run the benchmark suite in Pyodide inside headless Chromium and print (or save) its table.

Builds the site with the project's own ``build.py`` (into a temporary folder, so a ``dist/``
that someone else is serving is left alone; ``--dist DIR`` uses an existing build instead),
serves it on 127.0.0.1, opens ``bench.html`` in Debian's Chromium through Playwright, and
collects the rows that the page's Pyodide worker measures (``pyapp.bench.suite.iter_suite``, the
same suite as ``python -m pyapp bench``).  Progress goes to stderr, the table to stdout.

    python scripts/bench_chromium.py [--quick] [--repeat N] [--only NAME...] [--json] [--out FILE] [--starts N]

``--starts N`` also reloads the page N more times (same browser profile, HTTP cache warm) and
reports the worker's start-to-ready time of each.  Exit code 1 when a row's answer is WRONG.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402  (the project's build script, at the repository root)
from pyapp.bench import suite as bench  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
STATE = "document.documentElement.dataset.bench"


def _serve(directory: Path):
    server = build.make_server(directory, 0, verbose=False)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server


@contextmanager
def served_site(dist_arg: str | None, label: str) -> Iterator[str]:
    """The base URL of the site served from ``dist_arg`` (an existing build with bench.html) or,
    when None, from a fresh build in a temporary folder; stopped and removed on exit."""
    tmp = None
    if dist_arg:
        dist = Path(dist_arg).resolve()
        if not (dist / "bench.html").is_file():
            raise SystemExit(f"{dist} has no bench.html: build it first (python build.py)")
    else:
        tmp = tempfile.TemporaryDirectory(prefix=f"peg-{label}-dist-")
        dist = Path(tmp.name) / "dist"
        version = build.build(dist)
        print(f"{label}: built the site into {dist} (version {version})", file=sys.stderr)
    server = _serve(dist)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        if tmp is not None:
            tmp.cleanup()


def _wait_for_state(page, states: tuple[str, ...], timeout_s: float) -> str:
    """Poll the page's bench state until it is one of `states`.

    Polling through page.evaluate (CDP) rather than wait_for_function: the page's
    Content-Security-Policy forbids eval, and wait_for_function compiles its predicate
    in the page, which fails there with an EvalError.
    """
    deadline = time.monotonic() + timeout_s
    while True:
        state = page.evaluate(STATE)
        if state in states:
            return state
        if time.monotonic() > deadline:
            raise SystemExit(f"bench.html did not reach {states} within {timeout_s} s (state {state!r})")
        time.sleep(0.05)


def run(args: argparse.Namespace) -> dict:
    from playwright.sync_api import sync_playwright

    query = f"quick={int(args.quick)}" + (f"&repeat={args.repeat}" if args.repeat else "")
    if args.only:
        query += "&only=" + ",".join(args.only)
    with served_site(args.dist, "bench") as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_context().new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{base}/bench.html?{query}")
        shown = 0
        deadline = time.monotonic() + args.timeout
        while True:
            state = page.evaluate(STATE)
            rows = page.evaluate("window.benchProgress || []")
            for row in rows[shown:]:
                print("bench: " + bench.format_row_line(row), file=sys.stderr, flush=True)
            shown = max(shown, len(rows))
            if state in ("done", "failed"):
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"bench.html did not finish within {args.timeout} s (state {state!r})")
            time.sleep(1.0)
        result = page.evaluate("window.benchResult")
        result["environment"]["chromium"] = browser.version
        warm = []
        for _ in range(args.starts):
            page.goto(f"{base}/bench.html?run=0")
            _wait_for_state(page, ("ready", "failed"), 120.0)
            info = page.evaluate("document.getElementById('status').textContent")
            warm.append(float(info.split(" ready in ")[1].split(" s")[0]))
        if warm:
            result["warm_starts_s"] = warm
            result["warm_start_median_s"] = statistics.median(warm)
        if errors:
            result["page_errors"] = errors
        browser.close()
    if result.get("error"):
        raise SystemExit(f"the suite failed in Chromium: {result['error']}")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the CI subset, one run per row")
    parser.add_argument("--repeat", type=int, help="runs per row (default: 5, quick 1)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run just these rows (see python -m pyapp bench)")
    parser.add_argument("--out", help="also save the JSON result to this file")
    parser.add_argument("--dist", help="serve this existing build instead of building into a temporary folder")
    parser.add_argument("--starts", type=int, default=0, help="extra page loads to time the warm start")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds to wait for the whole suite")
    args = parser.parse_args(argv)
    result = run(args)
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(result))
    else:
        env = result["environment"]
        print(f"Runtime: {env['runtime']}, Chromium {env.get('chromium')}, {env['date']}")
        print(f"Worker cold start (new profile, worker created -> ready): {result['cold_start_s']:.2f} s")
        if result.get("warm_starts_s"):
            print(f"Warm starts (HTTP cache): {', '.join(f'{s:.2f}' for s in result['warm_starts_s'])} s, "
                  f"median {result['warm_start_median_s']:.2f} s")
        print()
        print(bench.format_table(result["rows"]))
        if result["wrong"]:
            print(f"\nWRONG ANSWERS: {', '.join(result['wrong'])}")
    return 1 if result["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
