"""A game's winnable set from some level up as one bit per reachable position, the goal's endgame table below.

:class:`~.overtable.OverTable` ships the winnable positions of its held levels as keys; on asymmetric d5 -> d5
from 24 pegs up they would be tens of millions, several times what a phone should download and hundreds of MB once
decoded.  But a never-lose question is only ever asked about a position reached in play, so reachable from the
game's start (:mod:`pyapp.analysis.neverlose_exact`): the set need not say *which* positions it holds, only, for
each reachable one, whether it can still win.  :class:`BitsOverTable` holds, per level from its floor up, a
:class:`~.retrieval.BitRetrieval` over the level's reachable classes whose bit is "can still win" (about 1.23 bits
a reachable class, read in place, no keys decoded), and answers every level under the floor from the goal's
endgame table as :class:`~.overtable.OverTable` does.

Every answer about a reachable position is exact; a position the start does not reach gets an arbitrary bit, and
:func:`~pyapp.analysis.neverlose_exact.winnable_for` never asks about one (it uses a set only for a game whose
history starts at the set's start).  The files are :mod:`.bitfiles`'; :func:`over_bits` makes one from a whole set
and the reachable levels (``scripts/make_overtable.py --bits`` from its sweep and join).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field

from .overtable import OverTable
from .retrieval import BitRetrieval, build
from .winnable import Winnable


@dataclass
class BitsOverTable(OverTable):
    """The levels with at least :attr:`floor` pegs as bits over their reachable classes; the table below."""

    bits: dict[int, BitRetrieval] = field(default_factory=dict, repr=False)
    """Per held level, the bit "can still win" of each of its reachable classes."""
    wins: dict[int, int] = field(default_factory=dict)
    """Per held level, how many of its reachable classes can still win."""

    def lookup(self, pos: int) -> bool:
        held = self.bits.get(pos.bit_count())
        return held is not None and held.get(self.codec.canon(pos)) == 1

    def counts(self) -> dict[int, int]:
        return dict(sorted(self.wins.items(), reverse=True))

    def __len__(self) -> int:
        return sum(self.wins.values())

    @property
    def reachable_classes(self) -> int:
        """Reachable classes the bits speak for (every held level's)."""
        return sum(held.size for held in self.bits.values())

    @property
    def nbytes(self) -> int:
        return sum(len(held.bits) for held in self.bits.values())

    @property
    def held(self) -> str:
        return f"from {self.floor} pegs up, one bit per position the start reaches"

    def why_not(self, pos: int) -> str:
        if pos.bit_count() >= self.floor:
            return (f"the game's exact set marks it lost: {len(self):,} of the {self.reachable_classes:,} positions "
                    f"with at least {self.floor} pegs that the start reaches can still win")
        return self.table(pos).why_not(pos)


def bits_of_level(reach: array, wins: array) -> BitRetrieval:
    """The bits of one level: ``reach`` its reachable classes, ``wins`` those that can still win (both sorted
    canonical keys, ``wins`` within ``reach``; a :class:`ValueError` otherwise)."""
    flags = bytearray(len(reach))
    i = 0
    for key in wins:
        while i < len(reach) and reach[i] < key:
            i += 1
        if i == len(reach) or reach[i] != key:
            raise ValueError(f"a winnable class {key} that is not among the level's reachable ones")
        flags[i] = 1
    return build(reach, flags.__getitem__)


def over_bits(win: Winnable, reachable: dict[int, array] | Iterator[tuple[int, array]], floor: int) -> BitsOverTable:
    """The levels of the winnable set ``win`` from ``floor`` pegs up as bits over ``reachable`` (pegs -> the
    sorted reachable classes of that level, or such pairs one at a time, so a caller can load one level after
    another); every level from the start's pegs down to ``floor`` must be given."""
    out = BitsOverTable(win.problem, win.codec, floor=floor)
    for pegs, reach in (reachable.items() if isinstance(reachable, dict) else reachable):
        if pegs >= floor:
            wins = win.levels.get(pegs, array("Q"))
            out.bits[pegs] = bits_of_level(reach, wins)
            out.wins[pegs] = len(wins)
    missing = set(range(floor, win.problem.start.bit_count() + 1)) - set(out.bits)
    if missing:
        raise ValueError(f"no reachable classes given for the levels {sorted(missing)}")
    return out
