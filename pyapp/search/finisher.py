"""What a search asks when it can hand the end of a line to an exact oracle (the goal's endgame table, which lives in
:mod:`pyapp.exact`, a layer above this one, so the caller passes it in): :mod:`.tablebeam` asks it."""

from __future__ import annotations

from collections.abc import Generator
from typing import Protocol


class Finisher(Protocol):
    """The goal's endgame table, as the search asks it."""

    @property
    def pegs(self) -> int:
        """The level a table beam stops at: positions with this many pegs are cheap to settle."""
        ...

    def finish_steps(self, pos: int) -> Generator[None, None, list[int] | None]:
        """The path of positions from ``pos`` to a goal position when the table proves ``pos`` can reach the goal,
        else None (lost, or not settled within its share); pauses between chunks of its search."""
        ...
