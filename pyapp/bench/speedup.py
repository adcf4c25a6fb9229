"""Speedup of the sharded sweeps (``bench --parallel``): rows at 1 and 2 workers, and a model of more.

Each row runs one exact analysis in this process (``workers=1``: the unsharded sweep, today's code
path) and on local worker processes, alternately (``--repeat``), and records wall and CPU seconds
(this process and its workers), the answer (which must be the same at every worker count), the
machine's load average, and per level the positions, each shard's seconds and CPU seconds and the
bytes its buckets sent to the other shards.

:func:`model` projects those measurements to 8, 64 and 512 workers.  Per level ``l`` with ``W_l``
CPU seconds of unsharded work and ``B_l`` bytes of buckets::

    T(P) = T_serial + sum_l [ W_l * g(S) / P  +  B_l * (1 - 1/S) / (P * bw)  +  tasks(S) * t_task ]

* ``g(S) = 1 + d * (1 - 1/S)``: sharding's CPU overhead.  A position whose parents lie in several
  shards is generated, sent and merged once per shard; ``d`` is fitted from the measured overhead
  (:data:`OVERHEAD_PER_DUPLICATE`, from ``bench --parallel --breakdown`` at 2, 4 and 8 shards);
* ``bw``: the bytes a worker sends per second (default 1 GB/s: a 10 Gb/s link, or shared memory);
* ``tasks(S) = S + S**2``: a step per shard and a part (a bucket) per pair of shards, each costing the
  scheduler ``t_task`` (Dask: about 0.2 ms); ``S = 2 P`` on a cluster;
* ``T_serial``: what the driver does alone: routing the buckets between levels, and where the count is not
  a one-sweep count, gathering the middle levels and the final combination (a one-sweep count, such as
  English's complement count or triangle7's single vacancy to one peg anywhere, sums its halves in the shards'
  own steps: :mod:`pyapp.exact.pairs`).

It stops scaling where the scheduler's ``S**2`` parts per level cost as much as the shrinking
``W_l / P``; the row says at which worker count the model's time is least (found by trying every count up
to 4,096), and what a two-round exchange (``2 S sqrt(S)`` parts) would move it to.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..core.budget import Budget, drive
from ..core.request import build
from ..exact.count import sweep_steps
from ..exact.fewest import fewest_steps
from ..exact.sharded import Parallel, make_pool
from ..exact.winnable import clear_cache

SHARDED_OVERHEAD = 1.45
"""CPU of the sharded sweep over the unsharded one at many shards (English, 8 shards in one process, as measured
when the research cells were sized): what their projections (``scripts/research_growth.py``, the report) charge
for sharding.  Kept with ``benchmarks/research.json``, whose projections used it; the breakdown now measures
1.08x at 8 shards (:data:`OVERHEAD_PER_DUPLICATE`), so those projections are on the safe side."""
OVERHEAD_PER_DUPLICATE = 0.1
"""``d`` of the model: the sharded sweep's extra CPU at many shards is ``1 + d`` (see the docstring).  Measured
by ``bench --parallel --breakdown`` on English's 20-peg level in one process: 1.03x, 1.09x and 1.08x the unsharded
CPU at 2, 4 and 8 shards (0.06, 0.13 and 0.09 as ``d``); before children were routed in the canonicalising loop
and merged by C loops, 1.47x and 1.79x at 2 and 4 shards (``d`` about 0.9-1.0)."""
BYTES_PER_SECOND = 1e9
TASK_SECONDS = 2e-4
WORKERS = (8, 64, 512)


@dataclass(frozen=True)
class Case:
    name: str
    title: str
    run: Callable[[Parallel | None], tuple]


def _count(board: str, start: str | None, goal: str | None) -> Callable[[Parallel | None], tuple]:
    def run(par: Parallel | None) -> tuple:
        r = drive(sweep_steps(build(board, start=start, goal=goal).problem, Budget(), parallel=par))
        return (r.status, r.solutions)  # the positions stored depend on where the sides meet, which the method picks
    return run


def _fewest(board: str, start: str | None, goal: str | None) -> Callable[[Parallel | None], tuple]:
    def run(par: Parallel | None) -> tuple:
        r = drive(fewest_steps(build(board, start=start, goal=goal).problem, Budget(), parallel=par))
        return (r.status, r.moves)  # the classes costed depend on the caps the sides reach, which a pool races
    return run


CASES = [
    Case("parallel-count-english", "English 33: every solution counted", _count("english", None, None)),
    Case("parallel-count-triangle7", "Triangle 7: vacancy 4 -> one peg, every solution counted",
         _count("triangle7", "4", "any")),
    Case("parallel-fewest-triangle7", "Triangle 7: vacancy 4 -> one peg, fewest moves",
         _fewest("triangle7", "4", "any")),
    Case("parallel-count-triangle6", "Triangle 6: every solution counted (cheap check)",
         _count("triangle6", None, None)),
]


def _children_cpu() -> float:
    import resource  # Unix only, and only here: the command line also runs in Pyodide, which lacks it

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(case: Case, workers: int) -> dict:
    """One run of ``case`` on ``workers`` (1: in this process, unsharded)."""
    clear_cache()  # the winnable sets of the run before would make this one a lookup
    load = os.getloadavg()[0]
    cpu0, kids0, t0 = time.process_time(), _children_cpu(), time.perf_counter()
    par = None if workers == 1 else Parallel(make_pool(workers))
    try:
        answer = case.run(par)
    finally:
        if par is not None:
            par.pool.close()  # the workers exit: their CPU time is counted now
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0 + _children_cpu() - kids0
    levels = [st.as_dict() for st in par.stats] if par is not None else []
    return {"workers": workers, "wall": round(wall, 3), "cpu": round(cpu, 3), "load": round(load, 2),
            "answer": list(answer), "levels": levels}


def model(single_cpu: float, runs: list[dict], overhead: float | None = None) -> dict:
    """The projection of the docstring from a sharded run's levels (their bytes) and the unsharded CPU time;
    ``T_serial`` is that run's wall time outside the levels (the driver alone: routing, and gathering and
    combining where the shards do not combine).
    ``overhead`` is ``d`` (default :data:`OVERHEAD_PER_DUPLICATE`).  Besides the exchange the sweep does
    (all to all: ``S**2`` parts a level), ``grouped`` projects a two-round exchange through ``sqrt(S)``
    groups (``2 S sqrt(S)`` parts, each byte sent twice), which the sweep does not do: what it would buy."""
    sharded: dict = next((r for r in runs if r["levels"]), {"levels": [], "wall": 0.0})
    levels: list[dict] = sharded["levels"]
    serial = max(0.0, float(sharded["wall"]) - sum(lv["seconds"] for lv in levels)) if levels else 0.0
    total_bytes = sum(lv["bytes"] for lv in levels)
    nlevels = max(1, len(levels))
    work = max(single_cpu - serial, 0.0)
    d = OVERHEAD_PER_DUPLICATE if overhead is None else overhead
    out: dict = {}

    def at(p: int, grouped: bool = False) -> dict:
        s = 2 * p
        g = 1 + d * (1 - 1 / s)
        compute = work * g / p
        network = (2 if grouped else 1) * total_bytes * (1 - 1 / s) / (p * BYTES_PER_SECOND)
        parts = 2 * s * s ** 0.5 if grouped else s * s
        sched = nlevels * (s + parts) * TASK_SECONDS
        return {"seconds": serial + compute + network + sched, "compute": compute, "network": network,
                "scheduler": sched}

    for p in WORKERS:
        t = at(p)
        out[str(p)] = {"seconds": round(t["seconds"], 2), "speedup": round(single_cpu / t["seconds"], 1),
                       **{k: round(v, 2) for k, v in t.items() if k != "seconds"}}
    out["curve"] = {str(2 ** k): round(single_cpu / at(2 ** k)["seconds"], 3) for k in range(1, 10)}
    span = range(1, 4097)
    best = min(span, key=lambda p: at(p)["seconds"])  # where the model's time is least
    best_grouped = min(span, key=lambda p: at(p, True)["seconds"])
    out["best_workers"] = best
    out["best_seconds"] = round(at(best)["seconds"], 2)
    out["grouped"] = {"best_workers": best_grouped, "best_seconds": round(at(best_grouped, True)["seconds"], 2)}
    out["overhead"] = d
    out["serial_seconds"] = round(serial, 2)
    out["bytes"] = total_bytes
    return out


def row(case: Case, repeat: int = 1, workers: tuple[int, ...] = (1, 2)) -> dict:
    """Runs alternating between worker counts (so a change in the machine's load hits both), the speedups
    and CPU ratios of their medians (wall and CPU seconds; the middle two averaged when the count is even,
    as the report reads them), and the model."""
    runs = [measure(case, w) for _ in range(repeat) for w in workers]
    wall = {w: statistics.median(r["wall"] for r in runs if r["workers"] == w) for w in workers}
    cpu = {w: statistics.median(r["cpu"] for r in runs if r["workers"] == w) for w in workers}
    answers = {tuple(map(str, r["answer"])) for r in runs}
    first = workers[0]
    return {"name": case.name, "title": case.title, "same_answer": len(answers) == 1, "answer": runs[0]["answer"],
            "runs": runs,
            "speedup": {str(w): round(wall[first] / wall[w], 2) for w in workers},
            "cpu_ratio": {str(w): round(cpu[w] / cpu[first], 2) for w in workers},
            # the model projects the sharded sweep's levels; a run that swept the two sides whole, one per
            # worker (pyapp.exact.twosided), records none, and the row then carries no model
            "model": model(cpu[first], runs) if any(r["levels"] for r in runs) else {}}


def breakdown(board: str = "english", pegs: int = 20, shards: int = 2, repeat: int = 1) -> dict:
    """Where sharding's extra CPU goes, on one level of a counting sweep, all in this process: expanding
    the level unsharded (children merged into one dict, sorted into arrays) against expanding each of
    ``shards`` shards (:func:`~pyapp.exact.shards.children`), splitting their children into buckets
    (:func:`~pyapp.exact.shards.bucket`) and merging each owner's buckets (:func:`~pyapp.exact.shards.merge`,
    sorted, as a step does before it expands the shard).  Each part is the median of ``repeat`` alternating
    measurements; the busiest shard's CPU bounds what ``shards`` workers can gain on that level: at best
    unsharded / busiest."""
    from ..exact import shards as sh
    from ..exact.setup import sides
    from ..exact.sweep import Level, sweep

    load = os.getloadavg()[0]
    s = sides(build(board).problem)
    cd = s.wide_codec
    level: Level | None = None
    for item in sweep(cd, {s.start: 1}, pegs, weights=True):
        if isinstance(item, Level):
            level = item
    assert level is not None and level.weights is not None
    spec = sh.Spec(s.problem.board, cd.group, True, shards)
    parts: list[tuple[list[int], list[int]]] = [([], []) for _ in range(shards)]  # the level's shards
    for k, w in zip(level.keys, level.weights, strict=True):
        j = spec.owner(k)
        parts[j][0].append(k)
        parts[j][1].append(w)
    runs = [_breakdown_once(sh, cd, spec, level, parts) for _ in range(max(1, repeat))]

    def median(get) -> float:
        return round(statistics.median(get(r) for r in runs), 3)

    first = runs[0]
    unsharded = {k: median(lambda r, k=k: r["unsharded"][k]) for k in first["unsharded"]}
    sharded = {k: median(lambda r, k=k: r["sharded"][k]) for k in first["sharded"]}
    return {"board": board, "pegs": pegs, "shards": shards, "parents": len(level.keys), "children": first["children"],
            "keys_sent": first["keys_sent"], "unsharded": unsharded, "sharded": sharded,
            "ratio": round(sum(sharded.values()) / sum(unsharded.values()), 3),
            "shard_parents": [len(p[0]) for p in parts], "shard_children": first["sizes"],
            "shard_cpu": [median(lambda r, j=j: r["per_shard"][j]) for j in range(shards)],
            "repeat": len(runs), "load": round(load, 2),
            "command": f"python -m pyapp bench --parallel --breakdown --repeat {len(runs)} --out benchmarks"}


def _breakdown_once(sh, cd, spec, level, parts) -> dict:
    """One measurement of :func:`breakdown`: the level unsharded, then sharded."""
    from ..exact.sweep import expand_chunk, to_array, weights_array

    keys, weights = level.keys, level.weights
    clock = time.process_time
    t0 = clock()
    acc: dict[int, int] = {}
    for lo in range(0, len(keys), sh.CHUNK):
        expand_chunk(cd, keys, weights, lo, min(len(keys), lo + sh.CHUNK), acc)
    t1 = clock()
    ordered = sorted(acc)  # as the plain sweep finishes a level
    to_array(ordered), weights_array(list(map(acc.__getitem__, ordered)))
    t2 = clock()
    plain = {"expand": t1 - t0, "sort": t2 - t1}
    children = len(acc)
    del acc, ordered
    shards = spec.shards
    cost = {"expand": 0.0, "bucket": 0.0, "merge": 0.0}
    per_shard = [0.0] * shards  # CPU of each shard's step: its expansion and bucketing, then its merge
    made = []
    for j, (ks, ws) in enumerate(parts):
        c0 = clock()
        kids = sh.children(spec, sh._q(ks), sh._q(ws))
        c1 = clock()
        made.append(sh.bucket(kids))
        cost["expand"] += c1 - c0
        cost["bucket"] += clock() - c1
        per_shard[j] += clock() - c0
        del kids
    sent = sum(len(b[j][0]) // 8 for b in made for j in range(shards))
    sizes = []
    for j in range(shards):
        c0 = clock()
        sizes.append(len(sh.merge(spec, [b[j] for b in made], ordered=True)[0]))
        cost["merge"] += clock() - c0
        per_shard[j] += clock() - c0
    return {"unsharded": plain, "sharded": cost, "per_shard": per_shard, "children": children, "keys_sent": sent,
            "sizes": sizes}


def merge_into(path: Path, rows: list[dict], extra: dict | None = None) -> Path:
    """Write ``rows`` into the result file ``path`` (``benchmarks/parallel.json``), replacing the rows of the
    same name and keeping the others: each row carries its own environment, command and date, so rows
    measured at different times live side by side, and the report renders whatever the file holds."""
    data: dict = json.loads(path.read_text()) if path.exists() else {}
    old = [r for r in data.get("parallel", []) if r["name"] not in {x["name"] for x in rows}]
    order = [c.name for c in CASES]
    merged = sorted(old + rows, key=lambda r: order.index(r["name"]) if r["name"] in order else len(order))
    data["parallel"] = merged
    data.update(extra or {})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path
