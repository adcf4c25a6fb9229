"""Run the SAT encoding of :mod:`pyapp.sat.encode` with the problem's pagoda functions added as cardinality rows on
every step (a pagoda is worth at least its value at the finish after every jump), and, for a complement problem,
the same rows on the complements (time reversal: the positions of a solution, complemented and read backwards, are
a solution too).  Only pagodas with weights -1, 0 and 1 are used (the parity pagodas and Bell's resource count
for Wiegleb's board, in :mod:`pyapp.proofs.pagoda_library`); a row is ``sum of literals >= bound``, encoded
by pysat's totalizer.
A solution found is decoded and replayed by pyapp (:func:`pyapp.sat.decode.verify`) before it is printed.

    python scripts/sat_pagoda.py german e1 e1 [--solver cadical153] [--max-seconds 1800]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from pyapp.core.catalogue import get_board  # noqa: E402
from pyapp.core.notation import format_moves  # noqa: E402
from pyapp.core.problem import make_problem  # noqa: E402
from pyapp.proofs.pagoda import pagodas_for  # noqa: E402
from pyapp.sat.decode import decode, verify  # noqa: E402
from pyapp.sat.encode import encode  # noqa: E402


def pagoda_rows(enc, pagodas, complement: bool):
    """``(literals, bound)`` per step and pagoda: the pagoda's value after the step is at least its threshold."""
    rows = []
    for t in range(1, enc.steps):
        for pagoda, thr in pagodas:
            w = dict(pagoda.weights)
            lits, bound = [], thr
            for k, bit in enumerate(enc.holes):
                x = w.get(bit, 0)
                var = enc.peg(t, k)
                if complement:  # the value of the complement: the peg's absence counts
                    var = -var
                if x == 1:
                    lits.append(var)
                elif x == -1:
                    lits.append(-var)
                    bound += 1
            if bound > 0:
                rows.append((lits, bound))
    return rows


def usable_pagodas(board, finish: int) -> list:
    """The pagodas toward ``finish`` whose weights are all -1, 0 or 1 (a cardinality row each), with thresholds."""
    return [(p, t) for p, t in pagodas_for(board, [finish]) if all(w in (-1, 1) for _, w in p.weights)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("board")
    ap.add_argument("start")
    ap.add_argument("goal")
    ap.add_argument("--solver", default="cadical153")
    ap.add_argument("--max-seconds", type=float, default=600.0)
    ap.add_argument("--plain", action="store_true", help="without the pagoda rows (for comparison)")
    args = ap.parse_args()
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    board = get_board(args.board)
    problem = make_problem(board, start=args.start, goal=args.goal)
    enc = encode(problem)
    finish = 1 << board.hole(args.goal)
    pagodas = usable_pagodas(board, finish)
    clauses = list(enc.clauses)
    pool = IDPool(start_from=enc.num_vars + 1)
    rows = 0
    if not args.plain:
        is_complement = problem.start == board.mask ^ finish
        for complement in (False, True) if is_complement else (False,):
            for lits, bound in pagoda_rows(enc, pagodas, complement):
                clauses += CardEnc.atleast(lits, bound=bound, vpool=pool, encoding=EncType.totalizer).clauses
                rows += 1
    print(f"{enc.steps} steps, {len(pagodas)} pagodas, {rows} rows, {pool.top} variables, {len(clauses)} clauses",
          file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    with Solver(name=args.solver, bootstrap_with=clauses) as s:
        deadline = t0 + args.max_seconds
        status = None
        while status is None and time.perf_counter() < deadline:
            s.conf_budget(20_000)
            status = s.solve_limited()
            stats = s.accum_stats() or {}
            print(f"{time.perf_counter() - t0:.0f} s: {stats.get('conflicts', 0):,} conflicts", file=sys.stderr,
                  flush=True)
        seconds = time.perf_counter() - t0
        if status is None:
            print(f"unknown: {args.solver} stopped after {seconds:.0f} s "
                  f"({(s.accum_stats() or {}).get('conflicts', 0):,} conflicts)")
            return 2
        if status is False:
            print(f"unsatisfiable ({args.solver}, {seconds:.0f} s): no {enc.steps}-jump solution")
            return 3
        jumps = decode(enc, s.get_model() or [])
        final = verify(enc, jumps)
        moves = " ".join(format_moves(board, jumps))
        print(f"solved in {seconds:.0f} s, replayed to {bin(final).count('1')} peg: {moves}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
