"""The never-lose answer: the position's status and every legal jump filed (kept apart so that both the search
(:mod:`.neverlose`) and the exact answers (:mod:`.neverlose_exact`) build it)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.moves import Jump
from .hint import Hint

VERDICT = "verdict:"
"""The note of the progress report that carries the position's own status, before the jumps are filed."""


@dataclass
class NeverLose:
    """The answer: the position's status and every legal jump filed as good, bad or unknown."""

    status: str
    """``winnable``, ``lost``, ``unknown``, or ``over`` (no jump left: the game has ended)."""
    reason: str | None = None
    """Why the position is lost, or why it is unknown."""
    line: list[Jump] = field(default_factory=list)
    """When winnable: jumps from the position that reach the goal."""
    jumps: Hint = field(default_factory=Hint)
    """The legal jumps filed by :func:`pyapp.analysis.hint.hint`'s rules (empty when lost)."""
    nodes: int = 0
    seconds: float = 0.0
    solutions: int | None = None
    """The survival funnel, where known: complete jump sequences to the goal from the position..."""
    through: dict[Jump, int] = field(default_factory=dict)
    """... through each legal jump (0 for a losing one)..."""
    history: list[int | None] = field(default_factory=list)
    """... and from each position of the game so far (the start first, this position last)."""
    answered: str | None = None
    """What answered an exact verdict (:meth:`pyapp.exact.winnable.Winnable.answered`), for the page's note."""
