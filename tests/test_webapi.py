"""The worker protocol's Python side (pyapp.web.api): JSON in, JSON out, errors as messages."""

from __future__ import annotations

import json

import pytest

from pyapp.web import api as webapi


def call(fn: str, **args):
    out = json.loads(webapi.call(fn, json.dumps(args)))
    assert set(out) in ({"ok"}, {"error"}), out
    return out


def ok(fn: str, **args):
    out = call(fn, **args)
    assert "ok" in out, out
    return out["ok"]


def drive(job: webapi.Job) -> tuple[list, dict]:
    progress = []
    while True:
        out = json.loads(job.step())
        if out["done"]:
            return progress, out
        progress.append(out["progress"])


class TestState:
    def test_default_is_the_english_central_game(self):
        st = ok("state")
        assert st["board"]["id"] == "english" and st["start_hole"] == "d4"
        assert st["peg_count"] == 32 and "d4" not in st["pegs"]
        assert sorted(j[0] + "-" + j[2] for j in st["legal"]) == ["b4-d4", "d2-d4", "d6-d4", "f4-d4"]
        assert st["goal"] == {"kind": "hole", "hole": "d4", "text": "d4", "label": "d4",
                              "description": "one peg at d4", "definite": True, "final_pegs": 1,
                              "word": "d4"}
        assert 'data-hole="d4"' in st["svg"]

    def test_moves_replay_and_counters_group_jumps_into_moves(self):
        # a peg jumping twice in a row makes one move: a3-c3 then c3-c5 is written a3-c3-c5
        opening = ["d2-d4", "b3-d3", "c1-c3", "e1-c1", "c4-c2", "c1-c3", "d3-b3", "c6-c4", "a3-c3", "c3-c5"]
        st = ok("state", board="english", moves=opening)
        assert st["jump_count"] == 10 and st["moves"][-1] == "a3-c3-c5"
        assert st["move_count"] == 9 and st["played"][-1] == ["c3", "c4", "c5"]

    def test_illegal_moves_are_a_clear_error(self):
        out = call("state", board="english", moves=["f4-d4", "f4-d4"])
        assert "move 2 (f4-d4)" in out["error"] and "illegal" in out["error"]

    @pytest.mark.parametrize("args, words", [
        ({"board": "<img src=x onerror=alert(1)>"}, "unknown board"),
        ({"board": "english", "start": "z9"}, "no hole 'z9'"),
        ({"board": "english", "goal": "q1"}, "no hole 'q1'"),
        ({"board": "english", "moves": "x" * 5000}, "too long"),
        ({"board": "square:o?o"}, "unexpected character '?'"),
        ({"board": 7}, "must be text"),
        ({"board": "square:" + "/".join(["o" * 26] * 20)}, "at most 400"),
    ])
    def test_bad_input_gives_a_message_not_a_traceback(self, args, words):
        out = json.loads(webapi.call("state", json.dumps(args)))
        assert words in out["error"]

    def test_custom_spec_round_trips(self):
        st = ok("state", board="square:  ooo/ o.ooo/ooooo")
        again = ok("state", board=st["board"]["spec"])
        assert again["position"] == st["position"] and again["board"]["holes"] == 13
        assert " " not in st["board"]["spec"]

    def test_end_of_game_messages(self):
        _, out = drive(webapi.start("solve", json.dumps({"board": "triangle4"})))
        won = ok("state", board="triangle4", moves=out["result"]["moves"])
        assert won["over"] and won["won"] and won["message"].startswith("Solved!")
        stuck = ok("state", board="square:oo..o", goal="min", moves=["a1-c1"])
        assert stuck["over"] and "2 pegs left" in stuck["message"]


class TestCustomBoard:
    def test_catalogue_shape_is_recognised(self):
        st = ok("state", board="english")
        cells = [[c["r"], c["c"], int(c["name"] != "a3")] for c in st["cells"]]
        made = ok("custom_board", lattice="square", cells=cells, goal=[3, 3])
        assert made["board"] == "english" and made["goal"] == "d4"
        assert made["position"].startswith("  ooo/  ooo/.oooooo")

    def test_new_shape_gives_a_spec_and_goal_name(self):
        made = ok("custom_board", lattice="triangle", cells=[[0, 5, 0], [1, 5, 1], [1, 6, 1], [2, 5, 1], [2, 6, 1],
                                                              [2, 7, 1]], goal=[2, 7])
        assert made == {"board": "triangle:__./_o_o/o_o_o", "goal": "6"}
        assert ok("state", board=made["board"])["peg_count"] == 5

    def test_empty_editor_is_an_error(self):
        assert "no holes" in call("custom_board", lattice="square", cells=[])["error"]


class TestJobs:
    def test_solve_reports_progress_and_a_checked_solution(self):
        progress, out = drive(webapi.start("solve", json.dumps({"board": "triangle5"})))
        result = out["result"]
        assert result["status"] == "solved" and result["pegs_left"] == 1
        assert result["jumps"] == 13 and len(result["jump_list"]) == 13
        replayed = ok("state", board="triangle5", moves=result["moves"])
        assert replayed["peg_count"] == 1
        assert all({"nodes", "seconds", "rate"} <= set(p) for p in progress)

    def test_impossible_comes_with_the_reason(self):
        _, out = drive(webapi.start("solve", json.dumps({"board": "french", "start": "d4", "goal": "d4"})))
        assert out["result"]["status"] == "impossible" and "class" in out["result"]["reason"]

    def test_cancel_answers_unknown(self):
        rows = ["o" * 12] * 5 + ["ooooo.oooooo"] + ["o" * 12] * 6  # 144 holes: far from done after one slice
        job = webapi.start("solve", json.dumps({"board": "square:" + "/".join(rows), "goal": "any"}))
        first = json.loads(job.step())
        assert first["done"] is False and first["progress"]["nodes"] > 0
        out = json.loads(job.cancel())
        assert out["done"] and out["result"]["status"] == "unknown" and out["result"]["reason"] == "cancelled"

    def test_bad_arguments_end_the_job_with_an_error(self):
        out = json.loads(webapi.start("solve", json.dumps({"board": "nope"})).step())
        assert out["done"] and "unknown board 'nope'" in out["error"]
        assert "unknown long request" in json.loads(webapi.start("fly", "{}").step())["error"]


def test_bench_streams_one_row_per_progress_event_then_the_list():
    try:
        import pyapp.bench.suite  # noqa: F401
    except ImportError:
        pytest.skip("pyapp.bench.suite is not in this tree")
    job = webapi.start("bench", json.dumps({"quick": True, "repeat": 1,
                                            "only": ["impossible-french-centre", "default-triangle4"]}))
    progress, out = drive(job)
    assert len(progress) == 2 and out["result"] == progress
    assert "unknown benchmark 'nope'" in drive(webapi.start("bench", json.dumps({"only": ["nope"]})))[1]["error"]


def test_warm_imports_the_solver():
    assert "solver" in ok("warm")["modules"]


def test_unknown_request_lists_the_known_ones():
    out = call("teleport")
    assert "unknown request 'teleport'" in out["error"] and "state" in out["error"]


def test_boards_lists_the_catalogue():
    ids = [b["id"] for b in ok("boards")]
    assert ids[0] == "english" and "diamond41" in ids and "triangle8" in ids


def test_cnf_download_for_the_current_problem():
    try:
        import pyapp.sat  # noqa: F401
    except ImportError:
        pytest.skip("pyapp.sat is not in this tree")
    out = ok("cnf", board="triangle5")
    assert out["filename"] == "triangle5-0.cnf" and "p cnf" in out["dimacs"]


def test_hint_uses_the_analysis():
    out = ok("hint", board="triangle5", max_seconds=10)
    assert sorted(j[0] + "-" + j[2] for j in out["good"]) == ["4-1", "6-1"]  # both first jumps of the 15-hole game
