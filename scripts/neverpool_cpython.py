"""Never-lose on the page's pool, emulated in CPython: the plan, the shares on N lanes, the merge.

The page's pool path (:mod:`pyapp.web.neverpool`, ``static/panels/neverpool.mjs``) driven without a browser:
the plan in the "engine" (its own table of proved positions), then the shares on N lanes, each lane a pool
worker with its own table, in virtual time: every share's step generator is advanced one report at a time,
always the lane whose CPU clock is furthest behind, and each share's budget reads its lane's clock (CPU
seconds the lane has spent, so the shared machine's load does not change the answers).  The page's rules are
mirrored: the ``jumps`` question (listed second by the plan) gets all that is left of the budget, the classes
decided by the time it starts (``decided``) and those decided while it runs (as the page tells it), each other
question its lane's share of what is left; a question
whose answer no longer matters is asked to stop (the position once a jump is good, every jump once the position
is lost, the class the position's solution starts with, the classes the ``jumps`` question names, the ``jumps``
question once every class is decided).  Then the merge, as the page's engine runs it.

Per position and mode (``one``: the one-worker check; ``pool``: the plan without the ``jumps`` question, as
before it was asked; ``shared``: the plan as it is; ``shared-last`` with ``--last``: the ``jumps`` question
asked after all the others instead): jump verdicts left unknown, the position's status, CPU seconds (every lane, the
plan and the merge), and the time to decide (the last lane's clock: wall seconds on N idle cores).
Positions: seeded random games (``--seed``), the jump before ``--pegs`` pegs taken from a solver line with
probability 0.8 (else any legal jump), then, from ``--pegs`` down to ``--low``, one the one-worker check filed
good with probability 0.8, as the ``neverlose-play-*`` bench rows choose.  Tables start empty at each position.

    python scripts/neverpool_cpython.py german:e5:e5 french:d2:d6 [--games 2] [--pegs 24] [--low 18]
                                        [--workers 2] [--seconds 10] [--last] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pyapp.analysis import proven  # noqa: E402
from pyapp.analysis.neverlose import never_lose_steps  # noqa: E402
from pyapp.analysis.turns import TaskClock  # noqa: E402
from pyapp.core.budget import CPU_CLOCK, Budget, drive  # noqa: E402
from pyapp.core.catalogue import get_board  # noqa: E402
from pyapp.core.moves import apply_jump, legal_jumps  # noqa: E402
from pyapp.core.notation import format_moves  # noqa: E402
from pyapp.core.problem import Problem, make_problem  # noqa: E402
from pyapp.search.solver import search  # noqa: E402
from pyapp.web import neverpool  # noqa: E402

SLICE = 0.025  # the pool worker's slice (pyapp.web.jobs.ANALYSIS_SLICE_SECONDS)
GOOD = 0.8


class Lane:
    """One pool worker: its table of proved positions, its CPU clock, the share it runs."""

    def __init__(self, start: float) -> None:
        self.tables: dict = {}
        self.clock = TaskClock(CPU_CLOCK)
        self.start = start
        self.i: int | None = None
        self.gen = None
        self.budget: Budget | None = None

    def now(self) -> float:
        return self.start + self.clock()


def _in(tables: dict, fn):
    saved, proven._TABLES = proven._TABLES, tables
    try:
        return fn()
    finally:
        proven._TABLES = saved


def pool_check(problem: Problem, moves: list[str], args: dict, workers: int, seconds: float, shared: bool,
               last: bool = False) -> dict:
    """The pool path at one position (tables empty): the merged answer, CPU seconds, the time to decide."""
    engine: dict = {}
    t = time.process_time()
    plan = _in(engine, lambda: drive(neverpool.plan_steps(problem, seconds, [problem.start])))
    plan_cpu = time.process_time() - t
    if "shares" not in plan:
        return {"answer": plan, "cpu": plan_cpu, "decide": plan_cpu, "asked": [], "jumps": []}
    shares = [s for s in plan["shares"] if shared or s != neverpool.JUMPS]
    if last and neverpool.JUMPS in shares:  # (for comparison: the jumps question asked after all the others)
        shares.remove(neverpool.JUMPS)
        shares.append(neverpool.JUMPS)
    n, at = len(shares), shares.index(neverpool.POSITION) if neverpool.POSITION in shares else -1
    together = [i for i, name in enumerate(shares) if name == neverpool.JUMPS]
    answers: list = [None] * n
    skipped, left, by_together = set(), set(), set()
    lanes = [Lane(plan_cpu) for _ in range(workers)]
    state = {"next": 0, "launched": 0, "asked": False}

    told: set[str] = set()
    later: list[str] = []

    def decided_now() -> list[str]:
        return list(plan["decided"]) + [shares[j] for j in range(n) if is_class(j) and decided_of(j)]

    def is_class(i: int) -> bool:
        return i != at and i not in together

    def decided_of(i: int) -> bool:
        a = answers[i]
        return (a is not None and a["status"] != "unknown") or i in skipped or shares[i] in by_together

    def leave_out(i: int) -> None:
        if i < 0 or answers[i] is not None or i in left:
            return
        left.add(i)
        for lane in lanes:
            if lane.i == i and lane.budget is not None:
                lane.budget.cancel()

    def settle() -> None:
        whole = answers[at] if at >= 0 else None
        if whole is not None and whole["status"] == "impossible":
            for i in range(n):
                if i != at:
                    leave_out(i)
            return
        if whole is not None and whole["status"] == "solved" and whole["moves"]:
            first = "-".join(whole["moves"][0].split("-")[:2])
            if first in shares and is_class(shares.index(first)) and answers[shares.index(first)] is None:
                skipped.add(shares.index(first))
                leave_out(shares.index(first))
        if any(a is not None and a["status"] == "solved" for i, a in enumerate(answers) if i != at):
            leave_out(at)
        for i in range(n):
            if is_class(i) and shares[i] in by_together:
                leave_out(i)
        if all(not is_class(i) or decided_of(i) for i in range(n)):
            for i in together:
                leave_out(i)
        elif state["asked"] and together and answers[together[0]] is None and together[0] not in left:
            news = [name for name in decided_now() if name not in told and name not in by_together]
            told.update(news)  # the classes decided since it started: it drops them (Engine.tell)
            later.extend(news)

    def launch(lane: Lane) -> None:
        lane.i = lane.gen = lane.budget = None
        while state["next"] < n:
            i = state["next"]
            state["next"] += 1
            if i in left:
                continue
            rest = max(0.1, seconds - lane.now())
            ahead = bool(together) and not state["asked"] and i not in together  # the jumps question still to ask
            waiting = max(1, n - state["launched"] - ahead)
            state["launched"] += 1
            state["asked"] = state["asked"] or i in together
            budget = Budget(rest if i in together else min(rest, rest * workers / waiting), clock=lane.clock,
                            slice_seconds=SLICE)
            decided = None
            if i in together:
                decided = decided_now()
                told.update(decided)
            prob = Problem(problem.board, problem.start, problem.goal)
            lane.i, lane.budget = i, budget
            lane.gen = neverpool.share_steps(prob, shares[i], budget, decided, later)
            return

    for lane in lanes:
        launch(lane)
    while True:
        running = [lane for lane in lanes if lane.gen is not None]
        if not running:
            break
        lane = min(running, key=Lane.now)
        lane.clock.resume()
        saved, proven._TABLES = proven._TABLES, lane.tables
        try:
            p = next(lane.gen)
            value = None
        except StopIteration as stop:
            p, value = None, stop.value
        finally:
            proven._TABLES = saved
            lane.clock.pause()
        i = lane.i
        assert i is not None
        if p is not None:
            if i in together and p.note.startswith(neverpool.DECIDED):
                by_together.update(p.note[len(neverpool.DECIDED):].split())
                settle()
            continue
        answers[i] = value
        if i in together:
            by_together.update(a["decide"] for a in value["answers"])
        settle()
        launch(lane)
    decide = max(lane.now() for lane in lanes)
    lanes_cpu = sum(lane.clock() for lane in lanes)
    t = time.process_time()
    out = _in(engine, lambda: neverpool.merge_request({**args, "parts": answers, "workers": workers,
                                                       "max_seconds": seconds}))
    merge_cpu = time.process_time() - t
    return {"answer": out, "cpu": plan_cpu + lanes_cpu + merge_cpu, "decide": decide + merge_cpu,
            "asked": [s for i, s in enumerate(shares) if i not in left or answers[i] is not None],
            "jumps": [None if answers[i] is None else {"status": answers[i]["status"], "nodes": answers[i]["nodes"],
                                                       "decided": len(answers[i]["answers"])} for i in together]}


def one_check(problem: Problem, seconds: float):
    t = time.process_time()
    r = _in({}, lambda: drive(never_lose_steps(problem, budget=Budget(seconds, clock=CPU_CLOCK))))
    return r, time.process_time() - t


def games(board_id: str, start: str, goal: str, opts):
    """The positions of ``--games`` seeded games between ``--pegs`` and ``--low`` pegs (see the docstring)."""
    problem = make_problem(get_board(board_id), start=start, goal=goal)
    board = problem.board
    for g in range(opts.games):
        rng = random.Random(opts.seed + g)
        pos, moves = problem.start, []
        while pos.bit_count() > opts.pegs:
            jumps = legal_jumps(board, pos)
            if not jumps:
                break
            jump = rng.choice(jumps)
            if rng.random() < GOOD:
                r = drive(search(Problem(board, pos, problem.goal), budget=Budget(3, clock=CPU_CLOCK)))
                jump = r.jumps[0] if r.status == "solved" else jump
            pos = apply_jump(pos, jump)
            moves.append(format_moves(board, [jump])[0])
        while pos.bit_count() >= opts.low and legal_jumps(board, pos):
            told: dict = {}
            yield g, problem, pos, list(moves), told  # the caller puts its one-worker check in told["one"]
            one = told["one"]
            if one.status == "lost":
                break
            jumps = legal_jumps(board, pos)
            jump = rng.choice(one.jumps.good if one.jumps.good and rng.random() < GOOD else jumps)
            pos = apply_jump(pos, jump)
            moves.append(format_moves(board, [jump])[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games_", nargs="+", metavar="BOARD:START:GOAL")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=28)
    ap.add_argument("--pegs", type=int, default=24)
    ap.add_argument("--low", type=int, default=18)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--last", action="store_true", help="also with the jumps question asked after the others")
    ap.add_argument("--out", default=None)
    opts = ap.parse_args()
    print("load:", os.getloadavg(), flush=True)
    rows = []
    for spec in opts.games_:
        board_id, start, goal = spec.split(":")
        for g, problem, pos, moves, told in games(board_id, start, goal, opts):
            board = problem.board
            args = {"board": board_id, "start": start, "goal": goal, "moves": moves}
            one, one_cpu = one_check(Problem(board, pos, problem.goal), opts.seconds)
            told["one"] = one
            row = {"game": spec, "seed": opts.seed + g, "pegs": pos.bit_count(), "moves": moves,
                   "one": {"status": one.status, "unknown": len(one.jumps.unknown), "cpu": round(one_cpu, 2)}}
            modes = [("pool", False, False), ("shared", True, False)]
            modes += [("shared-last", True, True)] if opts.last else []
            for name, shared, last in modes:
                r = pool_check(Problem(board, pos, problem.goal), moves, args, opts.workers, opts.seconds, shared, last)
                a = r["answer"]
                row[name] = {"status": a["status"], "unknown": len(a["unknown"]), "cpu": round(r["cpu"], 2),
                             "decide": round(r["decide"], 2), "asked": len(r["asked"]), "jumps": r["jumps"]}
            rows.append(row)
            print(json.dumps({k: v for k, v in row.items() if k != "moves"}), flush=True)
    print("load:", os.getloadavg(), flush=True)
    _summary(rows)
    if opts.out:
        Path(opts.out).write_text(json.dumps(rows, indent=1))


def _summary(rows: list[dict]) -> None:
    for spec in dict.fromkeys(r["game"] for r in rows):
        mine = [r for r in rows if r["game"] == spec]
        for mode in [k for k in mine[0] if k not in ("game", "seed", "pegs", "moves")]:
            cpu = sorted(r[mode]["cpu"] for r in mine)
            unknown = sum(r[mode]["unknown"] for r in mine)
            line = (f"{spec} {mode}: {len(mine)} positions, unknown jump verdicts {unknown}"
                    f", positions unknown {sum(r[mode]['status'] == 'unknown' for r in mine)}, CPU s total "
                    f"{sum(cpu):.1f} median {cpu[len(cpu) // 2]:.2f} max {cpu[-1]:.2f}")
            if "decide" in mine[0][mode]:
                dec = sorted(r[mode]["decide"] for r in mine)
                line += f"; time to decide on the lanes: median {dec[len(dec) // 2]:.2f} max {dec[-1]:.2f}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
