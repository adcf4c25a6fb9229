"""Time the prover's linear programmes, one caller at a time, with whichever ``pyapp`` is on the path.

Runs the same programmes through the public entry points that existed before and after the move to HiGHS
(:func:`pyapp.proofs.pagoda.find_pagoda`, :func:`pyapp.proofs.separation.separation_steps`), so an older
checkout can be timed side by side::

    PYTHONPATH=. python scripts/lp_timing.py --repeat 3                 # this checkout
    (cd /tmp/old && PYTHONPATH=. python /path/to/scripts/lp_timing.py)  # an older one (its own pyapp)

Prints one JSON object: per caller, the number of programmes, the proofs found (the same count is expected
from both versions, as a check that they answer the same questions), and the median of ``--repeat`` runs of
the milliseconds per call (a separation cell is one call: one programme per depth tried).  The first
programme of a run is not timed (imports, back-end start-up).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

from pyapp.core.catalogue import get_board
from pyapp.core.goal import Goal
from pyapp.proofs.pagoda import _drive, find_pagoda
from pyapp.proofs.separation import separation_steps


def pagoda_cases(board_id: str, count: int) -> list[tuple]:
    """Random 6-14-peg positions of ``board_id`` toward every one-peg finish their class allows."""
    board = get_board(board_id)
    rng = random.Random(3)
    cases = []
    while len(cases) < count:
        pos = sum(1 << b for b in rng.sample(board.bits, rng.randint(6, 14)))
        finishes = Goal("any").pagoda_targets(board, pos)
        if finishes:
            cases.append((board, pos, finishes))
    return cases


SEPARATION_CELLS = [("diamond41", "e1", "b6"), ("diamond41", "e1", "h6"), ("diamond41", "e1", "e9"),
                    ("diamond41", "d2", "i5"), ("diamond41", "d2", "f8"), ("german", "e1", "e1")]
"""Four Diamond 41 cells separation proves, and the two it leaves open (each tries depths 1 and 2)."""


def run_once() -> dict:
    out = {}
    for board_id in ("english", "german", "diamond41"):
        cases = pagoda_cases(board_id, 41)
        board, pos, finishes = cases[0]
        find_pagoda(board, pos, finishes)  # warm-up
        t0 = time.perf_counter()
        found = sum(find_pagoda(b, p, f) is not None for b, p, f in cases[1:])
        out[f"find_pagoda {board_id}"] = (len(cases) - 1, found, time.perf_counter() - t0)
    t0 = time.perf_counter()
    found = 0
    for board_id, start, finish in SEPARATION_CELLS:
        board = get_board(board_id)
        found += _drive(separation_steps(board, board.start(start), 1 << board.hole(finish))) is not None
    out["separation cells"] = (len(SEPARATION_CELLS), found, time.perf_counter() - t0)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    runs = [run_once() for _ in range(args.repeat)]
    rows = {}
    for name, (n, found, _) in runs[0].items():
        rows[name] = {"calls": n, "proofs": found,
                      "ms_per_call_median": round(1000 * statistics.median(r[name][2] for r in runs) / n, 3),
                      "ms_per_call_runs": [round(1000 * r[name][2] / n, 3) for r in runs]}
    print(json.dumps({"runtime": f"{platform.python_implementation()} {platform.python_version()}",
                      "repeat": args.repeat, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
