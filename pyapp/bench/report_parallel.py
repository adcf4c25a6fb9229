"""The "Every core" section of BENCHMARKS.md, rendered from ``benchmarks/parallel.json``.

Why a module of its own: the parallel rows carry more than a table (per-level costs, the scaling model,
optionally the page's pool of Pyodide workers), and :mod:`.report_sections` stays under the size limit.
What: :func:`section` returns the Markdown.  Every ratio, the goal's "met", the bytes per position and
the model's projections are computed here (or by :func:`pyapp.bench.speedup.model`) from the measured
runs, never typed in.  ``bench --parallel --out benchmarks`` writes the file (see :mod:`.speedup`).
"""

from __future__ import annotations

import statistics

from .report_sections import RUNTIME_NAMES
from .speedup import SHARDED_OVERHEAD

SMALL_LEVEL = 100_000
"""Levels smaller than this are summed in one line of the per-level table, not listed."""
MEMORY_GB = 20
"""What the sweep may hold in memory on this machine before it spills shards to disk."""
GOAL_SPEEDUP = 1.8
"""The speedup asked of 2 workers on this 2-core machine."""


def _median(values: list[float]) -> float:
    return statistics.median(values)


def _fmt(x: float) -> str:
    return f"{x:,.1f}"


def _runtime(env: dict) -> str:
    name, _, version = env.get("runtime", "?").partition(" ")
    return f"{RUNTIME_NAMES.get(name, name)} {version} ({env.get('platform', '?')})".replace("  ", " ")


def _speed_rows(rows: list[dict]) -> list[str]:
    out = ["| job | workers | runs | wall s (median) | CPU s, driver + workers (median) | load at start | "
           "speedup (wall) | CPU vs 1 worker |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        counts = sorted({x["workers"] for x in r["runs"]})
        for i, w in enumerate(counts):
            mine = [x for x in r["runs"] if x["workers"] == w]
            loads = [x["load"] for x in mine]
            out.append(f"| {r['title'] if i == 0 else ''} | {w} | {len(mine)} | "
                       f"{_fmt(_median([x['wall'] for x in mine]))} | {_fmt(_median([x['cpu'] for x in mine]))} | "
                       f"{min(loads):.1f}-{max(loads):.1f} | **{r['speedup'][str(w)]:.2f}** | "
                       f"{r['cpu_ratio'][str(w)]:.2f} |")
    return out


CORES = 2
"""Cores of the machine the rows are measured on (see the section's first line)."""


def _goal_sentence(rows: list[dict]) -> str:
    at2 = [(r["title"], r["speedup"].get("2")) for r in rows if r["speedup"].get("2") is not None]
    if not at2:
        return ""
    met = [t for t, s in at2 if s >= GOAL_SPEEDUP]
    best = max(s for _, s in at2)
    verdict = (f"met by {len(met)} of {len(at2)} jobs" if met else f"**not met**: the best is {best:.2f}x")
    busy = [r["title"] for r in rows if max(x["load"] for x in r["runs"]) > CORES]
    caveat = (f" Rows measured with a load average above the machine's {CORES} cores ({'; '.join(busy)}): there the "
              "other jobs, not the sweep, decide the wall times (the two workers and the driver share what the "
              "others leave), so their speedup says little; their CPU columns and the breakdown below are the "
              "figures to compare." if busy else "")
    return (f"Goal: at least {GOAL_SPEEDUP}x at 2 workers; {verdict}. Answers are the same at every worker count "
            f"on every row: {'yes' if all(r['same_answer'] for r in rows) else '**NO**'}." + caveat)


def _levels(row: dict) -> list[str]:
    run = next((x for x in row["runs"] if x["levels"]), None)
    if run is None:
        return []
    out = [f"Per level: {row['title']}, {run['workers']} workers (one run).", "",
           "| stage | pegs | positions | level wall s | CPU s per shard | MB sent by the shards |",
           "|---|---:|---:|---:|---|---:|"]
    small = [lv for lv in run["levels"] if lv["positions"] < SMALL_LEVEL]
    for lv in run["levels"]:
        if lv["positions"] < SMALL_LEVEL:
            continue
        out.append(f"| {lv['stage']} | {lv['pegs']} | {lv['positions']:,} | {lv['seconds']:.2f} | "
                   f"{' / '.join(f'{c:.2f}' for c in lv['shard_cpu'])} | {lv['bytes'] / 1e6:.1f} |")
    total = sum(lv["bytes"] for lv in run["levels"])
    stored = sum(lv["positions"] for lv in run["levels"])
    spread = [max(lv["shard_cpu"]) / max(1e-9, min(lv["shard_cpu"])) for lv in run["levels"]
              if len(lv["shard_cpu"]) > 1 and min(lv["shard_cpu"]) > 0.05]
    out += ["", f"{len(small)} levels of fewer than {SMALL_LEVEL:,} positions are left out "
            f"({sum(lv['seconds'] for lv in small):.2f} s in all).",
            "", f"{total / 1e6:,.0f} MB of buckets for {stored:,} positions stored: {total / max(1, stored):.0f} bytes "
            f"per position (a key and its count are 16 bytes; a position reached from parents in several shards is "
            f"sent once per shard)."
            + (f" The busiest shard of a level used at most {max(spread):.2f}x the CPU of the idlest." if spread
               else "")]
    return out


def _breakdown(b: dict, before: dict | None = None) -> list[str]:
    """Sharding's parts on one level, against the same level unsharded (``breakdown`` in the file), and the
    same measurement of the code before (``breakdown_before``, when the file keeps it)."""
    u, sh = b["unsharded"], b["sharded"]
    total_u, total_s = sum(u.values()), sum(sh.values())
    env = b.get("environment", {})
    load = f", load {b['load']:.1f}" if "load" in b else ""
    cols, rule = "| part | unsharded CPU s | sharded CPU s |", "|---|---:|---:|"
    prev: dict = {}
    if before:
        prev = before["sharded"]
        cols, rule = cols + f" sharded before ({before.get('commit', 'earlier')}) |", rule + "---:|"

    def cell(part: str) -> str:
        return f" {prev[part]:.2f} |" if prev else ""

    lines = ["", f"Where the extra CPU goes ({b['board']}, the level of {b['pegs']} pegs: {b['parents']:,} positions "
             f"with {b['children']:,} children; {b['shards']} shards, one process; {_runtime(env)}; "
             f"{env.get('date', '?')}{load}; `{b['command']}`):", "", cols, rule,
             f"| expand (children canonical, routed to their owner) | {u['expand']:.2f} | {sh['expand']:.2f} |"
             + cell("expand"),
             f"| split the children into buckets by owner | - | {sh['bucket']:.2f} |" + cell("bucket"),
             f"| merge at the owners / sort into arrays | {u['sort']:.2f} | {sh['merge']:.2f} |" + cell("merge"),
             f"| total | {total_u:.2f} | {total_s:.2f} ({b['ratio']:.2f}x) |"
             + (f" {sum(prev.values()):.2f} ({before['ratio']:.2f}x) |" if before else ""), "",
             f"The shards sent {b['keys_sent']:,} keys for {b['children']:,} distinct children "
             f"({b['keys_sent'] / max(1, b['children']):.2f} per child"
             + (f"; before: {before['keys_sent'] / max(1, before['children']):.2f}" if before else "")
             + ": a child whose parents lie in several shards is found, bucketed and merged once per shard)."]
    if b.get("shard_cpu"):
        busiest = max(b["shard_cpu"])
        lines[-1] += (f" Parents per shard {' / '.join(f'{n:,}' for n in b['shard_parents'])}, CPU per shard "
                      f"{' / '.join(f'{t:.2f}' for t in b['shard_cpu'])} s: on this level {b['shards']} workers "
                      f"can gain at most {total_u / busiest:.2f}x over one (the busiest shard decides).")
    else:
        lines[-1] += (f" So on this level {b['shards']} workers can gain at most {b['shards'] / b['ratio']:.2f}x "
                      "over one.")
    if b.get("by_shards"):
        def more(x: dict) -> str:
            return ", ".join(f"{n} shards {v['ratio']:.2f}x ({v['keys_per_child']:.2f} keys per child)"
                             for n, v in sorted(x.items(), key=lambda kv: int(kv[0])))
        lines[-1] += (f" More shards, the same level (one measurement each): {more(b['by_shards'])}"
                      + (f"; before: {more(before['by_shards'])}" if before and before.get("by_shards") else "") + ".")
    return lines


def _model(rows: list[dict]) -> list[str]:
    out = ["| job | 1 worker, CPU s | 8 workers | 64 workers | 512 workers | least time at |",
           "|---|---:|---:|---:|---:|---:|"]
    for r in (r for r in rows if r["model"]):  # no model: the two sides swept whole, no sharded level to project
        m = r["model"]
        base = _median([x["cpu"] for x in r["runs"] if x["workers"] == min(y["workers"] for y in r["runs"])])
        cells = [f"{_fmt(m[p]['seconds'])} s ({m[p]['speedup']}x)" if m[p]["speedup"] >= 0.1 else
                 f"{_fmt(m[p]['seconds'])} s (slower than 1 worker)" for p in ("8", "64", "512")]
        out.append(f"| {r['title']} | {_fmt(base)} | {' | '.join(cells)} | about {m['best_workers']} workers |")
    return out


def _grouped(rows: list[dict]) -> list[str]:
    """What the model says a two-round exchange (not built) would buy, where the rows carry it."""
    parts = [f"{r['title']}: about {r['model']['grouped']['best_workers']} workers, "
             f"{_fmt(r['model']['grouped']['best_seconds'])} s (all to all: {r['model']['best_workers']} workers, "
             f"{_fmt(r['model']['best_seconds'])} s)" for r in rows if "grouped" in r.get("model", {})]
    if not parts:
        return []
    d = rows[0]["model"].get("overhead")
    charge = (f"The model charges sharding d = {d:g} (the breakdown on English's 20-peg level at 2, 4 and 8 shards "
              "in one process). ") if d is not None else ""
    return [" " + charge + "Cheaper keys barely move the optimum: it grows as the cube root of the work "
            "per level over the scheduler's time per part. What would move it is fewer parts: an exchange in two "
            "rounds through √S groups of shards (2 S √S parts a level instead of S², each byte sent twice; the "
            "sweep does not do this) would put the least time at " + "; ".join(parts) + "."]


def _pool(pool: dict) -> list[str]:
    """The page's pool of Pyodide workers, when measured (``pool`` in the file: ``runs`` like the rows')."""
    out = ["", f"**In the page** (a pool of Pyodide workers): {_runtime(pool.get('environment', {}))}; "
           f"{pool.get('date', '?')}; `{pool.get('command', '?')}`.", "",
           "| job | workers | runs | wall s (median) | speedup |", "|---|---:|---:|---:|---:|"]
    for job in pool.get("jobs", []):
        counts = sorted({x["workers"] for x in job["runs"]})
        base = _median([x["wall"] for x in job["runs"] if x["workers"] == counts[0]])
        for i, w in enumerate(counts):
            wall = _median([x["wall"] for x in job["runs"] if x["workers"] == w])
            out.append(f"| {job['title'] if i == 0 else ''} | {w} | "
                       f"{sum(1 for x in job['runs'] if x['workers'] == w)} | {_fmt(wall)} | {base / wall:.2f} |")
    return out


def _chromium_projection(rows: list[dict], exact: dict | None) -> list[str]:
    """The English count in the page's pool on 8 cores: the model's CPython time at 8 workers times the
    measured Chromium / CPython ratio of the one-worker English count (``exact.json``)."""
    english = next((r for r in rows if r["name"] == "parallel-count-english"), None)
    if english is None or exact is None or "8" not in english["model"]:
        return []
    walls = {}
    for r in exact.get("rows", []):
        if r.get("run") == "English count" and r.get("wall_s"):
            walls["chromium" if "Chromium" in r["runtime"] else "node" if "Node" in r["runtime"] else "cpython"] = r
    if "chromium" not in walls or "cpython" not in walls:
        return []
    ratio = walls["chromium"]["wall_s"] / walls["cpython"]["wall_s"]
    projected = english["model"]["8"]["seconds"] * ratio
    return ["", f"Projected for the page: the English count on 8 cores in a pool of Pyodide workers would take about "
            f"**{projected:.0f} s** (the model's {english['model']['8']['seconds']:.1f} s at 8 workers times "
            f"{ratio:.2f}, Chromium's one-worker {walls['chromium']['wall_s']:.1f} s over CPython's "
            f"{walls['cpython']['wall_s']:.1f} s in the exact-analyses table); goal under 20 s: "
            f"{'met' if projected < 20 else '**not met**'}."]


def section(data: dict, exact: dict | None = None) -> str:
    rows: list[dict] = data.get("parallel", [])
    if not rows:
        return ""
    env = rows[0].get("environment", data.get("environment", {}))
    out = ["## Every core: the sharded sweeps", "",
           f"Machine: 2 cores; runtime {_runtime(env)}; date {env.get('date', '?')}. Each job runs in this process "
           "(1 worker: the unsharded sweep) and on local worker processes (the sharded sweep), alternately; "
           "commands: " + "; ".join(f"`{r.get('command', 'python -m pyapp bench --parallel')}`" for r in rows) + ".",
           "", "![speedup against workers](benchmarks/parallel-speedup.svg)", "", *_speed_rows(rows), "",
           _goal_sentence(rows), ""]
    english = next((r for r in rows if r["name"] == "parallel-count-english"), rows[0])
    parts = _breakdown(data["breakdown"], data.get("breakdown_before")) if data.get("breakdown") else []
    out += [*_levels(english), *parts, "",
            "### Scaling model: 8, 64 and 512 workers", "",
            "From the measured levels (`model` in `pyapp/bench/speedup.py`; a Dask cluster, 2 shards per worker, "
            "1 GB/s per worker, 0.2 ms of scheduler time per task):", "",
            "    T(P) = T_serial + sum over levels [ W_l g(S) / P  +  B_l (1 - 1/S) / (P bw)  +  (S + S^2) t_task ],"
            "   S = 2P", "", *_model(rows), "",
            "Where it stops scaling, and why: the work divides by P and so do the bytes a worker sends, but the "
            "exchange is one task per pair of shards, S² a level, and the scheduler's time for those grows as P²; "
            "the least time is where the two meet (last column). The serial part (the driver's routing between levels, "
            "and where the shards do not sum a one-sweep count themselves its gathering and final combination) caps "
            "the speedup before that on the smaller jobs." + "".join(_grouped(rows)),
            *_chromium_projection(rows, exact)]
    if data.get("pool"):
        out += _pool(data["pool"])
    return "\n".join(out)


def research(data: dict) -> str:
    """The research cells (``benchmarks/research.json``, written by ``scripts/research_growth.py``): each
    cell's measured levels, and the projection of the whole sweep for this machine and for 64 cores."""
    cells = data.get("cells", [])
    if not cells:
        return ""
    out = ["## Research cells: how far a sweep must go", "",
           "Each cell's forward sweep (reachable positions up to symmetry, in one process) runs for the budget "
           "shown; the measured level sizes give the growth, and `scripts/research_growth.py` projects the whole "
           "sweep from them (the ratio of successive levels falling as measured, the profile peaking where it "
           "reaches 1 and falling as it rose) at the measured CPU per position; 64 cores at the sharded "
           "sweep's overhead. Peak memory is the largest level held twice with counts (16 bytes a position).", "",
           "| cell | measured | last measured level | CPU per position | projected positions | one core | "
           "64 cores | disk (keys / with counts) | peak memory | on this machine (2 cores, 23 GB) |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for c in cells:
        p, lv = c["projection"], c["levels"]
        cpu_h = p["cpu_hours_one_core"]
        verdict = (f"about {cpu_h * SHARDED_OVERHEAD / 2:,.1f} h, {p['disk_with_counts_gb']:,.0f} GB of disk"
                   + (f", past {MEMORY_GB} GB of memory: spilled" if p["peak_memory_gb"] > MEMORY_GB else ""))
        out.append(f"| {c['board']} {c['start'] or 'default'} -> {c['goal'] or 'default'} | {len(lv)} levels in "
                   f"{sum(x['cpu'] for x in lv):.0f} s | {lv[-1]['pegs']} pegs: {lv[-1]['positions']:,} | "
                   f"{p['microseconds_per_position']:.1f} µs | {p['positions']:.2e} | {cpu_h:,.1f} h | "
                   f"{p['hours_on_64_cores']:,.2f} h | {p['disk_keys_gb']:,.0f} / {p['disk_with_counts_gb']:,.0f} GB |"
                   f" {p['peak_memory_gb']:,.1f} GB | {verdict} |")
    out += ["", "Commands and dates: " + "; ".join(f"`{c['command']}` ({c['runtime']}, {c['date']})" for c in cells)
            + "."]
    for a in data.get("answers", []):
        out += ["", f"**{a['cell']}**: {a['answer']} (`{a['command']}`, {a['date']})."]
    return "\n".join(out)
