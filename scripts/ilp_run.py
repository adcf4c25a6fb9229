"""Run the time-indexed integer programme (pyapp.search.ilp) of one problem with HiGHS's log written to a file.

``solve --engine ilp`` answers the same programme without a log; this script is for runs of an hour, whose
progress (nodes, bound, gap) is worth watching:

    PYTHONPATH=. nice -n 10 .venv/bin/python scripts/ilp_run.py german e1 e1 --seconds 4500 --log ilp.log [--plain]

``--heuristics 0.01`` lowers HiGHS's heuristic effort (a programme with no objective is only a question of
feasibility; a proof of infeasibility needs the tree, not the heuristics); ``--plain`` builds the programme
without the additions of pyapp.search.ilp_cuts (to compare); ``--threads`` sets HiGHS's threads (1 by
default: the machine is shared); ``--option NAME=VALUE`` sets any other HiGHS option; ``--level-positions`` the
positions the reachability fixings may enumerate a side.  ``--split`` runs one programme per class of jumps at
the first step with a choice (:mod:`pyapp.search.ilp_split`: the problem from the position after the forced jumps
and the class's first jump), ``--jobs`` of them at once, each logged to
``LOG.partK`` (``--part K`` runs one): HiGHS's tree search uses one core, the parts use them all. ``--depth D``
splits each part again, D choices deep (:func:`pyapp.search.ilp_split.leaves`; one part per position up to the
goal's symmetries, :func:`pyapp.search.ilp_split.distinct`: ``--part K`` counts those), and ``--ledger FILE``
appends each part's answer to FILE (JSON lines, named by the jumps before the part) as it ends and skips the parts
FILE holds settled (by line, or by position: :func:`pyapp.search.ilp_split.covering`): a proof longer than one run
goes on where the last stopped. ``--dual`` (a problem that is its own reverse, German e1 -> e1) lets each part
refuse closings by time reversal (:func:`pyapp.search.ilp_split.closings`): on part 37 three choices deep
(``c4-e4 c5-e5 a5-c5``, 110 closings refused), side by side for 600 s, HiGHS explored 77.9 % of the tree (5,414
nodes) with them and 64.3 % (1,865 nodes) without (2026-12-08, one thread each, nothing else running).
Prints the answer as one JSON line (with --split: the whole answer and each part's;
a line per finished part goes to standard error).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
import time

from pyapp.core.catalogue import get_board
from pyapp.core.game import replay
from pyapp.core.notation import format_jump
from pyapp.core.problem import make_problem
from pyapp.proofs import lp
from pyapp.proofs.lp_backends import Highspy
from pyapp.search.ilp import IlpFormulation, _answer
from pyapp.search.ilp_cuts import LEVEL_POSITIONS
from pyapp.search.ilp_split import closings, covering, distinct, leaves, refuse_closings, self_dual


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


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("board")
    ap.add_argument("start")
    ap.add_argument("goal")
    ap.add_argument("--seconds", type=float, default=600.0, help="HiGHS's time limit (of each part with --split)")
    ap.add_argument("--log", default="ilp.log", help="HiGHS's log (with --split: one per part, .partK added)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--heuristics", type=float, default=None,
                    help="HiGHS's mip_heuristic_effort (default 0.05): less leaves more time to prove infeasibility")
    ap.add_argument("--plain", action="store_true", help="without pyapp.search.ilp_cuts's additions")
    ap.add_argument("--cuts", help="only these additions, comma-separated (counts, symmetry, reversal, levels)")
    ap.add_argument("--level-positions", type=int, default=LEVEL_POSITIONS,
                    help=f"positions the reachability fixings may enumerate a side (default {LEVEL_POSITIONS:,})")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="any other HiGHS option")
    ap.add_argument("--split", action="store_true",
                    help="one programme per class of jumps at the first step with a choice (pyapp.search.ilp_split), "
                         "run side by side on --jobs processes; impossible when every part is infeasible")
    ap.add_argument("--part", type=int, help="with --split: only this part (0-based)")
    ap.add_argument("--depth", type=int, default=1,
                    help="with --split: split the parts again, this many choices deep (default 1)")
    ap.add_argument("--ledger", help="with --split: a file of JSON lines where each part's answer is appended as it "
                                     "ends; the parts it holds settled are not run again")
    ap.add_argument("--jobs", type=int, default=1, help="with --split: parts run at once (default 1)")
    ap.add_argument("--dual", action="store_true",
                    help="with --split, for a problem that is its own reverse: each part refuses the closings of the "
                         "parts the ledger proves and of the parts before it (pyapp.search.ilp_split.closings); its "
                         "ledger row says so and counts for its own line only")
    return ap


def run(args: argparse.Namespace, part: int | None, log: str) -> dict:
    """Build the programme (of leaf ``part`` of the split when it is a number), solve it with the log in ``log``,
    and return the answer as a JSON-ready dict."""
    more = dict(o.split("=", 1) for o in args.option)
    lp.use_backend(LoggedHighspy(log, args.threads, args.heuristics, more))
    t0, b0 = time.perf_counter(), time.process_time()
    whole = problem = make_problem(get_board(args.board), start=args.start, goal=args.goal)
    cuts = False if args.plain else True if args.cuts is None else [c for c in args.cuts.split(",") if c]
    label, before = None, []
    if part is not None:
        leaf = distinct(whole, leaves(whole, args.depth))[part]
        label, before, problem = f"after {leaf.line()}", list(leaf.before), leaf.problem
    f = IlpFormulation(problem, args.seconds, cuts=cuts, level_positions=args.level_positions)
    dual = None
    if args.dual and part is not None:
        name = f"{args.board} {args.start} -> {args.goal}"
        refused = refuse_closings(f, len(before), closings(whole, args.depth, _ledger(args, name), part))
        dual = {"depth": args.depth, "index": part, "refused": refused}
    built, built_cpu = time.perf_counter() - t0, time.process_time() - b0
    c0 = time.process_time()
    solution = lp.solve(f.model)
    cpu = time.process_time() - c0
    answer = _answer(f, solution, t0)
    board = problem.board
    line = None
    if answer.status == "solved":
        line = " ".join(format_jump(board, j) for j in [*before, *answer.jumps])
        check = replay(board, whole.start, line.split())
        if not check.valid or not whole.goal.reached(check.final):
            raise SystemExit(f"error: the solution does not replay: {check.error or 'goal missed'}")
    return {"problem": f"{args.board} {args.start} -> {args.goal}", "part": label, "plain": args.plain,
            "cuts": args.cuts, "options": more,
            "status": answer.status, "reason": answer.reason, "nodes": solution.nodes,
            "highs_status": solution.status, "gap": solution.gap, "seconds": round(solution.seconds, 1),
            "cpu_seconds": round(cpu, 1), "build_seconds": round(built, 2),
            "build_cpu_seconds": round(built_cpu, 2), "columns": f.model.columns,
            "rows": f.model.rows, "notes": f.notes, "heuristics": args.heuristics,
            "moves": None if line is None else len(line.split()), "solution": line,
            **({"dual": dual} if dual else {})}


def _run_part(job: tuple[argparse.Namespace, int]) -> tuple[int, dict]:
    args, k = job
    return k, run(args, k, f"{args.log}.part{k}")


def _ledger(args: argparse.Namespace, name: str) -> list[dict]:
    """The parts of problem ``name`` the ledger holds settled (solved or impossible), built the same way."""
    out: list[dict] = []
    if args.ledger and os.path.exists(args.ledger):
        with open(args.ledger, encoding="utf-8") as f:
            for row in map(json.loads, filter(str.strip, f)):
                if row.get("problem") == name and row.get("status") in ("solved", "impossible") \
                        and row.get("plain") == args.plain and row.get("cuts") == args.cuts:
                    out.append(row)
    return out


def _finite(value: float | None) -> float | None:
    """``value``, or None for an infinite or undefined one (the ledger is strict JSON)."""
    return value if value is not None and math.isfinite(value) else None


def split(args: argparse.Namespace) -> dict:
    """Run the parts (all, or ``args.part``) on ``args.jobs`` processes, but those the ledger holds settled; the
    whole answer with each part's, each part's appended to the ledger as it ends."""
    problem = make_problem(get_board(args.board), start=args.start, goal=args.goal)
    every = distinct(problem, leaves(problem, args.depth))
    name = f"{args.board} {args.start} -> {args.goal}"
    chosen = range(len(every)) if args.part is None else [args.part]
    if args.part is not None and not 0 <= args.part < len(every):
        raise SystemExit(f"error: --part {args.part}: this programme has parts 0-{len(every) - 1}")
    held = _ledger(args, name)
    found = {k: covering(held, every[k].line(), problem) for k in chosen}
    answers = [{**row, "from_ledger": True} for row in {id(r): r for r in found.values() if r}.values()]
    todo = [k for k in chosen if found[k] is None]
    if not any(a["status"] == "solved" for a in answers) and todo:
        with multiprocessing.get_context("fork").Pool(max(1, min(args.jobs, len(todo)))) as pool:
            for k, answer in pool.imap_unordered(_run_part, [(args, k) for k in todo]):
                answers.append(answer)
                found[k] = answer
                print(json.dumps({"part done": answer["part"], "status": answer["status"], "nodes": answer["nodes"],
                                  "cpu_seconds": answer["cpu_seconds"]}), file=sys.stderr, flush=True)
                if args.ledger:
                    with open(args.ledger, "a", encoding="utf-8") as f:
                        row = {**answer, "line": every[k].line(), "gap": _finite(answer["gap"]),
                               "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
                        f.write(json.dumps(row, allow_nan=False) + "\n")
                if answer["status"] == "solved":
                    pool.terminate()
                    break
    nodes, cpu = sum(a["nodes"] or 0 for a in answers), sum(a["cpu_seconds"] or 0 for a in answers)
    if any(a["status"] == "solved" for a in answers):
        status, reason = "solved", None
    elif all((found[k] or {}).get("status") == "impossible" for k in chosen):
        status = "impossible"
        deep = "" if args.depth == 1 else f", split at its first {args.depth} choices"
        scope = (f"each of its {len(every)} parts{deep}" if args.part is None
                 else f"part {args.part} only ({answers[0]['part']})")
        kept = len(chosen) - len(todo)
        reason = (f"integer programme infeasible in {scope} (HiGHS, {nodes:,} nodes, {cpu:,.0f} CPU s in all"
                  f"{f'; {kept} parts from the ledger {args.ledger}' if kept else ''})")
    else:
        status = "unknown"
        reason = "a part ended unsettled: " + "; ".join(f"{a['part']}: {a['status']}" for a in answers
                                                        if a["status"] != "impossible")
    return {"problem": name, "split": len(every), "depth": args.depth, "part": args.part, "parts": answers,
            "status": status, "reason": reason, "nodes": nodes, "cpu_seconds": round(cpu, 1),
            "seconds": max((a["seconds"] for a in answers), default=0.0)}


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.dual and not (args.split or args.part is not None):
        raise SystemExit("error: --dual refuses closings of the parts of a split: give --split")
    if args.dual and not self_dual(make_problem(get_board(args.board), start=args.start, goal=args.goal)):
        raise SystemExit("error: --dual needs a problem that is its own reverse (one hole empty, that hole the finish)")
    if args.depth < 1:
        raise SystemExit(f"error: --depth {args.depth}: a split is at least 1 deep")
    answer = split(args) if args.split or args.part is not None else run(args, None, args.log)
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
