"""What every phase of one search shares, and what it returns: :class:`Run`, :class:`Outcome`, the :class:`Phase`
interface and the phases' seeds.

Its own module so that a phase defined beside :mod:`pyapp.search.phases` (the beam to the goal's endgame table,
:mod:`pyapp.search.tablebeam`; the integer programme; the complete searches) needs only these, and
:func:`~pyapp.search.phases.portfolio` can place it without an import cycle.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Literal, Protocol

from ..core.budget import Budget
from .compiled import Tables
from .dfs import NO_LIMIT, Stats
from .finisher import Finisher
from .table import BoundedTable


@dataclass(frozen=True)
class Outcome:
    """How the portfolio ended."""

    status: Literal["found", "exhausted", "pagoda", "proof", "budget", "ended"]
    """``found``: ``path`` leads to a goal position; ``exhausted``: a complete search saw every
    position without one (a proof); ``pagoda``: ``method`` is a pagoda proof; ``proof``: ``method`` is
    another proof's reason, ``engine`` what gave it; ``budget``: spent; ``ended``: a portfolio without a complete
    search (:class:`~pyapp.search.phases.Ended`) ran out of phases."""
    path: list[int] = field(default_factory=list)
    method: str = ""
    """The phase that found the path, or the pagoda proof's reason."""
    engine: str = ""
    """For ``proof``: the answer's method (e.g. ``integer programming (HiGHS ...)``)."""


@dataclass
class Run:
    """What the phases of one search share."""

    tables: Tables
    table: BoundedTable
    st: Stats
    budget: Budget
    start: int
    final_pegs: int | None
    """Pegs in a goal position (None: as few as possible, for the fewest-pegs phase)."""
    target: int | None
    """The one goal position, when there is one."""
    finishes: list[int]
    """The positions the pagoda proofs aim at (:meth:`pyapp.core.goal.Goal.pagoda_targets`)."""
    seed: int | None
    node_cap: int = NO_LIMIT
    """The node count at which the budget is spent (``st.nodes`` counts from 0 in each search)."""
    charged: int = 0
    """``st.nodes`` already charged to the budget."""
    finisher: Finisher | None = None
    """The goal's endgame table, when the caller has one (:class:`~pyapp.search.tablebeam.TableBeam` asks it)."""

    def over(self) -> bool:
        """Charge the nodes spent since the last call to the budget; True when it is cancelled or out
        of time, or when a search paused at its node limit and that is the budget's :attr:`node_cap`
        (the searches test their limits at fixed points, so node budgets give reproducible answers)."""
        self.budget.spend(self.st.nodes - self.charged)
        self.charged = self.st.nodes
        if self.budget.cancelled or self.budget.out_of_time():
            return True
        return self.st.at_limit and self.st.nodes >= self.node_cap


class Phase(Protocol):
    """One step of the portfolio."""

    @property
    def name(self) -> str:
        """What the phase is (for reports)."""
        ...

    def run(self, run: Run, number: int) -> Generator[None, None, Outcome | None]:
        """Search (``number`` is the phase's place in the list: it seeds its tie-breaks)."""
        ...


def derive_seed(seed: int | None, number: int) -> int:
    """The tie-break seed of phase ``number``: a fixed function of the user's seed."""
    return (0 if seed is None else seed + 1) * 1_000_003 + number
