"""Legal jumps from whole-board bit operations, applying them, grouping jumps into moves.

A jump is a tuple ``(src, over, dst)`` of bit indices.  For each direction with shift
``s`` the pegs that can jump are ``src_mask & pegs & (pegs >> s) & (empty >> 2s)``
(shifts reversed for negative ``s``): three ``&`` and two shifts per direction for the
whole board at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .board import Board

Jump = tuple[int, int, int]


def jump_sources(board: Board, pos: int) -> list[tuple[int, int]]:
    """``(shift, sources)`` for every direction: the bit set of pegs that can jump that way."""
    empty = board.mask ^ pos
    out = []
    for d in board.directions:
        s = d.shift
        if s > 0:
            m = d.src & pos & (pos >> s) & (empty >> (2 * s))
        else:
            m = d.src & pos & (pos << -s) & (empty << (-2 * s))
        if m:
            out.append((s, m))
    return out


def legal_jumps(board: Board, pos: int) -> list[Jump]:
    """Every legal jump in ``pos``, ordered by source hole then direction."""
    jumps = []
    for s, m in jump_sources(board, pos):
        while m:
            low = m & -m
            b = low.bit_length() - 1
            jumps.append((b, b + s, b + 2 * s))
            m ^= low
    order = {bit: i for i, bit in enumerate(board.bits)}
    jumps.sort(key=lambda j: (order[j[0]], order[j[2]]))
    return jumps


def has_jump(board: Board, pos: int) -> bool:
    """True when at least one jump is legal (the game is not over)."""
    empty = board.mask ^ pos
    for d in board.directions:
        s = d.shift
        if s > 0:
            if d.src & pos & (pos >> s) & (empty >> (2 * s)):
                return True
        elif d.src & pos & (pos << -s) & (empty << (-2 * s)):
            return True
    return False


def is_legal(board: Board, pos: int, jump: Jump) -> bool:
    """True when ``jump`` is legal in ``pos``."""
    return jump in set(legal_jumps(board, pos))


def apply_jump(pos: int, jump: Jump) -> int:
    """The position after ``jump`` (not checked: see :func:`is_legal`)."""
    a, b, c = jump
    return pos ^ ((1 << a) | (1 << b) | (1 << c))


def undo_jump(pos: int, jump: Jump) -> int:
    """The position before ``jump`` (a jump is its own inverse as a bit flip)."""
    return apply_jump(pos, jump)


def group_moves(jumps: Sequence[Jump]) -> list[list[Jump]]:
    """Group consecutive jumps by the same peg into moves (a peg jumping again)."""
    moves: list[list[Jump]] = []
    for j in jumps:
        if moves and moves[-1][-1][2] == j[0]:
            moves[-1].append(j)
        else:
            moves.append([j])
    return moves


def count_moves(jumps: Iterable[Jump]) -> int:
    """Number of moves in a jump sequence."""
    return len(group_moves(list(jumps)))
