""""Where can one peg finish?" on the page's pool (:mod:`pyapp.web.finishes`): the plan (``finishes`` with
``workers``), a share (``finishes`` with ``holes``) and ``finishes_merge`` answer as the one-worker request."""

from __future__ import annotations

import json

import pytest

from pyapp.analysis import proven
from pyapp.core.catalogue import get_board
from pyapp.core.game import replay
from pyapp.web import api as webapi

TRIANGLE7 = {"board": "triangle7", "start": "4"}
"""The solver method by itself (its exploration passes the cap), a tenth of a second of it: two shares."""


def run(args: dict) -> dict:
    job = webapi.start("finishes", json.dumps(args))
    out = json.loads(job.step())
    while not out["done"]:
        out = json.loads(job.step())
    assert "error" not in out, out
    return out["result"]


def merge(args: dict) -> dict:
    return json.loads(webapi.call("finishes_merge", json.dumps(args)))


@pytest.fixture
def fresh_tables(monkeypatch):
    """No proved positions from earlier tests: each worker of the page starts with its own, empty."""
    monkeypatch.setattr(proven, "_TABLES", {})
    return lambda: proven._TABLES.clear()


def _replays(game: dict, answer: dict) -> bool:
    board = get_board(game["board"])
    for hole, moves in answer["possible"].items():
        rep = replay(board, board.start(game["start"]), moves)
        if not rep.valid or rep.final != 1 << board.hole(hole):
            return False
    return True


def test_merged_shares_are_the_one_worker_answer(fresh_tables):
    one = run(TRIANGLE7)
    fresh_tables()
    plan = run({**TRIANGLE7, "workers": 2})
    assert plan["shares"] == [["2", "8", "14", "21", "26"], ["6", "11", "18", "23"]]
    assert set(plan["pending"]["unknown"]) == {h for share in plan["shares"] for h in share}
    assert plan["pending"]["impossible"] == one["impossible"] and plan["pending"]["cancelled"]
    parts = []
    for share in plan["shares"]:
        fresh_tables()  # a pool worker does not have the engine worker's table of proved positions
        part = run({**TRIANGLE7, "holes": share})
        assert set(part["possible"]) | set(part["impossible"]) | set(part["unknown"]) == set(share)
        parts.append(part)
    fresh_tables()
    got = merge({**TRIANGLE7, "parts": parts[::-1], "cancelled": False})["ok"]
    assert set(got) == set(one) == {"possible", "impossible", "unknown", "cancelled", "groups"}
    for key in ("impossible", "unknown", "cancelled", "groups"):
        assert got[key] == one[key], key
    assert set(got["possible"]) == set(one["possible"]) and len(got["possible"]) == 9  # solutions may differ
    assert _replays(TRIANGLE7, got) and _replays(TRIANGLE7, one)


def test_the_plan_answers_itself_when_the_exhaustive_method_settles_it():
    game = {"board": "triangle5", "start": "1"}
    assert run({**game, "workers": 4}) == run(game)


def test_a_cancelled_merge_leaves_the_unanswered_holes_unknown(fresh_tables):
    plan = run({**TRIANGLE7, "workers": 2})
    part = run({**TRIANGLE7, "holes": plan["shares"][0]})
    fresh_tables()  # the share ran in a pool worker
    got = merge({**TRIANGLE7, "parts": [part, None], "cancelled": True})["ok"]
    assert got["cancelled"] and set(got["possible"]) == set(plan["shares"][0])
    assert got["unknown"] == dict.fromkeys(plan["shares"][1], "cancelled")
    fresh_tables()
    assert merge({**TRIANGLE7, "parts": [], "cancelled": True})["ok"] == plan["pending"]


def test_the_merge_takes_what_the_engine_worker_proved(fresh_tables):
    """A hole a share left unknown that the engine's table has proved is answered from it; the shares'
    replayed solutions are recorded there (so Hint, never-lose and the next finishes find them)."""
    plan = run({**TRIANGLE7, "workers": 2})
    parts = [run({**TRIANGLE7, "holes": share}) for share in plan["shares"]]
    fresh_tables()
    assert not merge({**TRIANGLE7, "parts": [], "cancelled": True})["ok"]["possible"]
    merge({**TRIANGLE7, "parts": parts[:1], "cancelled": True})
    again = merge({**TRIANGLE7, "parts": [], "cancelled": True})["ok"]
    assert set(again["possible"]) == set(plan["shares"][0]) and _replays(TRIANGLE7, again)
    assert set(again["unknown"]) == set(plan["shares"][1])


def test_a_share_request_is_checked():
    def error(**more) -> str:
        job = webapi.start("finishes", json.dumps({**TRIANGLE7, **more}))
        out = json.loads(job.step())
        return out.get("error", "")

    assert "must name holes of this board, not z9" in error(holes=["2", "z9"])
    assert "names a hole twice" in error(holes=["2", "2"])
    assert "holes the position class allows" in error(holes=["1"])
    assert "do not go together" in error(holes=["2"], workers=2)
    assert "'holes' must be a list of names" in error(holes="2")
    assert "'workers'" in error(workers=0)


def _good_part() -> dict:
    return {"possible": {}, "impossible": {}, "unknown": dict.fromkeys(["2", "8", "14", "21", "26"], "cancelled")}


@pytest.mark.parametrize("parts,message", [
    ("2", "'parts' must be a list of at most 28 share answers, not text"),
    ([None] * 29, "'parts' must be a list of at most 28 share answers, not a list of 29"),
    (["x"], "a share's answer must be an object, not text"),
    ([{"possible": []}], "a share's 'possible' must be an object (hole -> answer), not a list"),
    ([{"unknown": {"z9": "cancelled"}}], "a share answered 'z9', which is not a hole of this board"),
    ([{"impossible": {"1": "no"}}], "'1', which is not a hole of this board the position class allows"),
    ([_good_part(), _good_part()], "two shares answered the hole 2"),
    ([{"impossible": {"2": 7}}], "the reason given for 2 must be text"),
    ([{"possible": {"2": "4-1"}}], "the solution ending on 2 must list its moves as text"),
    ([{"possible": {"2": ["4-1", "1-4"]}}], "the solution ending on 2 does not replay: move 1 (4-1)"),
    ([{"possible": {"2": ["11-4"]}}], "the solution ending on 2 does not replay: it ends elsewhere"),
])
def test_malformed_merge_input_gives_clear_errors(parts, message):
    got = merge({**TRIANGLE7, "parts": parts, "cancelled": True})
    assert message in got.get("error", ""), got


def test_a_merge_missing_holes_must_be_cancelled():
    got = merge({**TRIANGLE7, "parts": [_good_part()], "cancelled": False})
    assert "no share answered 6, 11, 18, 23 (and the run was not cancelled)" in got["error"]
