"""``solve``: answer a problem (solved / impossible / unknown), or a file of positions with ``--batch``
(spread over every core by default, ``--workers``/``--cluster``; the answers in the file's order)."""

from __future__ import annotations

import argparse
import sys
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from ...core.errors import PegError
from ...core.limits import MAX_SPEC_CHARS
from ...core.request import build
from ...core.wording import plural
from ...exact.pool import Pool
from ...search.solver import solve
from ._common import add_problem_args, add_time_budget, budget_from_args, problem_from_args, result_dict
from ._parallel import add_pool_args, pool_from_args
from ._progress import StderrProgress


def register(sub) -> None:
    p = sub.add_parser("solve", help="solve a problem")
    add_problem_args(p)
    p.add_argument("--seed", type=int, help="vary the move order: a different solution per seed")
    add_time_budget(p, None)
    p.add_argument("--engine", choices=("search", "sat", "ilp"), default="search",
                   help="search (default); sat: the CNF encoding of pyapp.sat run by an installed SAT package "
                        "(python-sat or pycosat); ilp: the time-indexed integer programme (pyapp.search.ilp) "
                        "solved by HiGHS")
    p.add_argument("--no-book", action="store_true",
                   help="search without the book of results found in minutes (pyapp/proofs/book.py): how a "
                        "book entry is found again")
    p.add_argument("--batch", metavar="FILE",
                   help="solve one position per line of FILE ('-' for standard input), each with the budget, "
                        "and print one answer per line in the file's order (with --json: JSON Lines)")
    add_pool_args(p, "with --batch: the positions on ")
    p.set_defaults(run=run, text=text)


def run(args) -> dict | Iterator[dict]:
    if args.batch is not None:
        if args.start is not None or args.position is not None:
            raise PegError("--batch reads the positions from its file: leave out --start and --position")
        if getattr(args, "engine", "search") != "search":
            raise PegError("--batch runs the search engine only")
        lines = _lines(args.batch)  # opened now: a missing file is an error before any output
        pool = pool_from_args(args)
        return _batch(args, lines) if pool is None else _pooled(args, lines, pool)
    problem = problem_from_args(args)
    engine = getattr(args, "engine", "search")
    if engine in ("sat", "ilp") and args.seed is not None:
        raise PegError("--seed applies to the search engine only")
    if engine == "sat":
        from ...sat import solve_sat

        return result_dict(problem, solve_sat(problem, budget=budget_from_args(args)))
    if engine == "ilp":
        from ...search.ilp import solve_ilp

        return result_dict(problem, solve_ilp(problem, budget=budget_from_args(args)))
    result = solve(problem, seed=args.seed, budget=budget_from_args(args), use_book=not args.no_book,
                   on_progress=StderrProgress("solve", "node").nodes)
    return result_dict(problem, result)


def _lines(path: str) -> Iterator[str]:
    """The lines of ``path`` (``-``: standard input), read one at a time."""
    if path == "-":
        return iter(sys.stdin)
    try:
        handle = Path(path).open(encoding="utf-8", errors="replace")  # noqa: SIM115 - _read closes it
    except OSError as err:
        raise PegError(f"cannot read the batch file {path!r}: {err.strerror or err}") from None
    return _read(handle)


def _read(handle: TextIO) -> Iterator[str]:
    with handle:
        yield from handle


def _batch(args, lines: Iterator[str]) -> Iterator[dict]:
    """One answer per non-empty line: the keys of ``solve --json`` plus ``line`` (its number in the
    file), or ``{"line", "error"}`` for a line that is not a position of the board."""
    for item in _checked(args, lines):
        if isinstance(item, dict):
            yield item
            continue
        yield _solved(item[5], item[4], args.seed, budget_from_args(args))  # the problem the reader built


def _solved(problem, number: int, seed: int | None, budget) -> dict:
    t0 = time.perf_counter()
    result = solve(problem, seed=seed, budget=budget)
    out = {"line": number, **result_dict(problem, result)}
    out["seconds"] = round(time.perf_counter() - t0, 6)
    return out


def _job(job: tuple) -> dict:
    """One line of a batch in a worker: the problem was checked by the reader, the budget is rebuilt here."""
    board, text, goal, target, number, seed, limits = job
    problem = build(board, position=text, goal=goal, target=target).problem
    return _solved(problem, number, seed, budget_from_args(argparse.Namespace(**limits)))


def _pooled(args, lines: Iterator[str], pool: Pool) -> Iterator[dict]:
    """:func:`_batch` on a pool: the lines run side by side, the answers come out in the file's order as soon
    as each and those before it are done (a window of a few lines per worker is in flight)."""
    limits = {k: getattr(args, k, None) for k in ("max_seconds", "max_nodes", "max_memory", "cpu_time")}
    window: deque = deque()
    try:
        for item in _checked(args, lines):
            # a worker rebuilds the problem from the line's text (strings travel lighter than a Problem)
            window.append(item if isinstance(item, dict) else pool.submit(_job, (*item[:5], args.seed, limits)))
            while window and (len(window) > 4 * pool.workers or _ready(pool, window[0])):
                head = window.popleft()
                yield head if isinstance(head, dict) else pool.result(head)
        while window:
            head = window.popleft()
            yield head if isinstance(head, dict) else pool.result(head)
    except BaseException:
        pool.cancel()
        raise
    finally:
        pool.close()


def _ready(pool: Pool, item) -> bool:
    return isinstance(item, dict) or pool.ready(item)


def _checked(args, lines: Iterator[str]) -> Iterator[dict | tuple]:
    """Each line's error (a dict), or what a worker needs to solve it (a tuple: board, text, goal, target,
    line number) followed by the problem built from it (each line is read once in this process)."""
    for number, raw in enumerate(lines, 1):
        text = raw.rstrip("\r\n")  # leading spaces are part of a position's first row
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if len(text) > MAX_SPEC_CHARS:
            yield {"line": number, "error": f"line {number} has {len(text):,} characters: a position has at most "
                                            f"{MAX_SPEC_CHARS:,}"}
            continue
        try:
            problem = build(args.board, position=text, goal=args.goal, target=args.target).problem
        except PegError as err:
            yield {"line": number, "error": str(err)}
            continue
        yield (args.board, text, args.goal, args.target, number, problem)


def text(r: dict) -> str:
    if "error" in r:
        return f"line {r['line']}: error: {r['error']}"
    where = f"line {r['line']}: " if "line" in r else ""
    head = f"{where}{r['status']}" + (f": {r['reason']}" if r["reason"] else "")
    stats = (f"{plural(r['jumps'], 'jump')}, {plural(len(r['moves']), 'move')}, {plural(r['pegs_left'], 'peg')} left; "
             f"{plural(r['nodes'], 'node')} in {r['seconds']:.3f} s")
    if r.get("method", "").startswith("integer programming"):  # --engine ilp names its engine
        stats += f"; by {r['method']}"
    body = " ".join(r["moves"])
    return "\n".join(x for x in (head, stats, body, "" if "line" in r else r["final"]) if x)
