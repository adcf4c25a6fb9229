"""Pagoda cuts for the level search, learned by linear programming from the positions of its levels.

The board's known pagodas (parity, the learned library) rarely prune a level search: their
thresholds are what a single goal peg is worth.  Positions of a particular problem are
often ruled out by *other* pagodas, found for that position by the linear program of
:func:`pyapp.proofs.pagoda.find_pagoda_steps`; measured on the random bench positions (seed 9)
with an exact LP, 90-100 % of the backward side's positions (those that reach the goal
but not from the start) and most of the forward side's are ruled out by some pagoda, and
one pagoda rules out many positions at once.

:class:`Learner` samples a new level (up to :data:`POOL` positions spread over the
sorted keys), asks the linear program about each sample no pagoda learned so far rules
out, keeps every pagoda it finds (checked exactly on every jump of the board, with a
bounded weight sum so the packed 16-bit lanes cannot overflow), adds them to the side's
pruning (:meth:`pyapp.search.levelside.Side.add`) and drops the level's positions they
rule out.  A pagoda is a proof on its own, so a dropped position is provably unable to
reach the side's finishes and every answer stays exact.

The effort is counted in linear programmes, not seconds, so the search stays reproducible: a
search may solve :data:`FREE_PROGRAMS` plus :data:`PROGRAMS_PER_NODE` per position expanded,
one level stops learning after :data:`MISSES` samples without a pagoda, and a side whose
programmes rarely find one (:data:`POOR`) stops learning.  Each programme is one call to HiGHS
(:mod:`pyapp.proofs.lp`); the learner pauses between programmes once a slice is spent.  A back end
that is missing or fails answers no programme: the search goes on without learned cuts.
"""

from __future__ import annotations

import time
from collections.abc import Generator

from ..core.codec.keyset import KeySet
from ..proofs.lp import Solution
from ..proofs.pagoda import Pagoda, find_pagoda_steps, make_pagoda
from .levelside import LevelStats, Side

POOL = 64
"""Positions sampled from a new level."""

GOAL_POOL = 256
"""Positions sampled from the goal set (the backward side's first level): every one, up to this many."""

MISSES = 6
"""Samples without a pagoda after which a level stops learning."""

FREE_PROGRAMS = 60
"""Linear programmes a search may solve before any position is expanded (about 0.1 s on German in CPython)."""

PROGRAMS_PER_NODE = 0.002
"""Linear programmes allowed per position expanded: one per 500.  A programme on German costs about 2 ms
in CPython with HiGHS (about 200 expansions at ~10 us), so learning takes at most about half as long as
expanding.  (The hand-written simplex was allowed 3000 pivots free and 0.1 a node; at the 34-39 pivots a
programme it took (medians on the positions of scripts/lp_timing.py) that was about 80 programmes free and
one per 400 positions: this allowance is a little smaller, each programme about 3x cheaper.)  It pays: the
random German position #2 of the bench, 2 pegs ruled out where the forward search alone lists 1.8 M
positions."""

POOR = 12
"""A side whose first this-many linear programs found pagodas for under a quarter of them learns no more
(measured: toward the 75 two-peg goals of a random German position, the forward side found 2 in 28)."""

MAX_FINISHES = 100
"""A side with more finishes learns nothing: each finish is a row of the linear program (a goal set of all
3-peg positions has ~900), and one pagoda must rule out all of them at once."""

MAX_WEIGHT = 4096
"""Largest sum of absolute weights of a learned pagoda (the packed lanes hold values up to 8192)."""


class Learner:
    """Learns pagodas for the sides of one level search (see the module docstring)."""

    def __init__(self, slice_seconds: float = 0.05) -> None:
        self.programs = 0
        self.iterations = 0
        self.unavailable = ""
        """Why no programme can be solved (the back end's message), once one said so: learning stops."""
        self.learned = 0
        self.slice_seconds = slice_seconds
        self.asked: dict[str, int] = {}
        self.found: dict[str, int] = {}

    def allowance(self, st: LevelStats) -> float:
        """Programmes still allowed."""
        return FREE_PROGRAMS + PROGRAMS_PER_NODE * st.nodes - self.programs

    def learn(self, side: Side, level: KeySet, st: LevelStats,
              pool: int | None = None) -> Generator[None, None, KeySet]:
        """Learn pagodas from a sample of ``level`` for ``side``; return the level less what they rule out."""
        if not level or not 0 < len(side.finishes) <= MAX_FINISHES or self.allowance(st) <= 0 or self.unavailable:
            return level
        asked = self.asked.get(side.name, 0)
        if asked >= POOR and 4 * self.found.get(side.name, 0) < asked:
            return level
        board, codec = side.board, side.codec
        pool = POOL if pool is None else pool
        n = len(level)
        picks = sorted({i * n // pool for i in range(pool)}) if n > pool else range(n)
        samples = [codec.pos(level.keys[i]) for i in picks]
        found: list[Pagoda] = []
        misses = 0
        perf = time.perf_counter
        next_yield = perf() + self.slice_seconds
        for pos in samples:
            if misses >= MISSES or self.allowance(st) <= 0:
                break
            if any(p.value(pos) < side.threshold(p) for p in found):
                continue
            solutions: list[Solution] = []
            gen = find_pagoda_steps(board, pos, side.finishes, solutions=solutions)
            try:
                while True:
                    next(gen)
                    if perf() >= next_yield:
                        yield
                        next_yield = perf() + self.slice_seconds
            except StopIteration as stop:
                weights = stop.value
            self.programs += 1
            self.iterations += sum(s.iterations for s in solutions)
            if solutions and solutions[0].status == "unavailable":
                self.unavailable = solutions[0].message
                break  # no back end: nothing more to learn (the search itself goes on)
            pagoda = self._pagoda(side, pos, weights)
            self.asked[side.name] = self.asked.get(side.name, 0) + 1
            self.found[side.name] = self.found.get(side.name, 0) + (pagoda is not None)
            if pagoda is None:
                misses += 1
            else:
                found.append(pagoda)
        if not found:
            return level
        side.add(found)
        st.learned = self.learned
        kept = yield from side.filter_steps(level)
        st.pruned += n - len(kept)
        return kept

    def _pagoda(self, side: Side, pos: int, weights: dict[int, int] | None) -> Pagoda | None:
        if weights is None or sum(abs(w) for w in weights.values()) > MAX_WEIGHT:
            return None
        try:
            p = make_pagoda(side.board, f"pagoda learned by linear programming #{self.learned + 1}", weights)
        except ValueError:  # pragma: no cover - find_pagoda_steps checks every jump already
            return None
        if p.value(pos) >= side.threshold(p):
            return None
        self.learned += 1
        return p
