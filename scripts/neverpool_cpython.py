"""Never-lose on the page's pool, emulated in CPython: the plan, its items on N lanes, the merge.

The page's pool path (:mod:`pyapp.web.neverpool`, :mod:`pyapp.web.neverpool_shares`, ``static/panels/neverpool.mjs``)
driven without a browser: the plan in the "engine" (its own table of proved positions), then the plan's items (the
``jumps`` share, the groups of questions), one per lane, each lane a pool worker with its own table, in virtual time:
every share's step generator is advanced one report at a time, always the lane whose CPU clock is furthest behind,
and each share's budget reads its lane's clock (CPU seconds the lane has spent, so the shared machine's load does not
change the answers).  The page's rules are mirrored: every item starts at once on all that is left of the budget; a
question one lane answers is told to the others that hold it (they drop it, and end of themselves once nothing is left),
the position once a jump is proved good; every lane is stopped once the position is proved lost.  Then the merge, as
the page's engine runs it.

Per position (``one``: the one-worker check, unless ``--pool-only``; ``pool``: the pool path): jump verdicts left
unknown, the position's status, CPU seconds (every lane, the plan and the merge), and the time to decide (the last
lane's clock: wall seconds on N idle cores).  Positions: seeded random games (``--seed``), the jump before ``--pegs``
pegs taken from a solver line with probability 0.8 (else any legal jump), then, from ``--pegs`` down to ``--low``, one
the one-worker check filed good with probability 0.8, as the ``neverlose-play-*`` bench rows choose; or, with
``--follow RUN``, the positions of a ``scripts/neverlose_games.py`` run from ``--pegs`` down to ``--low`` pegs (with
the game's shipped endgame table and opening book installed, as that script plays).  Tables start empty at each
position.

    python scripts/neverpool_cpython.py german:e5:e5 french:d2:d6 [--games 2] [--pegs 24] [--low 18]
                                        [--workers 2] [--seconds 10] [--out FILE]
    python scripts/neverpool_cpython.py french:d2:d6 --follow benchmarks/runs/RUN.jsonl --pegs 31 --low 23 [--pool-only]
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
from pyapp.bench.game_rows import install_shipped  # noqa: E402
from pyapp.bench.rows import percentile  # noqa: E402
from pyapp.core.budget import CPU_CLOCK, Budget, drive  # noqa: E402
from pyapp.core.catalogue import get_board  # noqa: E402
from pyapp.core.moves import apply_jump, legal_jumps  # noqa: E402
from pyapp.core.notation import format_moves  # noqa: E402
from pyapp.core.problem import Problem, make_problem  # noqa: E402
from pyapp.search.solver import search  # noqa: E402
from pyapp.web import neverpool  # noqa: E402
from pyapp.web import neverpool_shares as shares  # noqa: E402

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


def pool_check(problem: Problem, moves: list[str], args: dict, workers: int, seconds: float) -> dict:
    """The pool path at one position (tables empty): the merged answer, CPU seconds, the time to decide."""
    engine: dict = {}
    t = time.process_time()
    plan = _in(engine, lambda: drive(neverpool.plan_steps(problem, seconds, [problem.start], workers)))
    plan_cpu = time.process_time() - t
    if "shares" not in plan:
        return {"answer": plan, "cpu": plan_cpu, "decide": plan_cpu, "asked": [], "jumps": []}
    names = [s for s in plan["shares"] if s != shares.JUMPS]
    items = plan["items"]
    classes = [s for s in names if s != shares.POSITION]
    status: dict[str, str] = {}  # a question's answer by now (solved, impossible, unknown)
    moot: set[str] = set()  # questions no longer asked: the position once a jump is proved good
    told: list[set[str]] = [set() for _ in items]
    later: list[list[str]] = [[] for _ in items]
    answers: list = [None] * len(items)
    lanes = [Lane(plan_cpu) for _ in items]

    def decided(name: str) -> bool:
        return status.get(name, "unknown") != "unknown" or name in moot

    def settle() -> None:
        if status.get(shares.POSITION) == "impossible":
            for lane in lanes:
                if lane.budget is not None:
                    lane.budget.cancel()
            return
        if any(status.get(c) == "solved" for c in classes):
            moot.add(shares.POSITION)
        for k, item in enumerate(items):
            lane = lanes[k]
            if lane.gen is None:
                continue
            mine = classes if item["decide"] == shares.JUMPS else item["group"]
            news = [n for n in mine if decided(n) and n not in told[k]]  # it ends of itself once all are decided
            told[k].update(news)
            later[k].extend(news)

    def took(answer: dict) -> None:
        if answer["status"] != "unknown" or answer["decide"] not in status:
            status[answer["decide"]] = answer["status"]

    rest = max(0.1, seconds - plan_cpu)
    for k, item in enumerate(items):
        lane = lanes[k]
        lane.i, lane.budget = k, Budget(rest, clock=lane.clock, slice_seconds=SLICE)
        if item["decide"] == shares.JUMPS:
            lane.gen = shares.share_steps(problem, shares.JUMPS, lane.budget, item["decided"], later[k])
        else:
            lane.gen = shares.group_steps(problem, item["group"], lane.budget, item["shared"], later[k],
                                          item.get("portfolio"))
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
        k = lane.i
        assert k is not None
        if p is not None:
            if p.note.startswith(shares.DECIDED):
                for name in p.note[len(shares.DECIDED):].split():
                    status.setdefault(name, "decided")  # (its statuses come with its answer)
            elif p.note.startswith(shares.ANSWERED):
                for pair in p.note[len(shares.ANSWERED):].split():
                    name, _, got = pair.partition("=")
                    took({"decide": name, "status": got, "moves": []})
            settle()
            continue
        lane.gen = None
        answers[k] = value
        for answer in value["answers"]:
            took(answer)
        settle()
    decide = max(lane.now() for lane in lanes)
    lanes_cpu = sum(lane.clock() for lane in lanes)
    t = time.process_time()
    out = _in(engine, lambda: neverpool.merge_request({**args, "parts": answers, "workers": workers,
                                                       "max_seconds": seconds}))
    merge_cpu = time.process_time() - t
    return {"answer": out, "cpu": plan_cpu + lanes_cpu + merge_cpu, "decide": decide + merge_cpu,
            "asked": names, "items": items}


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


def followed(board_id: str, start: str, goal: str, run: str, low: int, high: int):
    """The positions of a ``scripts/neverlose_games.py`` run (``--jsonl``) with ``low``..``high`` pegs that the run did
    not find lost, each with the moves that reach it."""
    problem = make_problem(get_board(board_id), start=start, goal=goal)
    board = problem.board
    pos, moves, game = problem.start, [], None
    for line in Path(run).read_text().splitlines():
        row = json.loads(line)
        if row["game"] != game:
            pos, moves, game = problem.start, [], row["game"]
        if low <= pos.bit_count() <= high and row["status"] != "lost":
            yield game, problem, pos, list(moves)
        if row["jump"]:
            jump = tuple(row["jump"])
            moves.append(format_moves(board, [jump])[0])
            pos = apply_jump(pos, jump)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games_", nargs="+", metavar="BOARD:START:GOAL")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=28)
    ap.add_argument("--pegs", type=int, default=24)
    ap.add_argument("--low", type=int, default=18)
    ap.add_argument("--follow", default=None, metavar="RUN",
                    help="the positions of this neverlose_games run (one game spec) with --low..--pegs pegs")
    ap.add_argument("--pool-only", action="store_true", help="without the one-worker check (with --follow)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--out", default=None)
    opts = ap.parse_args()
    print("load:", os.getloadavg(), flush=True)
    rows = []
    for spec in opts.games_:
        board_id, start, goal = spec.split(":")
        if opts.follow:  # as neverlose_games.py played them: with the game's shipped endgame table and book
            install_shipped(make_problem(get_board(board_id), start=start, goal=goal))
            positions = ((g, problem, pos, moves, {}) for g, problem, pos, moves
                         in followed(board_id, start, goal, opts.follow, opts.low, opts.pegs))
        else:
            positions = games(board_id, start, goal, opts)
        for g, problem, pos, moves, told in positions:
            board = problem.board
            args = {"board": board_id, "start": start, "goal": goal, "moves": moves}
            row = {"game": spec, "seed": g if opts.follow else opts.seed + g, "pegs": pos.bit_count(), "moves": moves}
            if not (opts.follow and opts.pool_only):
                one, one_cpu = one_check(Problem(board, pos, problem.goal), opts.seconds)
                told["one"] = one
                row["one"] = {"status": one.status, "unknown": len(one.jumps.unknown), "cpu": round(one_cpu, 2)}
            r = pool_check(Problem(board, pos, problem.goal), moves, args, opts.workers, opts.seconds)
            a = r["answer"]
            row["pool"] = {"status": a["status"], "unknown": len(a["unknown"]), "cpu": round(r["cpu"], 2),
                           "decide": round(r["decide"], 2), "asked": len(r["asked"]), "items": len(r.get("items", []))}
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
                line += (f"; time to decide on the lanes: median {dec[len(dec) // 2]:.2f}"
                         f" p95 {percentile(dec, 0.95):.2f} max {dec[-1]:.2f}")
            print(line, flush=True)


if __name__ == "__main__":
    main()
