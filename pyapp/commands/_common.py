"""Arguments and conversions shared by the commands."""

from __future__ import annotations

import argparse

from ..errors import LimitError, PegError
from ..limits import check_seconds
from ..notation import format_moves
from ..position import format_position
from ..problem import Goal, Problem, Result, make_problem
from ..spec import resolve_board


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
    """The problem the arguments describe, defaults from the catalogue."""
    spec = resolve_board(args.board)
    goal = getattr(args, "goal", None)
    target = getattr(args, "target", None)
    if goal is not None and target is not None:
        raise PegError("give either --goal or --target, not both")
    problem = make_problem(spec.board, start=args.start, position=args.position, goal=goal, target=target,
                           default_goal=spec.goal)
    if args.start is None and args.position is None:
        problem = Problem(spec.board, spec.start, problem.goal)
    return problem


def goal_text(problem: Problem, goal: Goal | None = None) -> str:
    g = goal or problem.goal
    if g.kind == "hole":
        return problem.board.name_of[g.target.bit_length() - 1]
    if g.kind == "target":
        return "target"
    return g.kind


def result_dict(problem: Problem, result: Result) -> dict:
    """The solve contract's keys for a result."""
    return {
        "status": result.status,
        "reason": result.reason,
        "moves": format_moves(problem.board, result.jumps),
        "jumps": len(result.jumps),
        "pegs_left": result.pegs_left,
        "final": format_position(problem.board, result.final),
        "nodes": result.nodes,
        "entries": result.entries,
        "seconds": round(result.seconds, 6),
    }


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


def add_time_budget(p: argparse.ArgumentParser, default: float) -> None:
    """``--max-seconds`` with a default, for the analyses that must not run forever."""
    p.add_argument("--max-seconds", type=positive_float, default=default, help=f"time budget (default {default:g})")


def positive_float(text: str) -> float:
    """A time budget in seconds: finite, above 0 and within :data:`pyapp.limits.MAX_SECONDS` (``inf``,
    ``nan`` and ``1e400`` are refused: a budget that never ends is no budget)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    try:
        return check_seconds(value, "the budget")
    except LimitError as err:
        raise argparse.ArgumentTypeError(f"{err} (from {text!r})") from None
