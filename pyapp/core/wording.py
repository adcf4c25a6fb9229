"""English wording shared by every message: counts with the right noun form ("1 peg", "2 pegs").

>>> plural(1, "peg"), plural(2, "peg"), plural(0, "move"), plural(1, "match", "matches")
('1 peg', '2 pegs', '0 moves', '1 match')
"""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` followed by ``noun``, or by ``many`` (default ``noun + "s"``) unless count is 1."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"
