"""``bench --scaling`` and ``bench --report``: the scaling study and the generated BENCHMARKS.md.

Kept apart from :mod:`.bench` (the row suite) because both write files rather than print rows: the study
writes ``DIR/scaling.json`` and its figures, the report BENCHMARKS.md and the figures beside it, from the
JSON results in ``benchmarks/`` (:mod:`pyapp.bench.report`).  The figures need matplotlib (bench-only);
without it the JSON and the Markdown are still written and the output says what was skipped.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from ...bench import report, scaling
from ...bench.suite import environment
from ...core.errors import PegError

DEFAULT_OUT = "bench-out/scaling"


def run(args) -> dict:
    if args.scaling and args.report:
        raise PegError("--scaling and --report are two runs: give one of them")
    return _report(args) if args.report else _scaling(args)


def _figures(draw, *where) -> tuple[list[str], str | None]:
    from ...bench.plots import PlotsUnavailable

    try:
        return [str(p) for p in draw(*where)], None
    except PlotsUnavailable as err:
        print(f"bench: {err}", file=sys.stderr)
        return [], str(err)


def _scaling(args) -> dict:
    if getattr(args, "fixed_cost", False):
        return _fixed_cost(args)
    if args.boards:
        unknown = sorted(set(args.boards) - set(scaling.BOARDS))
        if unknown:
            raise PegError(f"the scaling study runs on {', '.join(scaling.BOARDS)}, not {', '.join(unknown)}")
    plan = scaling.Plan.of(args.quick, args.boards, args.budget)
    out = Path(args.out or DEFAULT_OUT)
    out.mkdir(parents=True, exist_ok=True)
    command = "python -m pyapp " + " ".join(shlex.quote(a) for a in sys.argv[1:] if a != "--json") \
        if sys.argv[1:2] == ["bench"] else "python -m pyapp bench --scaling"
    env = {**environment(), "machine": report.MACHINE}

    def progress(run: dict) -> None:
        print(f"bench: {run['board']} {run['pegs']} pegs seed {run['seed']} {run['solver']}: {run['status']}, "
              f"{run['nodes']:,} nodes, {run['seconds']:.4f} s", file=sys.stderr, flush=True)

    data = scaling.run_study(plan, env, command, on_run=progress)
    path = out / "scaling.json"
    path.write_text(json.dumps(data, indent=1) + "\n")
    from ...bench.plots import scaling_figures

    figures, missing = _figures(scaling_figures, data, out)
    return {"json": str(path), "figures": figures, "plots_missing": missing, "fits": data["fits"],
            "fixed_cost": data["fixed_cost"], "summary": report.scaling_summary(data, str(path), figures, missing)}


def _fixed_cost(args) -> dict:
    """``bench --scaling --fixed-cost``: measure the fixed cost per solve again (the full plan's processes and
    states) and replace that record in ``DIR/scaling.json``, the runs and fits left as they were; the record
    keeps its date, load and command, and the figures it replaces as ``before``."""
    import os

    path = Path(args.out or DEFAULT_OUT) / "scaling.json"
    if not path.exists():
        raise PegError(f"--fixed-cost updates a study's {path}: run the study there first")
    data = json.loads(path.read_text())
    plan = scaling.Plan.of(False)
    load = os.getloadavg()[0]
    cost = scaling.fixed_cost(plan.cold_runs, plan.warm_solves)
    old = data["fixed_cost"]
    before = {k: old[k] for k in ("cold_ms", "warm_ms", "warm_p95_ms", "warm_answer_ms", "warm_answer_p95_ms",
                                  "state_ms") if k in old}
    data["fixed_cost"] = {**cost, "date": environment()["date"], "load": round(load, 2),
                          "command": "python -m pyapp bench --scaling --fixed-cost --out " + str(path.parent),
                          "before": before}
    path.write_text(json.dumps(data, indent=1) + "\n")
    return {"json": str(path), "fixed_cost": data["fixed_cost"],
            "summary": f"wrote {path}: English solves cold {cost['cold_ms']} ms, warm {cost['warm_ms']} ms "
                       f"(p95 {cost['warm_p95_ms']} ms), with the answer {cost['warm_answer_ms']} ms (p95 "
                       f"{cost['warm_answer_p95_ms']} ms), per 8-31-peg state {cost['state_ms']} ms; before: "
                       f"warm {before.get('warm_ms')} ms"}


def _report(args) -> dict:
    root = Path(args.out or ".")
    results = root / report.RESULTS
    if not results.is_dir():
        raise PegError(f"no {report.RESULTS}/ folder under {str(root)!r}: run from the project root or give --out")
    data = report.load(results)
    figures, missing = _figures(report.figures, data, results)
    text = report.render(data)
    target = root / "BENCHMARKS.md"
    target.write_text(text)
    lines = text.count("\n")
    return {"markdown": str(target), "lines": lines, "figures": figures, "plots_missing": missing,
            "summary": f"wrote {target} ({lines} lines) and {len(figures)} figures"
                       + (f"; figures skipped: {missing}" if missing else "")}
