"""A small book of results that took minutes to find, shipped so that every answer has them at once.

The page's budgets (a Solve of a minute, "where can one peg finish?" and the whole-board table of seconds a
problem) cannot run a search or a proof of minutes; the command line can.  Two kinds of entry, each naming a
catalogue board, a single-vacancy start, a one-peg finish, how it was found and the command that finds it again:

- :data:`BOOK` (:class:`Entry`): problems proved impossible, with the proof;
- :data:`~pyapp.proofs.book_solved.SOLVED` (:class:`~pyapp.proofs.book_solved.Solved`, in
  :mod:`pyapp.proofs.book_solved`): problems solved, with a solution in notation.  A stored solution is never
  trusted: :func:`book_solution` maps it to the problem asked and replays it there, jump by jump, before it
  answers; a solution that does not replay to one peg on the finish is ignored with a warning naming it.

An entry answers its problem, every image of it under the board's symmetries (each jump's holes moved by the
symmetry), and its time reversal (the start with only the finish empty, to one peg on the start's vacancy: a
reverse jump is a forward jump on the complemented board, so a solution reversed is the same jumps in the
opposite order).

Checked: ``tests/test_book.py`` checks every entry's holes, that start and finish share a position class
(else the class test, not the book, answers), that the quick proofs here do not settle an impossible entry,
that every solved entry and every image replays, and, with ``PEG_PROVE_BOOK=1``, proves each impossible entry
again with the command's engine.

>>> from pyapp.core.catalogue import get_board
>>> board = get_board("diamond41")
>>> book_proof(board, board.start("f8"), 1 << board.hole("d2")).startswith("book: Diamond 41 d2 -> f8")
True
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from ..core.board import Board
from ..core.errors import PegError
from ..core.game import illegal_reason
from ..core.moves import Jump, apply_jump
from ..core.notation import parse_moves
from .book_solved import SOLVED, Solved


@dataclass(frozen=True)
class Entry:
    """One problem proved impossible: ``start`` (the one vacancy) to one peg on ``finish``."""

    board: str
    title: str
    start: str
    finish: str
    proof: str
    command: str
    date: str


BOOK: tuple[Entry, ...] = (
    Entry("diamond41", "Diamond 41", "d2", "f8",
          "integer programme infeasible (HiGHS 1.15.1, 820 nodes, 185.5 s on a loaded 2-core machine; 39 steps, "
          "5,540 columns, 4,875 rows: Kiyomi and Matsui's time-indexed programme)",
          "python -m pyapp solve diamond41 --start d2 --goal f8 --engine ilp --max-seconds 2400", "2026-11-26"),
)


def book_proof(board: Board, start: int, target: int) -> str | None:
    """The book's reason ``start`` cannot reach ``target`` (one exact position), or None."""
    entries = [e for e in BOOK if e.board == board.id]
    if not entries or target.bit_count() != 1 or not _is_catalogue(board):
        return None
    full = board.full()
    for e in entries:
        s, g = board.start(e.start), 1 << board.hole(e.finish)
        for i in range(len(board.symmetries)):
            si, gi = board.transform(s, i), board.transform(g, i)
            if (start, target) in ((si, gi), (full ^ gi, full ^ si)):
                return (f"book: {e.title} {e.start} -> {e.finish} and its images under symmetry and time reversal "
                        f"are impossible, {e.proof}; proved again by `{e.command}` ({e.date})")
    return None


def _is_catalogue(board: Board) -> bool:
    from ..core.catalogue import CATALOGUE, get_board

    return board.id in CATALOGUE and board == get_board(board.id)


class BookWarning(UserWarning):
    """A stored solution of the book that does not replay: the entry is ignored."""


def book_solution(board: Board, start: int, target: int, entries: tuple[Solved, ...] | None = None,
                  ) -> tuple[list[Jump], str] | None:
    """A replayed solution from ``start`` to ``target`` (one exact position) by a solved entry of the book (or of
    ``entries``), mapped by symmetry and time reversal, with a sentence naming its source; or None."""
    entries = SOLVED if entries is None else entries
    chosen = [e for e in entries if e.board == board.id]
    if not chosen or target.bit_count() != 1 or not _is_catalogue(board):
        return None
    full = board.full()
    for e in chosen:
        try:
            s, g, jumps = board.start(e.start), 1 << board.hole(e.finish), parse_moves(board, e.moves)
        except PegError as bad:
            warnings.warn(f"book: {e.title} {e.start} -> {e.finish}: the stored solution does not parse "
                          f"({bad}); entry ignored", BookWarning, stacklevel=2)
            continue
        for i in range(len(board.symmetries)):
            si, gi = board.transform(s, i), board.transform(g, i)
            if (start, target) == (si, gi):
                mapped = board.map_jumps(jumps, i)
            elif (start, target) == (full ^ gi, full ^ si):
                mapped = board.map_jumps(jumps[::-1], i)
            else:
                continue
            why = _replay_error(board, start, target, mapped)
            if why:
                warnings.warn(f"book: {e.title} {e.start} -> {e.finish}: the stored solution does not replay "
                              f"here ({why}); entry ignored", BookWarning, stacklevel=2)
                break
            return mapped, (f"book: {e.title} {e.start} -> {e.finish} and its images under symmetry and time "
                            f"reversal are solved ({len(jumps)} jumps, replayed), found by {e.found}; found "
                            f"again by `{e.command}` ({e.date})")
    return None


def _replay_error(board: Board, pos: int, target: int, jumps: list[Jump]) -> str | None:
    for n, j in enumerate(jumps, 1):
        why = illegal_reason(board, pos, j)
        if why:
            return f"jump {n} is illegal: {why}"
        pos = apply_jump(pos, j)
    return None if pos == target else "it does not end with one peg on the finish"
