"""``show``: a board and position as text (or SVG)."""

from __future__ import annotations

from ...core.moves import legal_jumps
from ...core.notation import format_jump
from ...core.position import format_position
from ...core.render import render_svg
from ...core.wording import plural
from ._common import add_problem_args, problem_from_args


def register(sub) -> None:
    p = sub.add_parser("show", help="draw a board and position")
    add_problem_args(p, goal=False, target=False)
    p.add_argument("--svg", action="store_true", help="output SVG instead of text")
    p.add_argument("--no-coordinates", action="store_true",
                   help="SVG without the coordinate labels (column letters, row numbers, triangle hole numbers)")
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    problem = problem_from_args(args)
    board, pos = problem.board, problem.start
    out = {"board": board.id, "holes": len(board), "pegs": pos.bit_count(),
           "position": format_position(board, pos),
           "legal": [format_jump(board, j) for j in legal_jumps(board, pos)]}
    if args.svg:
        out["svg"] = render_svg(board, pos, coordinates=not args.no_coordinates)
    return out


def text(result: dict) -> str:
    if "svg" in result:
        return result["svg"]
    return f"{result['position']}\n{plural(result['pegs'], 'peg')}; legal jumps: {' '.join(result['legal']) or 'none'}"
