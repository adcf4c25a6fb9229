"""Turning a satisfying assignment back into jumps, and checking them by replay."""

from __future__ import annotations

from collections.abc import Iterable

from ..core.game import illegal_reason, replay
from ..core.moves import Jump, apply_jump
from ..core.notation import format_jump
from .encode import Encoding


class ModelError(RuntimeError):
    """A model that does not decode into a legal solution (a bug in the encoding or the solver)."""


def decode(enc: Encoding, model: Iterable[int]) -> list[Jump]:
    """The jumps of a model, in order; checks each step against the model's states.

    The direction of the jump along an active line comes from the position: the peg
    starts at whichever end is full.  With the ``overlap`` at-most-one a step may, in
    principle, hold several jumps on disjoint lines (only when fewer pegs than the goal's
    are left, see :mod:`pyapp.sat.encode`); they are played in line order.
    """
    true = {v for v in model if v > 0}
    board = enc.problem.board
    pos = enc.problem.start
    jumps: list[Jump] = []
    for t in range(1, enc.steps + 1):
        active = [j for j in range(len(enc.lines)) if enc.line(t, j) in true]
        if not active:
            raise ModelError(f"step {t}: no active line")
        for j in active:
            a, b, c = enc.lines[j]
            jump = (a, b, c) if pos >> a & 1 else (c, b, a)
            why = illegal_reason(board, pos, jump)
            if why:
                raise ModelError(f"step {t}: jump {format_jump(board, jump)} is illegal: {why}")
            pos = apply_jump(pos, jump)
            jumps.append(jump)
        state = sum(1 << bit for k, bit in enumerate(enc.holes) if enc.peg(t, k) in true)
        if state != pos:
            raise ModelError(f"step {t}: the model's position differs from the replayed one")
    return jumps


def verify(enc: Encoding, jumps: list[Jump]) -> int:
    """Replay ``jumps`` in notation from the start and check the goal; return the final position."""
    board, goal = enc.problem.board, enc.problem.goal
    r = replay(board, enc.problem.start, [format_jump(board, j) for j in jumps])
    if not r.valid:
        raise ModelError(f"decoded solution does not replay: {r.error}")
    if not goal.definite:
        if r.final.bit_count() > enc.pegs_left:
            raise ModelError(f"decoded solution leaves {r.final.bit_count()} pegs, not {enc.pegs_left}")
    elif not goal.reached(r.final):
        raise ModelError("decoded solution does not reach the goal")
    return r.final
