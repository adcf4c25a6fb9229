"""Is the time-indexed integer programme a cheap prover of the jumps never-lose leaves open?

For each position of a dump (a JSON object whose ``raw`` list holds ``{"pos": bitboard}`` entries, as the never-lose
measurements write them), never-lose runs on ``--seconds`` CPU seconds; then for each class of its jumps of the kinds
asked (``unknown``, ``bad``, ``good``) the position after the jump gets the programme of :mod:`pyapp.search.ilp` with
every addition (the reachability fixings within ``--fix-seconds`` CPU seconds), solved by HiGHS twice: its linear
relaxation, and the integer programme within ``--ilp-seconds`` CPU seconds (``10 x`` as many wall seconds).  Beside
them, the pagoda proof the solver starts with (:func:`pyapp.proofs.pagoda.pagoda_proof`: the known pagodas, then
one found by linear programming).  A winnable jump (``good``) whose programme is infeasible would be a bug: it is
printed as such.  One JSON line per class, then a summary line per kind:

    PYTHONPATH=. nice -n 10 .venv/bin/python scripts/ilp_neverlose.py german e5 e5 DUMP.json --kinds unknown,bad
"""

from __future__ import annotations

import argparse
import json
import time

from pyapp.analysis.neverlose import never_lose_steps
from pyapp.core.budget import CPU_CLOCK, Budget, drive
from pyapp.core.catalogue import get_board
from pyapp.core.moves import apply_jump
from pyapp.core.problem import Problem, make_problem
from pyapp.proofs.lp import solve
from pyapp.proofs.pagoda import pagoda_proof
from pyapp.search.ilp import IlpFormulation


def programme(problem: Problem, fix_seconds: float, ilp_seconds: float) -> dict:
    """The programme of ``problem``: build CPU s, and status, nodes and CPU s of the relaxation and of the MIP."""
    t = time.process_time()
    f = IlpFormulation(problem, 10 * ilp_seconds, cuts=True, budget=Budget(fix_seconds, clock=CPU_CLOCK))
    out: dict = {"build": round(time.process_time() - t, 3), "notes": f.notes}
    for mode in ("lp", "mip"):
        m = f.model.copy()
        if mode == "lp":
            m.integer = [False] * len(m.integer)
        m.cpu_limit, m.time_limit = ilp_seconds, 10 * ilp_seconds
        t = time.process_time()
        s = solve(m)
        out[mode] = [s.status, s.nodes, round(time.process_time() - t, 3)]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("board")
    ap.add_argument("start")
    ap.add_argument("goal")
    ap.add_argument("dump")
    ap.add_argument("--step", type=int, default=1, help="every STEP-th position of the dump")
    ap.add_argument("--seconds", type=float, default=10.0, help="never-lose's CPU seconds per position")
    ap.add_argument("--kinds", default="unknown,bad,good")
    ap.add_argument("--fix-seconds", type=float, default=2.0)
    ap.add_argument("--ilp-seconds", type=float, default=3.0)
    args = ap.parse_args()
    kinds = args.kinds.split(",")
    game = make_problem(get_board(args.board), start=args.start, goal=args.goal)
    board, goal = game.board, game.goal
    rows = []
    with open(args.dump) as fh:
        raw = json.load(fh)["raw"][::args.step]
    for v in raw:
        pos = int(v["pos"])
        r = drive(never_lose_steps(Problem(board, pos, goal), budget=Budget(args.seconds, clock=CPU_CLOCK)))
        seen: set[int] = set()
        for kind in kinds:
            for jump in getattr(r.jumps, kind):
                child = apply_jump(pos, jump)
                if board.canonical(child) in seen:
                    continue
                seen.add(board.canonical(child))
                t = time.process_time()
                pagoda = pagoda_proof(board, child, goal.pagoda_targets(board, child)) is not None
                row = {"pegs": child.bit_count(), "kind": kind, "child": str(child),
                       "pagoda": [pagoda, round(time.process_time() - t, 3)],
                       **programme(Problem(board, child, goal), args.fix_seconds, args.ilp_seconds)}
                if kind == "good" and "infeasible" in (row["lp"][0], row["mip"][0]):
                    print("BUG: a winnable position's programme is infeasible:", child, flush=True)
                rows.append(row)
                print(json.dumps(row), flush=True)
    for kind in kinds:
        mine = [r for r in rows if r["kind"] == kind]
        for mode in ("lp", "mip"):
            proved = sorted(r["build"] + r[mode][2] for r in mine if r[mode][0] == "infeasible")
            print(json.dumps({"kind": kind, "mode": mode, "classes": len(mine), "infeasible": len(proved),
                              "cpu_of_proofs": [proved[0], proved[-1]] if proved else None,
                              "cpu_total": round(sum(r["build"] + r[mode][2] for r in mine), 1),
                              "pagoda": sum(r["pagoda"][0] for r in mine)}))


if __name__ == "__main__":
    main()
