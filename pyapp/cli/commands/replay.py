"""``replay``: check a sequence of moves against the rules."""

from __future__ import annotations

from ...core.game import replay
from ...core.position import format_position
from ...core.wording import plural
from ._common import add_problem_args, problem_from_args


def register(sub) -> None:
    p = sub.add_parser("replay", help="replay moves in notation and report where they lead")
    add_problem_args(p, goal=False, target=False)
    p.add_argument("moves", nargs="*", metavar="MOVE", help="moves like f4-d4 or e7-c7-c5")
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    problem = problem_from_args(args)
    r = replay(problem.board, problem.start, args.moves)
    return {"valid": r.valid, "error": r.error, "jumps": len(r.jumps), "moves": r.moves,
            "pegs_left": r.final.bit_count(), "final": format_position(problem.board, r.final)}


def text(r: dict) -> str:
    head = "valid" if r["valid"] else f"invalid: {r['error']}"
    counts = f"{plural(r['jumps'], 'jump')}, {plural(r['moves'], 'move')}, {plural(r['pegs_left'], 'peg')} left"
    return f"{head}\n{counts}\n{r['final']}"
