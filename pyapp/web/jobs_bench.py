"""The benchmark's requests of the web worker (``bench``: the suite's rows; ``study``: the scaling study that
bench.html runs in the page), as :class:`~.job.Job` objects driven slice by slice like the solver's (:mod:`.jobs`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Generator
from typing import Any

from ..core import fields
from ..core.errors import PegError
from .job import Job


def bench_job(args: dict) -> Job:
    from ..bench.suite import iter_suite

    args = fields.request(args)
    quick = fields.flag(args, "quick", True)
    repeat = fields.integer(args, "repeat", 1, low=1, high=1000) or 1
    only = fields.text_list(args, "only")
    rows: list[Any] = []

    def gen() -> Generator[Any, None, list]:
        for row in iter_suite(quick=quick, repeat=repeat, only=only or None):
            rows.append(row)
            yield row
        return rows

    return Job(gen(), lambda value: value, lambda row: row, cancelled=lambda: {"cancelled": True, "rows": rows})


def study_job(args: dict) -> Job:
    """The scaling study in the page ("Run the quick study here" on bench.html): the runs of
    :func:`pyapp.bench.scaling.study_steps`, one per step; ``quick`` (default true), ``boards``, ``max_pegs`` and
    ``warm_solves`` shape the plan, ``browser`` is recorded.  Progress ``{phase, done, planned, run}``; the
    result is the study's ``scaling.json`` data; a cancel answers ``{"cancelled": true, "runs": [...]}``."""
    from ..bench import scaling
    from ..bench.suite import environment

    args = fields.request(args)
    boards = fields.text_list(args, "boards", limit=len(scaling.BOARDS))
    if boards and set(boards) - set(scaling.BOARDS):
        raise PegError(f"the scaling study runs on {', '.join(scaling.BOARDS)}, not {', '.join(boards)}")
    plan = scaling.Plan.of(fields.flag(args, "quick", True), boards, None, fields.integer(args, "max_pegs", None))
    warm = fields.integer(args, "warm_solves", None, low=1, high=1000)
    if warm:
        plan = dataclasses.replace(plan, warm_solves=warm)
    env = {**environment(), "browser": fields.text(args, "browser", 300, "") or "",
           "machine": "the visitor's computer"}
    shape = f"{'quick' if plan.quick else 'full'} plan, boards {', '.join(plan.boards)}" + \
        (f", up to {plan.max_pegs} pegs" if plan.max_pegs else "")
    runs: list[dict] = []

    def gen() -> Generator[dict, None, dict]:
        data = yield from scaling.study_steps(plan, env, f"bench.html: Run the quick study here ({shape})")
        return data

    def progress(p: dict) -> dict:
        if p["run"] is not None:
            runs.append(p["run"])
        return p

    return Job(gen(), lambda value: value, progress, cancelled=lambda: {"cancelled": True, "runs": runs})
