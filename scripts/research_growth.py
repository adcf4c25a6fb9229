"""Per-level growth of a research cell, and what the whole sweep would cost (``python scripts/research_growth.py``).

Sweeps the forward side of a problem (reachability, canonical keys) in this process for as long as
``--seconds`` allows, records each level's size and time, and projects the rest: the ratio of one
level's size to the one before falls roughly linearly with depth (fitted on the last levels), the
profile is taken to peak where the ratio reaches 1 and then to fall back as it rose (peg solitaire's
level profiles are roughly symmetric about the middle), and every position costs what the measured
levels cost.  The answer: positions, CPU hours and disk (8 bytes a key, 16 with a count) in total,
on this machine (one core) and on 64 cores at the sharded sweep's measured overhead.

    python scripts/research_growth.py triangle8 --start 1 --goal any --seconds 120 [--out benchmarks/research.json]

With ``--out`` the cell is merged into that file (replacing an earlier measurement of the same cell), which
``python -m pyapp bench --report`` renders in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pyapp.bench.speedup import SHARDED_OVERHEAD  # noqa: E402
from pyapp.core.request import build  # noqa: E402
from pyapp.exact.setup import sides  # noqa: E402
from pyapp.exact.sweep import Level, sweep  # noqa: E402


def measure(board: str, start: str | None, goal: str | None, seconds: float) -> dict:
    s = sides(build(board, start=start, goal=goal).problem)
    levels = []
    t0 = c0 = time.process_time()
    for item in sweep(s.wide_codec, [s.start], s.last_pegs, weights=False):
        if isinstance(item, Level):
            now = time.process_time()
            levels.append({"pegs": item.pegs, "positions": len(item), "cpu": round(now - c0, 3)})
            c0 = now
            if now - t0 > seconds:
                break
    return {"board": board, "start": start, "goal": goal, "holes": s.holes, "first": s.first_pegs,
            "last": s.last_pegs, "levels": levels}


def project(m: dict, workers: int = 64) -> dict:
    lv = m["levels"]
    sizes = [x["positions"] for x in lv]
    ratios = [b / a for a, b in zip(sizes, sizes[1:], strict=False) if a]
    tail = ratios[-4:] if len(ratios) >= 4 else ratios
    slope = (tail[-1] - tail[0]) / max(1, len(tail) - 1) if len(tail) > 1 else 0.0
    per_position = sum(x["cpu"] for x in lv[-3:]) / max(1, sum(sizes[-3:]))
    depth = m["first"] - m["last"]
    profile = list(sizes)
    r = tail[-1] if tail else 1.0
    while len(profile) <= depth and r > 1:  # rising side, the ratio falling by `slope` a level
        profile.append(profile[-1] * r)
        r += slope if slope < 0 else -0.05
    rise = list(profile)
    while len(profile) <= depth:  # the falling side mirrors the rising one
        profile.append(rise[max(0, 2 * len(rise) - len(profile) - 2)])
    total = sum(profile)
    cpu = total * per_position
    return {"levels_measured": len(lv), "peak_level_positions": round(max(profile)), "positions": round(total),
            "cpu_hours_one_core": round(cpu / 3600, 1),
            f"hours_on_{workers}_cores": round(cpu * SHARDED_OVERHEAD / workers / 3600, 2),
            "disk_keys_gb": round(8 * total / 1e9, 1), "disk_with_counts_gb": round(16 * total / 1e9, 1),
            "peak_memory_gb": round(max(profile) * 16 * 2 / 1e9, 1),
            "microseconds_per_position": round(per_position * 1e6, 2)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("board")
    p.add_argument("--start")
    p.add_argument("--goal")
    p.add_argument("--seconds", type=float, default=120.0)
    p.add_argument("--out", help="merge the cell into this JSON file (benchmarks/research.json)")
    args = p.parse_args()
    m = measure(args.board, args.start, args.goal, args.seconds)
    cell = {**m, "projection": project(m), "seconds_budget": args.seconds,
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "runtime": sys.version.split()[0],
            "command": "python scripts/research_growth.py " + " ".join(sys.argv[1:])}
    print(json.dumps(cell, indent=1))
    if args.out:
        data = {"cells": []}
        if os.path.exists(args.out):
            with open(args.out) as f:
                data = json.load(f)
        same = (m["board"], m["start"], m["goal"])
        data["cells"] = [c for c in data["cells"] if (c["board"], c["start"], c["goal"]) != same] + [cell]
        with open(args.out, "w") as f:
            f.write(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()
