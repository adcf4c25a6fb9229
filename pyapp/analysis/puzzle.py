"""Puzzles: a random position with N pegs that is guaranteed to reduce to one peg.

The generator works backwards, as the ParallelProject study of peg solitaire did: it
starts from a single peg on a random hole and plays *reverse* jumps (a peg at ``c`` with
``b`` and ``a`` empty becomes pegs at ``a`` and ``b`` with ``c`` empty; on the complemented
board that is an ordinary forward jump, see :func:`reverse_jumps`) until the position holds
N pegs.  Read forwards, the reverse jumps are a solution, so every puzzle comes with its
witness and is solvable by construction; the goal is one peg on the hole the generator
started from.  Difficulty grows with N: more pegs, longer and more branching games.

The choices are made by :class:`random.Random` seeded with ``seed``, so a seed names one
puzzle for good (the page puts it in the address).  A random walk backwards can run into
a position with no reverse jump before reaching N pegs (more likely as the board fills);
the walk then backtracks, within a node budget, and tries another finishing hole.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..core.board import Board
from ..core.errors import PegError
from ..core.goal import Goal
from ..core.moves import Jump, apply_jump, legal_jumps

MAX_SEED = 999_999
DEFAULT_NODES = 50_000
"""Reverse jumps tried per puzzle before giving up (a budget, not a cap on the answer: the
error says so and a different seed or fewer pegs usually succeed)."""
WALK_NODES = 2_000
"""Reverse jumps tried by one walk before starting again from another finishing hole."""


@dataclass(frozen=True)
class Puzzle:
    """A start position with ``pegs`` pegs, the goal (one peg on ``finish``) and a solution."""

    board: Board
    position: int
    finish: int
    """Bit of the hole the last peg must reach (the goal)."""
    solution: tuple[Jump, ...]
    """The generator's witness: jumps from :attr:`position` to one peg on :attr:`finish`."""
    seed: int

    @property
    def pegs(self) -> int:
        return self.position.bit_count()

    @property
    def goal(self) -> Goal:
        return Goal("hole", 1 << self.finish)


def reverse_jumps(board: Board, pos: int) -> list[Jump]:
    """The jumps ``(a, b, c)`` that lead *into* ``pos``: ``c`` holds a peg, ``a`` and ``b`` are empty.

    A reverse jump is a forward jump on the complemented board, so this is
    :func:`~pyapp.core.moves.legal_jumps` of the complement; each triple is also the forward jump
    that turns the larger position back into ``pos``.
    """
    return legal_jumps(board, board.mask ^ pos)


def check_pegs(board: Board, pegs: int) -> None:
    """Refuse peg counts no puzzle can have on ``board`` (with the range that works)."""
    if not isinstance(pegs, int) or isinstance(pegs, bool):
        raise PegError(f"the number of pegs must be a whole number, not {pegs!r}")
    if not 2 <= pegs <= len(board) - 1:
        raise PegError(f"a puzzle on {board.id!r} has 2 to {len(board) - 1} pegs (its {len(board)} holes "
                       f"less one empty hole), not {pegs}")


def make_puzzle(board: Board, pegs: int, *, seed: int | None = None,
                max_nodes: int = DEFAULT_NODES) -> Puzzle:
    """A random solvable position with ``pegs`` pegs on ``board``, built backwards from one peg.

    ``seed`` picks the puzzle (same seed, same board, same ``pegs``: same puzzle, in CPython
    and in Pyodide); without one a fresh seed is drawn and kept in the answer.  Raises
    :class:`~pyapp.core.errors.PegError` for an impossible peg count or when ``max_nodes`` reverse
    jumps found no position with that many pegs.
    """
    check_pegs(board, pegs)
    if seed is None:
        seed = random.randrange(1, MAX_SEED + 1)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise PegError(f"the seed must be a whole number from 0 to {MAX_SEED}, not {seed!r}")
    rng = random.Random(f"{board.id}:{pegs}:{seed}")
    nodes = 0
    while nodes < max_nodes:
        # short walks from fresh finishing holes: a walk that went wrong early rarely recovers
        finish = rng.choice(board.bits)
        found, used = _walk_back(board, 1 << finish, pegs, rng, min(WALK_NODES, max_nodes - nodes))
        nodes += used
        if found is not None:
            # the reverse jumps, read from the last to the first, are forward jumps to the finish
            solution = tuple(reversed(found))
            pos = 1 << finish
            for jump in found:
                pos = apply_jump(pos, jump)
            return Puzzle(board, pos, finish, solution, seed)
    raise PegError(f"no position with {pegs} pegs was found on {board.id!r} within {max_nodes} reverse jumps "
                   f"(seed {seed}): try fewer pegs or another seed")


def _walk_back(board: Board, pos: int, pegs: int, rng: random.Random,
               budget: int) -> tuple[list[Jump] | None, int]:
    """Depth-first random walk of reverse jumps from ``pos`` until it has ``pegs`` pegs.

    Returns the reverse jumps in the order played (or None) and the number of jumps tried.
    Iterative, so a long walk on a big board cannot exhaust Python's recursion limit.
    """
    if pegs == pos.bit_count():
        return [], 0
    path: list[Jump] = []
    options = [_shuffled(reverse_jumps(board, pos), rng)]
    seen: set[int] = {pos}
    used = 0
    while options:
        if used >= budget:
            return None, used
        if not options[-1]:
            options.pop()
            if path:
                pos = apply_jump(pos, path.pop())
            continue
        jump = options[-1].pop()
        after = apply_jump(pos, jump)
        used += 1
        if after in seen:
            continue
        seen.add(after)
        path.append(jump)
        pos = after
        if pos.bit_count() == pegs:
            return path, used
        options.append(_shuffled(reverse_jumps(board, pos), rng))
    return None, used


def _shuffled(jumps: list[Jump], rng: random.Random) -> list[Jump]:
    rng.shuffle(jumps)
    return jumps
