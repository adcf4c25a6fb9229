"""The whole single-vacancy table (:mod:`pyapp.analysis.table`, ``python -m pyapp table``)."""

from __future__ import annotations

import json

from test_levels import reachable

from pyapp.analysis.table import single_vacancy_starts, table_steps
from pyapp.cli.main import main
from pyapp.core.budget import Budget, drive
from pyapp.core.catalogue import get_board
from pyapp.core.game import replay
from pyapp.core.goal import CLASS_CLASH


def test_english_single_vacancy_rule():
    """On the 33-hole English board every single-vacancy to single-survivor problem that the
    position class allows is solvable: J. D. Beasley, *The Ins and Outs of Peg Solitaire* (1985),
    ch. 5, and G. Bell's English board page ("Solitaire: the English board", recmath.org/pegsolitaire):
    from any vacancy one can finish at any hole of the same position class.  Computed here: no
    cell is impossible except by the class test, and every solution replays."""
    board = get_board("english")
    table = drive(table_steps(board))
    assert {c.start for c in table.cells} == {"c1", "d1", "c2", "d2", "c3", "d3", "d4"}
    assert len(table.cells) == 7 * 33
    solved = [c for c in table.cells if c.status == "solved"]
    for c in table.cells:
        if c.status != "solved":
            assert c.status == "impossible" and c.reason == CLASS_CLASH, (c.start, c.finish, c.reason)
    for c in solved:
        rep = replay(board, board.start(c.start), c.moves)
        assert rep.valid and rep.final == 1 << board.hole(c.finish)
    assert len(solved) == table.counts()["solved"] > 0


def test_triangle5_table_matches_enumeration():
    """Every cell of the 15-hole triangle's table agrees with a brute-force closure of each start."""
    board = get_board("triangle5")
    table = drive(table_steps(board))
    assert table.counts()["unknown"] == 0
    for start in single_vacancy_starts(board):
        singles = {p for p in reachable(board, board.start(start)) if p.bit_count() == 1}
        for c in table.cells:
            if c.start == start:
                assert (c.status == "solved") == (1 << board.hole(c.finish) in singles), (start, c.finish)
    corner = sorted((c.finish for c in table.cells if c.start == "1" and c.status == "solved"), key=int)
    assert corner == ["1", "7", "10", "13"]


def test_starts_up_to_symmetry():
    assert single_vacancy_starts(get_board("triangle5")) == ["1", "2", "4", "5"]
    assert single_vacancy_starts(get_board("diamond41"))[:3] == ["e1", "d2", "e2"]


def test_cancel_stops_early():
    budget = Budget()
    budget.cancel()
    table = drive(table_steps(get_board("english"), budget=budget))
    assert table.cancelled and not table.cells


def test_command_json(capsys):
    assert main(["table", "triangle4", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["board"] == "triangle4" and out["complete"] is True
    assert sum(out["counts"].values()) == len(out["cells"]) == 3 * 10
    # every cell says how many search nodes it took; the solved ones needed some
    assert all(c["nodes"] >= 0 for c in out["cells"]) and any(c["nodes"] > 0 for c in out["cells"])
    assert main(["table", "nosuchboard", "--json"]) == 2


def test_command_text_shows_nodes(capsys):
    assert main(["table", "triangle4", "--quiet"]) == 0
    out = capsys.readouterr().out
    head, *rest = out.splitlines()
    assert head.startswith("triangle4: ") and head.endswith(" nodes")
    assert any(" nodes): " in line for line in rest)  # a solved cell: its nodes, then its moves


def test_worker_request_streams_progress_and_answers():
    from pyapp.web import api as webapi

    job = webapi.start("table", json.dumps({"board": "triangle4", "problem_seconds": 5}))
    steps = [json.loads(job.step())]
    while not steps[-1]["done"]:
        steps.append(json.loads(job.step()))
    result = steps[-1]["result"]
    assert result["board"] == "triangle4" and sum(result["counts"].values()) == 30
    assert any("of 30" in s["progress"]["note"] for s in steps[:-1])
    bad = webapi.start("table", json.dumps({"board": "nosuch"}))
    assert "unknown board" in json.loads(bad.step())["error"]


def test_twin_finishes_share_answers_and_replace_unknowns(monkeypatch):
    """Finishes that a symmetry fixing the start maps onto each other are one problem: the first
    answered one settles the rest (mapped solution, replayed), and an earlier twin left unknown by
    its own search is replaced.  Here the search of d4 -> d1 is made to fail; its twins are fine."""
    from dataclasses import replace

    from pyapp.analysis import table as table_module

    real = table_module.search

    def search(problem, **kw):
        result = yield from real(problem, **kw)
        if problem.goal.target == 1 << board.hole("d1"):
            return replace(result, status="unknown", reason="budget spent", jumps=[], nodes=5)
        return result

    monkeypatch.setattr(table_module, "search", search)
    board = get_board("english")
    cells = {c.finish: c for c in drive(table_steps(board, starts=["d4"])).cells}
    orbit = ["d1", "a4", "g4", "d7"]
    searched = [f for f in orbit if "mapped by symmetry" not in cells[f].method]
    assert searched == ["a4"]  # d1's own search failed; a4 was searched and solved, d1, g4, d7 are its images
    for f in orbit:
        c = cells[f]
        assert c.status == "solved", (f, c.method)
        rep = replay(board, board.start("d4"), c.moves)
        assert rep.valid and rep.final == 1 << board.hole(f)


def test_cpu_time_option_gives_every_problem_a_budget_on_the_cpu_clock(monkeypatch):
    """``table --cpu-time``: each problem's share of time is read from the CPU clock, so a loaded
    machine answers the same table as a quiet one (the issue-9 bench rows rely on it)."""
    from pyapp.analysis import table as table_module
    from pyapp.core.budget import CPU_CLOCK, WALL_CLOCK

    real = table_module.search
    clocks = []

    def search(problem, **kw):
        clocks.append((kw["budget"].clock, kw["budget"].max_seconds))
        return (yield from real(problem, **kw))

    monkeypatch.setattr(table_module, "search", search)
    # in this process (--workers 1), where the recorded budgets can be seen
    assert main(["table", "triangle4", "--json", "--quiet", "--cpu-time", "--problem-seconds", "3",
                 "--workers", "1"]) == 0
    assert clocks and all(c == (CPU_CLOCK, 3.0) for c in clocks)
    clocks.clear()
    assert main(["table", "triangle4", "--json", "--quiet", "--workers", "1"]) == 0
    assert clocks and all(c[0] is WALL_CLOCK for c in clocks)
