"""Board geometry, compiled once per board into a bit layout.

Hole ``(r, c)`` lives at bit ``r * stride + c``.  Because the stride is constant, every
jump direction is a shift of a Python ``int`` by a fixed amount, and one mask per
direction (``src``: holes whose two next cells along that direction are holes too)
makes legal-jump generation a handful of whole-board ``&``/``>>`` operations.

The board's symmetry group (the lattice maps that send its hole set onto itself, up to
translation) is compiled into per-byte lookup tables, so the image of a position under
a symmetry costs one table lookup per byte of the layout.

Two boards with the same id, lattice and holes are equal and hash alike (:attr:`Board.key`,
the board's canonical spec), so per-board caches hit for a board rebuilt from the same text
by every request; :meth:`Board.from_cells` also keeps the last few compiled boards
(:data:`COMPILED_BOARDS`), so a page that sends its custom board with every move compiles it once.

>>> from pyapp.core.catalogue import get_board
>>> b = get_board("english")
>>> len(b), len(b.symmetries), b.name_of[b.bit_of["d4"]]
(33, 8, 'd4')
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import BoardError, HoleError
from .lattice import LATTICES, SQUARE, Cell, Lattice
from .limits import MAX_HOLE_CHARS, check_cells

COLUMN_LETTERS = "abcdefghijklmnopqrstuvwxyz"
COMPILED_BOARDS = 8
"""How many recently compiled boards :meth:`Board.from_cells` keeps (least recently used dropped)."""
BOARD_CACHE_SIZE = 16
"""Boards whose derived data (pagodas, jump tables, search tables) each per-board cache keeps."""
_COMPILED: OrderedDict[tuple, Board] = OrderedDict()


@dataclass(frozen=True)
class Direction:
    """A jump direction: a peg at bit ``p`` jumps over ``p + shift`` into ``p + 2*shift``."""

    shift: int
    src: int
    """Bits ``p`` such that ``p``, ``p + shift`` and ``p + 2*shift`` are all holes."""


@dataclass(frozen=True, eq=False)
class Board:
    """A compiled board: holes, names, bit layout, jump directions, symmetries.

    Build one with :meth:`Board.from_cells` (or :func:`pyapp.core.catalogue.get_board`,
    :func:`pyapp.core.custom.board_from_text`); the fields are derived and read-only.
    """

    id: str
    title: str
    lattice: Lattice
    cells: tuple[Cell, ...]
    """Hole cells in reading order (row by row, left to right)."""
    stride: int
    bits: tuple[int, ...]
    """Bit index of each hole, in the order of :attr:`cells`."""
    names: tuple[str, ...]
    """Name of each hole, in the order of :attr:`cells`."""
    mask: int
    name_of: dict[int, str] = field(repr=False)
    bit_of: dict[str, int] = field(repr=False)
    cell_of: dict[int, Cell] = field(repr=False)
    directions: tuple[Direction, ...] = field(repr=False)
    lines: tuple[tuple[int, int, int], ...] = field(repr=False)
    """Every line of three holes ``(a, b, c)`` as bit indices, each line once."""
    symmetries: tuple[tuple[int, ...], ...] = field(repr=False)
    """Each symmetry as a permutation: ``perm[i]`` is the image bit of hole ``bits[i]``."""
    _tables: tuple[tuple[tuple[int, ...], ...], ...] = field(repr=False)
    class_masks: tuple[tuple[int, int, int], ...] = field(repr=False)
    key: tuple = field(repr=False)
    """The canonical spec ``(id, lattice name, cells)``: equal for boards built from the same holes."""
    _hash: int = field(repr=False)

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Board) and self._hash == other._hash and self.key == other.key)

    def __hash__(self) -> int:
        return self._hash

    # ------------------------------------------------------------------ building
    @classmethod
    def from_cells(cls, board_id: str, title: str, lattice: Lattice, cells: list[Cell]) -> Board:
        """Compile a board from its hole cells (any order; non-negative coordinates).

        The size limits of :mod:`pyapp.core.limits` are checked first; a board compiled recently
        with the same id, title, lattice and cells is returned again instead of being rebuilt.
        """
        if not cells:
            raise BoardError(f"board {board_id!r} has no holes")
        check_cells(cells, f"board {board_id!r}")
        if len(set(cells)) != len(cells):
            raise BoardError(f"board {board_id!r} lists a hole twice")
        if min(r for r, _ in cells) < 0 or min(c for _, c in cells) < 0:
            raise BoardError(f"board {board_id!r} has a negative coordinate")
        cells = sorted(cells)
        key = (board_id, lattice.name, tuple(cells))
        known = _COMPILED.get((key, title))
        if known is not None:
            _COMPILED.move_to_end((key, title))
            return known
        board = cls._compile(board_id, title, lattice, cells, key)
        _COMPILED[(key, title)] = board
        while len(_COMPILED) > COMPILED_BOARDS:
            _COMPILED.popitem(last=False)
        return board

    @classmethod
    def _compile(cls, board_id: str, title: str, lattice: Lattice, cells: list[Cell], key: tuple) -> Board:
        width = max(c for _, c in cells) + 1
        stride = width
        bits = tuple(r * stride + c for r, c in cells)
        names = tuple(_hole_names(lattice, cells))
        mask = 0
        for b in bits:
            mask |= 1 << b
        cell_set = set(cells)
        directions = []
        lines = []
        for dr, dc in lattice.steps:
            for sign in (1, -1):
                src = 0
                sr, sc = sign * dr, sign * dc
                for r, c in cells:
                    if (r + sr, c + sc) in cell_set and (r + 2 * sr, c + 2 * sc) in cell_set:
                        src |= 1 << (r * stride + c)
                        if sign == 1:
                            lines.append((r * stride + c, (r + dr) * stride + c + dc,
                                          (r + 2 * dr) * stride + c + 2 * dc))
                if src:
                    directions.append(Direction(sign * (dr * stride + dc), src))
        symmetries = _symmetries(lattice, cells, stride)
        tables = tuple(_byte_tables(bits, perm) for perm in symmetries)
        class_masks = []
        for a, b in lattice.colourings:
            ms = [0, 0, 0]
            for (r, c), bit in zip(cells, bits):
                ms[(a * r + b * c) % 3] |= 1 << bit
            class_masks.append((ms[0], ms[1], ms[2]))
        return cls(
            id=board_id,
            title=title,
            lattice=lattice,
            cells=tuple(cells),
            stride=stride,
            bits=bits,
            names=names,
            mask=mask,
            name_of=dict(zip(bits, names)),
            bit_of=dict(zip(names, bits)),
            cell_of=dict(zip(bits, cells)),
            directions=tuple(directions),
            lines=tuple(lines),
            symmetries=symmetries,
            _tables=tables,
            class_masks=tuple(class_masks),
            key=key,
            _hash=hash(key),
        )

    # ------------------------------------------------------------------ basics
    def __len__(self) -> int:
        return len(self.cells)

    def __repr__(self) -> str:
        return f"<Board {self.id!r}: {len(self)} holes, {self.lattice.name} lattice>"

    def __reduce__(self) -> tuple:
        """Pickle the board as its spec, compiled again where it is loaded (once per process: the compiled
        boards are cached).  A pool task that carries a board is then a few hundred bytes, not the 73 KB of
        its tables: less to copy per task, and small enough to pass through a pipe without blocking."""
        return _rebuild, (self.id, self.title, self.lattice.name, self.cells)

    @property
    def height(self) -> int:
        return max(r for r, _ in self.cells) + 1

    @property
    def width(self) -> int:
        return max(c for _, c in self.cells) + 1

    def hole(self, name: str) -> int:
        """Bit index of the hole called ``name`` (``'d4'``, or ``'5'`` on a triangle)."""
        key = name.strip().lower() if isinstance(name, str) else str(name)
        bit = self.bit_of.get(key)
        if bit is None:
            if len(key) > MAX_HOLE_CHARS:
                name = key[:MAX_HOLE_CHARS] + "..."
            sample = ", ".join(self.names[:3])
            raise HoleError(f"no hole {name!r} on board {self.id!r} (holes are named like {sample}, ...)")
        return bit

    def full(self) -> int:
        """Every hole filled."""
        return self.mask

    def start(self, *vacancies: str) -> int:
        """Every hole filled except the named vacancies."""
        pos = self.mask
        for v in vacancies:
            pos &= ~(1 << self.hole(v))
        return pos

    def pegs(self, pos: int) -> list[int]:
        """Bit indices of the pegs of ``pos``, in reading order."""
        return [b for b in self.bits if pos >> b & 1]

    # ------------------------------------------------------------------ symmetry
    def transform(self, pos: int, index: int) -> int:
        """Image of ``pos`` under symmetry number ``index`` (0 is the identity)."""
        out = 0
        for table in self._tables[index]:
            out |= table[pos & 255]
            pos >>= 8
        return out

    def permutation(self, index: int) -> dict[int, int]:
        """Symmetry number ``index`` as a map from each hole's bit number to its image's."""
        return dict(zip(self.bits, self.symmetries[index]))

    def map_jumps(self, jumps: Iterable[tuple[int, int, int]], index: int) -> list[tuple[int, int, int]]:
        """The jumps (from, over, to bit numbers) moved by symmetry number ``index``: if ``jumps``
        play ``p`` to ``q``, the result plays ``transform(p, index)`` to ``transform(q, index)``."""
        image = self.permutation(index)
        return [(image[a], image[b], image[c]) for a, b, c in jumps]

    def images(self, pos: int) -> list[int]:
        """Images of ``pos`` under every symmetry of the board (identity first)."""
        return images_by_tables(pos, self._tables)

    def canonical(self, pos: int) -> int:
        """The least image of ``pos`` under the board's symmetries: equal for equivalent positions."""
        return min(self.images(pos))

    # ------------------------------------------------------------------ invariants
    def position_class(self, pos: int) -> tuple[int, ...]:
        """Conway's position class: parities that no jump changes (two bits per colouring).

        A jump covers three consecutive cells of a line, which carry the three different
        colours of every colouring, and flips the occupancy of all three; so the parities of
        ``n0 + n1`` and ``n1 + n2`` (``ni`` pegs of colour ``i``) never change.
        """
        sig = []
        for m0, m1, m2 in self.class_masks:
            n0 = (pos & m0).bit_count()
            n1 = (pos & m1).bit_count()
            n2 = (pos & m2).bit_count()
            sig.append((n0 + n1) & 1)
            sig.append((n1 + n2) & 1)
        return tuple(sig)


def images_by_tables(pos: int, table_sets) -> list[int]:
    """Images of ``pos`` under the symmetries whose per-byte tables are given (see ``Board._tables``)."""
    result = []
    for tables in table_sets:
        out = 0
        p = pos
        for table in tables:
            out |= table[p & 255]
            p >>= 8
        result.append(out)
    return result


def _rebuild(board_id: str, title: str, lattice: str, cells: tuple[Cell, ...]) -> Board:
    """A pickled board (:meth:`Board.__reduce__`), from the compiled-board cache when it is there."""
    return Board.from_cells(board_id, title, LATTICES[lattice], list(cells))


def _hole_names(lattice: Lattice, cells: list[Cell]) -> list[str]:
    """Square boards: column letter and row number (``d4``); triangles: ``1..N`` in reading order."""
    if lattice is SQUARE:
        top = min(r for r, _ in cells)
        left = min(c for _, c in cells)
        if max(c for _, c in cells) - left >= len(COLUMN_LETTERS):
            raise BoardError(f"a square board may be at most {len(COLUMN_LETTERS)} columns wide")
        return [f"{COLUMN_LETTERS[c - left]}{r - top + 1}" for r, c in cells]
    return [str(i + 1) for i in range(len(cells))]


def _symmetries(lattice: Lattice, cells: list[Cell], stride: int) -> tuple[tuple[int, ...], ...]:
    """Permutations of the holes induced by the lattice maps that preserve the hole set."""
    cell_set = set(cells)
    anchor = min(cells)
    perms = []
    for m in lattice.maps:
        image = [lattice.apply(m, c) for c in cells]
        low = min(image)
        shift = (anchor[0] - low[0], anchor[1] - low[1])
        moved = [(r + shift[0], c + shift[1]) for r, c in image]
        if set(moved) != cell_set:
            continue
        perm = tuple(r * stride + c for r, c in moved)
        if perm not in perms:
            perms.append(perm)
    identity = tuple(r * stride + c for r, c in cells)
    perms.sort(key=lambda p: p != identity)
    return tuple(perms)


def _byte_tables(bits: tuple[int, ...], perm: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """For each byte of the layout, the image of every byte value under a permutation."""
    top = max(bits)
    tables = []
    for byte in range((top >> 3) + 1):
        image = [0] * 8
        for b, img in zip(bits, perm):
            if b >> 3 == byte:
                image[b & 7] = 1 << img
        # each value's image is the image of the value without its lowest bit, plus that bit's image
        table = [0] * 256
        for value in range(1, 256):
            low = value & -value
            table[value] = table[value ^ low] | image[low.bit_length() - 1]
        tables.append(tuple(table))
    return tuple(tables)

