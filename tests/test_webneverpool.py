"""Never-lose on the page's pool (:mod:`pyapp.web.neverpool`): the plan (``never_lose`` with ``workers``), a
share (``never_lose`` with ``decide``) and ``never_lose_merge`` answer as the one-worker request, keep what the
pool proved in the engine's table, and refuse shares that do not check."""

from __future__ import annotations

import json

import pytest

from pyapp.analysis import proven
from pyapp.core.notation import format_moves
from pyapp.core.problem import default_problem
from pyapp.search.solver import solve
from pyapp.web import api as webapi

DEPTH = 24
"""Jumps of the solver's French line played first: 12 pegs, 15 classes of jumps, decided in under a second."""


def run(args: dict) -> dict:
    job = webapi.start("never_lose", json.dumps(args))
    out = json.loads(job.step())
    while not out["done"]:
        out = json.loads(job.step())
    assert "error" not in out, out
    return out["result"]


def merge(args: dict) -> dict:
    return json.loads(webapi.call("never_lose_merge", json.dumps(args)))


@pytest.fixture
def fresh_tables(monkeypatch):
    """No proved positions from earlier tests: each worker of the page starts with its own, empty."""
    monkeypatch.setattr(proven, "_TABLES", {})
    return lambda: proven._TABLES.clear()


@pytest.fixture(scope="module")
def game() -> dict:
    problem = default_problem("french")
    line = solve(problem, max_seconds=30).jumps
    return {"board": "french", "moves": [format_moves(problem.board, [j])[0] for j in line[:DEPTH]],
            "max_seconds": 20}


def _shares(game: dict, fresh_tables) -> tuple[dict, list[dict]]:
    plan = run({**game, "workers": 2})
    parts = []
    for name in plan["shares"]:
        fresh_tables()  # a pool worker has its own table, not the engine worker's
        parts.append(run({**game, "decide": name}))
    fresh_tables()
    return plan, parts


def test_merged_shares_are_the_one_worker_answer_and_kept_for_the_game(game, fresh_tables):
    one = run(game)
    fresh_tables()
    plan, parts = _shares(game, fresh_tables)
    assert plan["shares"][0] == "position" and len(plan["shares"]) > 2
    assert [p["decide"] for p in parts] == plan["shares"]
    got = merge({**game, "parts": parts, "workers": 2, "seconds": 1.5})["ok"]
    assert not one["unknown"] and not got["unknown"]
    for key in ("status", "good", "bad", "method"):
        assert got[key] == one[key], key
    assert got["workers"] == 2 and got["seconds"] == 1.5 and got["nodes"] == sum(p["nodes"] for p in parts)
    # the engine's table now holds every answer: the same position is answered at once, in this worker
    again = run({**game, "workers": 2})
    assert "shares" not in again  # (its nodes are the survival funnel's count, which this path adds)
    assert (again["status"], again["good"], again["bad"]) == (one["status"], one["good"], one["bad"])


def test_a_share_left_out_is_answered_from_the_engines_table_or_said_unknown(game, fresh_tables):
    plan, parts = _shares(game, fresh_tables)
    left = plan["shares"][1]
    without = [p if p["decide"] != left else None for p in parts]
    assert "no share answered" in merge({**game, "parts": without})["error"]
    out = merge({**game, "parts": without, "cancelled": True})["ok"]
    assert [u["reason"] for u in out["unknown"]] == ["cancelled"] * len(out["unknown"]) and out["unknown"]
    run({**game, "decide": left})  # proved in this (engine) worker: the merge takes it from the table
    out = merge({**game, "parts": without})["ok"]
    assert not out["unknown"] and out["status"] == "winnable"


def test_the_jumps_share_answers_every_class_alone(game, fresh_tables):
    one = run(game)
    fresh_tables()
    plan, parts = _shares(game, fresh_tables)
    assert "jumps" not in plan["shares"]
    together = run({**game, "decide": "jumps"})
    fresh_tables()
    assert together["method"] == "shared level search"
    assert {a["decide"] for a in together["answers"]} == set(plan["shares"][1:])
    assert together["status"] == ("solved" if one["status"] == "winnable" else "impossible")
    got = merge({**game, "parts": [parts[0], together]})["ok"]  # no per-jump share at all
    assert got["status"] == one["status"] and got["good"] == one["good"]
    assert [b["jump"] for b in got["bad"]] == [b["jump"] for b in one["bad"]]  # (proved another way)
    assert not got["unknown"]


def test_a_merge_refuses_a_jumps_share_that_does_not_check(game, fresh_tables):
    plan, parts = _shares(game, fresh_tables)
    together = run({**game, "decide": "jumps"})
    fresh_tables()
    solved = next(a for a in together["answers"] if a["status"] == "solved")
    lost = next((a for a in together["answers"] if a["status"] == "impossible"), None)
    cases = [
        ([{**together, "answers": [{**solved, "moves": solved["moves"][:-1]}]}], "does not replay to the goal"),
        ([{**together, "answers": [{**solved, "decide": "position"}]}], "not a class of jumps"),
        ([{**together, "answers": [{**solved, "status": "unknown", "reason": "budget"}]}], "only decided answers"),
        ([together, together], "two shares answered 'jumps'"),
    ]
    own = next(p for p in parts if p["decide"] == solved["decide"])
    cases.append(([{**own, "status": "impossible", "reason": "a claim", "moves": []}, together], "the shares disagree"))
    if lost is not None:
        cases.append(([{**together, "answers": [{**lost, "reason": ""}]}], "must say why"))
    for bad, message in cases:
        out = merge({**game, "parts": bad, "cancelled": True})
        assert message in out.get("error", ""), (message, out)


def test_a_merge_refuses_shares_that_do_not_check(game, fresh_tables):
    plan, parts = _shares(game, fresh_tables)
    solved = next(p for p in parts if p["status"] == "solved" and p["decide"] != "position")
    cases = [
        ([{**solved, "moves": solved["moves"][:-1]}], "does not replay to the goal"),
        ([{**solved, "decide": "a1-a3"}], "not a question of this position"),
        ([solved, solved], "two shares answered"),
        ([{**solved, "status": "impossible", "reason": ""}], "must say why"),
        ([{**solved, "status": "won"}], "not solved, impossible or unknown"),
        ("all", "'parts' must be a list"),
    ]
    for bad, message in cases:
        out = merge({**game, "parts": bad, "cancelled": True})
        assert message in out.get("error", ""), (message, out)
    job = webapi.start("never_lose", json.dumps({**game, "decide": "d4-d9"}))
    assert "'decide' must be 'position' or one legal jump" in json.loads(job.step())["error"]
