"""A small book of impossibility results that took minutes to prove, shipped so that every answer has them at once.

The page's budgets (a Solve of a minute, "where can one peg finish?" and the whole-board table of seconds a
problem) cannot run a proof of minutes; the command line can.  Each entry names a catalogue board, a
single-vacancy start, a one-peg finish, how it was proved and the command that proves it again.  An entry
answers its problem, every image of it under the board's symmetries, and its time reversal (the start with
only the finish empty, to one peg on the start's vacancy: a reverse jump is a forward jump on the
complemented board).

Checked: ``tests/test_book.py`` checks every entry's holes, that start and finish share a position class
(else the class test, not the book, answers), that the quick proofs here do not settle it, and, with
``PEG_PROVE_BOOK=1``, proves each one again with the command's engine.

>>> from pyapp.core.catalogue import get_board
>>> board = get_board("diamond41")
>>> book_proof(board, board.start("f8"), 1 << board.hole("d2")).startswith("book: Diamond 41 d2 -> f8")
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.board import Board


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
