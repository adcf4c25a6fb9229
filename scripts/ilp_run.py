"""Run the time-indexed integer programme (pyapp.search.ilp) of one problem with HiGHS's log written to a file.

``solve --engine ilp`` answers the same programme without a log; this script is for runs of an hour, whose
progress (nodes, bound, gap) is worth watching:

    PYTHONPATH=. nice -n 10 .venv/bin/python scripts/ilp_run.py german e1 e1 --seconds 4500 --log ilp.log [--plain]

``--heuristics 0.01`` lowers HiGHS's heuristic effort (a programme with no objective is only a question of
feasibility; a proof of infeasibility needs the tree, not the heuristics); ``--plain`` builds the programme
without the additions of pyapp.search.ilp_cuts (to compare); ``--threads`` sets HiGHS's threads (1 by
default: the machine is shared); ``--option NAME=VALUE`` sets any other HiGHS option; ``--level-positions`` the
positions the reachability fixings may enumerate a side.  Prints the answer as one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from pyapp.core.catalogue import get_board
from pyapp.core.problem import make_problem
from pyapp.proofs import lp
from pyapp.proofs.lp_backends import Highspy
from pyapp.search.ilp import IlpFormulation, _answer
from pyapp.search.ilp_cuts import LEVEL_POSITIONS


class LoggedHighspy(Highspy):
    """highspy with its log written to a file and a fixed number of threads."""

    def __init__(self, log: str, threads: int, heuristics: float | None, more: dict[str, str]) -> None:
        super().__init__()
        self.log, self.threads, self.heuristics, self.more = log, threads, heuristics, more

    def options(self, h) -> None:  # called by Highspy.run before the model is passed
        h.setOptionValue("output_flag", True)
        h.setOptionValue("log_to_console", False)
        h.setOptionValue("log_file", self.log)
        h.setOptionValue("threads", self.threads)
        if self.heuristics is not None:
            h.setOptionValue("mip_heuristic_effort", self.heuristics)
        for name, text in self.more.items():
            kind = type(h.getOptionValue(name)[1])
            h.setOptionValue(name, text.lower() in ("1", "true", "on") if kind is bool else kind(text))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("board")
    ap.add_argument("start")
    ap.add_argument("goal")
    ap.add_argument("--seconds", type=float, default=600.0)
    ap.add_argument("--log", default="ilp.log")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--heuristics", type=float, default=None,
                    help="HiGHS's mip_heuristic_effort (default 0.05): less leaves more time to prove infeasibility")
    ap.add_argument("--plain", action="store_true", help="without pyapp.search.ilp_cuts's additions")
    ap.add_argument("--cuts", help="only these additions, comma-separated (counts, symmetry, reversal, levels)")
    ap.add_argument("--level-positions", type=int, default=LEVEL_POSITIONS,
                    help=f"positions the reachability fixings may enumerate a side (default {LEVEL_POSITIONS:,})")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="any other HiGHS option")
    args = ap.parse_args(argv)
    more = dict(o.split("=", 1) for o in args.option)
    lp.use_backend(LoggedHighspy(args.log, args.threads, args.heuristics, more))
    t0, b0 = time.perf_counter(), time.process_time()
    problem = make_problem(get_board(args.board), start=args.start, goal=args.goal)
    cuts = False if args.plain else True if args.cuts is None else [c for c in args.cuts.split(",") if c]
    f = IlpFormulation(problem, args.seconds, cuts=cuts, level_positions=args.level_positions)
    built, built_cpu = time.perf_counter() - t0, time.process_time() - b0
    c0 = time.process_time()
    solution = lp.solve(f.model)
    cpu = time.process_time() - c0
    answer = _answer(f, solution, t0)
    print(json.dumps({"problem": f"{args.board} {args.start} -> {args.goal}", "plain": args.plain,
                      "cuts": args.cuts, "options": more,
                      "status": answer.status, "reason": answer.reason, "nodes": solution.nodes,
                      "highs_status": solution.status, "gap": solution.gap, "seconds": round(solution.seconds, 1),
                      "cpu_seconds": round(cpu, 1), "build_seconds": round(built, 2),
                      "build_cpu_seconds": round(built_cpu, 2), "columns": f.model.columns,
                      "rows": f.model.rows, "notes": f.notes, "heuristics": args.heuristics,
                      "moves": None if answer.status != "solved" else len(answer.jumps)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
