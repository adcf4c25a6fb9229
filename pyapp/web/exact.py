"""The exact analyses as web-worker jobs: step generators with per-level progress, cancel and budgets.

``webapi`` registers the streaming requests ``count_exact`` (``levels: true`` for the level
histogram) and ``fewest_exact``, and the one-shot ``exact_estimate`` that the page asks
before starting, so it can say how long a big board will take and how much memory it needs
(:func:`page_estimate`).

``workers`` (2 to :data:`MAX_POOL_WORKERS`) runs the sweeps sharded on the page's pool of Pyodide
workers: the job's :class:`~pyapp.exact.relay.Relay` records each shard step for the worker to
take and hand to the pool (``static/engine/pool.mjs``), and the answers come back to it; absent
or 1, the sweeps run in this worker, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from ..core import fields
from ..core.budget import Budget
from ..core.errors import PegError
from ..core.problem import Problem
from ..exact.count import sweep_steps as count_steps
from ..exact.estimate import estimate
from ..exact.fewest import fewest_steps
from ..exact.levels import levels_steps
from ..exact.relay import Relay
from ..exact.report import count_json, fewest_json, levels_json
from ..exact.sharded import Parallel

DEFAULT_SECONDS = 600.0
DEFAULT_MEGABYTES = 900
"""The browser's default memory ceiling: under the 1 GB a Pyodide worker can count on."""
MAX_POOL_WORKERS = 64


def page_estimate(problem: Problem, kind: str = "count") -> dict:
    """:func:`pyapp.exact.estimate.estimate` with the page's memory ceiling: ``over_ceiling`` says the
    analysis will likely stop at the default ceiling (checked against the memory it holds) before it answers."""
    out = estimate(problem, kind)
    out["ceiling_mb"] = DEFAULT_MEGABYTES
    out["over_ceiling"] = out["held_mb"] > DEFAULT_MEGABYTES
    return out


def budget_from(args: dict) -> Budget:
    """The caller's budget: ``max_seconds`` (default 600) and ``max_memory_mb`` (default 900)."""
    seconds = fields.number(args, "max_seconds", DEFAULT_SECONDS)
    megabytes = fields.number(args, "max_memory_mb", DEFAULT_MEGABYTES, low=1, high=1_000_000)
    return Budget(seconds, max_bytes=int(megabytes * 1_000_000))


def job(problem: Problem, args: dict
        ) -> tuple[Generator[Any, None, Any], Callable[[Any], Any], Callable[[Any], Any], Budget, Relay | None]:
    """``(generator, finish, progress, budget, relay)``: the first four for :class:`pyapp.web.job.Job`,
    ``relay`` the pool's recorder when ``args['workers']`` asks for a pool (else None).
    ``args['analysis']`` is ``count``, ``levels`` or ``fewest``; a cancel makes the analysis answer
    'unknown: cancelled' at its next chunk.  The answer says ``workers``: how many workers swept."""
    kind = args.get("analysis", "count")
    if kind not in ("count", "levels", "fewest"):
        raise PegError(f"unknown exact analysis {kind!r}: expected count, levels or fewest")
    budget = budget_from(args)
    workers = fields.integer(args, "workers", 1, low=1, high=MAX_POOL_WORKERS) or 1
    relay = Relay(workers) if workers > 1 else None
    parallel = Parallel(relay) if relay is not None else None
    gen: Generator[Any, None, Any]
    finish: Callable[[Problem, Any], dict]
    if kind == "count":
        gen, finish = count_steps(problem, budget, parallel=parallel), count_json
    elif kind == "levels":
        gen, finish = levels_steps(problem, budget, parallel=parallel), levels_json
    else:
        # over the winnable set, which stays cached: never-lose and hints then answer by lookup
        gen, finish = fewest_steps(problem, budget, method="levels", parallel=parallel), fewest_json
    last: dict[str, Any] = {}

    def progress(p: Any) -> dict:
        last.update(p.as_dict())
        if relay is not None:  # what the level in flight holds: its buckets wait in the page, not in a sweep
            last["memory"] = max(last["memory"], relay.bytes_held())
            last["unit"] = "shards" if p.stage in ("forward", "backward", "reachable", "can reach the goal") else ""
        return last

    def answer(result: Any) -> dict:
        out = finish(problem, result)
        out["workers"] = workers
        if parallel is not None:
            out["level_sizes"] = [[st.stage, st.pegs, st.positions] for st in parallel.stats]
            out["level_stats"] = [st.as_dict() for st in parallel.stats]  # seconds, per-shard seconds, bytes moved
        return out

    return gen, answer, progress, budget, relay
