"""Never-lose checks (issue 12, point 4), the finishes reasons grouped (point 3) and the
worker's puzzle request (point 5), through pyapp.web.api as the page calls them."""

from __future__ import annotations

import json
import random

import pytest

from pyapp.analysis import proven
from pyapp.analysis.neverlose import never_lose, never_lose_steps
from pyapp.analysis.neverlose_exact import never_lose_exact
from pyapp.analysis.proven import FOLLOWS
from pyapp.core.catalogue import get_board
from pyapp.core.game import replay
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import Goal, Problem, default_problem
from pyapp.exact import winnable as winnable_module
from pyapp.search.solver import solve
from pyapp.web import api as webapi

# The 15-hole triangle after 4-1 6-4 12-5: three of its nine jumps lose (checked below by
# solving after each jump), the others keep one peg reachable.
TRI = {"board": "triangle5", "start": "1", "moves": ["4-1", "6-4", "12-5"]}


@pytest.fixture(autouse=True)
def _no_winnable_sets_from_other_tests(monkeypatch):
    """Never-lose answers from a winnable set when one is cached, and from the game's table of proved positions
    what other tests of this process recorded: start and end every test without either."""
    winnable_module._CACHE.clear()
    monkeypatch.setattr(proven, "_TABLES", {})
    yield
    winnable_module._CACHE.clear()


def _run_job(fn: str, args: dict) -> dict:
    job = webapi.start(fn, json.dumps(args))
    steps = 0
    while True:
        out = json.loads(job.step())
        if out["done"]:
            assert "error" not in out, out
            return {**out["result"], "_steps": steps}
        steps += 1


def _position(args: dict) -> tuple[Problem, int]:
    p = default_problem(args["board"])
    board = p.board
    start = board.start(args["start"])
    return p, replay(board, start, args["moves"]).final


def test_bad_jumps_are_exactly_those_after_which_the_goal_is_unreachable():
    p, pos = _position(TRI)
    r = never_lose(Problem(p.board, pos, p.goal))
    assert r.status == "winnable" and r.jumps.bad and r.jumps.good and not r.jumps.unknown
    for jump in legal_jumps(p.board, pos):
        after = solve(Problem(p.board, apply_jump(pos, jump), p.goal), max_seconds=20)
        assert (jump in r.jumps.bad) == (after.status == "impossible"), jump
        assert (jump in r.jumps.good) == (after.status == "solved"), jump
    # the continuation reaches the goal from the position
    end = pos
    for jump in r.line:
        assert jump in legal_jumps(p.board, end)
        end = apply_jump(end, jump)
    assert p.goal.reached(end)


def test_a_lost_position_says_why():
    board = get_board("english")
    # the centre vacant, the last peg wanted on c4: a different position class
    r = never_lose(Problem(board, board.start("d4"), Goal("hole", 1 << board.hole("c4"))))
    assert r.status == "lost" and "position class" in r.reason and r.jumps.good == []


def test_the_budget_running_out_is_unknown_with_how_far_it_got():
    p = default_problem("german")
    r = never_lose(Problem(p.board, p.start, p.goal), max_seconds=0.02)
    assert r.status in ("unknown", "winnable")
    if r.status == "unknown":
        assert "budget spent after" in r.reason and "nodes" in r.reason
    assert r.nodes > 0
    assert all(r.jumps.reasons[j] for j in r.jumps.unknown)


def test_steps_yield_growing_node_counts():
    p = default_problem("english")
    gen = never_lose_steps(Problem(p.board, p.start, p.goal), max_seconds=3, slice_seconds=0.001)
    nodes = []
    try:
        while True:
            nodes.append(next(gen).nodes)
    except StopIteration as stop:
        result = stop.value
    assert nodes == sorted(nodes) and result.nodes >= nodes[-1]


def test_worker_never_lose_job_json_and_cancel():
    out = _run_job("never_lose", TRI)
    assert out["status"] == "winnable" and out["budget"] == 10.0
    assert {tuple(b["jump"]) for b in out["bad"]} == {("4", "5", "6"), ("9", "5", "2"), ("13", "9", "6")}
    # whichever portfolio proves it first: the complete search, a pagoda, the class, or the prover's early jump counts
    assert all(b["reason"].startswith(("exhaustive search", "pagoda", "position class", "jump counts", FOLLOWS))
               for b in out["bad"]), out["bad"]
    assert replay(get_board("triangle5"), _position(TRI)[1], out["line"]).valid
    job = webapi.start("never_lose", json.dumps({"board": "german"}))
    json.loads(job.step())
    cancelled = json.loads(job.cancel())
    assert cancelled["done"] and cancelled["result"]["status"] == "unknown"
    assert cancelled["result"]["reason"].startswith("cancelled after")


def test_finishes_reasons_are_grouped_one_line_per_reason():
    out = json.loads(webapi.call("finishes", json.dumps({"board": "english"})))["ok"]
    groups = out["groups"]
    assert groups[0] == {"verdict": "yes", "reason": groups[0]["reason"], "holes": ["d1", "a4", "d4", "g4", "d7"]}
    rule_of_three = [g for g in groups if "position class" in g["reason"]]
    assert len(rule_of_three) == 1 and len(rule_of_three[0]["holes"]) == 28
    listed = [h for g in groups for h in g["holes"]]
    assert sorted(listed) == sorted(get_board("english").names)  # every hole exactly once


def test_worker_puzzle_request():
    out = json.loads(webapi.call("puzzle", json.dumps({"board": "english", "pegs": 9, "seed": "41"})))["ok"]
    assert out["seed"] == 41 and out["pegs"] == 9 and out["board"] == "english"
    state = webapi.state({"board": "english", "position": out["position"], "goal": out["goal"],
                          "moves": out["solution"]})
    assert state["won"] and state["peg_count"] == 1
    again = json.loads(webapi.call("puzzle", json.dumps({"board": "english", "pegs": 9, "seed": 41})))["ok"]
    assert again == out
    bad = json.loads(webapi.call("puzzle", json.dumps({"board": "english", "pegs": "many"})))
    assert "number of pegs" in bad["error"]


def test_state_can_leave_out_the_coordinates():
    with_coords = webapi.state({"board": "english"})["svg"]
    without = webapi.state({"board": "english", "coordinates": False})["svg"]
    assert 'class="coord' in with_coords and 'class="coord' not in without


def test_fewest_pegs_goal_files_jumps_by_the_pegs_they_can_still_reach():
    board = get_board("triangle4")
    # the 10-hole triangle from a corner vacancy: no single survivor, so 'min' is the honest goal
    pos = board.start("1")
    r = never_lose(Problem(board, pos, Goal("min")), max_seconds=10)
    assert r.status == "winnable" and r.jumps.best_pegs is not None
    for jump in r.jumps.bad:
        assert "leaves at best" in r.jumps.reasons[jump]
    for jump in r.jumps.good:
        after = solve(Problem(board, apply_jump(pos, jump), Goal("min")), max_seconds=10)
        assert after.pegs_left == r.jumps.best_pegs


def test_a_link_with_an_illegal_move_keeps_the_legal_prefix_and_names_the_refused_move():
    args = {"board": "english", "moves": ["f4-d4", "e2-e4", "f4-d4", "c3-e3"], "legal_prefix": True}
    state = webapi.state(args)
    assert state["moves"] == ["f4-d4", "e2-e4"] and state["jump_count"] == 2
    assert state["refused"] == {"index": 3, "move": "f4-d4", "reason": "jump f4-d4 is illegal: no peg on f4"}
    assert webapi.state({**args, "moves": ["f4-d4"]})["refused"] is None
    strict = json.loads(webapi.call("state", json.dumps({**args, "legal_prefix": False})))
    assert "do not replay" in strict["error"] or "illegal" in strict["error"]


class TestFromTheWinnableSet:
    """Issue 10 point 4: once the exact analyses hold a game's winnable set, never-lose answers
    by lookup, and agrees with the solver on every position of random games."""

    def test_agrees_with_the_search_on_random_games(self):
        board = get_board("triangle5")
        goal = default_problem("triangle5").goal
        rng = random.Random(7)
        for start_hole in ("1", "4", "5"):
            start = board.start(start_hole)
            assert never_lose_exact(board, goal, [start]) is None  # nothing computed yet
            winnable_module.winnable(Problem(board, start, goal))
            for _ in range(4):
                history = [start]
                while True:
                    pos = history[-1]
                    exact = never_lose_exact(board, goal, history)
                    search = never_lose(Problem(board, pos, goal))
                    assert exact is not None and exact.status == search.status, (start_hole, pos)
                    assert set(exact.jumps.good) == set(search.jumps.good)
                    assert set(exact.jumps.bad) == set(search.jumps.bad)
                    if exact.status == "winnable":
                        end = pos
                        for jump in exact.line:
                            assert jump in legal_jumps(board, end)
                            end = apply_jump(end, jump)
                        assert goal.reached(end)
                    jumps = legal_jumps(board, pos)
                    if not jumps:
                        break
                    history.append(apply_jump(pos, rng.choice(jumps)))

    def test_a_set_from_a_later_position_answers_after_it_only(self):
        p, pos = _position(TRI)
        board, goal = p.board, p.goal
        start = board.start("1")
        winnable_module.winnable(Problem(board, pos, goal))  # as "Fewest moves" from the current position
        assert never_lose_exact(board, goal, [start]) is None
        assert never_lose_exact(board, goal, [start, pos]) is not None

    def test_the_worker_answers_by_lookup_after_fewest_moves(self):
        searched = _run_job("never_lose", TRI)
        assert searched["method"] == "search"
        fewest = _run_job("fewest_exact", {"board": "triangle5", "start": "1"})
        assert fewest["status"] == "solved"
        looked_up = _run_job("never_lose", TRI)
        assert looked_up["method"] == "exact" and looked_up["_steps"] == 0
        assert looked_up["status"] == searched["status"] == "winnable"
        assert {tuple(b["jump"]) for b in looked_up["bad"]} == {tuple(b["jump"]) for b in searched["bad"]}
        assert sorted(map(tuple, looked_up["good"])) == sorted(map(tuple, searched["good"]))
        assert all(b["reason"].startswith("exact analysis") for b in looked_up["bad"])
        assert replay(get_board("triangle5"), _position(TRI)[1], looked_up["line"]).valid


def test_a_set_of_a_symmetric_image_answers_the_game_with_its_jumps_mapped_back():
    """triangle6's default set (4 -> any) answers a game started at 19, an image of 4 under a symmetry;
    every jump verdict agrees with the set asked in the image's frame and with the solver."""
    from pyapp.analysis.neverlose_exact import hint_exact, symmetric_image
    from pyapp.exact.winnable import winnable

    board = get_board("triangle6")
    goal = Goal.parse(board, "any")
    win = winnable(default_problem("triangle6"))
    rng = random.Random(3)
    history = [board.start("19")]
    assert symmetric_image(board, goal, history) is not None
    checked = 0
    while jumps := legal_jumps(board, history[-1]):
        out = never_lose_exact(board, goal, history)
        assert out is not None
        if out.status == "lost":  # the image's set says lost: so does the solver, here
            assert solve(Problem(board, history[-1], goal)).status == "impossible"
            break
        assert out.status == "winnable" and set(out.jumps.good) | set(out.jumps.bad) == set(jumps)
        for jump in out.jumps.good:  # a line from the image, mapped back, replays here to the goal
            pos = apply_jump(history[-1], jump)
            for step in out.jumps.lines[jump]:
                pos = apply_jump(pos, step)
            assert goal.reached(pos)
        if checked < 3:
            for jump in jumps:
                after = apply_jump(history[-1], jump)
                solved = solve(Problem(board, after, goal)).status
                assert (jump in out.jumps.good) == (solved == "solved"), (jump, solved)
            checked += 1
        hint = hint_exact(board, goal, history)
        assert hint is not None and hint.good == out.jumps.good and hint.bad == out.jumps.bad
        history.append(apply_jump(history[-1], rng.choice(jumps)))
    assert win.can_win(default_problem("triangle6").start)
