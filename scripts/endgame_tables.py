"""The goals' endgame tables (pyapp.exact.endgame) measured, and never-lose with and without them.

For each game (``BOARD:START:GOAL``): the table's size (pegs answered by lookup, the ceiling of its search,
classes, bytes of keys) and the CPU seconds to sweep it, in CPython and in real Pyodide under Node; then
never-lose (``never_lose_steps``, Hint's 10 s budget counted in CPU seconds) at every position of seeded games
from ``--top`` pegs down, first without the table (as before it existed), then with it, on the same positions,
each mode with empty tables of proved positions: CPU seconds per position (median, 95th percentile, max), jump
verdicts left unknown, positions the table answered, and disagreements between the two modes where both decided
(0 expected).  The games follow a solver line down to ``--top`` pegs, then a jump the table proves good with
probability 0.8 (else any legal jump), until no jump is left or the position is lost.

With ``--shipped``, the games whose table the site ships (:data:`pyapp.web.sets.ENDGAMES`) are measured a third
time, with that table (swept, written, read back and installed as the page does): its size, file bytes, sweep and
decode CPU, the same figures per position and the disagreements with the first mode.

    python scripts/endgame_tables.py french:d2:d6 german:e5:e5 [--games 2] [--top 22] [--shipped] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pyapp.analysis import proven  # noqa: E402
from pyapp.analysis.neverlose import never_lose_steps  # noqa: E402
from pyapp.bench.rows import percentile  # noqa: E402
from pyapp.core.budget import CPU_CLOCK, Budget, drive  # noqa: E402
from pyapp.core.catalogue import get_board  # noqa: E402
from pyapp.core.moves import apply_jump, legal_jumps  # noqa: E402
from pyapp.core.problem import Problem, make_problem  # noqa: E402
from pyapp.exact import endgame  # noqa: E402
from pyapp.exact.endgame import Endgame  # noqa: E402
from pyapp.exact.endgame_files import decode_table, encode_table, sweep_table  # noqa: E402
from pyapp.search.solver import search  # noqa: E402
from pyapp.web.sets import ENDGAMES  # noqa: E402

GOOD = 0.8


def positions(problem: Problem, games: int, top: int) -> list[int]:
    """The positions of ``games`` seeded games from ``top`` pegs down (module docstring)."""
    board, goal, out = problem.board, problem.goal, []
    table = drive(endgame.endgame_steps(board, goal, problem.start, Budget(600)))
    assert table is not None
    table.ceiling, table.limit = len(board), 1 << 62  # choosing the moves: exact, whatever it costs
    for seed in range(games):
        rng, pos = random.Random(seed), problem.start
        for jump in drive(search(problem, seed=seed, budget=Budget(60, clock=CPU_CLOCK))).jumps:
            if pos.bit_count() <= top:
                break
            pos = apply_jump(pos, jump)
        while True:
            out.append(pos)
            jumps = legal_jumps(board, pos)
            table.question()
            if not jumps or not table.can_win(pos):
                break
            good = [j for j in jumps if table.can_win(apply_jump(pos, j))]
            pos = apply_jump(pos, rng.choice(good if rng.random() < GOOD else jumps))
    endgame.clear()
    return out


def never_lose(problem: Problem, where: list[int], with_table: bool, table: Endgame | None = None) -> list[dict]:
    """Never-lose at each of ``where``, tables of proved positions emptied first; the endgame table swept when
    needed (``with_table``), or ``table`` installed as a shipped one, or none."""
    endgame.MIN_HOLES = 33 if with_table else 1 << 20
    proven._TABLES.clear()
    endgame.clear()
    if table is not None:
        endgame.install(table)
    rows = []
    for pos in where:
        t = time.process_time()
        r = drive(never_lose_steps(Problem(problem.board, pos, problem.goal), budget=Budget(10, clock=CPU_CLOCK)))
        rows.append({"pegs": pos.bit_count(), "cpu": round(time.process_time() - t, 3), "status": r.status,
                     "unknown": len(r.jumps.unknown) + (r.status == "unknown"), "table": bool(r.answered),
                     "good": sorted(r.jumps.good), "bad": sorted(r.jumps.bad)})
    return rows


PYODIDE = """
import json, time
from pyapp.core.budget import Budget, drive
from pyapp.core.catalogue import get_board
from pyapp.core.problem import make_problem
from pyapp.exact.endgame import endgame_steps
b, s, g = SPEC.split(":")
p = make_problem(get_board(b), start=s, goal=g)
t = time.process_time()
table = drive(endgame_steps(p.board, p.goal, p.start, Budget(600)))
print("RESULT " + json.dumps([time.process_time() - t, len(table)]))
"""


def pyodide_build(spec: str) -> float | None:
    """CPU seconds of the same sweep in real Pyodide under Node (``scripts/pyodide_runner.mjs``), or None."""
    code = f"SPEC = {spec!r}\n" + PYODIDE
    try:
        proc = subprocess.run(["node", str(ROOT / "scripts" / "pyodide_runner.mjs"), "-c", code], cwd=ROOT,
                              capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired):
        return None
    line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
    return None if line is None else round(json.loads(line[7:])[0], 2)


def summary(rows: list[dict]) -> dict:
    cpu = sorted(r["cpu"] for r in rows)
    p95 = percentile(cpu, 0.95)
    return {"positions": len(rows), "median": statistics.median(cpu), "p95": p95, "max": cpu[-1],
            "unknown": sum(r["unknown"] for r in rows), "by_table": sum(r["table"] for r in rows)}


def measure(spec: str, games: int, top: int, shipped: bool = False) -> dict:
    board_id, start, goal = spec.split(":")
    problem = make_problem(get_board(board_id), start=start, goal=goal)
    endgame.clear()
    t = time.process_time()
    table = drive(endgame.endgame_steps(problem.board, problem.goal, problem.start, Budget(600)))
    cpu = time.process_time() - t
    assert table is not None
    out = {"game": spec, "lookup_pegs": table.low, "ceiling": table.ceiling, "classes": len(table),
           "key_bytes": table.nbytes, "build_cpu": round(cpu, 2), "build_pyodide": pyodide_build(spec)}
    where = positions(problem, games, top)
    off, on = never_lose(problem, where, False), never_lose(problem, where, True)
    both = [(a, b) for a, b in zip(off, on) if not a["unknown"] and not b["unknown"]]
    verdicts = [((a["status"], a["good"], a["bad"]), (b["status"], b["good"], b["bad"])) for a, b in both]
    out["disagreements"] = sum(x != y for x, y in verdicts)
    out["without"], out["with"] = summary(off), summary(on)
    out["per_position"] = [[a["pegs"], a["cpu"], b["cpu"], a["unknown"], b["unknown"]] for a, b in zip(off, on)]
    if shipped:
        out["shipped"] = measure_shipped(problem, where, off)
    return out


def measure_shipped(problem: Problem, where: list[int], off: list[dict]) -> dict:
    """Never-lose on the same positions with the table the site ships (:mod:`pyapp.exact.endgame_files`): swept,
    written, read back and installed as the page installs it."""
    endgame.clear()
    t = time.process_time()
    swept = sweep_table(problem)
    sweep_cpu = time.process_time() - t
    data = encode_table(swept)
    del swept
    endgame.clear()
    t = time.process_time()
    table = decode_table(data, problem)
    decode_cpu = time.process_time() - t
    rows = never_lose(problem, where, True, table)
    both = [(a, b) for a, b in zip(off, rows) if not a["unknown"] and not b["unknown"]]
    return {"lookup_pegs": table.low, "ceiling": table.ceiling, "classes": len(table), "file_bytes": len(data),
            "sweep_cpu": round(sweep_cpu, 2), "decode_cpu": round(decode_cpu, 2),
            "disagreements": sum((a["status"], a["good"], a["bad"]) != (b["status"], b["good"], b["bad"])
                                 for a, b in both),
            "summary": summary(rows), "per_position": [[r["pegs"], r["cpu"], r["unknown"]] for r in rows]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+", help="BOARD:START:GOAL")
    ap.add_argument("--games", type=int, default=2, dest="count")
    ap.add_argument("--top", type=int, default=22)
    ap.add_argument("--shipped", action="store_true",
                    help="also with the table the site ships, for the games of pyapp.web.sets.ENDGAMES")
    ap.add_argument("--out")
    args = ap.parse_args()
    results = []
    for spec in args.games:
        r = measure(spec, args.count, args.top, args.shipped and tuple(spec.split(":")) in ENDGAMES)
        results.append(r)
        print(json.dumps({k: v for k, v in r.items() if k not in ("per_position", "shipped")}),
              json.dumps({k: v for k, v in r.get("shipped", {}).items() if k != "per_position"}), flush=True)
    if args.out:
        record = {"python": platform.python_version(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                  "command": "python scripts/endgame_tables.py " + " ".join(sys.argv[1:]), "games": results}
        Path(args.out).write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
