#!/usr/bin/env python3
"""Memory over many web-API requests on custom boards (issue 13: caches keyed by board objects grew
by 62.6 MB of peak RSS over 60 hints on one custom board).  Sends ``N`` requests (hint, solve and
state in turn, 0.05 s budgets) on ``SHAPES`` different 9x9 custom boards and prints the growth of
traced memory (tracemalloc), its peak, and the growth of the peak RSS after a 3-request warm-up.

Usage (from the project root): ``python scripts/memory_requests.py [SHAPES] [N]`` (default 1 200).
"""

from __future__ import annotations

import gc
import json
import resource
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyapp.web import api as webapi  # noqa: E402


def spec(i: int) -> str:
    """A 9 x 9 square board, one hole missing (which one depends on ``i``), the centre empty."""
    rows = [["o"] * 9 for _ in range(9)]
    rows[i % 9][(i // 9) % 9] = "_"
    rows[4][4] = "."
    return "square:" + "/".join("".join(r) for r in rows)


def request(i: int, shapes: int) -> None:
    s = spec(i % shapes)
    if i % 3 == 0:
        out = json.loads(webapi.call("hint", json.dumps({"board": s, "max_seconds": 0.05})))
    elif i % 3 == 1:
        job = webapi.start("solve", json.dumps({"board": s, "max_seconds": 0.05}))
        while not (out := json.loads(job.step()))["done"]:
            pass
    else:
        out = json.loads(webapi.call("state", json.dumps({"board": s, "moves": []})))
    assert "error" not in out, out


def main() -> None:
    shapes = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    tracemalloc.start()
    for i in range(3):
        request(i, shapes)
    gc.collect()
    base = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    for i in range(n):
        request(3 + i, shapes)
    gc.collect()
    current, peak = tracemalloc.get_traced_memory()
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"shapes={shapes} requests={n}: traced growth {(current - base) / 1e6:.1f} MB, "
          f"peak +{(peak - base) / 1e6:.1f} MB, max RSS +{(rss1 - rss0) / 1e3:.1f} MB, "
          f"{time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
