"""scripts/endgame_tables.py: on a short English game both modes give the same verdicts, the table answers every
position it covers and the search none, and its record renders as BENCHMARKS.md's section (the sweep's Pyodide
timing is left out here: it needs Node and is measured when the record is made)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import endgame_tables as script  # noqa: E402

from pyapp.bench.report_sets import endgame as render  # noqa: E402
from pyapp.exact import endgame, endgame_files  # noqa: E402


def test_both_modes_agree_and_the_table_answers_what_it_covers(monkeypatch):
    monkeypatch.setattr(script, "pyodide_build", lambda spec: None)
    monkeypatch.setattr(endgame, "MIN_HOLES", endgame.MIN_HOLES)  # the script switches it per mode: restored after
    # the shipped table one level deeper than the page's own (13 pegs, 1.4 million classes; 2.5 million went two
    # levels deeper, to 14 pegs, for three times the sweep)
    monkeypatch.setattr(endgame_files, "SHIPPED_CLASSES", 1_500_000)
    # two games from 14 pegs down (12 positions, looked up at 12 pegs and below, searched in the table above): the
    # same comparison as from 16 pegs (3 games there: 9 positions, 11 CPU s more of never-lose without the table)
    record = script.measure("english:d1:d1", 2, 14, shipped=True)
    assert record["disagreements"] == 0 and record["lookup_pegs"] == 12
    assert record["ceiling"] == 12 + endgame.SEARCH_LEVELS
    without, with_table = record["without"], record["with"]
    assert without["positions"] == with_table["positions"] >= 6
    assert without["by_table"] == 0 and with_table["by_table"] == with_table["positions"]
    assert without["unknown"] == with_table["unknown"] == 0
    deeper = record["shipped"]
    assert deeper["lookup_pegs"] > 12 and deeper["disagreements"] == 0 and deeper["file_bytes"] > 0
    assert deeper["summary"]["positions"] == without["positions"] and deeper["summary"]["unknown"] == 0
    text = render({"python": "3.11", "date": "today", "command": "python scripts/endgame_tables.py english:d1:d1",
                   "games": [record]})
    assert f"| english d1 -> d1 | 12 pegs | {13 + endgame.SEARCH_LEVELS} pegs |" in text and "| 0 |" in text
    assert f"| english d1 -> d1 | {deeper['lookup_pegs']} pegs |" in text and "the site ships" in text
