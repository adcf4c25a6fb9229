"""``scripts/neverlose_shipped.py`` (never-lose over seeded games of a game shipped with an exact set, as the page's
engine answers them): every answer comes from the set with no unknown verdict, the checks run (the whole set where
this machine holds it, ``solve`` on a sample), and a game it does not ship is refused with a message."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import neverlose_shipped  # noqa: E402


def test_triangle5_games_are_answered_from_the_shipped_set_and_checked():
    row = neverlose_shipped.run_game("triangle5:1:any", games=3, seed=5, sample=6)
    assert row["positions"] >= 3 and row["methods"] == {"exact": row["positions"]}
    assert row["unknown_jumps"] == 0 and row["disagreements"] == []
    assert row["shipped_bytes"] > 0 and row["p95_ms"] >= row["median_ms"] > 0
    assert "solve on" in row["checked_against"]


def test_a_game_without_a_shipped_set_is_refused():
    with pytest.raises(SystemExit, match="not a game shipped with a winnable set"):
        neverlose_shipped.run_game("german:e5:e5", games=1, seed=1, sample=0)
