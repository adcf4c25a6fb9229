"""How many solutions are left: the number of jump sequences from each winnable position to the goal.

The survival funnel of a game (after Machshevet's): after every move, how many complete solutions remain,
and through each legal jump how many go.  Over a computed winnable set this is one dynamic programme,
level by level from the goal up::

    ways(goal position) = 1
    ways(x) = sum over the legal jumps j from x of ways(x after j)

where a child outside the winnable set contributes 0 (a position reachable from the start that is not in
the set cannot reach the goal).  The set is kept up to the goal's symmetries, under which ``ways`` is
invariant, so each class is computed once and a position is looked up by its canonical key.  Each jump
counts on its own (two jumps to symmetric positions are two sequences), so the start's value is the
number of solutions of the game: 40,861,647,040,079,968 for the English central game, equal to the
meeting sweeps' count (:mod:`pyapp.exact.count`; ``tests/test_ways.py`` checks the two agree on the
triangles, the bench row ``funnel-english-total`` checks English's against the published figure).
Measured: about 30-40 CPU s for English's 1,679,072 classes in CPython, so ``build.py`` computes it with
the set and ships it (:mod:`pyapp.exact.store`).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Generator

from ..core.budget import Budget
from ..core.codec.keyset import KeyCodec
from .sweep import Progress
from .winnable import Winnable

MAX_WAYS = 2**64 - 1
"""Counts are stored in ``array('Q')`` slots (every shipped game's counts fit: English's largest is below 2**56)."""


def ways_steps(win: Winnable, budget: Budget | None = None) -> Generator[Progress, None, dict[int, array]]:
    """``ways`` per level of ``win`` (aligned with ``win.levels[pegs]``), yielding a progress report per level;
    a count above :data:`MAX_WAYS` raises :class:`OverflowError`."""
    budget = budget or Budget()
    problem = win.problem
    board, goal = problem.board, problem.goal
    pos_of = KeyCodec(board).pos
    canon = win.codec.canon
    # (pegs needed, hole needed empty, the three holes) of every jump, both ways along each line
    jumps = [(1 << src | 1 << over, 1 << dst, 1 << a | 1 << over | 1 << c)
             for a, over, c in board.lines for src, dst in ((a, c), (c, a))]
    pegs_levels = sorted(win.levels)
    out: dict[int, array] = {}
    for pegs in pegs_levels:
        keys = win.levels[pegs]
        below, below_ways = win.levels.get(pegs - 1), out.get(pegs - 1)
        level = array("Q")
        for key in keys:
            pos = pos_of(key)
            if goal.reached(pos):
                level.append(1)
                continue
            total = 0
            if below is not None and below_ways is not None:
                for need, empty, mask in jumps:
                    if pos & need == need and not pos & empty:
                        child = canon(pos ^ mask)
                        i = bisect_left(below, child)
                        if i < len(below) and below[i] == child:
                            total += below_ways[i]
            level.append(total)  # OverflowError past 2**64 - 1
        out[pegs] = level
        budget.check()
        yield Progress("solutions left", pegs, len(keys), len(keys), len(keys), 0, 0, budget.elapsed())
    return out


def ways_of(win: Winnable, ways: dict[int, array], pos: int) -> int:
    """The number of jump sequences from ``pos`` to the goal (0 when it cannot win)."""
    keys = win.levels.get(pos.bit_count())
    if keys is None:
        return 0
    key = win.codec.canon(pos)
    i = bisect_left(keys, key)
    return ways[pos.bit_count()][i] if i < len(keys) and keys[i] == key else 0
