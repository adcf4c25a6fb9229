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
import sys
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter

from ..core.board import BOARD_CACHE_SIZE, Board, Direction, images_by_tables
from ..proofs.pagoda import Pagoda, known_weights

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
    lanes_exact: bool = False
    """True when every pagoda's ``HIGH + value - threshold`` stays inside its lane for every position (no
    carry between lanes), so :meth:`alive` is exactly "every pagoda value is at least its threshold"."""

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


@dataclass(frozen=True)
class _Layout:
    """Everything in :class:`Tables` that depends only on the board and the kept symmetries, not on the
    pagodas or the seed: built once per board and goal symmetry (the pagodas change with every goal hole)."""

    top: int
    pos_dirs: list[tuple[int, int, int, int, int]]
    neg_dirs: list[tuple[int, int, int, int, int]]
    pairs: list[tuple[int, int]]
    size: int
    jumps: tuple[tuple[int, int, int, int], ...]
    """Every jump as ``(index, a, b, c)``, in the order tie-breaks are drawn (directions, then low bits first)."""
    sym_tables: list[tuple[tuple[int, ...], ...]]
    sym_deltas: list[int]
    lane: int
    edge1: int
    edge2: int


@lru_cache(maxsize=BOARD_CACHE_SIZE)
def _layout(board: Board, syms: tuple[int, ...]) -> _Layout:
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
    lane = max(board.bits) + 1
    sym_deltas = [0] * size
    # each kept symmetry as a map bit -> image bit: a jump's three holes are mapped directly (the per-byte
    # tables of board.transform cost one lookup per byte of the layout, hundreds of times more on big boards)
    index = {b: i for i, b in enumerate(board.bits)}
    images = [[0] * (max(board.bits) + 1) for _ in syms]
    for k, sym in enumerate(syms):
        perm = board.symmetries[sym]
        for b, i in index.items():
            images[k][b] = perm[i]
    # one pass over every jump: its index and its flip mask under each kept symmetry
    jumps = []
    for di, d in enumerate(index_dir):
        src = d.src
        while src:
            low = src & -src
            src ^= low
            a = low.bit_length() - 1
            b, c = a + d.shift, a + 2 * d.shift
            i = di * top - 1 + low.bit_length()
            jumps.append((i, a, b, c))
            packed = 0
            for k, image in enumerate(images):
                packed |= ((1 << image[a]) | (1 << image[b]) | (1 << image[c])) << (lane * k)
            sym_deltas[i] = packed
    full = 2 * len(board.lattice.steps)
    edge1 = edge2 = 0
    for b in board.bits:
        missing = full - sum(1 for d in board.directions if b + d.shift in bitset)
        if missing == 1:
            edge1 |= 1 << b
        elif missing >= 2:
            edge2 |= 1 << b
    return _Layout(top, pos_dirs, neg_dirs, pairs, size, tuple(jumps), [board._tables[i] for i in syms],
                   sym_deltas, lane, edge1, edge2)


def build_tables(board: Board, pagodas: list[tuple[Pagoda, int]], syms: list[int], seed: int | None) -> Tables:
    """Compile the hot-loop tables (see the module docstring); ``syms``: the symmetries to keep
    (those that fix the goal, :meth:`pyapp.core.goal.Goal.symmetries`).  The board's part is built once
    per board and symmetries (:func:`_layout`); the pagodas' and the seed's parts here."""
    lay = _layout(board, tuple(syms))
    packed_w = _packed_weights(board, pagodas)
    deltas = [0] * lay.size
    ties = [0] * lay.size
    get = packed_w.get
    for i, a, b, c in lay.jumps:
        deltas[i] = get(c, 0) - get(a, 0) - get(b, 0)
    if seed is not None:
        rng = random.Random(seed)
        for i, _, _, _ in lay.jumps:
            ties[i] = rng.randrange(64)
    ones = _lane_ones(len(pagodas))
    x0_bias, check_h = BIAS * ones, HIGH * ones
    lows = [HIGH - (thr + BIAS) for _, thr in pagodas]
    packed_c = _lanes(lows) if all(0 <= v < HIGH for v in lows) else None
    check_c = packed_c if packed_c is not None else sum(v << (LANE * k) for k, v in enumerate(lows))
    exact = all(HIGH + p.low - thr >= 0 and HIGH + p.high - thr < 1 << LANE for p, thr in pagodas)
    return Tables(board, board.mask, lay.pos_dirs, lay.neg_dirs, lay.pairs, deltas, ties, x0_bias, check_c, check_h,
                  list(pagodas), lay.sym_tables, lay.sym_deltas, lay.lane, packed_w, lay.edge1, lay.edge2, exact)


def _lanes(values: Sequence[int]) -> int | None:
    """``sum(v << LANE * k)`` from one array of signed 16-bit lanes (None if a value does not fit one):
    a few big-int operations instead of one per value.  A negative ``v`` stands as ``v + 2^16`` in its
    lane (top bit set), so the ``2^16`` is taken back from the next lane."""
    try:
        raw = int.from_bytes(array("h", values).tobytes(), sys.byteorder)
    except OverflowError:
        return None
    return raw - (((raw >> (LANE - 1)) & _lane_ones(len(values))) << LANE)


@lru_cache(maxsize=64)
def _lane_ones(n: int) -> int:
    """Bit 0 of each of ``n`` lanes."""
    return int.from_bytes(array("H", [1] * n).tobytes(), sys.byteorder)


def _packed_weights(board: Board, pagodas: list[tuple[Pagoda, int]]) -> dict[int, int]:
    """Each hole's weight in every pagoda, packed in lanes of :data:`LANE` bits (pagoda ``k`` in lane ``k``,
    the sum of ``w << LANE * k``; holes of weight 0 in all left out): a jump's change is then 3 big-int
    operations.  Pagodas of the board's known list take their rows from
    :func:`pyapp.proofs.pagoda.known_weights`."""
    if not pagodas:
        return {}
    known, index, rows = known_weights(board)
    ks = [index.get(id(p), -1) for p, _ in pagodas]
    chosen: dict[int, Sequence[int]]
    known_only = all(k >= 0 and known[k] is p for k, (p, _) in zip(ks, pagodas))
    row_bytes = _row_bytes(board) if known_only else None
    if row_bytes is not None:
        return _sliced_weights(row_bytes, ks)
    if known_only:
        pick = itemgetter(*ks) if len(ks) > 1 else (lambda row: (row[ks[0]],))
        chosen = {b: pick(row) for b, row in rows.items()}
    else:
        own: dict[int, list[int]] = {}
        for k, (p, _) in enumerate(pagodas):
            for b, w in p.weights:
                own.setdefault(b, [0] * len(pagodas))[k] = w
        chosen = dict(own)
    out = {}
    for b, ws in chosen.items():
        if any(ws):
            packed = _lanes(ws)
            out[b] = packed if packed is not None else sum(w << (LANE * k) for k, w in enumerate(ws))
    return out


@lru_cache(maxsize=BOARD_CACHE_SIZE)
def _row_bytes(board: Board) -> dict[int, bytes] | None:
    """Each hole's weights in all the board's known pagodas (:func:`pyapp.proofs.pagoda.known_weights`) as the
    bytes of signed 16-bit lanes, made once per board (None if a weight does not fit a lane): a goal's tables
    then cut its pagodas' lanes out of these instead of packing every hole's weights again."""
    _, _, rows = known_weights(board)
    try:
        return {b: array("h", row).tobytes() for b, row in rows.items()}
    except OverflowError:
        return None


def _sliced_weights(row_bytes: dict[int, bytes], ks: list[int]) -> dict[int, int]:
    """:func:`_packed_weights` for pagodas ``ks`` (indices into the known list, in lane order), cut from
    :func:`_row_bytes`: the runs of consecutive indices are byte slices, joined, read as one int and each
    negative lane's borrow taken back (as :func:`_lanes`)."""
    runs: list[list[int]] = []
    for k in ks:
        if runs and runs[-1][1] == k:
            runs[-1][1] = k + 1
        else:
            runs.append([k, k + 1])
    cuts = [(2 * a, 2 * b) for a, b in runs]
    ones = _lane_ones(len(ks))
    out = {}
    for b, row in row_bytes.items():
        raw_bytes = b"".join([row[x:y] for x, y in cuts]) if len(cuts) > 1 else row[cuts[0][0]:cuts[0][1]]
        if any(raw_bytes):  # a hole of weight 0 in every chosen pagoda is left out
            raw = int.from_bytes(raw_bytes, sys.byteorder)
            out[b] = raw - (((raw >> (LANE - 1)) & ones) << LANE)
    return out


@lru_cache(maxsize=8)
def _default_ties(size: int) -> tuple[int, ...]:
    """The tie-breaks of :data:`DEFAULT_SEED` for ``size`` jump slots (drawn once, as :func:`reseed` would)."""
    rng = random.Random(DEFAULT_SEED)
    return tuple(rng.randrange(64) for _ in range(size))


def reseed(t: Tables, seed: int | None) -> None:
    """Give the jumps new tie-breaks from ``seed`` (None: a fixed default, so answers are reproducible).

    Ties are broken pseudo-randomly rather than in generation order, which would always
    favour one direction of jump and bias the whole search.
    """
    if seed is None:
        t.ties = list(_default_ties(len(t.ties)))
        return
    rng = random.Random(seed)
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
