"""``puzzle``: a random position with N pegs, solvable by construction (see :mod:`pyapp.analysis.puzzle`).

``--count N`` makes a batch instead: the puzzles of seeds S, S+1, ... (``--seed S``, else a fresh base seed,
printed), spread over every core (``--workers``, ``--cluster``) in runs of consecutive seeds, answered in
seed order: each the puzzle its seed makes alone (``puzzle --seed``), or the error that seed met.
"""

from __future__ import annotations

import argparse
import random
import sys

from ...analysis import spread
from ...analysis.puzzle import MAX_SEED, Puzzle, check_pegs, make_puzzle
from ...core.board import Board
from ...core.budget import drive
from ...core.catalogue import CATALOGUE
from ...core.errors import PegError
from ...core.notation import format_moves
from ...core.position import format_position
from ...core.spec import resolve_board
from ...core.wording import plural
from ._common import non_negative
from ._parallel import add_pool_args, pool_from_args, pool_workers
from ._progress import StderrProgress

MAX_COUNT = 10_000
"""Puzzles in one batch at most: a few MB of answers (a 32-peg English puzzle is about 400 bytes of JSON) and,
near a full board, up to a fifth of a second of CPython each; more is a loop over batches."""
RUNS_PER_WORKER = 4
"""Runs of seeds per worker: small enough to spread uneven seeds, few enough that a batch is a few tasks."""


def count(text: str) -> int:
    """``--count``: 1 to :data:`MAX_COUNT` puzzles (refused while parsing, before any work)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of puzzles, got {text!r}") from None
    if not 1 <= value <= MAX_COUNT:
        raise argparse.ArgumentTypeError(f"expected 1 to {MAX_COUNT:,} puzzles, got {text!r}")
    return value


def register(sub) -> None:
    p = sub.add_parser("puzzle", help="a random solvable position with N pegs (built backwards from one peg)")
    p.add_argument("board", help="catalogue id (see 'boards') or square:ROWS / triangle:ROWS")
    p.add_argument("--pegs", type=non_negative, required=True,
                   help="pegs in the puzzle: the difficulty (2 up to the board's holes less one)")
    p.add_argument("--seed", type=non_negative, help=f"0..{MAX_SEED}: the same seed gives the same puzzle "
                                                    "(default: a fresh one, printed); with --count the first seed")
    p.add_argument("--count", type=count, help=f"make this many puzzles (1 to {MAX_COUNT:,}), seeds S, S+1, ... "
                                               "in seed order, each the puzzle its seed makes alone")
    add_pool_args(p, "with --count: the puzzles on ")
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    if args.count is not None:
        return run_batch(args)
    if args.workers is not None or args.cluster:
        raise PegError("--workers and --cluster go with --count")
    board = resolve_board(args.board).board
    puzzle = make_puzzle(board, args.pegs, seed=args.seed)
    return puzzle_json(_name(board, args.board), board, puzzle)


def _name(board: Board, spec: str) -> str:
    return board.id if board.id in CATALOGUE else spec


def puzzle_json(name: str, board: Board, puzzle: Puzzle) -> dict:
    """The JSON of one puzzle (``puzzle --json``, and each puzzle of a batch)."""
    return {
        "board": name,
        "pegs": puzzle.pegs,
        "seed": puzzle.seed,
        "position": format_position(board, puzzle.position),
        "goal": board.name_of[puzzle.finish],
        "solution": format_moves(board, list(puzzle.solution)),
        "jumps": len(puzzle.solution),
    }


def run_batch(args) -> dict:
    """``--count N``: every check first (board, pegs, seed range, options), then the puzzles."""
    n = args.count
    board = resolve_board(args.board).board
    check_pegs(board, args.pegs)
    local = pool_workers(args)
    last = MAX_SEED - n + 1
    if args.seed is None:
        first = random.randrange(1, last + 1)
    elif args.seed > last:
        raise PegError(f"--count {n} from seed {args.seed} passes the last seed, {MAX_SEED}: "
                       f"start at {last} at most")
    else:
        first = args.seed
    progress = StderrProgress("puzzle", "puzzle")
    if local == 1:
        answers: list[spread.PuzzleAnswer] = []
        for seed in range(first, first + n):
            answers += spread.puzzle_seeds((board, args.pegs, [seed]))
            progress(len(answers))
    else:
        pool = pool_from_args(args)
        assert pool is not None  # more than one worker, or a cluster
        with pool:
            runs = spread.seed_runs(first, n, RUNS_PER_WORKER * pool.workers)
            parts = drive(spread.spread_steps(pool, spread.puzzle_seeds, [(board, args.pegs, r) for r in runs],
                                              label="runs of seeds: "), progress.pool)
        answers = [a for part in parts for a in part]
    name = _name(board, args.board)
    puzzles = []
    for seed, a in enumerate(answers, first):
        if isinstance(a, str):
            puzzles.append({"seed": seed, "error": a})
        else:
            puzzles.append(puzzle_json(name, board, Puzzle(board, *a, seed=seed)))
    failed = sum("error" in p for p in puzzles)
    if failed:
        print(f"puzzle: {plural(failed, 'seed')} of {n} found no position: see their errors", file=sys.stderr)
    return {"board": name, "pegs": args.pegs, "seed": first, "count": n, "puzzles": puzzles}


def text(r: dict) -> str:
    if "puzzles" in r:
        head = (f"{r['board']}: {plural(r['count'], 'puzzle')} of {plural(r['pegs'], 'peg')}, seeds {r['seed']} "
                f"to {r['seed'] + r['count'] - 1}")
        return "\n\n".join([head] + [f"seed {p['seed']}: error: {p['error']}" if "error" in p else one(p)
                                     for p in r["puzzles"]])
    return one(r)


def one(r: dict) -> str:
    moves = r["solution"]
    return (f"{r['board']} puzzle, seed {r['seed']}: {plural(r['pegs'], 'peg')}, leave one peg on {r['goal']}\n"
            f"{r['position']}\n"
            f"a solution ({plural(len(moves), 'move')}, {plural(r['jumps'], 'jump')}): {' '.join(moves)}")
