"""``puzzle``: a random position with N pegs, solvable by construction (see :mod:`pyapp.analysis.puzzle`)."""

from __future__ import annotations

from ...analysis.puzzle import MAX_SEED, make_puzzle
from ...core.catalogue import CATALOGUE
from ...core.notation import format_moves
from ...core.position import format_position
from ...core.spec import resolve_board
from ...core.wording import plural
from ._common import non_negative


def register(sub) -> None:
    p = sub.add_parser("puzzle", help="a random solvable position with N pegs (built backwards from one peg)")
    p.add_argument("board", help="catalogue id (see 'boards') or square:ROWS / triangle:ROWS")
    p.add_argument("--pegs", type=non_negative, required=True,
                   help="pegs in the puzzle: the difficulty (2 up to the board's holes less one)")
    p.add_argument("--seed", type=non_negative, help=f"0..{MAX_SEED}: the same seed gives the same puzzle "
                                                    "(default: a fresh one, printed)")
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    board = resolve_board(args.board).board
    name = board.id if board.id in CATALOGUE else args.board
    puzzle = make_puzzle(board, args.pegs, seed=args.seed)
    return {
        "board": name,
        "pegs": puzzle.pegs,
        "seed": puzzle.seed,
        "position": format_position(board, puzzle.position),
        "goal": board.name_of[puzzle.finish],
        "solution": format_moves(board, list(puzzle.solution)),
        "jumps": len(puzzle.solution),
    }


def text(r: dict) -> str:
    moves = r["solution"]
    return (f"{r['board']} puzzle, seed {r['seed']}: {plural(r['pegs'], 'peg')}, leave one peg on {r['goal']}\n"
            f"{r['position']}\n"
            f"a solution ({plural(len(moves), 'move')}, {plural(r['jumps'], 'jump')}): {' '.join(moves)}")
