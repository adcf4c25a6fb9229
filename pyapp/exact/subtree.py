"""The exhaustive search between a partial set's held levels, compiled per board: can a position reach a held one?

:class:`.partial.PartialWinnable` (shipped partial sets) and :class:`.endgame.Endgame` (the goal's endgame table)
answer a position between their held levels by searching every position it leads to, down to the first level
they hold, each class once (its verdict kept in a memo).  That search runs once per class of a subtree of up to
hundreds of thousands of classes, so it is generated as Python source specialised to the board, as the sweeps'
expansion is (:mod:`pyapp.core.codec.compiled`):

* a class's legal jumps come from one mask per direction (shifts of the position), not a loop over every line;
* a child's symmetry images are its parent's XOR the jump's (the codec's packed images), so its canonical key,
  and the canonical key of its complement, are a few shifts and comparisons, with no table lookups;
* the held level's keys are probed through a filter (one byte per slot, about four slots per key) before the
  binary search, since most probes miss;
* where the board has table pagodas for the goal (:mod:`.pagoda_prune`), a position one of them proves lost is not
  searched under: on French d2 -> d6's table, 27 times fewer classes for the same verdicts.

Measured on German e5 -> e5's endgame table (CPython 3.11, 20-peg questions, the same classes): about 5 us a
class against 12 us for the plain loop over the board's lines that it replaces.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable, Generator

from ..core.budget import drive
from ..core.codec.compiled import Codec, least_tree
from .pagoda_prune import PackedPagodas

SLOTS_PER_KEY = 4
"""Filter slots (bytes) per key of the held level: about 1 probe in 5 that misses still does the binary search."""
FILTER_PIECE = 100_000
"""Keys entered in the filter between two pauses of :func:`filter_steps` (about 20 ms in CPython)."""


def filter_steps(keys: array) -> Generator[None, None, bytearray]:
    """The filter of :class:`Subtree` over ``keys`` (a byte per slot, set at ``key % slots``), pausing every
    :data:`FILTER_PIECE` keys: French's endgame table takes 0.8 s of CPython for its held level, seconds in
    Pyodide, where a worker building it in one go takes no message meanwhile."""
    slots = SLOTS_PER_KEY * len(keys) + 1
    filt = bytearray(slots)
    for lo in range(0, len(keys), FILTER_PIECE):
        for k in keys[lo:lo + FILTER_PIECE]:
            filt[k % slots] = 1
        yield
    return filt


class Overrun(Exception):
    """The question is beyond the table: too many pegs, or the search passed its node limit."""


def _source(codec: Codec, complement: bool, pruned: str | None = None) -> str:
    """Source of ``make(memo, keys, low, box, ...)``, whose ``search(pos, x, pegs, s)`` answers (see :class:`Subtree`);
    ``pruned``: an expression of the packed pagoda sum ``s`` and ``pegs`` that proves a position lost
    (:mod:`.pagoda_prune`), tested once per class searched above ``low + 1`` pegs."""
    board, n, m = codec.board, codec.holes, codec.everything
    last = len(codec.group) - 1
    lanes = [f"(y >> {n * g}) & {m}" if 0 < g < last else (f"y >> {n * g}" if g else f"y & {m}")
             for g in range(last + 1)]
    # the canonical key of the complement is the least complemented lane (the greatest lane's complement)
    key = least_tree([f"{m} ^ {lane}" for lane in lanes]) if complement else least_tree(lanes)
    lines = ["def make(memo, keys, low, box):", "    get = memo.get", "    nk = len(keys)", "    slots = len(T)",
             "    def search(pos, x, pegs, s):", f"        c = {codec.least_source('x')}", "        hit = get(c)",
             "        if hit is not None:", "            return hit", "        if box[0] >= box[1]:",
             "            raise Overrun(f'more than {box[2]:,} positions to search')", "        box[0] += 1"]
    if pruned:  # a pagoda proves it lost: no search under it (the jumps down to the held level are cheap already)
        lines += ["        if pegs - 1 > low and " + pruned + ":", "            memo[c] = False",
                  "            return False"]
    lines += [f"        e = {board.mask} ^ pos", "        if pegs - 1 <= low:"]
    for held in (True, False):
        if not held:
            lines.append("        else:")
        for i, d in enumerate(board.directions):
            lines += [f"            m = {codec.jump_mask_source(d)}", "            while m:",
                      "                b = m & -m", "                m ^= b"]
            if held:
                lines += [f"                y = x ^ J{i}[b.bit_length()]", f"                k = {key}",
                          "                if T[k % slots] and (j := bisect_left(keys, k)) < nk and keys[j] == k:"]
            else:
                step = f"s + G{i}[i]" if pruned else "0"
                lines += ["                i = b.bit_length()",
                          f"                if search(pos ^ F{i}[i], x ^ J{i}[i], pegs - 1, {step}):"]
            lines += ["                    memo[c] = True", "                    return True"]
    lines += ["        memo[c] = False", "        return False", "    return search"]
    return "\n".join(lines) + "\n"


def _flips(codec: Codec) -> dict[str, list[int]]:
    """Per direction ``i``: ``J<i>`` (the packed images a jump flips) and ``F<i>`` (the layout bits it flips), each
    indexed by the jump's source bit + 1."""
    out: dict[str, list[int]] = {}
    size = max(codec.board.bits) + 2
    for i, d in enumerate(codec.board.directions):
        out[f"J{i}"] = codec.packed_jumps(d)
        flips = [0] * size
        for bit in codec.board.bits:
            if d.src >> bit & 1:
                flips[bit + 1] = 1 << bit | 1 << bit + d.shift | 1 << bit + 2 * d.shift
        out[f"F{i}"] = flips
    return out


class Subtree:
    """The compiled search of one partial set: ``search(pos, pegs)`` says whether ``pos`` reaches a position of
    the held level ``low`` (its canonical key, or its complement's when ``complement``, among ``keys``).

    ``memo`` (canonical key -> verdict) is the caller's and is filled in place; :attr:`searched` counts the
    classes searched, and a search that would pass :attr:`stop` raises :class:`Overrun`."""

    def __init__(self, codec: Codec, keys: array, low: int, memo: dict[int, bool], *, complement: bool,
                 filt: bytearray | None = None, pagodas: PackedPagodas | None = None) -> None:
        """``filt``: the filter of ``keys`` made beforehand (:func:`filter_steps`), else made here; ``pagodas``:
        pagodas that prove a position lost (:mod:`.pagoda_prune`), each such position's search stopped there."""
        if filt is None:
            filt = drive(filter_steps(keys))
        extra = {} if pagodas is None else {"TOPS": pagodas.tops, "BOUNDS": pagodas.bounds, **pagodas.deltas}
        pruned = None if pagodas is None else pagodas.lost_source
        make = codec.compile_source(_source(codec, complement, pruned), "make", T=filt, Overrun=Overrun,
                                    bisect_left=bisect_left, **_flips(codec), **extra)
        self._box = [0, 1 << 62, 0]  # classes searched, where to stop, the limit (for the message)
        self._run: Callable[[int, int, int, int], bool] = make(memo, keys, low, self._box)
        self._packed = codec.packed
        self._sum = (lambda pos: 0) if pagodas is None else pagodas.sum
        self.pagodas = 0 if pagodas is None else pagodas.count
        """How many pagodas prune the search."""
        self.nbytes = len(filt)

    @property
    def searched(self) -> int:
        return self._box[0]

    def limit(self, stop: int, limit: int) -> None:
        """Raise :class:`Overrun` once :attr:`searched` reaches ``stop`` (``limit``: the question's size, named)."""
        self._box[1], self._box[2] = stop, limit

    def search(self, pos: int, pegs: int) -> bool:
        return self._run(pos, self._packed(pos), pegs, self._sum(pos))
