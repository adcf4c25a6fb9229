"""``bench``: run the benchmark suite (:mod:`pyapp.bench.suite`) in this Python and print its table.

The same suite runs in Pyodide under Node (``node scripts/bench_pyodide.mjs``) and in the
browser worker (``bench.html``); see BENCHMARKS.md.  Each finished row is also reported on
stderr as it completes, so long runs show progress; rows whose answer failed its check are
listed loudly at the end (``wrong`` in the JSON).

``--workers N`` (or ``--cluster``) measures the rows side by side on a pool, each finished row reported as it
comes and the table in suite order.  The default is one row at a time in this process: rows timed side by side
share the machine's cores, caches and memory bandwidth, so their timings are skewed by each other (more so on
a shared machine); their answers and, for the deterministic searches, their node counts are the same.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ...analysis.spread import spread_steps
from ...bench import speedup
from ...bench import suite as bench
from ...core.budget import drive
from ...core.errors import PegError
from ._common import non_negative, positive_float, positive_int
from ._parallel import pool_from_args, pool_workers
from ._progress import StderrProgress


def register(sub) -> None:
    p = sub.add_parser("bench", help="run the benchmark suite and print its table")
    p.add_argument("--repeat", type=positive_int, help=f"runs per row (default {bench.DEFAULT_REPEAT}, "
                                                       f"quick {bench.QUICK_REPEAT}); seed rows run once per seed")
    p.add_argument("--quick", action="store_true", help="the cheap subset, one run each, no memory run (for CI)")
    p.add_argument("--only", nargs="+", metavar="NAME", help="run only these rows (see --list)")
    p.add_argument("--list", action="store_true", help="list the rows and exit")
    p.add_argument("--no-memory", action="store_true", help="skip the extra tracemalloc run per row")
    p.add_argument("--budget", type=positive_float, help="seconds allowed to one run "
                                                         f"(default {bench.BUDGET_SECONDS:g}, "
                                                         f"quick {bench.QUICK_BUDGET_SECONDS:g})")
    p.add_argument("--max-nodes", type=non_negative, help="nodes allowed to one run (reproducible on a loaded machine)")
    p.add_argument("--scaling", action="store_true",
                   help="the scaling study: generated puzzles at every peg count on four boards, ours against a "
                        "baseline search; writes DIR/scaling.json and its SVG figures (with --quick: a handful)")
    p.add_argument("--fixed-cost", action="store_true",
                   help="with --scaling: measure only the fixed cost per solve again and replace it in "
                        "DIR/scaling.json (the runs and fits are kept)")
    p.add_argument("--report", action="store_true",
                   help="regenerate BENCHMARKS.md and its figures from the committed JSON results")
    p.add_argument("--out", metavar="DIR", help="where --scaling writes (default bench-out/scaling); "
                                                "--report: the project root (default: the current folder); "
                                                "--parallel: merge its rows into DIR/parallel.json")
    p.add_argument("--boards", nargs="+", metavar="BOARD", help="--scaling on these boards only")
    p.add_argument("--parallel", action="store_true",
                   help="instead: the sharded sweeps' speedup at 1 and --workers-list workers, with the per-level "
                        "costs and the scaling model (pyapp.bench.speedup); --only picks rows")
    p.add_argument("--workers-list", default="1,2", help="with --parallel: worker counts (default 1,2)")
    p.add_argument("--workers", type=positive_int, default=None,
                   help="measure the rows side by side on this many local processes (default 1: one row at a "
                        "time, so the timings are not skewed by each other on a shared machine; the answers are "
                        "the same either way)")
    p.add_argument("--cluster", metavar="tcp://HOST:PORT",
                   help="measure the rows on this Dask scheduler's workers (needs the distributed package)")
    p.add_argument("--breakdown", action="store_true",
                   help="with --parallel: time sharding's parts (expand, bucket, merge) on one English level "
                        "(alone unless --only names rows)")
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    if (args.workers is not None or args.cluster) and (args.scaling or args.report or args.parallel):
        raise PegError("--workers and --cluster spread the suite's rows: not with --scaling, --report or "
                       "--parallel (which takes --workers-list)")
    if args.scaling or args.report:
        from . import _study

        return _study.run(args)
    if args.parallel:
        return run_parallel(args)
    if args.list:
        return {"environment": bench.environment(), "rows": [], "wrong": [],
                "names": [{"name": c.name, "title": c.title, "quick": c.quick} for c in bench.cases()]}
    cases = bench.select(quick=args.quick, only=args.only)  # validates --only before any work
    local = pool_workers(args, default=1)  # refuses --workers with --cluster before any work
    where = "" if local == 1 else f" on {local} workers" if local else f" on {args.cluster}"
    print(f"bench: {len(cases)} rows in {bench.environment()['runtime']}{where}", file=sys.stderr)
    options = bench.run_options(args.quick, args.repeat, False if args.no_memory else None, args.budget,
                                args.max_nodes)
    rows = []
    pool = pool_from_args(args, default=1)
    if pool is None:
        for case in cases:
            row = bench.run_case(case, **options)
            print("bench: " + bench.format_row_line(row), file=sys.stderr, flush=True)
            rows.append(row)
    else:
        with pool:
            steps = spread_steps(pool, bench.row_task, [(c.name, options) for c in cases], label="rows: ",
                                 on_result=lambda _, row: print("bench: " + bench.format_row_line(row),
                                                                file=sys.stderr, flush=True))
            rows = drive(steps, StderrProgress("bench").pool)
    wrong = [r["name"] for r in bench.wrong_rows(rows)]
    if wrong:
        print(f"bench: WRONG ANSWERS in {', '.join(wrong)}", file=sys.stderr)
    return {"environment": bench.environment(), "rows": rows, "wrong": wrong}


def run_parallel(args) -> dict:
    """``bench --parallel``: one row per case, runs alternating between the worker counts."""
    try:
        workers = tuple(int(w) for w in args.workers_list.split(","))
    except ValueError:
        raise PegError(f"--workers-list takes counts like 1,2, not {args.workers_list!r}") from None
    if not workers or min(workers) < 1:
        raise PegError(f"--workers-list takes counts of at least 1, not {args.workers_list!r}")
    known = {c.name: c for c in speedup.CASES}
    wanted = args.only or ([] if args.breakdown else [c.name for c in speedup.CASES if "triangle6" not in c.name])
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise PegError(f"unknown --parallel row {unknown[0]!r}: one of {', '.join(known)}")
    env = bench.environment()
    rows = []
    for name in wanted:
        r = speedup.row(known[name], args.repeat or 1, workers)
        r["environment"] = env
        r["command"] = f"python -m pyapp bench --parallel --only {name} --repeat {args.repeat or 1} " \
                       f"--workers-list {args.workers_list}"
        print(f"bench: {name}: speedup {r['speedup']}, cpu {r['cpu_ratio']}, same answer {r['same_answer']}",
              file=sys.stderr, flush=True)
        rows.append(r)
    out = {"environment": env, "parallel": rows, "rows": [],
           "wrong": [r["name"] for r in rows if not r["same_answer"]]}
    extra = {}
    if args.breakdown:
        b = speedup.breakdown(repeat=args.repeat or 1)
        b["environment"] = env
        print(f"bench: breakdown: sharded {b['sharded']} vs unsharded {b['unsharded']}: {b['ratio']}x CPU",
              file=sys.stderr, flush=True)
        out["breakdown"] = extra["breakdown"] = b
    if args.out:
        out["written"] = str(speedup.merge_into(Path(args.out) / "parallel.json", rows, extra))
    return out


def text(result: dict) -> str:
    if "summary" in result:
        return result["summary"]
    if "parallel" in result:
        lines = []
        for r in result["parallel"]:
            walls = ", ".join(f"{x['workers']}w {x['wall']:.1f} s wall {x['cpu']:.1f} s CPU (load {x['load']})"
                              for x in r["runs"])
            m = r["model"]
            lines.append(f"{r['name']}: speedup {r['speedup']}  [{walls}]")
            if m:
                proj = ", ".join(f"{p} workers {m[p]['seconds']} s ({m[p]['speedup']}x)" for p in ("8", "64", "512"))
                lines.append(f"  model: {proj}; least time at about {m['best_workers']} workers")
            else:
                lines.append("  model: none (the two sides ran whole, one per worker: no sharded level to project)")
        return "\n".join(lines)
    if result.get("names") is not None:
        return "\n".join(f"{n['name']:<30} {'quick ' if n['quick'] else '      '}{n['title']}" for n in result["names"])
    env = result["environment"]
    out = [f"Runtime: {env['runtime']} ({env['platform']}), {env['date']}", "", bench.format_table(result["rows"])]
    if result["wrong"]:
        out += ["", f"WRONG ANSWERS: {', '.join(result['wrong'])}"]
    return "\n".join(out)
