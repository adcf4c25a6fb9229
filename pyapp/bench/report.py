"""BENCHMARKS.md, generated: every table and figure from the JSON result files in ``benchmarks/``.

Why: a report written by hand in the order the work was done grows into a log nobody reads and drifts
from the numbers.  Here each result lives once, as JSON naming its machine, runtime, command and date
(the measured rows of the suite, the scaling study, and the figures published before this generator,
transcribed once from the measured logs), and ``python -m pyapp bench --report`` renders the current
figures only, with the anchors (published results, the seeds' figures) beside ours and their sources.
``tests/test_report.py`` checks that the committed BENCHMARKS.md is exactly what this renders from the
committed JSON, so it cannot go stale.  Derived numbers (ratios, geometric means, fits) are computed here
from the JSON, never typed in.

What: :func:`load` reads the result files, :func:`render` returns the Markdown (the sections are in
:mod:`.report_sections`; the scaling study's here), :func:`figures` draws the SVG figures beside them
(:mod:`.plots`, matplotlib).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from . import report_games, report_lp, report_parallel, report_sets
from . import report_sections as sections

RESULTS = "benchmarks"
"""The folder (under the project root) holding the JSON results and the SVG figures."""
MACHINE = "2-core shared Linux VM (Intel Xeon, 23 GB), shared with other work"
FILES = ("suite", "anchors", "scaling", "sat", "startup", "tables", "exact", "neverlose", "sets", "hardening",
         "parallel", "research", "lp", "parallelproject", "endgame", "books", "neverlose_games")
"""The result files, ``benchmarks/NAME.json``, in the order the report uses them."""


LEDGER = "ilp-ledger.jsonl"
"""The integer programme's ledger of settled parts (``scripts/ilp_run.py --ledger``), beside the result files: the
linear and integer programmes' section reports how much of the split it covers."""


def load(folder: Path) -> dict:
    """Every result file present in ``folder`` (a missing one leaves its section out), with what the report sums up
    itself: the ledger of settled parts under ``lp`` (key ``ledger``), and each never-lose search row's run file
    (one JSON line per position, named by the row's ``run``) under that row (key ``positions``)."""
    data = {name: json.loads((folder / f"{name}.json").read_text()) for name in FILES
            if (folder / f"{name}.json").exists()}
    for row in data.get("neverlose_games", {}).get("search", []):  # the runs' positions, summed up by the report
        lines = (folder.parent / row["run"]).read_text().splitlines()
        row["positions"] = [json.loads(line) for line in lines if line.strip()]
    if "lp" in data and (folder / LEDGER).exists():
        lines = (folder / LEDGER).read_text().splitlines()
        data["lp"]["ledger"] = [json.loads(line) for line in lines if line.strip()]
    return data


def figures(data: dict, folder: Path) -> list[Path]:
    """Draw every figure the data allows into ``folder`` (raises :class:`.plots.PlotsUnavailable`)."""
    from . import plots

    out = []
    if "scaling" in data:
        out += plots.scaling_figures(data["scaling"], folder)
    if "startup" in data:
        s = data["startup"]
        out.append(plots.startup_phases(s["phases"], s["plot_columns"], folder / "startup-phases.svg"))
    if "neverlose" in data:
        out.append(plots.latency(data["neverlose"]["latency"], folder / "neverlose-latency.svg"))
    if data.get("parallel", {}).get("parallel"):
        out.append(plots.speedup(data["parallel"]["parallel"], folder / "parallel-speedup.svg"))
    return out


def fmt_fit_power(f: dict | None) -> str:
    return "-" if not f else f"{f['a']:.3g}·x^{f['b']:.3f} (R² {f['r2']:.2f}, {f['n']} runs)"


def fmt_fit_exp(f: dict | None) -> str:
    return "-" if not f else f"{f['a']:.3g}·{f['base']:.3f}^x (R² {f['r2']:.2f})"


def fmt_bend(b: dict | None) -> str:
    if not b:
        return "-"
    pace = "slows" if b["base_after"] < b["base_before"] else "quickens"
    if not b["bends"]:
        return f"no clear bend (best break {b['at']:g} pegs)"
    return f"at {b['at']:g} pegs: {b['base_before']:.2f}x a peg, then {b['base_after']:.2f}x ({pace})"


def scaling_rows(data: dict) -> list[str]:
    """The fits table: one line per board and solver."""
    out = ["| board | solver | runs: solved / unknown | largest solved | first unknown | time vs nodes "
           "(power) | time vs moves (exp.) | time vs pegs (exp.) | bend of time vs pegs |",
           "|---|---|---|---:|---:|---|---|---|---|"]
    for board in [*data["study"]["boards"], "all"]:
        for solver in ("ours", "baseline"):
            f = data["fits"][board][solver]
            out.append(f"| {board} | {solver} | {f['solved']} / {f['unknown']} | {f['largest_solved'] or '-'} | "
                       f"{f['smallest_unknown'] or '-'} | {fmt_fit_power(f['time_vs_nodes'])} | "
                       f"{fmt_fit_exp(f['time_vs_length'])} | {fmt_fit_exp(f['time_vs_pegs'])} | "
                       f"{fmt_bend(f['bend_vs_pegs'])} |")
    return out


def node_comparison(data: dict) -> tuple[int, list[dict]]:
    """How many puzzles both solvers solved, and the baseline's runs among them that searched fewer nodes."""
    by: dict[tuple, dict] = {}
    for r in data["runs"]:
        by.setdefault((r["board"], r["pegs"], r["seed"]), {})[r["solver"]] = r
    both = [v for v in by.values() if len(v) == 2 and all(x["status"] == "solved" for x in v.values())]
    return len(both), [v["baseline"] for v in both if v["baseline"]["nodes"] < v["ours"]["nodes"]]


def node_sentence(both: int, fewer: list[dict]) -> str:
    """Whether the baseline ever searched fewer nodes than ours on a puzzle both solved, and where."""
    if not fewer:
        return f"On every one of the {both} puzzles both solved, the baseline searched at least as many nodes as ours."
    boards = sorted({r["board"] for r in fewer})
    return (f"On {both - len(fewer)} of the {both} puzzles both solved the baseline searched at least as many nodes "
            f"as ours; on {len(fewer)} it searched fewer ({', '.join(boards)}; at most {max(r['pegs'] for r in fewer)} "
            f"pegs, a median of {sorted(r['pegs'] for r in fewer)[len(fewer) // 2]}): where a plain search in board "
            "order walks straight to the goal, ours has spent nodes in its first short runs.")


def scaling_summary(data: dict, path: str, figures: list[str], missing: str | None) -> str:
    """What ``bench --scaling`` prints: where it wrote, the fits, the fixed cost."""
    c = data["fixed_cost"]
    lines = [f"wrote {path}" + (f" and {len(figures)} figures" if figures else f" (figures skipped: {missing})"),
             f"{len(data['runs'])} runs in {data['study']['wall_seconds']} s; English solves: cold {c['cold_ms']} ms, "
             f"warm {c['warm_ms']} ms, per 8-31-peg state {c['state_ms']} ms "
             f"(C++ median {c['cpp_median_ms'][0]}-{c['cpp_median_ms'][1]} ms)",
             "", *scaling_rows(data)]
    return "\n".join(lines)


def _answer_clause(c: dict) -> str:
    """The warm cost of a whole answer, when the record has it (the study JSON before it did not)."""
    if c.get("warm_answer_ms") is None:
        return ""
    return (f"; from the position's text to its JSON line (as `solve --batch --json` answers a line: the problem "
            f"built, solved, its answer made and dumped) median **{c['warm_answer_ms']} ms**, p95 "
            f"{c['warm_answer_p95_ms']} ms, {c['warm_answer_cpu_ms']} CPU ms a state (timed after the solves, so "
            f"each goal's tables, built on the goal's first use, are paid in the solve figure's p95, not here)")


def _fixed_cost_note(c: dict) -> str:
    """When the fixed cost was measured again after the study (``bench --scaling --fixed-cost``): when, and
    the figures it replaced."""
    if "date" not in c:
        return ""
    b = c.get("before", {})
    answer = (f", with the answer {b['warm_answer_ms']} ms, p95 {b['warm_answer_p95_ms']} ms"
              if b.get("warm_answer_ms") is not None else "")
    was = (f" (before: cold {b['cold_ms']} ms, warm {b['warm_ms']} ms, p95 {b['warm_p95_ms']} ms{answer})"
           if {"cold_ms", "warm_ms", "warm_p95_ms"} <= set(b) else "")
    return f" These fixed-cost figures were measured again on {c['date']}, load {c['load']:g}, `{c['command']}`{was}."


def scaling_section(data: dict) -> list[str]:
    s, c = data["study"], data["fixed_cost"]
    env = s["environment"]
    both, fewer = node_comparison(data)
    seeds = data.get("anchors", {})
    lines = [
        "## How cost grows: the scaling study", "",
        f"Machine: {env.get('machine', MACHINE)}; runtime {env['runtime']} ({env['platform']}); "
        f"date {env['date']}; command `{s['command']}`.", "",
        f"Puzzles from `python -m pyapp puzzle` (built backwards from one peg, so solvable; goal one peg on the "
        f"generator's finishing hole), {s['per_count']} per peg count (seeds 1-{s['per_count']}), every "
        f"{'' if s['peg_step'] == 1 else str(s['peg_step']) + 'th '}peg count from 3 to the full board, on "
        f"{', '.join(s['boards'])}. Each is solved by our solver and by the baseline (`pyapp/bench/baseline.py`: "
        f"plain depth-first search with a set of dead positions, ParallelProject's Algorithm 2), each with "
        f"**{s['budget_cpu_seconds']:g} CPU seconds**. Nodes are positions entered (jumps played) in both. "
        f"The whole run took {s['wall_seconds']:g} s of wall time. "
        "Every solution found is replayed to the goal. Fits are least squares on logarithms over the solved runs "
        "(R² of that line); a run that spent its budget is not in the fits, it is counted as unknown.",
        "",
        "![time against pegs](benchmarks/scaling-time-vs-pegs.svg)", "",
        "![time against nodes](benchmarks/scaling-time-vs-nodes.svg)", "",
        f"![solved, impossible, unknown against pegs at {s['budget_cpu_seconds']:g} CPU s]"
        "(benchmarks/scaling-outcomes.svg)", "",
        *scaling_rows(data), "",
        f"Anchor (the ParallelProject study, its compiled solver on English states built the same way): "
        f"time = {seeds.get('power', '2133.73·x^1.083')} in elements searched (R² {seeds.get('power_r2', 0.81)}), "
        f"time = {seeds.get('exp', '2000·e^(0.6x)')} in solution length (base e^0.6 = {math.exp(0.6):.2f} a move).",
        "",
        node_sentence(both, fewer), "",
        f"**Fixed cost per solve** (English, wall clock): the first solve in a fresh process (imports done, tables "
        f"built on first use; a 6-peg state) median **{c['cold_ms']} ms** over {c['cold_runs']} processes; warm (a "
        f"process that has solved before, as `solve --batch` runs; 4-8-peg states, a handful of nodes) median "
        f"**{c['warm_ms']} ms**, p95 {c['warm_p95_ms']} ms over {c['warm_solves']} states{_answer_clause(c)}. "
        f"With the search "
        f"included, states of 8-31 pegs take a median **{c['state_ms']} ms** (p95 {c['state_p95_ms']} ms). "
        f"ParallelProject's compiled C++ solver: median {c['cpp_median_ms'][0]}-{c['cpp_median_ms'][1]} ms per "
        f"English state; our warm fixed cost is {'below' if c['warm_below_cpp'] else 'not below'} its upper "
        f"figure, our median per 8-31-peg state {'below' if c['state_below_cpp'] else 'above'} it."
        + _fixed_cost_note(c),
        *(["", *sections.parallelproject(data["parallelproject"])] if data.get("parallelproject") else []),
    ]
    if s.get("not_generated"):
        gone = sorted({(g["board"], g["pegs"]) for g in s["not_generated"]})
        lines += ["", "Not generated (the backward walk gave up within its budget): "
                  + ", ".join(f"{b} {p} pegs" for b, p in gone) + "."]
    return lines


def render(data: dict) -> str:
    """The whole BENCHMARKS.md."""
    parts = [sections.header(MACHINE)]
    if "suite" in data:
        parts.append(sections.suite(data["suite"], data.get("anchors")))
    if "scaling" in data:
        anchors = data.get("anchors", {}).get("scaling", {})
        parts.append("\n".join(scaling_section({**data["scaling"], "anchors": anchors,
                                                 "parallelproject": data.get("parallelproject")})))
    for name in ("exact", "tables", "sat", "startup", "neverlose"):
        if name in data:
            parts.append(getattr(sections, name)(data[name]))
    if "sets" in data:
        parts.append(report_sets.section(data["sets"]))
    if "endgame" in data:
        parts.append(report_sets.endgame(data["endgame"]))
    if "books" in data:
        parts.append(report_sets.books(data["books"]))
    if "neverlose_games" in data:
        parts.append(report_games.section(data["neverlose_games"]))
    if data.get("parallel", {}).get("parallel"):
        parts.append(report_parallel.section(data["parallel"], data.get("exact")))
    if "research" in data:
        parts.append(report_parallel.research(data["research"]))
    if "lp" in data:
        parts.append(report_lp.section(data["lp"]))
    if "hardening" in data:
        parts.append(sections.hardening(data["hardening"]))
    return "\n\n".join(p.rstrip("\n") for p in parts) + "\n"
