#!/usr/bin/env python3
"""The long fuzz run: the targets of ``tests/fuzz_support.py`` (notation, positions, custom boards,
goals, web-API requests, command lines, share-link fragments) for 100,000 cases in all, with a fixed
seed.  Unlike the short run in the test command it does not stop at the first problem: it counts the
cases, the uncaught errors (anything but the project's own error answers) and the hangs (a case over
``--hang-seconds`` of processor time, stopped by a timer), and prints one table and one JSON line.

Usage (from the project root): ``python scripts/fuzz.py [--cases 100000] [--seed 13] [--hang-seconds 10]``
Exit code 0 when no case raised an uncaught error or hung, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import fuzz_support as fz  # noqa: E402
from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SHARE = {"notation": 0.16, "positions": 0.13, "custom boards": 0.14, "goals": 0.13, "web API one-shot": 0.16,
         "web API long": 0.06, "command line": 0.07, "share links": 0.15}


class Hang(BaseException):
    """Raised by the timer inside a case that ran too long (a BaseException: no except clause eats it)."""


def _alarm(signum, frame):
    raise Hang()


def targets(reader: fz.LinkReader):
    boards = st.sampled_from(fz.BOARD_IDS)
    return {
        "notation": (st.tuples(boards, fz.notation_text), lambda x: fz.check_notation(*x)),
        "positions": (st.tuples(boards, fz.grid_text, st.integers(0, 2**81)), lambda x: fz.check_position(*x)),
        "custom boards": (st.tuples(st.sampled_from(["square", "triangle", "hex"]), fz.grid_text),
                          lambda x: fz.check_custom_board(*x)),
        "goals": (st.tuples(boards, st.one_of(fz.notation_text, fz.grid_text.map(lambda g: "target:" + g))),
                  lambda x: fz.check_goal(*x)),
        "web API one-shot": (st.tuples(fz.one_shot_names, fz.request_args), lambda x: fz.check_one_shot(*x)),
        "web API long": (st.tuples(fz.streaming_names, fz.request_args), lambda x: fz.check_streaming(*x)),
        "command line": (fz.cli_tokens, fz.check_cli),
        "share links": (fz.link_fragment, lambda x: fz.check_link(reader, x)),
    }


def run_target(name: str, strategy, check, cases: int, seed_value: int, hang_seconds: float) -> dict:
    stats = {"target": name, "cases": 0, "uncaught": 0, "hangs": 0, "seconds": 0.0, "slowest_s": 0.0,
             "examples": []}
    t0 = time.perf_counter()

    @seed(seed_value)
    @settings(max_examples=cases, database=None, deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def driver(example):
        stats["cases"] += 1
        started = time.perf_counter()
        # processor time (a busy machine cannot fake a hang), re-armed every second: the exception may land
        # in a callback that swallows it (a garbage-collector hook), the next one stops the case
        signal.setitimer(signal.ITIMER_PROF, hang_seconds, 1.0)
        try:
            check(example)
        except Hang:
            stats["hangs"] += 1
            stats["examples"].append({"hang": repr(example)[:300]})
        except Exception as err:  # noqa: BLE001 - counting them is the point
            stats["uncaught"] += 1
            if len(stats["examples"]) < 5:
                stats["examples"].append({"error": f"{type(err).__name__}: {err}"[:300], "example": repr(example)[:300],
                                          "where": traceback.format_exc().strip().splitlines()[-3:]})
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        stats["slowest_s"] = max(stats["slowest_s"], time.perf_counter() - started)

    driver()
    stats["seconds"] = round(time.perf_counter() - t0, 1)
    stats["slowest_s"] = round(stats["slowest_s"], 3)
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=100_000, help="cases in all (default 100000)")
    parser.add_argument("--seed", type=int, default=13, help="hypothesis seed (default 13)")
    parser.add_argument("--hang-seconds", type=float, default=10.0,
                        help="a case using more processor seconds than this counts as a hang (default 10)")
    parser.add_argument("--only", help="one target by name")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGPROF, _alarm)
    reader = fz.LinkReader()
    rows = []
    started = time.perf_counter()
    try:
        for name, (strategy, check) in targets(reader).items():
            if args.only and name != args.only:
                continue
            cases = max(1, round(args.cases * SHARE[name]))
            row = run_target(name, strategy, check, cases, args.seed, args.hang_seconds)
            rows.append(row)
            print(f"{name:18} {row['cases']:7d} cases {row['uncaught']:4d} uncaught {row['hangs']:3d} hangs "
                  f"{row['seconds']:7.1f} s (slowest case {row['slowest_s']:.2f} s)", flush=True)
            for ex in row["examples"]:
                print("   ", json.dumps(ex), flush=True)
    finally:
        reader.close()
    total = {"cases": sum(r["cases"] for r in rows), "uncaught": sum(r["uncaught"] for r in rows),
             "hangs": sum(r["hangs"] for r in rows), "seconds": round(time.perf_counter() - started, 1),
             "seed": args.seed, "hang_seconds": args.hang_seconds}
    print(f"{'total':18} {total['cases']:7d} cases {total['uncaught']:4d} uncaught {total['hangs']:3d} hangs "
          f"{total['seconds']:7.1f} s")
    print(json.dumps({"total": total, "targets": [{k: v for k, v in r.items() if k != "examples"} for r in rows]}))
    return 1 if total["uncaught"] or total["hangs"] else 0


if __name__ == "__main__":
    sys.exit(main())
