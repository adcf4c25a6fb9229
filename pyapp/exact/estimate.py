"""How big an exact analysis will be, said before it starts: positions, seconds and memory.

The page asks before a big count or fewest-move proof; the old guess (``2 ** (0.8 n)``
positions from the board's size alone) was 3-6x low on triangle7 and 4x high on the
English board, because boards differ in how fast their levels grow.  This estimate
measures that growth instead: it *probes* each sweep of the count (the forward sweep from
the start, and the backward one from the goal's complements unless the game is its own
complement) until a level holds :data:`PROBE` positions, then extends each side with the
shape the measured sweeps follow: after ``j`` jumps a single-vacancy start reaches about
``kappa * C(n, j - 1)`` positions (``n`` holes), with ``kappa`` read off the last probed
level (0.87-0.89 on triangle7 at every level from 19 to 17 pegs; 0.018-0.026 on the English
board, rising slowly, so that side comes out up to about 1.4x low), and never more than
the positions of that peg count in one position class (the only ones a start can reach).
The meeting level is found as ``count`` finds it: the side with the smaller frontier goes on (the forward
side stopping one level above the middle, whose jumps it sums over); when one sweep carries both sides
(:mod:`pyapp.exact.count.joint`), the backward side alone, down to the middle.

Calibrated against measured runs (CPython 3.11, `benchmarks/exact.json`, in BENCHMARKS.md): triangle6 vacancy 4
-> one peg 185,388 positions, 0.7 s; triangle7 vacancy 4 -> one peg 17,796,556 positions,
157 CPU s, max RSS about 1.2 GB in two sweeps (in one, :mod:`.count.joint`: 8,966,402 positions, 95-109 CPU s,
max RSS 744 MB); English central game 9,568,755 positions, 79-94 CPU s, max
RSS 814 MB (Pyodide heap 669 MB); triangle7's Pyodide heap 925 MB.  ``tests/test_exact_estimate.py``
holds the estimate within :data:`FACTOR` of these figures.
"""

from __future__ import annotations

from math import comb

from ..core.problem import Problem
from .count.joint import joint_start, meeting_levels
from .setup import Sides, sides
from .sweep import DICT_ENTRY_BYTES, Level, sweep

PROBE = 20_000
"""Positions (up to symmetry) a probed level must reach before its growth is read (about 0.2 s CPython)."""
FACTOR = 1.5
"""The estimate of positions stays within this factor of the measured runs named in the docstring."""
MICROSECONDS_PER_POSITION = 9.0
"""CPython CPU per stored position of ``count``: 157.2 s / 17.8 million on triangle7 in two sweeps, 95-109 s /
9.0 million in one (10.6-12.1 us, load 3-6), 78.9-94.0 s / 9.6 million on the English board (8.2-9.8 us)."""
BYTES_PER_POSITION = 75
"""Peak resident memory per stored position of ``count`` in CPython (max RSS): English 814 MB for 9.6 million
positions (85 bytes), triangle7 1,250 MB for 17.8 million (70 bytes, a count and its recount in one process),
744 MB for the 9.0 million of the count in one sweep alone (83 bytes)."""
HEAP_BYTES_PER_POSITION = 60
"""The same under Pyodide (32-bit pointers), the WebAssembly heap: English 669 MB (70 bytes a position),
triangle7 925 MB (52 bytes, count and recount; Node, 2026-11-23)."""
BASE_BYTES = 40_000_000
"""The interpreter, the program and its tables before the first level."""
BROWSER_FACTOR = 2.0
"""Pyodide (Chromium worker or Node) against CPython on the same machine: English count 140 s against 79 s,
18-move proof 202 s against 97 s (2.0-2.1x when measured side by side)."""
KIND_FACTOR = {"count": 1.0, "levels": 2.0, "fewest": 3.5}
"""Time of the other analyses against ``count`` on the same problem, measured: English ``count --levels``
170 s against 94 s; ``fewest`` 548 s against 157 s on triangle7 (its winnable set is most of the reachable
one) but 101 s against 94 s on the English central game, so a fewest-move estimate is an upper figure."""


def position_classes(problem: Problem) -> int:
    """How many position classes the board has: ``2 ** rank`` of the single holes' class signatures (GF(2))."""
    board = problem.board
    rows = []
    for b in board.bits:
        sig = board.position_class(1 << b)
        rows.append(sum(bit << i for i, bit in enumerate(sig)))
    rank = 0
    while rows:  # Gaussian elimination over GF(2)
        pivot = max(rows)
        rows.remove(pivot)
        if not pivot:
            break
        rank += 1
        top = pivot.bit_length() - 1
        rows = [r ^ pivot if r >> top & 1 else r for r in rows]
    return 1 << rank


def _probe(s: Sides, forward: bool) -> tuple[dict[int, int], int, int]:
    """Positions per level (pegs -> count up to symmetry) of one side, until a level reaches :data:`PROBE`;
    the size of that side's symmetry group; and how many position classes its classes span (a forward
    sweep under symmetries that move the start holds the images of the start's class too)."""
    if forward:
        cd, sources, last = s.wide_codec, [s.start], s.last_pegs
    else:
        cd, sources, last = s.back_codec, list(s.backward), s.holes - s.first_pegs
    board = s.problem.board
    span = len({board.position_class(board.transform(p, board_g)) for p in sources for board_g in cd.group})
    sizes: dict[int, int] = {}
    for item in sweep(cd, sources, last, weights=False):
        if isinstance(item, Level):
            sizes[item.pegs] = len(item)
            if len(item) >= PROBE:
                break
    return sizes, len(cd.group), span


def _side(n: int, first: int, probe: tuple[dict[int, int], int, int], classes: int, last: int) -> dict[int, float]:
    """Estimated positions (up to symmetry) of each level of one side down to ``last`` pegs."""
    sizes, group, span = probe
    out: dict[int, float] = {pegs: float(v) for pegs, v in sizes.items()}
    low = min(sizes)
    j = first - low
    if sizes[low] < PROBE or j < 1:  # the sweep ended (or died out) within the probe: exact
        return out
    kappa = sizes[low] * group / comb(n, j - 1)
    for pegs in range(low - 1, last - 1, -1):
        j = first - pegs
        out[pegs] = max(1.0, min(kappa * comb(n, j - 1), comb(n, pegs) * span / classes) / group)
    return out


def estimate_positions(problem: Problem) -> dict:
    """``{"positions", "meet", "held"}``: positions the count will store up to symmetry, the level where it
    meets, and the memory it will say it holds at its peak (the ceiling is checked against that: the
    largest level's dict being built plus the two meeting levels' arrays, :mod:`pyapp.exact.sweep`)."""
    s = sides(problem)
    n = s.holes
    classes = position_classes(problem)
    if not s.complement_problem and joint_start(s) is not None:  # the backward sweep carries both sides
        m, low = meeting_levels(s)
        backward = _side(n, n - s.last_pegs, _probe(s, False), classes, min(m, low))
        levels = [v for p, v in backward.items() if p >= min(m, low)]
        # the last level's dict, and the level above with its packed weights (a key and a Python int each)
        held = DICT_ENTRY_BYTES * max(levels) + 48 * backward.get(min(m, low) + 1, 0.0)
        return {"positions": round(sum(levels)), "meet": m, "held": round(held)}
    fprobe = _probe(s, True)
    if s.complement_problem:  # one sweep to the middle gives both halves
        meet = s.meet()
        last = min(meet, n - meet)
        forward = _side(n, s.first_pegs, fprobe, classes, last)
        levels = [v for p, v in forward.items() if p >= last]
        held = DICT_ENTRY_BYTES * max(levels) + 16 * (forward[last] + forward.get(n - last, 0.0))
        return {"positions": round(sum(levels)), "meet": meet, "held": round(held)}
    bprobe = _probe(s, False)
    first_back = n - s.last_pegs
    forward = _side(n, s.first_pegs, fprobe, classes, s.last_pegs)
    backward = _side(n, first_back, bprobe, classes, n - s.first_pegs)
    # the count extends the side with the smaller frontier until the forward side is one level above the
    # backward one's (count._meet; the last step takes the cheaper side), then sums over the jumps between them
    gap = 1 if s.first_pegs > s.last_pegs else 0
    f, b = s.first_pegs, first_back
    while f != n - b + gap and f > s.last_pegs and b > n - s.first_pegs:
        if gap and f + b == n + 2:
            growth = forward.get(f, 0.0) / max(1.0, forward.get(f + 1, 0.0)) if f < s.first_pegs else 1.0
            if backward.get(b, 0.0) <= growth * forward.get(f, 0.0):
                b -= 1
            else:
                f -= 1
        elif forward.get(f, 0.0) <= backward.get(b, 0.0):
            f -= 1
        else:
            b -= 1
    levels = [v for p, v in forward.items() if p >= f] + [v for p, v in backward.items() if p >= b]
    arrays = 16 * (forward[f] + backward[b])
    held = max(DICT_ENTRY_BYTES * max(levels), DICT_ENTRY_BYTES * backward[b] * gap) + arrays
    return {"positions": round(sum(levels)), "meet": f - gap, "held": round(held)}


def estimate(problem: Problem, kind: str = "count") -> dict:
    """The page's estimate before an exact analysis ``kind`` (count, levels, fewest): positions, CPython
    seconds, seconds in the browser, peak memory in CPython and in the browser's heap, and the memory the
    count will say it holds (``held_mb``, what a memory ceiling is checked against), in MB."""
    s = sides(problem)
    guess = estimate_positions(problem)
    positions = guess["positions"]
    seconds = positions * MICROSECONDS_PER_POSITION / 1e6 * KIND_FACTOR.get(kind, 1.0)
    return {"holes": s.holes, "symmetries": len(s.codec.group), "positions": positions, "meet": guess["meet"],
            "seconds": round(seconds, 1), "browser_seconds": round(seconds * BROWSER_FACTOR, 1),
            "memory_mb": round((BASE_BYTES + positions * BYTES_PER_POSITION) / 1e6),
            "browser_memory_mb": round((BASE_BYTES + positions * HEAP_BYTES_PER_POSITION) / 1e6),
            "held_mb": round(guess["held"] / 1e6),
            "big": seconds * BROWSER_FACTOR > 10}
