"""Arguments and conversions shared by the commands."""

from __future__ import annotations

import argparse

from ...core.budget import CPU_CLOCK, Budget
from ...core.errors import LimitError
from ...core.limits import check_seconds
from ...core.problem import Problem, Result
from ...core.request import build, result_json


def add_problem_args(p: argparse.ArgumentParser, *, goal: bool = True, target: bool = True) -> None:
    """BOARD, ``--start HOLE | --position TEXT`` and (optionally) ``--goal``/``--target``."""
    p.add_argument("board", help="catalogue id (see 'boards') or square:ROWS / triangle:ROWS")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--start", help="the single vacancy at the start (default: the board's default problem)")
    where.add_argument("--position", help="position text, rows separated by '/' or newlines")
    if goal:
        p.add_argument("--goal", help="a hole name, 'any' (one peg anywhere) or 'min' (fewest pegs)")
    if target:
        p.add_argument("--target", help="an exact target position (text)")


def problem_from_args(args: argparse.Namespace) -> Problem:
    """The problem the arguments describe, defaults from the catalogue (:func:`pyapp.core.request.build`)."""
    return build(args.board, start=args.start, position=args.position, goal=getattr(args, "goal", None),
                 target=getattr(args, "target", None)).problem


def result_dict(problem: Problem, result: Result) -> dict:
    """The solve contract's keys for a result (:func:`pyapp.core.request.result_json`)."""
    return result_json(problem.board, result)


def non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """A count of at least 1 (runs, repeats)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of runs, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1 run, got {text!r}")
    return value


def add_time_budget(p: argparse.ArgumentParser, default: float | None) -> None:
    """The budget options: ``--max-seconds`` (with a default for the analyses that must not run
    forever), ``--max-nodes`` (reproducible on a loaded machine), ``--max-memory`` (MB) and
    ``--cpu-time`` (every time limit, per-problem ones included, read from the CPU clock)."""
    p.add_argument("--max-seconds", type=positive_float, default=default,
                   help="time budget" + (f" (default {default:g})" if default is not None else ""))
    p.add_argument("--max-nodes", type=non_negative, help="node budget (search nodes or positions expanded)")
    p.add_argument("--max-memory", type=megabytes, metavar="MB",
                   help="memory ceiling in MB (caps the positions the call stores)")
    p.add_argument("--cpu-time", action="store_true",
                   help="count every time budget in CPU seconds of this process, not wall-clock seconds "
                        "(the same work, so the same answers, on a loaded machine)")


def budget_from_args(args: argparse.Namespace) -> Budget:
    """The :class:`~pyapp.core.budget.Budget` the options of :func:`add_time_budget` describe."""
    memory = getattr(args, "max_memory", None)
    return Budget(args.max_seconds, getattr(args, "max_nodes", None),
                  None if memory is None else int(memory * 2**20),
                  clock=CPU_CLOCK if getattr(args, "cpu_time", False) else None)


def positive_float(text: str) -> float:
    """A time budget in seconds: finite, above 0 and within :data:`pyapp.core.limits.MAX_SECONDS` (``inf``,
    ``nan`` and ``1e400`` are refused: a budget that never ends is no budget)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    try:
        return check_seconds(value, "the budget")
    except LimitError as err:
        raise argparse.ArgumentTypeError(f"{err} (from {text!r})") from None


def megabytes(text: str) -> float:
    """A memory ceiling in MB: a finite number above 0 and at most 1,000,000 (a terabyte)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of megabytes, got {text!r}") from None
    if not 0 < value <= 1e6:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"expected a number of megabytes above 0 and at most 1000000, got {text!r}")
    return value
