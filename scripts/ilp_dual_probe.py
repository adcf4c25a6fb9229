"""Probe: one part of a self-dual split (German e1 -> e1) with its closing restricted by time reversal.

Why it is sound.  In a problem whose start is the board with only the finish's hole empty and whose finish is one
peg (German e1 -> e1), a solution played backwards on the complemented board is a solution too (the dual): the
position ``t`` jumps from the dual's start is the complement of the position ``t`` jumps before the original's
end.  Split ``D`` choices deep (:func:`pyapp.search.ilp_split.leaves`, one part per position up to the goal's
symmetries, :func:`~pyapp.search.ilp_split.distinct`), every solution has an opening part ``a`` and a closing part
``b``, the dual's opening part.  So:

* no solution closes in a part the ledger proves infeasible outright (its dual would open there);
* of a solution and its dual, one has ``a <= b`` in the list's order, so part ``a`` may also refuse closings in the
  parts before it, as long as every part is proved under that same rule.

The closing is the position ``k`` jumps before the end (``k`` = the jumps before the part: forced ones and the
choices); one row per refused position (each image under the goal's symmetries, complemented) says the programme's
position there differs from it in at least one hole.  A part proved this way is not proved outright: it counts only
in the whole argument, once every part is proved in the same order.  The ledger's rows are not written here.

Measured (2026-12-08, CPython 3.11.7, HiGHS 1.15.1, one thread each, the two side by side with nothing else
running; part 37 of German e1 -> e1 split 3 deep, ``c4-e4 c5-e5 a5-c5``, 110 rows refused): after the 600 s limit
HiGHS had explored 64.3 % of the tree (1,865 nodes) without the rows and 77.9 % (5,414 nodes) with them.

    PYTHONPATH=. python scripts/ilp_dual_probe.py 37 --dual --seconds 600
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ilp_run  # noqa: E402 - the sibling script's logged HiGHS back end

from pyapp.core.catalogue import get_board  # noqa: E402
from pyapp.core.problem import make_problem  # noqa: E402
from pyapp.proofs import lp  # noqa: E402
from pyapp.search.ilp import IlpFormulation  # noqa: E402
from pyapp.search.ilp_cuts import LEVEL_POSITIONS  # noqa: E402
from pyapp.search.ilp_split import distinct, leaves, uncovered  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", type=int, help="index among the distinct parts (as scripts/ilp_run.py --part)")
    ap.add_argument("--dual", action="store_true", help="add the closing rows (without: the part as ilp_run runs it)")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=600.0)
    ap.add_argument("--ledger", default="benchmarks/ilp-ledger.jsonl")
    ap.add_argument("--log", default="ilp-dual.log")
    args = ap.parse_args()
    whole = make_problem(get_board("german"), start="e1", goal="e1")
    every = distinct(whole, leaves(whole, args.depth))
    with open(args.ledger, encoding="utf-8") as ledger:
        rows = [r for r in map(json.loads, filter(str.strip, ledger))
                if r.get("problem") == "german e1 -> e1" and not r.get("plain") and r.get("cuts") is None]
    still = {leaf.line() for leaf in uncovered(whole, args.depth, rows)}
    leaf = every[args.part]
    if leaf.line() not in still:
        raise SystemExit(f"error: part {args.part} ({leaf.line()}) is settled in the ledger")
    lp.use_backend(ilp_run.LoggedHighspy(args.log, 1, 0.01, {"mip_allow_restart": "false"}))
    f = IlpFormulation(leaf.problem, args.seconds, cuts=True, level_positions=LEVEL_POSITIONS)
    refused = 0
    if args.dual:
        board, at = whole.board, f.steps - len(leaf.before)
        closings = {board.full() ^ board.transform(other.problem.start, g)
                    for j, other in enumerate(every) if other.line() not in still or j < args.part
                    for g in whole.goal.symmetries(board)}
        for pos in sorted(closings):
            row = {f.p[at][i]: (-1.0 if pos >> h & 1 else 1.0) for i, h in enumerate(f.holes)}
            f.model.add_row(row, lower=1 - pos.bit_count())  # differs from pos in at least one hole
            refused += 1
    c0 = time.process_time()
    sol = lp.solve(f.model)
    print(json.dumps({"part": leaf.line(), "index": args.part, "dual": args.dual, "rows_refused": refused,
                      "status": sol.status, "nodes": sol.nodes, "cpu_seconds": round(time.process_time() - c0, 1),
                      "seconds": round(sol.seconds, 1)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
