"""A beam that stops where the goal's endgame table can answer, and asks it.

On the big boards (German, Diamond 41, asymmetric, French) a position of 30-40 pegs is searched for a line to the
goal by beams that must also find the last ten jumps.  Those are where a beam fails: it keeps the positions its
score likes best, and by 15-20 pegs almost none of them can still reach the goal (measured on German e5 -> e5: of a
1,024-wide beam from a winnable 39-peg position, 3 positions at 17 pegs could, 0 at 14).  The goal's endgame table
(:mod:`pyapp.exact.endgame`) knows exactly which positions of few pegs can reach the goal, and settles one a few
pegs above its held levels in a few thousand classes.  So :class:`TableBeam` beams only down to
:attr:`~.finisher.Finisher.pegs` pegs and asks the table about the level's best positions in order: the first it proves
winnable gives the rest of the line, exact.

Measured (CPython, every jump above the table's ceiling of 6-10 positions each of the seeded games' positions a
never-lose run left with unknown verdicts, level at the table's held levels + 3, the first 64 positions asked): German
e5 -> e5, 70 jumps: widths 128, 512, 2048 one after the other found 43 winnable in 65 CPU s (the solver's whole
portfolio on 1 CPU s each: 15, in 61 s); Diamond 41 d2 -> one peg, 138 jumps: 40 in 115 s (the portfolio: 23 in
83 s); asymmetric d5 -> d5, 123 jumps: 77 in 35 s, 69 of them at width 128.  In never-lose (10 CPU s a position,
the games of the benchmark's runs followed jump for jump, before and after side by side): German e5 -> e5, 42
positions of 3 games, jump verdicts left unknown 188 -> 159 (good 128 -> 157, losing 20 -> 20); Diamond 41 and
asymmetric unchanged (58 and 61 positions: 44 and 30 unknown before and after), where what is left unknown is losing
jumps, which this search cannot prove.

The table lives in :mod:`pyapp.exact` (a layer above this one), so the caller hands it in as a
:class:`~.finisher.Finisher` (:func:`pyapp.analysis.proven.decide_steps` does, when the goal's table is built).
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

from .beam import beam_levels
from .compiled import reseed
from .runstate import Outcome, Run, derive_seed

ASKED = 64
"""How many of the level's best positions are asked (measured: the winnable one found was the first in most jumps,
past the 55th in none at widths 128-512)."""
WIDTHS = (128, 512)
"""The widths of the table beams in a portfolio, each with its own tie-breaks (:func:`pyapp.search.phases.portfolio`
places them).  A third of
2,048 found 10 more of the 70 German jumps above, but cost about 1 CPU s on each jump it did not settle: in
never-lose (10 CPU s a position, 3 German games) the lost positions' losing jumps it took that time from went from
20 proved to 9."""
METHOD = "beam search to the goal's endgame table"
"""The method of an answer found this way."""


@dataclass(frozen=True)
class TableBeam:
    """A beam of ``width`` down to the finisher's level, whose best positions the finisher is asked about."""

    width: int
    name: str = "beam to the endgame table"

    def run(self, run: Run, number: int) -> Generator[None, None, Outcome | None]:
        finisher = run.finisher
        if finisher is None or run.final_pegs is None or run.start.bit_count() <= finisher.pegs:
            return None
        reseed(run.tables, derive_seed(run.seed, number))
        jumps = run.start.bit_count() - finisher.pegs
        level, back, depth = yield from beam_levels(run.tables, run.start, run.table, run.st, self.width, jumps,
                                                    stop_at=run.node_cap)
        if depth < jumps:
            return None
        for pos, _, _ in level[:ASKED]:
            if pos in run.table:
                continue
            tail = yield from finisher.finish_steps(pos)
            if tail is not None:
                return Outcome("found", back(pos) + tail[1:], METHOD)
        return None

