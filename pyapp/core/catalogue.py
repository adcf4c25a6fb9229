"""The catalogue of classic boards, each with a stable id and a default problem.

Every default problem comes from the literature and is checked to be solvable by the
test-suite (``tests/test_solver.py`` solves each and replays the solution).  Sources:

* English 33, centre vacancy to centre finish: the "central game", solved in 18 moves by
  E. Bergholt (1912); Berlekamp, Conway & Guy, *Winning Ways*, vol. 4, ch. 23.
* French 37: the centre game is impossible (position class, *Winning Ways* ch. 23;
  J. D. Beasley, *The Ins and Outs of Peg Solitaire* (1985), ch. 3), and so is every other
  complement problem (start and finish at one hole; ``tests/test_position_class.py``), so the
  default is the single-vacancy problem d2 -> d6, in one class and solvable.
* German (Wiegleb) 45 and the asymmetric 3-3-2-2 board 39: central games, Beasley (1985),
  ch. 12; Bell's board pages.
* Diamond 41: vacancy d2 (the left hole of the second row), one peg anywhere: G. Bell,
  "Diamond solitaire" (2008).
* Triangles: holes numbered 1..N in reading order; the 15-hole triangle from hole 1 to one
  peg anywhere (Bell, "Triangular peg solitaire", arXiv:0711.0486); the 10-hole triangle
  has no single-survivor solution from a corner vacancy, hence a different start; on the
  28-hole triangle a corner vacancy fails the position-class test, hence vacancy 4.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import get_close_matches
from functools import cache

from .board import Board
from .errors import BoardError
from .lattice import SQUARE, TRIANGLE


@dataclass(frozen=True)
class Entry:
    """A catalogue board: its grid and its default problem."""

    id: str
    title: str
    lattice: str
    grid: str
    start: str
    """The hole left empty at the start of the default problem."""
    goal: str
    """``'any'`` or the hole where the last peg must stand."""
    source: str


def _triangle_grid(n: int) -> str:
    return "\n".join("o" * (r + 1) for r in range(n))


ENTRIES: tuple[Entry, ...] = (
    Entry("english", "English (33 holes)", "square",
          "  ooo  \n  ooo  \nooooooo\nooooooo\nooooooo\n  ooo  \n  ooo  ",
          "d4", "d4", "Central game; Bergholt 1912, Winning Ways ch. 23"),
    Entry("french", "French / European (37 holes)", "square",
          "  ooo  \n ooooo \nooooooo\nooooooo\nooooooo\n ooooo \n  ooo  ",
          "d2", "d6", "Beasley 1985 ch. 3 and Winning Ways ch. 23: no single-vacancy complement problem "
          "(start and finish at one hole) passes the position-class test on this board, the centre game "
          "included; vacancy d2 to a last peg on d6 (same class) is solvable"),
    Entry("german", "German / Wiegleb (45 holes)", "square",
          "   ooo   \n   ooo   \n   ooo   \nooooooooo\nooooooooo\nooooooooo\n   ooo   \n   ooo   \n   ooo   ",
          "e5", "e5", "Wiegleb's board, central game; Beasley 1985 ch. 12"),
    Entry("asymmetric", "Asymmetric 3-3-2-2 (39 holes)", "square",
          "  ooo   \n  ooo   \n  ooo   \noooooooo\noooooooo\noooooooo\n  ooo   \n  ooo   ",
          "d5", "d5", "Asymmetric (3-3-2-2) board, central game; Beasley 1985 ch. 12"),
    Entry("diamond41", "Diamond (41 holes)", "square",
          "    o    \n   ooo   \n  ooooo  \n ooooooo \nooooooooo\n ooooooo \n  ooooo  \n   ooo   \n    o    ",
          "d2", "any", "Bell 2008, 'Diamond solitaire': vacancy d2, one peg anywhere"),
    Entry("triangle4", "Triangle, side 4 (10 holes)", "triangle", _triangle_grid(4),
          "2", "any", "Bell 2007 (arXiv:0711.0486): corner starts fail, an edge start works"),
    Entry("triangle5", "Triangle, side 5 (15 holes)", "triangle", _triangle_grid(5),
          "1", "any", "Bell 2007 (arXiv:0711.0486): the 15-hole 'Cracker Barrel' game"),
    Entry("triangle6", "Triangle, side 6 (21 holes)", "triangle", _triangle_grid(6),
          "4", "any", "Bell 2007 (arXiv:0711.0486): 21-hole triangle"),
    Entry("triangle7", "Triangle, side 7 (28 holes)", "triangle", _triangle_grid(7),
          "4", "any", "Bell 2007 (arXiv:0711.0486): 28-hole triangle; a corner vacancy fails the "
          "position-class test, the edge vacancy 4 reduces to one peg"),
    Entry("triangle8", "Triangle, side 8 (36 holes)", "triangle", _triangle_grid(8),
          "1", "any", "Bell 2007 (arXiv:0711.0486): 36-hole triangle"),
)

CATALOGUE: dict[str, Entry] = {e.id: e for e in ENTRIES}


def _cells(entry: Entry) -> list[tuple[int, int]]:
    return [(r, c) for r, line in enumerate(entry.grid.split("\n")) for c, ch in enumerate(line) if ch == "o"]


@cache
def get_board(board_id: str) -> Board:
    """The compiled catalogue board with this id (compiled once, then cached)."""
    entry = CATALOGUE.get(board_id.strip().lower() if isinstance(board_id, str) else board_id)
    if entry is None:
        raise BoardError(f"unknown board {board_id!r}: {did_you_mean(board_id)}expected one of {', '.join(CATALOGUE)}")
    lattice = SQUARE if entry.lattice == "square" else TRIANGLE
    return Board.from_cells(entry.id, entry.title, lattice, _cells(entry))


def did_you_mean(board_id: object) -> str:
    """``"did you mean 'german'? "`` for a near miss of a catalogue id (a typo, a case slip), else ``""``."""
    if not isinstance(board_id, str):
        return ""
    close = get_close_matches(board_id.strip().lower(), list(CATALOGUE), n=1, cutoff=0.6)
    if not close:
        return ""
    return f"did you mean {close[0]!r}? "


def get_entry(board_id: str) -> Entry:
    """The catalogue entry (grid and default problem) for ``board_id``."""
    get_board(board_id)  # raises the standard error for unknown ids
    return CATALOGUE[board_id.strip().lower()]
