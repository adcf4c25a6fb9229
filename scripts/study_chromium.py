"""Run the scaling study in Pyodide inside headless Chromium (bench.html's "Run the quick study here") and,
with ``--cpython``, the same study on CPython, and compare their times.

Builds the site (or serves ``--dist``), opens ``bench.html?run=0&study=PLAN`` in Debian's Chromium through
Playwright, presses the button, follows the page's progress, and saves the JSON the page offers for
download (validated by :func:`pyapp.bench.scaling.validate`) as ``OUT/scaling.json``.  ``--cpython`` then
runs ``python -m pyapp bench --scaling --quick`` on the same plan into ``OUT/cpython/`` and prints the
ratio of the wall times and the median ratio of the CPU seconds of the runs both solved.

    python scripts/study_chromium.py [--plan quick|tiny] [--out DIR] [--dist DIR] [--cpython]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_chromium import CHROMIUM, CHROMIUM_ARGS, served_site  # noqa: E402

from pyapp.bench import scaling  # noqa: E402


def in_chromium(plan: str, dist: str | None, timeout: float) -> tuple[dict, float]:
    """The page's study JSON and the page's wall seconds (button press to charts drawn)."""
    from playwright.sync_api import sync_playwright

    with served_site(dist, "study") as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_context(accept_downloads=True).new_page()
        page.goto(f"{base}/bench.html?run=0&study={plan}")
        deadline = time.monotonic() + 180
        # polled: the page's CSP refuses wait_for_function's eval
        while page.evaluate("document.documentElement.dataset.study") != "idle":
            if time.monotonic() > deadline:
                raise SystemExit("the page's engine did not start")
            time.sleep(0.2)
        page.click("#study-run")
        deadline = time.monotonic() + timeout
        shown = -1
        while True:
            st = page.evaluate("(({status, done, planned, phase}) => ({status, done, planned, phase}))"
                               "(window.benchStudy)")
            if st["done"] != shown and st["status"] == "running":
                shown = st["done"]
                print(f"study: {st['done']} / {st['planned']} ({st['phase']})", file=sys.stderr, flush=True)
            if st["status"] in ("done", "failed", "cancelled"):
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"the study did not finish within {timeout} s")
            time.sleep(0.5)
        if st["status"] != "done":
            raise SystemExit(f"the study ended {st['status']}: {page.evaluate('window.benchStudy.message')}")
        wall = page.evaluate("window.benchStudy.wall")
        with page.expect_download() as info:
            page.click("#study-download")
        data = json.loads(Path(info.value.path()).read_text())
        data["study"]["environment"]["chromium"] = browser.version
        browser.close()
    return data, wall


def speed_ratio(page: dict, cpython: dict) -> float | None:
    """The median, over runs both solved, of page CPU seconds over CPython CPU seconds."""
    key = lambda r: (r["board"], r["pegs"], r["seed"], r["solver"])  # noqa: E731
    theirs = {key(r): r for r in cpython["runs"] if r["status"] == "solved" and r["seconds"] > 0}
    ratios = [r["seconds"] / theirs[key(r)]["seconds"] for r in page["runs"]
              if r["status"] == "solved" and key(r) in theirs]
    return statistics.median(ratios) if ratios else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plan", choices=("quick", "tiny"), default="quick")
    parser.add_argument("--out", default="bench-out/study-chromium")
    parser.add_argument("--dist", help="serve this existing build instead of building into a temporary folder")
    parser.add_argument("--cpython", action="store_true", help="also run the study on CPython and compare")
    parser.add_argument("--timeout", type=float, default=1800)
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data, wall = in_chromium(args.plan, args.dist, args.timeout)
    errors = scaling.validate(data)
    if errors:
        raise SystemExit(f"the page's JSON does not validate: {errors[:5]}")
    (out / "scaling.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    unknown = sum(r["status"] == "unknown" for r in data["runs"])
    print(f"Chromium ({data['study']['environment']['runtime']}): {len(data['runs'])} runs ({unknown} unknown), "
          f"study {data['study']['wall_seconds']} s, page {wall:.1f} s (button to charts); "
          f"wrote {out / 'scaling.json'}")
    if args.cpython:
        command = [sys.executable, "-m", "pyapp", "bench", "--scaling", "--quick", "--out", str(out / "cpython")]
        if args.plan == "tiny":
            print("--cpython compares the quick plan only", file=sys.stderr)
            return 0
        t0 = time.perf_counter()
        subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        elapsed = time.perf_counter() - t0
        cpy = json.loads((out / "cpython" / "scaling.json").read_text())
        c_unknown = sum(r["status"] == "unknown" for r in cpy["runs"])
        print(f"CPython ({cpy['study']['environment']['runtime']}): {len(cpy['runs'])} runs ({c_unknown} unknown), "
              f"study {cpy['study']['wall_seconds']} s (with 2 cold solves in fresh processes), "
              f"command {elapsed:.1f} s (figures included)")
        ratio = speed_ratio(data, cpy)
        walls = data["study"]["wall_seconds"] / max(cpy["study"]["wall_seconds"], 0.1)
        print(f"wall ratio Chromium / CPython: {walls:.2f}; "
              + (f"median CPU-time ratio of runs both solved: {ratio:.2f}" if ratio else "no run solved by both"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
