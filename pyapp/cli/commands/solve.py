"""``solve``: answer a problem (solved / impossible / unknown), or a file of positions with ``--batch``."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from ...core.errors import PegError
from ...core.limits import MAX_SPEC_CHARS
from ...core.request import build
from ...core.wording import plural
from ...search.solver import solve
from ._common import add_problem_args, add_time_budget, budget_from_args, problem_from_args, result_dict
from ._progress import StderrProgress


def register(sub) -> None:
    p = sub.add_parser("solve", help="solve a problem")
    add_problem_args(p)
    p.add_argument("--seed", type=int, help="vary the move order: a different solution per seed")
    add_time_budget(p, None)
    p.add_argument("--engine", choices=("search", "sat"), default="search",
                   help="search (default) or sat: the CNF encoding of pyapp.sat run by an installed SAT package "
                        "(python-sat or pycosat)")
    p.add_argument("--batch", metavar="FILE",
                   help="solve one position per line of FILE ('-' for standard input) in this one process, "
                        "each with the budget, and print one answer per line (with --json: JSON Lines)")
    p.set_defaults(run=run, text=text)


def run(args) -> dict | Iterator[dict]:
    if args.batch is not None:
        if args.start is not None or args.position is not None:
            raise PegError("--batch reads the positions from its file: leave out --start and --position")
        if getattr(args, "engine", "search") != "search":
            raise PegError("--batch runs the search engine only")
        lines = _lines(args.batch)  # opened now: a missing file is an error before any output
        return _batch(args, lines)
    problem = problem_from_args(args)
    if getattr(args, "engine", "search") == "sat":
        if args.seed is not None:
            raise PegError("--seed applies to the search engine only")
        from ...sat import solve_sat

        return result_dict(problem, solve_sat(problem, budget=budget_from_args(args)))
    result = solve(problem, seed=args.seed, budget=budget_from_args(args),
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
        t0 = time.perf_counter()
        result = solve(problem, seed=args.seed, budget=budget_from_args(args))
        out = {"line": number, **result_dict(problem, result)}
        out["seconds"] = round(time.perf_counter() - t0, 6)
        yield out


def text(r: dict) -> str:
    if "error" in r:
        return f"line {r['line']}: error: {r['error']}"
    where = f"line {r['line']}: " if "line" in r else ""
    head = f"{where}{r['status']}" + (f": {r['reason']}" if r["reason"] else "")
    stats = (f"{plural(r['jumps'], 'jump')}, {plural(len(r['moves']), 'move')}, {plural(r['pegs_left'], 'peg')} left; "
             f"{plural(r['nodes'], 'node')} in {r['seconds']:.3f} s")
    body = " ".join(r["moves"])
    return "\n".join(x for x in (head, stats, body, "" if "line" in r else r["final"]) if x)
