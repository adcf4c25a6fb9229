"""The page's whole-board table (:mod:`pyapp.web.table`, the worker's ``table`` and ``table_info``)."""

from __future__ import annotations

import json

import pytest

from pyapp.analysis.table import Cell, Table, table_steps
from pyapp.core.budget import drive
from pyapp.core.catalogue import get_board
from pyapp.core.game import replay
from pyapp.web import api as webapi
from pyapp.web import table as webtable


def run_table(board_id: str, problem_seconds: float = 10, **more) -> dict:
    job = webapi.start("table", json.dumps({"board": board_id, "problem_seconds": problem_seconds, **more}))
    steps = [json.loads(job.step())]
    while not steps[-1]["done"]:
        steps.append(json.loads(job.step()))
    return {"steps": steps, "result": steps[-1]["result"]}


def test_every_hole_is_a_start_and_every_mapped_solution_replays():
    board = get_board("triangle5")
    result = run_table("triangle5")["result"]
    starts = result["starts"]
    assert sorted(starts, key=int) == list(board.names)
    for hole, entry in starts.items():
        f = entry["finishes"]
        assert set(f["possible"]) | set(f["impossible"]) | set(f["unknown"]) == set(board.names)
        for finish, moves in f["possible"].items():
            rep = replay(board, board.start(hole), moves)
            assert rep.valid and rep.final == 1 << board.hole(finish), (hole, finish, rep.error)


def test_mapped_starts_agree_with_solving_them_directly():
    """A start the table did not compute (mapped by symmetry) answers as when it is computed itself."""
    board = get_board("triangle5")
    starts = run_table("triangle5")["result"]["starts"]
    mapped = [h for h, e in starts.items() if e["computed"] != h]
    assert mapped  # triangle5 has 15 holes in 4 classes
    direct = drive(table_steps(board, starts=mapped))
    for c in direct.cells:
        f = starts[c.start]["finishes"]
        got = "solved" if c.finish in f["possible"] else "impossible" if c.finish in f["impossible"] else "unknown"
        assert got == c.status, (c.start, c.finish)


def test_verdicts_sum_up_each_start():
    """English: every single vacancy can finish on every hole its position class allows (J. D. Beasley,
    *The Ins and Outs of Peg Solitaire* (1985), ch. 5, as in test_table.py): all 33 starts 'all'."""
    result = run_table("english", 10)["result"]
    verdicts = {h: e["summary"]["verdict"] for h, e in result["starts"].items()}
    assert len(verdicts) == 33 and set(verdicts.values()) == {"all"}
    d4 = result["starts"]["d4"]
    assert set(d4["finishes"]["possible"]) == {"d1", "a4", "d4", "g4", "d7"}
    assert d4["summary"] == {"verdict": "all", "solved": 5, "impossible": 28, "unknown": 0, "allowed": 5,
                             "missing": 0}
    assert [g["verdict"] for g in d4["finishes"]["groups"]] == ["yes", "no"]  # 28 holes, one reason


def test_a_cancelled_table_says_what_was_not_computed():
    board = get_board("triangle5")
    full = drive(table_steps(board))
    part = Table(board.id, full.cells[:20], cancelled=True)  # the first start and part of the second
    starts = webtable.by_start(board, part)
    first, second = starts["1"], starts["2"]
    assert first["summary"]["verdict"] != "pending" and first["summary"]["missing"] == 0
    assert second["summary"]["verdict"] == "pending" and second["summary"]["missing"] == 10
    assert second["summary"]["unknown"] == 0  # not computed is not undecided
    assert list(second["finishes"]["unknown"].values()).count(webtable.NOT_COMPUTED) == 10
    assert starts["5"]["summary"]["missing"] == 15


def test_an_unknown_finish_says_how_far_its_search_got():
    board = get_board("triangle5")
    cells = drive(table_steps(board, starts=["1"])).cells
    cells[0] = Cell("1", cells[0].finish, "unknown", "budget spent", [], "search", 2.5, 123456)
    starts = webtable.by_start(board, Table(board.id, cells))
    assert starts["1"]["finishes"]["unknown"] == {cells[0].finish: "budget spent (stopped after 123,456 nodes, 2.5 s)"}
    assert starts["1"]["summary"]["verdict"] == "unknown" and starts["1"]["summary"]["unknown"] == 1


def test_progress_counts_problems_and_names_the_current_one():
    steps = run_table("triangle4")["steps"]
    progress = [s["progress"] for s in steps[:-1]]
    assert all(p["total"] == 30 for p in progress)
    done = [p["done"] for p in progress]
    assert done == sorted(done) and done[-1] == 30
    assert all(" -> " in p["problem"] for p in progress)
    # each finished start sends its class's starts at once: triangle4 has 3 classes (1, 2, 5)
    early = [p["starts"] for p in progress if "starts" in p]
    assert [sorted(s) for s in early] == [["1", "10", "7"], ["2", "3", "4", "6", "8", "9"], ["5"]]
    assert early[0]["1"] == steps[-1]["result"]["starts"]["1"]


def test_info_before_starting_and_the_code_version():
    info = json.loads(webapi.call("table_info", json.dumps({"board": "english", "problem_seconds": 25})))["ok"]
    assert info["starts"] == 7 and info["problems"] == 7 * 33 and info["holes"] == 33
    # the position class allows 5 finishes from d4 (and 4 or 5 from the others), the rest are settled at once
    assert 7 < info["searched"] < 7 * 33 and info["worst_seconds"] == info["searched"] * 25
    version = webtable.code_version()
    assert info["version"] == version and len(version) == 16 and int(version, 16) >= 0
    bad = json.loads(webapi.call("table_info", json.dumps({"board": "nosuch"})))
    assert "unknown board" in bad["error"]


def test_the_chromium_table_script_checks_every_answer():
    """scripts/table_chromium.py's summary (the BENCHMARKS.md columns) and its checks, on a table
    computed here: a solution that does not replay and a class-forbidden 'solved' are caught."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    from table_chromium import summarise

    table = run_table("triangle5")["result"]
    row = summarise("triangle5", table)
    assert (row["cells"], row["allowed"], row["solved"], row["impossible_beyond_class"]) == (60, 20, 14, 6)
    assert row["unknown"] == [] and row["wrong"] == [] and row["impossible_class"] == 40
    broken = json.loads(json.dumps(table))
    solved = next(c for c in broken["cells"] if c["status"] == "solved")
    solved["moves"] = solved["moves"][:-1]
    forbidden = next(c for c in broken["cells"] if c["status"] == "impossible" and "class" in c["reason"])
    forbidden["status"] = "unknown"
    assert len(summarise("triangle5", broken)["wrong"]) == 2


def _merge(args: dict) -> dict:
    return json.loads(webapi.call("table_merge", json.dumps(args)))


def test_a_table_computed_start_by_start_and_merged_is_the_whole_table():
    """The page's pool: one ``table`` request per start (``starts``), then ``table_merge`` of their cells."""
    whole = run_table("triangle5")["result"]
    info = json.loads(webapi.call("table_info", json.dumps({"board": "triangle5"})))["ok"]
    assert info["start_holes"] == ["1", "2", "4", "5"]
    shares = [run_table("triangle5", starts=[s])["result"] for s in reversed(info["start_holes"])]
    assert all({c["start"] for c in r["cells"]} == {s} for r, s in zip(shares, reversed(info["start_holes"])))
    # a share answers only its own class of starts (the merge maps the whole board once)
    for r, s in zip(shares, reversed(info["start_holes"])):
        assert r["starts"] == {h: e for h, e in whole["starts"].items() if e["computed"] == s}
    cells = [c for r in shares for c in r["cells"]]
    merged = _merge({"board": "triangle5", "problem_seconds": 10, "cells": cells, "cancelled": False, "seconds": 1.5})
    got = merged["ok"]
    assert got["counts"] == whole["counts"] and got["starts"] == whole["starts"] and got["seconds"] == 1.5
    assert [(c["start"], c["finish"], c["status"]) for c in got["cells"]] == \
        [(c["start"], c["finish"], c["status"]) for c in whole["cells"]]
    # a cancelled pool: the starts never run are not computed
    part = _merge({"board": "triangle5", "cells": shares[0]["cells"], "cancelled": True})["ok"]
    assert part["cancelled"] and part["starts"]["1"]["summary"]["missing"] == 15
    assert part["starts"]["5"]["summary"]["missing"] == 0


def test_a_share_that_does_not_stop_within_the_cancels_wait_still_answers_its_cells(monkeypatch):
    """Under load a step can outlast the cancel's wait (``CANCEL_SECONDS``): the job is closed, and its answer is
    then the cells it had finished, marked cancelled, which the merge takes (an answer without cells made the page's
    merge fail: "The whole-board table failed")."""
    from pyapp.web import job as webjob

    job = webapi.start("table", json.dumps({"board": "triangle5", "problem_seconds": 10, "starts": ["1"]}))
    while not (step := json.loads(job.step()))["done"] and step["progress"]["done"] < 5:
        pass
    monkeypatch.setattr(webjob, "CANCEL_SECONDS", 0.0)  # no step more after the cancel
    got = json.loads(job.cancel())["result"]
    assert got["cancelled"] and 4 <= len(got["cells"]) < 15 and {c["start"] for c in got["cells"]} == {"1"}
    merged = _merge({"board": "triangle5", "cells": got["cells"], "cancelled": True})["ok"]
    assert merged["cancelled"] and merged["starts"]["1"]["summary"]["missing"] == 15 - len(got["cells"])


@pytest.mark.parametrize("change,message", [
    ({"starts": ["3"]}, "'starts' must name starts the table computes (1, 2, 4, 5), not 3"),
    ({"starts": []}, "'starts' must name starts the table computes"),
    ({"starts": "1"}, "'starts' must be a list of names"),
])
def test_a_share_names_computed_starts(change, message):
    job = webapi.start("table", json.dumps({"board": "triangle5", **change}))
    assert message in json.loads(job.step())["error"]


@pytest.mark.parametrize("cells,message", [
    ("x", "'cells' must be a list"),
    ([{"start": "3", "finish": "1", "status": "solved", "moves": []}], "a computed start"),
    ([{"start": "1", "finish": "1", "status": "won", "moves": []}], "a computed start"),
    ([{"start": "1", "finish": "1", "status": "solved", "moves": ["4-1"]}], "does not replay"),
    ([{"start": "1", "finish": "1", "status": "impossible", "moves": "x"}], "must list its moves"),
    ([{"start": "1", "finish": "1", "status": "impossible", "moves": []}] * 2, "twice"),
    ([7], "a table cell must be an object"),
])
def test_merge_refuses_cells_it_cannot_trust(cells, message):
    out = _merge({"board": "triangle5", "cells": cells})
    assert message in out["error"], out
