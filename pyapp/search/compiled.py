"""Per-problem tables for the hot loops: jump directions, symmetries, packed pagodas, tie-breaks.

Everything a search touches per node is prepared here once, so the loops themselves do
only integer operations:

* jump generation: per direction, ``(shift, src mask, jump pattern, pre-shift, index base)``;
  the jump mask of a peg ``low`` (a one-bit int) is ``(low >> pre) * pattern``;
* pagodas *bit-parallel*: the values of all K pagodas of a position are the 16-bit lanes
  of one int ``X`` (biased to stay positive); a jump adds one precomputed packed delta,
  and "some pagoda fell below the goal's value" is ``(X + C) & H != H`` (the lane's high
  bit after adding ``2**15 - threshold``), one add and one and for all K at once;
* the symmetries kept (those that fix the goal), with byte lookup tables for images;
* a per-jump tie-break, random per seed, used only to order jumps of equal score.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..core.board import Board, Direction, images_by_tables
from ..proofs.pagoda import Pagoda

LANE = 16
DEFAULT_SEED = 20_231_117
BIAS = 1 << 13
HIGH = 1 << 15


@dataclass
class Tables:
    """What the searches need for one board, goal and seed."""

    board: Board
    mask: int
    pos_dirs: list[tuple[int, int, int, int, int]]
    """Positive shifts: ``(s, src, 2s, pattern, index base)``; jump mask is ``low * pattern``."""
    neg_dirs: list[tuple[int, int, int, int, int]]
    """Negative shifts as ``(t=-s, src, 2t, pattern, index base)``; jump mask is ``(low >> 2t) * pattern``."""
    pairs: list[tuple[int, int]]
    """``(s, m)``: bits ``p`` in ``m`` have a hole at ``p + s`` (positive steps only)."""
    deltas: list[int]
    """Packed pagoda change of each jump, indexed ``base + low.bit_length()``."""
    ties: list[int]
    """Tie-break of each jump (same index), in ``[0, 64)``."""
    x0_bias: int
    check_c: int
    check_h: int
    pagodas: list[tuple[Pagoda, int]]
    sym_tables: list[tuple[tuple[int, ...], ...]]
    sym_deltas: list[int]
    """Each jump's mask under every kept symmetry, packed in lanes of ``sym_lane`` bits (same index)."""
    sym_lane: int
    packed_weights: dict[int, int] = field(default_factory=dict)
    """Each hole's weight in every pagoda, packed in the lanes of :meth:`pack`."""
    edge1: int = 0
    """Holes with one fewer lattice neighbour than a full interior hole (weight 1 in the edge term)."""
    edge2: int = 0
    """Holes missing two or more neighbours (board corners and arm tips; weight 2)."""

    def pack_images(self, pos: int) -> int:
        """The images of ``pos`` under the kept symmetries, packed in lanes: a jump XORs in its ``sym_deltas``."""
        out = 0
        for k, img in enumerate(self.images(pos)):
            out |= img << (self.sym_lane * k)
        return out

    def unpack_images(self, packed: int) -> list[int]:
        lane = self.sym_lane
        m = (1 << lane) - 1
        return [(packed >> (lane * k)) & m for k in range(len(self.sym_tables))]

    def pack(self, pos: int) -> int:
        """The packed (biased) pagoda values of ``pos``."""
        x = self.x0_bias
        for b, w in self.packed_weights.items():
            if pos >> b & 1:
                x += w
        return x

    def alive(self, x: int) -> bool:
        """True when every pagoda value in ``x`` is at least its goal threshold."""
        return (x + self.check_c) & self.check_h == self.check_h

    def images(self, pos: int) -> list[int]:
        """``pos`` under each kept symmetry (identity first)."""
        return images_by_tables(pos, self.sym_tables)

    def canonical(self, pos: int) -> int:
        return min(self.images(pos))


def build_tables(board: Board, pagodas: list[tuple[Pagoda, int]], syms: list[int], seed: int | None) -> Tables:
    """Compile the hot-loop tables (see the module docstring); ``syms``: the symmetries to keep
    (those that fix the goal, :meth:`pyapp.core.goal.Goal.symmetries`)."""
    bitset = set(board.bits)
    top = max(board.bits) + 2
    pos_dirs, neg_dirs = [], []
    index_dir: list[Direction] = []
    for d in board.directions:
        base = len(index_dir) * top - 1
        index_dir.append(d)
        s = d.shift
        t = abs(s)
        pattern = 1 | (1 << t) | (1 << (2 * t))
        if s > 0:
            pos_dirs.append((s, d.src, 2 * s, pattern, base))
        else:
            neg_dirs.append((t, d.src, 2 * t, pattern, base))
    pairs = []
    for d in board.directions:
        if d.shift > 0:
            m = 0
            for b in board.bits:
                if b + d.shift in bitset:
                    m |= 1 << b
            pairs.append((d.shift, m))
    size = len(index_dir) * top
    deltas = [0] * size
    ties = [0] * size
    rng = random.Random(seed) if seed is not None else None
    # each hole's weights in all pagodas, packed in lanes: a jump's change is then 3 big-int ops
    packed_w: dict[int, int] = {}
    for k, (p, _) in enumerate(pagodas):
        for b, w in p.weights:
            packed_w[b] = packed_w.get(b, 0) + (w << (LANE * k))
    sym_tables = [board._tables[i] for i in syms]
    lane = max(board.bits) + 1
    sym_deltas = [0] * size
    # each kept symmetry as a map bit -> image bit: a jump's three holes are mapped directly (the per-byte
    # tables of board.transform cost one lookup per byte of the layout, hundreds of times more on big boards)
    index = {b: i for i, b in enumerate(board.bits)}
    images = [[0] * (max(board.bits) + 1) for _ in syms]
    for k, s in enumerate(syms):
        perm = board.symmetries[s]
        for b, i in index.items():
            images[k][b] = perm[i]
    # one pass over every jump: its pagoda change, its tie-break, and its flip mask under each kept symmetry
    for di, d in enumerate(index_dir):
        src = d.src
        while src:
            low = src & -src
            src ^= low
            a = low.bit_length() - 1
            b, c = a + d.shift, a + 2 * d.shift
            i = di * top - 1 + low.bit_length()
            deltas[i] = packed_w.get(c, 0) - packed_w.get(a, 0) - packed_w.get(b, 0)
            ties[i] = rng.randrange(64) if rng is not None else 0
            packed = 0
            for k, image in enumerate(images):
                packed |= ((1 << image[a]) | (1 << image[b]) | (1 << image[c])) << (lane * k)
            sym_deltas[i] = packed
    x0_bias = check_c = check_h = 0
    for k, (_, thr) in enumerate(pagodas):
        x0_bias += BIAS << (LANE * k)
        check_c += (HIGH - (thr + BIAS)) << (LANE * k)
        check_h += HIGH << (LANE * k)
    full = 2 * len(board.lattice.steps)
    edge1 = edge2 = 0
    for b in board.bits:
        missing = full - sum(1 for d in board.directions if b + d.shift in bitset)
        if missing == 1:
            edge1 |= 1 << b
        elif missing >= 2:
            edge2 |= 1 << b
    return Tables(board, board.mask, pos_dirs, neg_dirs, pairs, deltas, ties, x0_bias, check_c, check_h,
                  list(pagodas), sym_tables, sym_deltas, lane, packed_w, edge1, edge2)


def reseed(t: Tables, seed: int | None) -> None:
    """Give the jumps new tie-breaks from ``seed`` (None: a fixed default, so answers are reproducible).

    Ties are broken pseudo-randomly rather than in generation order, which would always
    favour one direction of jump and bias the whole search.
    """
    rng = random.Random(DEFAULT_SEED if seed is None else seed)
    t.ties = [rng.randrange(64) for _ in t.ties]


def score(tables: Tables, pos: int, iso: int, edge: int) -> int:
    """The ordering score of a position (lower is better); the searches inline this formula.

    * the *perimeter*: neighbouring (peg, empty hole) pairs along every line direction; a
      compact group of pegs has a short one;
    * ``iso`` times the *isolated pegs* (no peg next to them): such a peg can only be
      removed by another peg travelling to it, which is what most dead ends look like;
    * ``edge`` times the pegs on holes missing lattice neighbours (1 per missing
      neighbour, at most 2): board edges, corners and arm tips are the hardest to clear,
      so positions that clear them early are preferred (the beam uses this; compiled
      solvers get a similar effect by deferring jumps into corners).

    Bit-parallel: a few shifts, ands and popcounts per direction, whatever the peg count.
    """
    per = 0
    nbr = 0
    for s, m in tables.pairs:
        per += ((pos ^ (pos >> s)) & m).bit_count()
        nbr |= ((pos >> s) & m) | ((pos & m) << s)
    return (per + iso * (pos & ~nbr).bit_count()
            + edge * ((pos & tables.edge1).bit_count() + 2 * (pos & tables.edge2).bit_count()))
