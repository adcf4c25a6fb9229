"""Our solver beside ParallelProject's compiled C++ solver, state by state, on ParallelProject's own English states.

ParallelProject (github.com/vapour101/ParallelProject, commit d655118bdb0aeb30fc27a0759a34573b1660b09b, 2017) is
the study of peg solitaire search whose growth curves the scaling study sets beside ours.  Its solver
(``ParallelBacktrack/``: depth-first search with a set of dead positions, C++11) reads a file of states, one a
line (49 characters, the 7x7 grid row by row from the top: ``o`` a peg, ``+`` an empty hole, ``.`` off the
board), solves each to one peg in the centre ``RUNS`` times and prints per state the mean time of its search
in nanoseconds, the solution's length, the nodes it touched and the dead states it stored.  Its states
(``ParallelBacktrack/initial_states/moves:N``, 100 a file) were generated backwards from the won position by
its ``state_generator.py``.  Neither its source nor its binary is part of this repository: build it outside
(its Makefile uses ``g++ -std=c++11 -Ofast``; its ``board.h`` includes ``boost/functional/hash.hpp`` for
``hash_combine`` only) and give this script the binary and the state files.

What each time includes.  C++: the binary's own clock around its search (``BackTrack::start``: the recursion
from the parsed board, its dead-state set cleared first), averaged over ``RUNS``; not reading the file, not
parsing the state, not printing.  Ours: this process, warm (one untimed solve first), the whole path
``solve --batch --json`` takes for a line: the position's text parsed into a problem
(:func:`pyapp.core.request.build`), :func:`pyapp.search.solver.solve`, the answer dict
(:func:`pyapp.core.request.result_json`) and ``json.dumps``; averaged over ``RUNS`` as well; the solve alone
is recorded beside it.  Every answer of ours is replayed to the goal; the C++ answers' lengths are checked
(one jump a peg, less one).

    PYTHONPATH=. python scripts/parallelproject_compare.py /tmp/pp/pp_o2 /tmp/pp/initial_states/moves:* \\
        --runs 10 --json benchmarks/parallelproject.json --build "g++ 12.2.0 -std=c++11 -O2"
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from pyapp.core.request import build, result_json
from pyapp.search.solver import solve

SOURCE = {"repository": "github.com/vapour101/ParallelProject", "commit": "d655118bdb0aeb30fc27a0759a34573b1660b09b",
          "solver": "ParallelBacktrack (main.cpp, backtrack.cpp, board.cpp)",
          "states": "ParallelBacktrack/initial_states/moves:N"}
CELLS = 49
COLUMNS = ("pegs", "ours_ms", "ours_solve_ms", "ours_nodes", "cpp_ms", "cpp_nodes")
"""The record's per-state rows (``states``, one list a state in the files' order), column by column."""


def read_states(paths: list[str]) -> list[str]:
    """ParallelProject's states from its files, each distinct state once, in the files' order."""
    seen: dict[str, None] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            line = line.strip()
            if len(line) == CELLS and set(line) <= {"o", "+", "."}:
                seen.setdefault(line)
            elif line:
                raise SystemExit(f"{path}: not a ParallelProject state: {line[:60]!r}")
    return list(seen)


def our_text(state: str) -> str:
    """A ParallelProject state as our position text (rows by ``/``, ``o`` a peg, ``.`` an empty hole)."""
    rows = [state[r * 7:(r + 1) * 7] for r in range(7)]
    return "/".join(row.replace(".", "").replace("+", ".") for row in rows)


def run_cpp(binary: str, states: list[str], runs: int) -> tuple[list[dict], dict]:
    """The C++ solver on every state in one process: its per-state lines, and the process's wall and CPU."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(states) + "\n")
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        out = subprocess.run([binary, f.name, str(runs)], capture_output=True, text=True, check=True).stdout
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        os.unlink(f.name)
    rows = []
    for line in out.splitlines()[1:]:  # a header line first
        ns, length, nodes, dead = (int(x) for x in line.split(","))
        rows.append({"ms": ns / 1e6, "length": length, "nodes": nodes, "dead": dead})
    if len(rows) != len(states):
        raise SystemExit(f"the C++ solver answered {len(rows)} of {len(states)} states")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return rows, {"wall_seconds": round(wall, 3), "cpu_seconds": round(cpu, 3)}


def _replays(problem, jumps) -> bool:
    pos = problem.start
    for a, b, c in jumps:
        if not (pos >> a & 1 and pos >> b & 1 and not pos >> c & 1):
            return False
        pos ^= (1 << a) | (1 << b) | (1 << c)
    return problem.goal.reached(pos)


def run_ours(states: list[str], runs: int) -> tuple[list[dict], dict]:
    """Our answers, as ``solve --batch --json`` makes them, in this process (warmed up first)."""
    texts = [our_text(s) for s in states]
    solve(build("english", position=texts[0]).problem)  # warm-up: imports and the goal's tables
    rows = []
    c0, t0 = time.process_time(), time.perf_counter()
    for text in texts:
        answer_s = solve_s = 0.0
        for _ in range(runs):
            a = time.perf_counter()
            problem = build("english", position=text).problem
            s = time.perf_counter()
            result = solve(problem)
            solve_s += time.perf_counter() - s
            json.dumps(result_json(problem.board, result))
            answer_s += time.perf_counter() - a
        if result.status != "solved" or not _replays(problem, result.jumps):
            raise SystemExit(f"ours did not solve {text}: {result.status} {result.reason}")
        rows.append({"ms": answer_s * 1000 / runs, "solve_ms": solve_s * 1000 / runs, "nodes": result.nodes,
                     "jumps": len(result.jumps), "method": result.method, "pegs": problem.start.bit_count()})
    return rows, {"wall_seconds": round(time.perf_counter() - t0, 3), "cpu_seconds": round(time.process_time() - c0, 3)}


def summary(ours: list[dict], cpp: list[dict]) -> dict:
    """Medians, totals and wins over every state and by peg count."""
    def part(idx: list[int]) -> dict:
        o, c = [ours[i]["ms"] for i in idx], [cpp[i]["ms"] for i in idx]
        return {"states": len(idx), "ours_median_ms": round(statistics.median(o), 4),
                "ours_solve_median_ms": round(statistics.median(ours[i]["solve_ms"] for i in idx), 4),
                "cpp_median_ms": round(statistics.median(c), 4),
                "ours_wins": sum(x < y for x, y in zip(o, c)),
                "ours_total_ms": round(sum(o), 2), "cpp_total_ms": round(sum(c), 2)}
    every = part(list(range(len(ours))))
    every["median_ratio_cpp_over_ours"] = round(every["cpp_median_ms"] / every["ours_median_ms"], 2)
    every["total_ratio_cpp_over_ours"] = round(every["cpp_total_ms"] / every["ours_total_ms"], 2)
    by_pegs = {}
    for pegs in sorted({r["pegs"] for r in ours}):
        by_pegs[str(pegs)] = part([i for i, r in enumerate(ours) if r["pegs"] == pegs])
    return {"all": every, "by_pegs": by_pegs}


def dump(record: dict) -> str:
    """The record as JSON, one line a state (a diff then shows which states changed)."""
    head = json.dumps({**record, "states": []}, indent=1)
    rows = ",\n  ".join(json.dumps(s, separators=(",", ":")) for s in record["states"])
    return head.replace('"states": []', '"states": [\n  ' + rows + "\n ]") + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary", help="ParallelProject's compiled solver (ParallelBacktrack), built outside this repo")
    ap.add_argument("states", nargs="+", help="its state files (ParallelBacktrack/initial_states/moves:N)")
    ap.add_argument("--runs", type=int, default=10, help="runs per state, averaged, for both (its default: 10)")
    ap.add_argument("--build", default="", help="how the binary was built (recorded), e.g. 'g++ 12.2.0 -O2'")
    ap.add_argument("--json", metavar="FILE", help="write the record here (e.g. benchmarks/parallelproject.json)")
    args = ap.parse_args(argv)
    states = read_states(args.states)
    load = os.getloadavg()[0]
    cpp, cpp_process = run_cpp(args.binary, states, args.runs)
    ours, our_process = run_ours(states, args.runs)
    for i, (c, o) in enumerate(zip(cpp, ours)):
        if c["length"] != o["pegs"] - 1:
            raise SystemExit(f"state {i + 1}: the C++ answer has {c['length']} jumps, not {o['pegs'] - 1}")
    record = {"source": SOURCE, "build": args.build, "runs": args.runs, "files": [Path(p).name for p in args.states],
              "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
              "load": [round(load, 2), round(os.getloadavg()[0], 2)],
              "python": f"{platform.python_implementation()} {platform.python_version()}",
              "command": "PYTHONPATH=. python scripts/parallelproject_compare.py BINARY " + " ".join(
                  f"STATES/{Path(p).name}" for p in args.states) + f" --runs {args.runs}",
              "cpp_process": cpp_process, "ours_process": our_process, "summary": summary(ours, cpp),
              "columns": list(COLUMNS),
              "states": [[o["pegs"], round(o["ms"], 4), round(o["solve_ms"], 4), o["nodes"], round(c["ms"], 4),
                          c["nodes"]] for o, c in zip(ours, cpp)]}
    a = record["summary"]["all"]
    print(f"{a['states']} distinct states, {args.runs} runs each; load {record['load']}")
    print(f"median per state: ours {a['ours_median_ms']} ms (solve alone {a['ours_solve_median_ms']} ms), "
          f"C++ {a['cpp_median_ms']} ms; ours faster on {a['ours_wins']} of {a['states']}")
    print(f"total: ours {a['ours_total_ms']} ms, C++ {a['cpp_total_ms']} ms ({a['total_ratio_cpp_over_ours']}x)")
    for pegs, p in record["summary"]["by_pegs"].items():
        print(f"  {pegs:>2} pegs: {p['states']:>4} states, ours {p['ours_median_ms']:.4f} ms, "
              f"C++ {p['cpp_median_ms']:.4f} ms, ours faster on {p['ours_wins']}")
    if args.json:
        Path(args.json).write_text(dump(record))
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
