"""Canonical dense keys and level expansion, compiled per board and symmetry group.

A *dense key* has one bit per hole in reading order (hole ``i`` of :attr:`Board.bits` is
bit ``i``), so it is below ``2**64`` on boards of up to 64 holes and fits an ``array('Q')``.
The *canonical key* of a position is the least dense key among its images under a
symmetry group; two positions have the same canonical key exactly when a symmetry of the
group maps one onto the other.

The inner loops of the exact analyses run once per edge of the game graph (tens of
millions on the English board), so they are generated as Python source specialised to
the board: the direction shifts and masks become literals, and the symmetry images are
table lookups on chunks of up to 11 bits (the dense image of the layout first, then the other
images of the dense key), inlined into the loop instead of called.  Measured on the
English board this is about 3x faster than calling :meth:`Board.canonical` per child.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from ..board import Board, Direction
from ..errors import PegError
from .keyset import MAX_HOLES

LAYOUT_CHUNK = 11
DENSE_CHUNK = 11
"""Widest table index (bits).  Small tables stay in the CPU cache: measured on the English
board, 11-bit tables (2,048 entries; 3 + 7 x 3 lookups per canonical key) beat 17-bit ones
(2 lookups per image) by 2.5x, and 8-13 bits are within noise of each other."""


def _chunks(nbits: int, widest: int) -> list[tuple[int, int]]:
    """``(shift, width)`` of the fewest equal chunks (at most ``widest`` bits) covering ``nbits``."""
    count = -(-nbits // widest)
    width = -(-nbits // count)
    return [(i * width, width) for i in range(count)]


def _table(width: int, image_of_bit: Callable[[int], int]) -> list[int]:
    """``table[v]`` = OR of ``image_of_bit(j)`` over the set bits ``j`` of ``v`` (``v < 2**width``)."""
    table = [0] * (1 << width)
    for v in range(1, 1 << width):
        low = v & -v
        table[v] = table[v ^ low] | image_of_bit(low.bit_length() - 1)
    return table


def _image(of_bit: dict[int, int], shift: int) -> Callable[[int], int]:
    """``j -> of_bit[j + shift]`` (0 for a bit that is not a hole): the image of chunk bit ``j``."""
    return lambda j: of_bit.get(j + shift, 0)


def _lookup(name: str, var: str, chunks: list[tuple[int, int]]) -> str:
    """Source of ``name0[var & m] | name1[(var >> s) & m] | ...`` (the last chunk unmasked)."""
    parts = []
    for i, (shift, width) in enumerate(chunks):
        piece = f"({var} >> {shift})" if shift else var
        if i < len(chunks) - 1:
            piece = f"{piece} & {(1 << width) - 1}"
        parts.append(f"{name}{i}[{piece}]")
    return " | ".join(parts)


def least_tree(lanes: list[str]) -> str:
    """Source of the least of the expressions ``lanes``, as a tournament of conditional expressions: each lane is
    computed once (named by ``:=``, names ``_w0``, ``_w1``, ... that generated code leaves alone), and it costs
    about 60% of ``min(...)``, whose call and argument tuple dominate on six small ints (measured in CPython 3.11)."""
    names = iter(range(2 * len(lanes)))

    def node(items: list[str]) -> str:
        if len(items) == 1:
            return items[0]
        half = len(items) // 2
        left, right = node(items[:half]), node(items[half:])
        a, b = f"_w{next(names)}", f"_w{next(names)}"
        return f"({a} if ({a} := {left}) < ({b} := {right}) else {b})"

    return node(lanes)


class Codec:
    """Dense keys, canonical keys and compiled level expansion for one board and symmetry group.

    ``group`` lists indices into :attr:`Board.symmetries` (the identity is always added).
    The dense images of a position under the group are *packed* in one int, lane ``g``
    (``n`` bits, ``n`` holes) holding the image under ``group[g]``; packing is linear over
    XOR, so a child's packed images are its parent's XOR the packed images of the jump's
    three holes: one XOR per child, then the least lane is the canonical key.  Build with
    :func:`codec` (cached).
    """

    def __init__(self, board: Board, group: tuple[int, ...]) -> None:
        n = len(board)
        if n > MAX_HOLES:
            raise PegError(f"board {board.id!r} has {n} holes: exact analyses store positions as 64-bit keys "
                           f"(at most {MAX_HOLES} holes)")
        self.board = board
        self.group = tuple(sorted(set(group) | {0}))
        self.holes = n
        self.everything = (1 << n) - 1
        index_of = {b: i for i, b in enumerate(board.bits)}
        # packed images of each hole: bit index_of[perm[i]] of lane g, for hole i
        lanes = [0] * n
        for g, sym in enumerate(self.group):
            perm = board.symmetries[sym]
            for i in range(n):
                lanes[i] |= 1 << (n * g + index_of[perm[i]])
        packed_of_bit = {b: lanes[i] for i, b in enumerate(board.bits)}
        self.packed_of_bit = packed_of_bit
        """Packed images of each single hole, by layout bit (XOR-linear: see the class docstring)."""
        ns: dict[str, object] = {}
        lay_chunks = _chunks(max(board.bits) + 1, LAYOUT_CHUNK)
        layout_bits = [1 << b for b in board.bits] + [0] * MAX_HOLES
        lanes_padded = lanes + [0] * MAX_HOLES
        for i, (shift, width) in enumerate(lay_chunks):
            ns[f"P{i}"] = _table(width, _image(packed_of_bit, shift))
        den_chunks = _chunks(n, DENSE_CHUNK)
        for i, (shift, width) in enumerate(den_chunks):
            ns[f"D{i}"] = _table(width, _image(dict(enumerate(layout_bits)), shift))
            ns[f"Q{i}"] = _table(width, _image(dict(enumerate(lanes_padded)), shift))
        self._ns = ns
        m = self.everything
        count = len(self.group)

        def least_of(x: str) -> str:
            lanes = [f"{x} & {m}"] + [f"({x} >> {n * g}) & {m}" if g < count - 1 else f"{x} >> {n * g}"
                                      for g in range(1, count)]
            return least_tree(lanes)

        self._least_of = least_of
        self._den_chunks = den_chunks
        lane_list = ", ".join(f"(x >> {n * g}) & {m}" if g < count - 1 else f"x >> {n * g}"
                              for g in range(1, count))
        self._least_src = least_of("x")
        self._packed_src = _lookup("P", "p", lay_chunks)
        self._layout_src = _lookup("D", "k", den_chunks)
        self._parent_src = _lookup("Q", "k", den_chunks)
        both = f"t = (x & {m}, {lane_list})\n    return min(t), max(t)" if count > 1 else f"return x & {m}, x & {m}"
        self.layout: Callable[[int], int] = self._compile(f"def layout(k):\n    return {self._layout_src}\n", "layout")
        """Layout position of a dense key."""
        self.packed: Callable[[int], int] = self._compile(f"def packed(p):\n    return {self._packed_src}\n",
                                                          "packed")
        """Packed dense images of a layout position."""
        self.packed_key: Callable[[int], int] = self._compile(
            f"def packed_key(k):\n    return {self._parent_src}\n", "packed_key")
        """Packed dense images of the position with dense key ``k``."""
        self.canon: Callable[[int], int] = self._compile(
            f"def canon(p):\n    x = {self._packed_src}\n    return {self._least_src}\n", "canon")
        """Canonical dense key of a layout position."""
        self.least: Callable[[int], int] = self._compile(f"def least(x):\n    return {self._least_src}\n", "least")
        """Canonical key of a packed value (its least lane)."""
        self.least_greatest: Callable[[int], tuple[int, int]] = self._compile(
            f"def least_greatest(x):\n    {both}\n", "least_greatest")
        """Least and greatest lane of a packed value: ``everything ^ greatest`` is the canonical key of the
        complement."""
        distinct = ", ".join(f"({'x' if g == 0 else f'x >> {n * g}'}) & {m}" for g in range(count))
        self.orbit_size: Callable[[int], int] = self._compile(
            f"def orbit_size(x):\n    return len({{{distinct}}})\n", "orbit_size")
        """Number of distinct images of a position under the group, from its packed images ``x``."""
        self.expand_counts = self._compile(self._expand_source(True), "expand")
        self.expand_set = self._compile(self._expand_source(False), "expand")
        self.merge_counts = self._compile(self._merge_source(True), "merge")
        self.merge_set = self._compile(self._merge_source(False), "merge")

    # ------------------------------------------------------------------ generated code
    def _compile(self, source: str, name: str):
        return self.compile_source(source, name)

    def compile_source(self, source: str, name: str, **names: object):
        """The function ``name`` defined by ``source``, which may use this codec's lookup tables and ``names``."""
        ns = dict(self._ns)
        ns.update(names)
        exec(compile(source, f"<exact codec {self.board.id} {name}>", "exec"), ns)  # noqa: S102 - our own source
        return ns[name]

    def least_source(self, var: str) -> str:
        """Source of the least lane (the canonical key) of the packed value in variable ``var``."""
        return self._least_of(var)

    def layout_source(self, var: str) -> str:
        """Source of the layout position of the dense key in variable ``var``."""
        return _lookup("D", var, self._den_chunks)

    def images_source(self, var: str) -> str:
        """Source of the packed images of the dense key in variable ``var``."""
        return _lookup("Q", var, self._den_chunks)

    def packed_jumps(self, d: Direction, along: int | None = None) -> list[int]:
        """For each source bit + 1 of direction ``d``'s jumps: what the jump flips in the packed images (its
        source, the peg jumped and its landing); with ``along`` k, the packed images of the one hole k steps
        along the jump instead (0 its source, 2 its landing).  0 where no jump of ``d`` starts."""
        table = [0] * (max(self.board.bits) + 2)
        of_bit, step = self.packed_of_bit, d.shift
        for bit in self.board.bits:
            if d.src >> bit & 1:
                table[bit + 1] = (of_bit[bit] ^ of_bit[bit + step] ^ of_bit[bit + 2 * step] if along is None
                                  else of_bit[bit + along * step])
        return table

    @staticmethod
    def jump_mask_source(d: Direction) -> str:
        """Source of the sources of direction ``d``'s legal jumps, from layout ``pos`` and its holes ``e``."""
        a = abs(d.shift)
        if d.shift > 0:
            return f"{d.src} & pos & (pos >> {a}) & (e >> {2 * a})"
        return f"{d.src} & pos & (pos << {a}) & (e << {2 * a})"

    def _expand_source(self, counts: bool) -> str:
        """``expand(keys, [counts,] lo, hi, raw)``: the packed images of every child of keys[lo:hi] into ``raw``.

        With counts, ``raw[child] += counts[i]`` (a dict); without, ``raw.add(child)`` (a set).
        """
        head = "def expand(keys, counts, lo, hi, raw):" if counts else "def expand(keys, lo, hi, raw):"
        lines = [head, "    get = raw.get" if counts else "    add = raw.add", f"    full = {self.board.mask}"]
        for d_index, d in enumerate(self.board.directions):
            self._ns[f"J{d_index}"] = self.packed_jumps(d)
            lines.append(f"    J{d_index}_ = J{d_index}")
        lines.append("    for i in range(lo, hi):")
        lines.append("        k = keys[i]")
        if counts:
            lines.append("        t = counts[i]")
        lines.append(f"        pos = {self._layout_src}")
        lines.append(f"        x0 = {self._parent_src}")
        lines.append("        e = full ^ pos")
        emit = "raw[x] = get(x, 0) + t" if counts else "add(x)"
        for d_index, d in enumerate(self.board.directions):
            lines.append(f"        m = {self.jump_mask_source(d)}")
            lines.append("        while m:")
            lines.append("            low = m & -m")
            lines.append("            m ^= low")
            lines.append(f"            x = x0 ^ J{d_index}_[low.bit_length()]")
            lines.append(f"            {emit}")
        return "\n".join(lines) + "\n"

    def _merge_source(self, counts: bool) -> str:
        """``merge(raw, acc)``: canonical keys of the packed values in ``raw`` into ``acc``."""
        if counts:
            return ("def merge(raw, acc):\n    get = acc.get\n    for x, t in raw.items():\n"
                    f"        c = {self._least_src}\n        acc[c] = get(c, 0) + t\n")
        return f"def merge(raw, acc):\n    add = acc.add\n    for x in raw:\n        add({self._least_src})\n"

    # ------------------------------------------------------------------ plain helpers
    def key(self, pos: int) -> int:
        """Canonical dense key of layout position ``pos``."""
        return self.canon(pos)

    def table_bytes(self) -> int:
        """Rough memory held by the lookup tables (list slots; the ints are mostly shared)."""
        return sum(8 * len(v) + 56 for v in self._ns.values() if isinstance(v, list))


@cache
def codec(board: Board, group: tuple[int, ...]) -> Codec:
    """The compiled codec of ``board`` under the symmetries ``group`` (cached per board and group)."""
    return Codec(board, group)
