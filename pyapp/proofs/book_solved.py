"""The solved entries of the book (:mod:`pyapp.proofs.book`): problems whose solution the solver finds only with
more than the page's and the table's budgets, each with a solution in notation.  :func:`pyapp.proofs.book.book_solution`
replays a solution before it answers anything with it; ``tests/test_book.py`` replays every entry and every image.

German: the cells of the whole-board table (``python -m pyapp table german``) that its 10 s a problem left unknown
on a loaded 2-core machine (about 3 CPU s a problem), one per class under symmetry and time reversal; their
solutions are the ones ``table german --cpu-time`` found (10 CPU s a problem, replayed), and b5 -> b5, which
``solve`` found in 3 minutes.  German e1 -> e1 is not here: no solution is known and no proof either.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Solved:
    """One problem solved: ``start`` (the one vacancy) to one peg on ``finish`` by ``moves`` (notation, spaces
    between moves); ``found`` says how and in what time, ``command`` finds a solution again."""

    board: str
    title: str
    start: str
    finish: str
    moves: str
    found: str
    command: str
    date: str


SOLVED: tuple[Solved, ...] = (
    Solved("german", "German", "d1", "d1",
           "d3-d1 f3-d3 d4-d2 d1-d3 b4-d4 c6-c4 a6-c6 e1-e3 d6-b6 a4-a6 d8-d6 f1-f3 a6-c6 d4-b4-b6 d6-d4 "
           "b6-d6 f8-d8 d9-d7-d5 e6-e8 f6-f8 h6-f6 f9-f7 e9-e7 g4-g6 f6-h6 i4-g4 i5-g5 i6-g6 f7-d7 d4-d6 "
           "d7-d5 f4-f6 d5-f5 f6-f4-h4 g6-g4 h4-f4-d4-d2 f3-d3-d1",
           "beam search (37 moves, 43 jumps; 386,863 nodes) in `table german --cpu-time`'s 10 CPU s",
           "python -m pyapp solve german --start d1 --goal d1 --no-book --max-seconds 60 --cpu-time", "2026-11-26"),
    Solved("german", "German", "d1", "a4",
           "d3-d1 f3-d3 f1-f3 f4-f2 f6-f4 f8-f6 d8-f8 f9-f7 d1-f1-f3 d4-d2-f2 f4-d4 f2-f4 d9-f9 f6-f8 f9-f7 "
           "h6-f6 g4-e4 f6-f8 d7-f7 i4-g4 f8-f6 g4-g6 f6-h6 i6-g6 d6-f6 b6-d6 g6-e6 c4-c6 a5-c5 a4-c4 d6-b6 "
           "a6-c6 i5-g5 d5-f5 g5-e5 d4-f4 e6-e4 f4-d4-b4 c6-c4-a4",
           "beam search (39 moves, 43 jumps; 256,333 nodes) in `table german --cpu-time`'s 10 CPU s",
           "python -m pyapp solve german --start d1 --goal a4 --no-book --max-seconds 60 --cpu-time", "2026-11-26"),
    Solved("german", "German", "d1", "d4",
           "d3-d1 f3-d3 f1-f3 f4-f2 f6-f4 f8-f6 d8-f8 f9-f7 d1-f1-f3 d4-d2-f2 f4-d4 f2-f4 d9-f9 f6-f8 f9-f7 "
           "h6-f6 g4-e4 f6-f8 d7-f7 i4-g4 f8-f6 g4-g6 f6-h6 i6-g6 d6-f6 b6-d6 g6-e6 c4-c6 a5-c5 a4-c4 d6-b6 "
           "a6-c6 i5-g5 d5-f5 g5-e5 d4-b4 c6-c4 b4-d4-f4 e6-e4 f4-d4",
           "beam search (40 moves, 43 jumps; 245,521 nodes) in `table german --cpu-time`'s 10 CPU s",
           "python -m pyapp solve german --start d1 --goal d4 --no-book --max-seconds 60 --cpu-time", "2026-11-26"),
    Solved("german", "German", "d1", "g4",
           "d3-d1 f3-d3 f1-f3 f4-f2 f6-f4 f8-f6 d8-f8 f9-f7 d1-f1-f3 d4-d2-f2 f4-d4 f2-f4 d9-f9 f6-f8 f9-f7 "
           "h6-f6 g4-e4 f6-f8 d7-f7 i4-g4 f8-f6 g4-g6 f6-h6 i6-g6 d6-f6 b6-d6 g6-e6 c4-c6 a5-c5 a4-c4 d6-b6 "
           "a6-c6 i5-g5 d4-d6-b6 c4-c6 b6-d6-f6 e4-e6-g6-g4",
           "beam search (37 moves, 43 jumps; 256,271 nodes) in `table german --cpu-time`'s 10 CPU s",
           "python -m pyapp solve german --start d1 --goal g4 --no-book --max-seconds 60 --cpu-time", "2026-11-26"),
    Solved("german", "German", "d1", "d7",
           "d3-d1 f3-d3 f1-f3 f4-f2 h4-f4 g6-g4 i5-g5 i6-g6 d4-d2 b4-d4 d1-f1-f3 d2-f2 f4-h4 i4-g4 f2-f4-h4 "
           "g6-g4 h4-f4 c6-c4 a6-c6 d4-b4 f4-d4 a5-c5 a4-c4 d4-b4 d5-b5 b4-b6 d7-d5 b6-d6 d9-d7 d6-d8 "
           "f9-d9-d7 f8-d8-d6 d5-d7 e5-g5 f7-f5 g5-e5 d7-f7 e5-e7 f7-d7",
           "beam search (39 moves, 43 jumps; 247,706 nodes) in `table german --cpu-time`'s 10 CPU s",
           "python -m pyapp solve german --start d1 --goal d7 --no-book --max-seconds 60 --cpu-time", "2026-11-26"),
    Solved("german", "German", "e1", "b4",
           "e3-e1 e5-e3 c4-e4 d6-d4 d8-d6 d3-d5 f3-d3 f1-f3 d2-d4 d1-f1 f4-f2 g5-e5 h4-f4 f1-f3-f5 f7-d7 "
           "a4-c4 d6-d8 b6-d6 f9-f7 d9-d7 d6-d8 e9-e7 f7-d7 d8-d6 d4-f4 h6-h4 i4-g4 i6-i4 c4-c6 f4-h4 d6-b6 "
           "i4-g4 e5-g5 a5-c5 d5-b5 a6-c6 f6-h6 g4-g6 h6-f6-d6-b6-b4",
           "beam search (39 moves, 43 jumps; 269,546 nodes) in `table german --cpu-time`'s 10 CPU s",
           "python -m pyapp solve german --start e1 --goal b4 --no-book --max-seconds 60 --cpu-time", "2026-11-26"),
    Solved("german", "German", "e1", "e4",
           "e3-e1 e5-e3 c5-e5 d3-d5 f3-d3 f1-f3 d1-f1 f4-f2 d2-d4 f6-f4 f1-f3-f5 f8-f6 d7-f7 d9-d7 d6-d8 "
           "b6-d6 f9-d9-d7 f6-f8-d8 c4-e4 h6-f6 d6-d4-f4 d8-d6 h4-h6 i6-g6 b4-b6 a6-c6 a4-a6 d6-b6 f4-h4 "
           "i4-g4 a6-c6 f5-h5 i5-g5 f6-h6 g4-g6 h6-f6-d6 c6-e6-e4",
           "beam search (37 moves, 43 jumps; 217,270 nodes) in `table german --cpu-time`'s 10 CPU s",
           "python -m pyapp solve german --start e1 --goal e4 --no-book --max-seconds 60 --cpu-time", "2026-11-26"),
    Solved("german", "German", "e1", "e7",
           "e3-e1 e5-e3 c5-e5 d3-d5 f3-d3 f1-f3 d1-f1 f4-f2 d2-d4 f6-f4 f1-f3-f5 f8-f6 d7-f7 d9-d7 d6-d8 "
           "b6-d6 f9-d9-d7 f6-f8-d8 c4-e4 h6-f6 d6-d4-f4 d8-d6 h4-h6 i6-g6 b4-b6 a6-c6 a4-a6 d6-b6 f4-h4 "
           "i4-g4 a6-c6 f5-h5 i5-g5 f6-h6 g4-g6 h6-f6-d6 c6-e6 e5-e7",
           "beam search (38 moves, 43 jumps; 214,212 nodes) in `table german --cpu-time`'s 10 CPU s",
           "python -m pyapp solve german --start e1 --goal e7 --no-book --max-seconds 60 --cpu-time", "2026-11-26"),
    Solved("german", "German", "d2", "d2",
           "d4-d2 d1-d3 d6-d4 d8-d6 d4-d2 f3-d3 e1-e3 f1-f3 d2-d4 f7-d7 f3-d3-d5 b4-d4 f9-f7 f6-f8 h6-f6 "
           "d9-f9-f7 d6-d8-f8 f6-d6 f8-f6 g4-g6 f6-h6 i4-g4 i5-g5 i6-g6 b6-b4 a4-c4 a6-a4 d4-b4 a4-c4 d6-d4 "
           "f5-d5 f4-h4 g6-g4 h4-f4 d5-d3 f4-d4-b4 c6-c4 b4-d4-d2",
           "beam search (38 moves, 43 jumps; 263,735 nodes) in `table german --cpu-time`'s 10 CPU s",
           "python -m pyapp solve german --start d2 --goal d2 --no-book --max-seconds 60 --cpu-time", "2026-11-26"),
    Solved("german", "German", "d2", "d5",
           "d4-d2 d1-d3 b4-d4 c6-c4 a6-c6 d6-b6 d8-d6 a4-a6-c6 d4-b4-b6 d6-d4 b6-d6 d4-d2 f1-d1-d3 f2-d2-d4 "
           "f3-d3-d5 f8-d8 d9-d7 f4-d4 f9-d9 d6-d8 d4-d6 d9-d7 d6-d8 e6-e8 d8-f8 g6-e6 f8-f6 i6-g6 i4-i6 "
           "f6-h6 i6-g6 h4-h6-f6 g4-g6 e5-e7 g6-e6 e7-e5 f5-d5",
           "beam search (37 moves, 43 jumps; 253,217 nodes) in `table german --cpu-time`'s 10 CPU s",
           "python -m pyapp solve german --start d2 --goal d5 --no-book --max-seconds 60 --cpu-time", "2026-11-26"),
    Solved("german", "German", "d2", "g5",
           "d4-d2 d1-d3 b4-d4 c6-c4 a6-c6 d6-b6 d8-d6 a4-a6-c6 d4-b4-b6 d6-d4 b6-d6 d4-d2 f1-d1-d3 f2-d2-d4 "
           "f3-d3-d5 f8-d8 d9-d7 f4-d4 f9-d9 d6-d8 d4-d6 d9-d7 d6-d8 e6-e8 d8-f8 g6-e6 f8-f6 i6-g6 i4-i6 "
           "f6-h6 i6-g6 h4-h6-f6 g4-g6 e5-e7 g6-e6 e7-e5-g5",
           "beam search (36 moves, 43 jumps; 258,922 nodes) in `table german --cpu-time`'s 10 CPU s",
           "python -m pyapp solve german --start d2 --goal g5 --no-book --max-seconds 60 --cpu-time", "2026-11-26"),
    Solved("german", "German", "d4", "d4",
           "d2-d4 f3-d3 f1-f3 f4-f2 f6-f4 d1-f1 d4-d2 f1-f3 d2-f2 f4-d4 f2-f4 g4-e4 f8-f6 d7-f7 d9-d7 e9-e7 "
           "f6-f8 f9-f7 h6-f6-f8 d7-f7 f8-f6 i4-g4-g6 f6-h6 i6-g6 d6-f6 b6-d6 g6-e6 c4-c6 a5-c5 a4-c4 d6-b6 "
           "a6-c6 i5-g5 d5-f5 g5-e5 d4-b4 c6-c4 b4-d4-f4 e6-e4 f4-d4",
           "beam search (40 moves, 43 jumps; 249,454 nodes) in `table german --cpu-time`'s 10 CPU s",
           "python -m pyapp solve german --start d4 --goal d4 --no-book --max-seconds 60 --cpu-time", "2026-11-26"),
    Solved("german", "German", "d4", "g4",
           "d2-d4 f3-d3 f1-f3 f4-f2 f6-f4 d1-f1-f3 d4-d2-f2 f4-d4 f2-f4 g4-e4 f8-f6 d7-f7 d9-d7 e9-e7 f6-f8 "
           "f9-f7 h6-f6-f8 d7-f7 i4-g4 f8-f6 g4-g6 f6-h6 i6-g6 d6-f6 b6-d6 g6-e6 c4-c6 a5-c5 a4-c4 d6-b6 "
           "a6-c6 i5-g5 d4-d6-b6 c4-c6 b6-d6-f6 e4-e6-g6-g4",
           "beam search (36 moves, 43 jumps; 261,913 nodes) in `table german --cpu-time`'s 10 CPU s",
           "python -m pyapp solve german --start d4 --goal g4 --no-book --max-seconds 60 --cpu-time", "2026-11-26"),
    Solved("german", "German", "b5", "b5",
           "d5-b5 d7-d5 b6-d6 a5-c5 c4-c6 d6-b6 a6-c6 f6-d6 a4-c4 h6-f6 g4-g6 f6-h6 f8-f6 i4-g4 i6-g6 f6-h6 "
           "i5-g5 g4-g6 c6-e6 d9-d7 h6-f6 d7-f7 f6-f8 f4-f6 f2-f4 f9-f7 e9-e7 d3-f3 d1-d3 f4-f2 e1-e3 f1-f3 "
           "f7-f5 e5-c5 e7-e5 d4-d2 f3-d3 d2-d4 e5-e3 c4-e4 e3-e5 f5-d5-b5",
           "the solver's beam search (42 moves, 43 jumps; 2,806,561 nodes, 186.3 s on a loaded 2-core machine, "
           "the integer programme phase included)",
           "python -m pyapp solve german --start b5 --goal b5 --no-book --max-seconds 300", "2026-11-26"),
)
