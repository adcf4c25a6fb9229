"""The data of :mod:`.lp`: a programme (:class:`Model`), a back end's answer (:class:`Solution`) and what
a back end provides (:class:`Backend`), apart so that :mod:`.lp` and :mod:`.lp_backends` both read them
without importing each other."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

Sense = Literal["max", "min"]
Status = Literal["optimal", "infeasible", "unbounded", "time limit", "node limit", "unavailable", "error", "other"]

INF = math.inf
LP_SECONDS = 10.0
"""Default time limit of one programme: the pagoda programmes take milliseconds; a time-out only loses
that programme's proof."""


@dataclass
class Model:
    """A linear or mixed-integer programme: ``sense`` ``cost . x`` subject to ``row_lower <= A x <= row_upper``
    and ``lower <= x <= upper`` (None: unbounded), some columns integer, solved within ``time_limit`` seconds
    and HiGHS's ``options``.  Rows are sparse (``starts``,
    ``index``, ``value``: row ``i`` is ``index[starts[i]:starts[i+1]]``)."""

    sense: Sense = "max"
    time_limit: float = LP_SECONDS
    cost: list[float] = field(default_factory=list)
    lower: list[float] = field(default_factory=list)
    upper: list[float] = field(default_factory=list)
    integer: list[bool] = field(default_factory=list)
    starts: list[int] = field(default_factory=lambda: [0])
    index: list[int] = field(default_factory=list)
    value: list[float] = field(default_factory=list)
    row_lower: list[float] = field(default_factory=list)
    row_upper: list[float] = field(default_factory=list)
    options: dict[str, bool | int | float | str] = field(default_factory=dict)
    """Further HiGHS options, by HiGHS's own names, passed as they are by both back ends (e.g.
    ``mip_max_nodes``, ``mip_heuristic_effort``)."""
    cpu_limit: float | None = None
    """A limit on this process's CPU seconds for the solve, beside ``time_limit`` (wall seconds): so that a
    budget read on the CPU clock gets the same work on a loaded machine.  The highspy back end stops HiGHS
    through its interrupt callbacks (answered ``time limit``), which HiGHS calls in its simplex and its
    branch and bound but not inside the sub-MIPs of its heuristics, so a run may pass the limit by one of those
    (``time_limit`` still holds); the WebAssembly one has the wall clock only."""

    @property
    def columns(self) -> int:
        return len(self.cost)

    @property
    def rows(self) -> int:
        return len(self.row_lower)

    @property
    def is_mip(self) -> bool:
        return any(self.integer)

    def add_var(self, lower: float | None = 0.0, upper: float | None = None, *, cost: float = 0.0,
                integer: bool = False) -> int:
        """A new column (its index)."""
        self.cost.append(float(cost))
        self.lower.append(-INF if lower is None else float(lower))
        self.upper.append(INF if upper is None else float(upper))
        self.integer.append(integer)
        return len(self.cost) - 1

    def add_row(self, coefficients: Mapping[int, float], lower: float | None = None,
                upper: float | None = None) -> int:
        """A new row ``lower <= sum(c * x[j]) <= upper`` (None: no bound on that side); its index."""
        if lower is None and upper is None:
            raise ValueError("a row needs a lower or an upper bound")
        columns = len(self.cost)
        index, value = self.index, self.value
        for j, c in coefficients.items():
            if c:
                if not 0 <= j < columns:
                    raise ValueError(f"row refers to column {j}, not in the model")
                index.append(j)
                value.append(c)
        self.starts.append(len(index))
        self.row_lower.append(-INF if lower is None else float(lower))
        self.row_upper.append(INF if upper is None else float(upper))
        return len(self.row_lower) - 1

    def copy(self) -> Model:
        """An independent copy (to extend a shared template without changing it)."""
        return Model(self.sense, self.time_limit, self.cost[:], self.lower[:], self.upper[:], self.integer[:],
                     self.starts[:], self.index[:], self.value[:], self.row_lower[:], self.row_upper[:],
                     dict(self.options), self.cpu_limit)

    def as_json(self) -> dict:
        """Plain JSON (infinite bounds as None) for the WebAssembly back end."""
        def finite(xs: list[float]) -> list[float | None]:
            return [None if math.isinf(v) else v for v in xs]

        return {"sense": self.sense, "time_limit": self.time_limit, "cost": self.cost,
                "lower": finite(self.lower), "upper": finite(self.upper),
                "integer": [1 if i else 0 for i in self.integer] if self.is_mip else None,
                "starts": self.starts, "index": self.index, "value": self.value,
                "row_lower": finite(self.row_lower), "row_upper": finite(self.row_upper), "options": self.options}


@dataclass(frozen=True)
class Solution:
    """A back end's answer.  ``x`` is the optimal point (or, on a time limit, the best integer point
    found, if any); ``iterations`` the simplex iterations and ``nodes`` the branch-and-bound nodes
    HiGHS reports; ``gap`` the relative MIP gap on a time limit; ``message`` why there is no answer."""

    status: Status
    x: tuple[float, ...] | None = None
    objective: float | None = None
    iterations: int = 0
    nodes: int = 0
    seconds: float = 0.0
    gap: float | None = None
    backend: str = ""
    message: str = ""

    @property
    def optimal(self) -> bool:
        return self.status == "optimal" and self.x is not None


class Backend:
    """What a back end provides (:mod:`.lp_backends`): a name, whether it can solve now, and ``run``."""

    name = "none"

    def state(self) -> str:
        """``ready``, ``loading`` or ``failed: why``."""
        return "ready"

    def run(self, model: Model) -> Solution:  # pragma: no cover - every back end overrides it
        raise NotImplementedError
