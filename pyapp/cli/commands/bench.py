"""``bench``: run the benchmark suite (:mod:`pyapp.bench.suite`) in this Python and print its table.

The same suite runs in Pyodide under Node (``node scripts/bench_pyodide.mjs``) and in the
browser worker (``bench.html``); see BENCHMARKS.md.  Each finished row is also reported on
stderr as it completes, so long runs show progress; rows whose answer failed its check are
listed loudly at the end (``wrong`` in the JSON).
"""

from __future__ import annotations

import sys

from ...bench import suite as bench
from ._common import non_negative, positive_float, positive_int


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
    p.add_argument("--report", action="store_true",
                   help="regenerate BENCHMARKS.md and its figures from the committed JSON results")
    p.add_argument("--out", metavar="DIR", help="where --scaling writes (default bench-out/scaling); "
                                                "--report: the project root (default: the current folder)")
    p.add_argument("--boards", nargs="+", metavar="BOARD", help="--scaling on these boards only")
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    if args.scaling or args.report:
        from . import _study

        return _study.run(args)
    if args.list:
        return {"environment": bench.environment(), "rows": [], "wrong": [],
                "names": [{"name": c.name, "title": c.title, "quick": c.quick} for c in bench.cases()]}
    cases = bench.select(quick=args.quick, only=args.only)  # validates --only before any work
    print(f"bench: {len(cases)} rows in {bench.environment()['runtime']}", file=sys.stderr)
    rows = []
    for row in bench.iter_suite(quick=args.quick, repeat=args.repeat, only=[c.name for c in cases],
                                memory=False if args.no_memory else None, budget=args.budget,
                                max_nodes=args.max_nodes):
        print("bench: " + bench.format_row_line(row), file=sys.stderr, flush=True)
        rows.append(row)
    wrong = [r["name"] for r in bench.wrong_rows(rows)]
    if wrong:
        print(f"bench: WRONG ANSWERS in {', '.join(wrong)}", file=sys.stderr)
    return {"environment": bench.environment(), "rows": rows, "wrong": wrong}


def text(result: dict) -> str:
    if "summary" in result:
        return result["summary"]
    if result.get("names") is not None:
        return "\n".join(f"{n['name']:<30} {'quick ' if n['quick'] else '      '}{n['title']}" for n in result["names"])
    env = result["environment"]
    out = [f"Runtime: {env['runtime']} ({env['platform']}), {env['date']}", "", bench.format_table(result["rows"])]
    if result["wrong"]:
        out += ["", f"WRONG ANSWERS: {', '.join(result['wrong'])}"]
    return "\n".join(out)
