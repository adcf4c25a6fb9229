"""Winning lines adapted from the lines of neighbouring positions, before any search.

Never-lose and Hint ask about the position after each legal jump, and most of those positions are winnable.
Deep in a game on the bigger boards (French, asymmetric, Diamond 41 between their opening book and the reach of
the endgame table) the solver's beams need 0.3-0.7 CPU s to find each such line, and a check of a position
with a dozen winnable jumps spends most of its budget there, leaving the losing jumps unproved.  Yet the game
already holds a line from a neighbouring position: the position one jump back (the parent, the check before
this one) and its other children (found in this check).  Jumps far apart on the board commute, so such a line,
played from here, usually still works: :func:`adapt` follows it, skipping the jumps that are no longer legal,
and hands over to the goal's endgame table as soon as the position has few enough pegs for a lookup.

:func:`repaired` tries the known lines of the parents (every position one jump before this one: in the game's
table of proved positions, :class:`pyapp.analysis.proven.Proven`, or in the game's opening book, whose deepest
level is one jump above the positions just past it) and of those parents' known children, at most
:data:`TEMPLATES` of them; the cost is a few microseconds a jump of each line.  A line it returns is checked jump
by jump as it is made (only legal jumps are played) and ends at the goal, or in a position the endgame table
proves winnable, whose line is appended; a position it cannot repair goes to the search as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..core.board import Board
from ..core.goal import Goal
from ..core.moves import Jump, apply_jump, legal_jumps
from ..exact.endgame import Endgame
from ..exact.winnable import line_from

TEMPLATES = 24
"""At most this many neighbours' lines are tried for one position."""


def adapt(goal: Goal, pos: int, template: tuple[Jump, ...], endgame: Endgame | None) -> list[Jump] | None:
    """``template``'s jumps played from ``pos`` in order, each one that is not legal there skipped: the line when it
    reaches the goal, or reaches a position of the endgame table's looked-up levels that can reach it (the
    table's line appended); None when it ends elsewhere or the table says that position cannot win."""
    line: list[Jump] = []
    low = endgame.low if endgame is not None else -1
    pegs = pos.bit_count()
    if pegs <= low:
        return None  # the table answers this position itself, by one lookup
    for jump in template:
        a, b, c = jump
        if (pos >> a) & 1 and (pos >> b) & 1 and not (pos >> c) & 1:
            pos = apply_jump(pos, jump)
            line.append(jump)
            pegs -= 1
            if pegs == low:
                assert endgame is not None
                return line + line_from(endgame, pos) if endgame.can_win(pos) else None
    return line if goal.reached(pos) else None


def templates(board: Board, pos: int, line_of: Callable[[int], tuple[Jump, ...] | None]
              ) -> Iterator[tuple[Jump, ...]]:
    """Known lines from positions next to ``pos`` (``line_of`` gives a position's known line, or None): each parent's
    (a position one jump before it), then each line from a parent through one of its other children."""
    parents = [pos ^ (1 << a) ^ (1 << b) ^ (1 << c) for a, b, c in legal_jumps(board, board.mask ^ pos)]
    known = [(parent, line) for parent in parents if (line := line_of(parent)) is not None]
    for _, line in known:
        yield line
    for parent, _ in known:
        for jump in legal_jumps(board, parent):
            child = apply_jump(parent, jump)
            if child != pos and (line := line_of(child)) is not None:
                yield (jump, *line)


def repaired(board: Board, goal: Goal, pos: int, line_of: Callable[[int], tuple[Jump, ...] | None],
             endgame: Endgame | None) -> list[Jump] | None:
    """A line from ``pos`` to the goal adapted from a neighbour's known line (:func:`templates`), or None."""
    if not goal.definite:
        return None
    tried: set[tuple[Jump, ...]] = set()
    for template in templates(board, pos, line_of):
        if template in tried:
            continue
        tried.add(template)
        line = adapt(goal, pos, template, endgame)
        if line is not None:
            return line
        if len(tried) >= TEMPLATES:
            break
    return None
