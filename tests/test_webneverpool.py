"""Never-lose on the page's pool (:mod:`pyapp.web.neverpool`, :mod:`pyapp.web.neverpool_shares`): the plan
(``never_lose`` with ``workers``), a share (``never_lose`` with ``decide``: ``jumps``, or ``group`` and the questions)
and ``never_lose_merge`` answer as the one-worker request, keep what the pool proved in the engine's table, and refuse
shares that do not check; the page's side (``static/panels/neverpool.mjs``, under Node) keeps the check within its
budget when the pool does not take it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from pyapp.analysis import proven
from pyapp.core.game import replay
from pyapp.core.moves import legal_jumps
from pyapp.core.notation import format_moves
from pyapp.core.problem import default_problem
from pyapp.exact import endgame
from pyapp.search.solver import solve
from pyapp.web import api as webapi

DEPTH = 24
"""Jumps of the solver's French line played first: 12 pegs, 15 classes of jumps, decided in under a second."""


def run(args: dict, notes: list | None = None) -> dict:
    """The request's answer; ``notes`` collects its progress reports' notes."""
    job = webapi.start("never_lose", json.dumps(args))
    out = json.loads(job.step())
    while not out["done"]:
        if notes is not None:
            notes.append(out["progress"].get("note", ""))
        out = json.loads(job.step())
    assert "error" not in out, out
    return out["result"]


def merge(args: dict) -> dict:
    return json.loads(webapi.call("never_lose_merge", json.dumps(args)))


@pytest.fixture
def fresh_tables(monkeypatch):
    """No proved positions from earlier tests: each worker of the page starts with its own, empty; and no endgame
    table (:mod:`pyapp.exact.endgame`), which would answer these positions in the engine worker: none built here,
    and none kept from an earlier test in this process (the French table test_endgame.py builds)."""
    monkeypatch.setattr(proven, "_TABLES", {})
    monkeypatch.setattr(endgame, "MIN_HOLES", 1 << 20)  # the pool's own path, not the endgame table's
    monkeypatch.setattr(endgame, "_CACHE", {})
    monkeypatch.setattr(endgame, "_SHIPPED", {})
    return lambda: proven._TABLES.clear()


@pytest.fixture(scope="module")
def game() -> dict:
    problem = default_problem("french")
    line = solve(problem, max_seconds=30).jumps
    return {"board": "french", "moves": [format_moves(problem.board, [j])[0] for j in line[:DEPTH]],
            "max_seconds": 20}


def group(game: dict, *names: str, **extra) -> dict:
    """A group share's request: the questions ``names``."""
    return {**game, "decide": "group", "group": list(names), **extra}


def _shares(game: dict, fresh_tables) -> tuple[dict, list[dict]]:
    """The plan and each question's answer, every question a group of its own, but the ``jumps`` share's (listed
    second, not run: null)."""
    plan = run({**game, "workers": 2})
    parts: list = []
    for name in plan["shares"]:
        fresh_tables()  # a pool worker has its own table, not the engine worker's
        parts.append(None if name == "jumps" else run(group(game, name, shared=True)))
    fresh_tables()
    return plan, parts


def _alone(parts: list, name: str) -> dict:
    """The answer of question ``name`` in its group's answer."""
    return next(a for p in parts if p for a in p["answers"] if a["decide"] == name)


def test_merged_shares_are_the_one_worker_answer_and_kept_for_the_game(game, fresh_tables):
    one = run(game)
    fresh_tables()
    plan, parts = _shares(game, fresh_tables)
    # the shared search of every class is asked from the start, beside the position's own question
    assert plan["shares"][:2] == ["position", "jumps"] and plan["shares"].count("jumps") == 1 and plan["decided"] == []
    assert [p["group"] for p in parts if p] == [[s] for s in plan["shares"] if s != "jumps"]
    got = merge({**game, "parts": parts, "workers": 2, "seconds": 1.5})["ok"]
    assert not one["unknown"] and not got["unknown"]
    for key in ("status", "good", "bad", "method"):
        assert got[key] == one[key], key
    assert got["workers"] == 2 and got["seconds"] == 1.5 and got["nodes"] == sum(p["nodes"] for p in parts if p)
    # the engine's table now holds every answer: the same position is answered at once, in this worker
    again = run({**game, "workers": 2})
    assert "shares" not in again  # (its nodes are the survival funnel's count, which this path adds)
    assert (again["status"], again["good"], again["bad"]) == (one["status"], one["good"], one["bad"])


def test_a_share_left_out_is_answered_from_the_engines_table_or_said_unknown(game, fresh_tables):
    plan, parts = _shares(game, fresh_tables)
    left = plan["shares"][2]
    without = [p if p and p["group"] != [left] else None for p in parts]
    assert "no share answered" in merge({**game, "parts": without})["error"]
    out = merge({**game, "parts": without, "cancelled": True})["ok"]
    assert [u["reason"] for u in out["unknown"]] == ["cancelled"] * len(out["unknown"]) and out["unknown"]
    run(group(game, left))  # proved in this (engine) worker: the merge takes it from the table
    out = merge({**game, "parts": without})["ok"]
    assert not out["unknown"] and out["status"] == "winnable"


def test_the_jumps_share_answers_every_class_alone(game, fresh_tables):
    one = run(game)
    fresh_tables()
    plan, parts = _shares(game, fresh_tables)
    together = run({**game, "decide": "jumps"})
    fresh_tables()
    assert together["method"] == "shared level search"
    assert {a["decide"] for a in together["answers"]} == set(plan["shares"][2:])
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
        ([together, {**together, "answers": []}], "two shares answered 'jumps'"),
    ]
    own = next(p for p in parts if p and p["group"] == [solved["decide"]])
    claim = {**own["answers"][0], "status": "impossible", "reason": "a claim", "moves": []}
    cases.append(([{**own, "answers": [claim]}, together], "the shares disagree"))
    if lost is not None:
        cases.append(([{**together, "answers": [{**lost, "reason": ""}]}], "must say why"))
    for bad, message in cases:
        out = merge({**game, "parts": bad, "cancelled": True})
        assert message in out.get("error", ""), (message, out)


def test_a_merge_refuses_shares_that_do_not_check(game, fresh_tables):
    plan, parts = _shares(game, fresh_tables)
    part = next(p for p in parts if p and p["status"] == "solved" and p["group"] != ["position"])
    solved = part["answers"][0]

    def of(*answers: dict) -> dict:
        return {**part, "answers": list(answers)}

    cases = [
        ([of({**solved, "moves": solved["moves"][:-1]})], "does not replay to the goal"),
        ([of({**solved, "decide": "a1-a3"})], "not a question of this position"),
        ([part, of({**solved, "status": "impossible", "reason": "a claim", "moves": []})], "the shares disagree"),
        ([of({**solved, "status": "impossible", "reason": ""})], "must say why"),
        ([of({**solved, "status": "won"})], "not solved, impossible or unknown"),
        ([solved], "not 'jumps' or 'group'"),
        ([{**part, "answers": "all"}], "a group must list at most"),
        ("all", "'parts' must be a list"),
    ]
    for bad, message in cases:
        out = merge({**game, "parts": bad, "cancelled": True})
        assert message in out.get("error", ""), (message, out)
    for request, message in [({**game, "decide": "d4-d9"}, "'decide' must be 'jumps' or 'group'"),
                             (group(game, "d4-d9"), "'group' must list questions of this position"),
                             (group(game, "position", "position"), "once each"),
                             (group(game), "'group' must list questions"),
                             (group(game, "position", decided=["position"]), "'decided' goes only with 'decide'")]:
        error = json.loads(webapi.start("never_lose", json.dumps(request)).step()).get("error", "")
        assert message in error and "\n" not in error, (message, error)


def test_the_jumps_share_drops_the_classes_decided_by_the_other_questions(game, fresh_tables):
    one = run(game)
    fresh_tables()
    plan, parts = _shares(game, fresh_tables)
    names = plan["shares"][2:]
    left = names[-2:]  # the per-jump questions of two classes not run: the jumps share decides them
    together = run({**game, "decide": "jumps", "decided": names[:-2]})
    fresh_tables()
    assert {a["decide"] for a in together["answers"]} == set(left)
    got = merge({**game, "parts": [p for p in parts if p and p["group"][0] not in left] + [together]})["ok"]
    assert not got["unknown"] and (got["status"], got["good"]) == (one["status"], one["good"])
    assert [b["jump"] for b in got["bad"]] == [b["jump"] for b in one["bad"]]
    # every class decided elsewhere: nothing left to search, said so
    idle = run({**game, "decide": "jumps", "decided": names})
    assert idle["answers"] == [] and idle["status"] == "unknown" and "decided without it" in idle["reason"]


def test_the_plan_lists_the_jumps_share_as_the_one_worker_check_runs_it(game, fresh_tables):
    plan = run({**game, "workers": 2})
    known = plan["shares"][2]
    run(group(game, known))  # proved in the engine worker: the plan knows it and names it decided
    again = run({**game, "workers": 2})
    assert known not in again["shares"] and again["decided"] == [known] and again["shares"][1] == "jumps"
    early = {**game, "moves": game["moves"][:8]}  # 28 pegs: above SHARED_PEGS, per-jump questions only
    assert "jumps" not in run({**early, "workers": 2})["shares"]


def test_a_jumps_share_refuses_a_bad_decided_list(game, fresh_tables):
    plan = run({**game, "workers": 2})
    first = plan["shares"][2]
    cases = [
        ({"decided": ["d4-d9"]}, "'decided' must list classes of jumps of this position"),
        ({"decided": [first, first]}, "once each"),
        ({"decided": "all"}, "'decided' must be a list of names"),
        ({"decided": [first] * 65}, "at most 64"),
    ]
    for extra, message in cases:
        job = webapi.start("never_lose", json.dumps({**game, "decide": "jumps", **extra}))
        error = json.loads(job.step()).get("error", "")
        assert message in error and "\n" not in error, (message, error)


SPLIT = ["b2-d2", "c4-c2", "a3-c3", "a4-c4", "b6-b4", "d5-b5", "c7-c5", "d7-d5", "d3-b3", "c1-c3", "d1-d3", "f6-d6",
         "e4-e6", "g5-e5", "g4-e4", "f2-f4", "d3-f3", "g3-e3", "d5-f5", "e6-c6"]
"""A French game at 16 pegs whose shared search proves a losing class levels before it meets the goal's side."""


def test_the_jumps_share_names_the_classes_it_decides_as_it_goes(fresh_tables):
    notes: list[str] = []
    together = run({"board": "french", "moves": SPLIT, "decide": "jumps", "max_seconds": 20}, notes)
    told = [n[len("decided:"):].split() for n in notes if n.startswith("decided:")]
    # the page stops the questions of the classes named (each report names every class decided so far)
    assert len(told) >= 2 and told[0] and all(set(a) < set(b) for a, b in zip(told, told[1:]))
    assert set(told[-1]) <= {a["decide"] for a in together["answers"]}
    assert all(a["status"] == "impossible" for a in together["answers"] if a["decide"] in told[0])


def test_a_running_jumps_share_drops_the_classes_it_is_told_of(game, fresh_tables):
    plan = run({**game, "workers": 2})
    names = plan["shares"][2:]
    job = webapi.start("never_lose", json.dumps({**game, "decide": "jumps"}))
    assert "'decided' must list classes of jumps of this position" in job.tell(json.dumps({"decided": ["d4-d9"]}))
    assert job.tell(json.dumps({"decided": names[:-2]})) == ""  # decided by the other questions meanwhile
    out = json.loads(job.step())
    while not out["done"]:
        out = json.loads(job.step())
    assert {a["decide"] for a in out["result"]["answers"]} == set(names[-2:])
    assert "no news" in job.tell(json.dumps({"decided": names[:1]}))  # over: nothing to tell
    assert "'decided' must list classes of jumps" in \
        webapi.start("never_lose", json.dumps({**game, "decide": "jumps"})).tell(json.dumps({"decided": ["position"]}))


def test_a_position_after_a_lost_one_is_lost_at_once_in_the_engine_worker(game, fresh_tables):
    """A jump the check proves losing is recorded lost in the engine's table; the plan of the position one more jump
    on answers lost at once, without shares, naming why (:data:`pyapp.analysis.proven.FOLLOWS`)."""
    one = run(game)
    assert one["bad"], "the position has a losing jump"
    bad = "-".join(one["bad"][0]["jump"][::2])
    lost = run({**game, "moves": [*game["moves"], bad], "workers": 2})
    assert "shares" not in lost and lost["status"] == "lost"
    problem = default_problem("french")
    board = problem.board
    after = replay(board, problem.start, [*game["moves"], bad]).final
    nxt = format_moves(board, [legal_jumps(board, after)[0]])[0]
    later = run({**game, "moves": [*game["moves"], bad, nxt], "workers": 2})
    assert "shares" not in later and later["status"] == "lost" and later["nodes"] == 0
    assert later["reason"].startswith(proven.FOLLOWS)


def test_one_group_of_every_question_is_the_one_worker_check(game, fresh_tables):
    """A group decides its questions in turns as the one-worker check does: all of them in one group, merged, give
    the one-worker answer; its progress names what it answered as it goes (each report every question so far)."""
    one = run(game)
    fresh_tables()
    plan = run({**game, "workers": 2})
    names = [s for s in plan["shares"] if s != "jumps"]
    fresh_tables()
    notes: list[str] = []
    part = run(group(game, *names), notes)
    fresh_tables()
    said = [dict(pair.split("=") for pair in n[len("answered:"):].split()) for n in notes if n.startswith("answered:")]
    assert said and all(set(a) < set(b) for a, b in zip(said, said[1:]))
    assert all(got in ("solved", "impossible") for got in said[-1].values())
    assert {a["decide"]: a["status"] for a in part["answers"] if a["decide"] in said[-1]} == said[-1]
    got = merge({**game, "parts": [part]})["ok"]
    assert (got["status"], got["good"], got["bad"], got["unknown"]) == \
        (one["status"], one["good"], one["bad"], one["unknown"])


def test_a_running_group_drops_the_questions_it_is_told_of(game, fresh_tables):
    plan = run({**game, "workers": 2})
    names = [s for s in plan["shares"] if s != "jumps"]
    job = webapi.start("never_lose", json.dumps(group(game, *names)))
    assert "'decided' must list questions of this position" in job.tell(json.dumps({"decided": ["d4-d9"]}))
    # the position and all but two classes decided on other workers meanwhile: it searches only those two
    assert job.tell(json.dumps({"decided": names[:-2]})) == ""
    out = json.loads(job.step())
    while not out["done"]:
        out = json.loads(job.step())
    assert {a["decide"] for a in out["result"]["answers"]} == set(names[-2:])
    assert "no news" in job.tell(json.dumps({"decided": names[:1]}))


def test_the_plan_gives_each_pool_worker_one_item(game, fresh_tables):
    """``items``: ``jumps`` on a worker of its own, every question in exactly one group (in two where a group's
    portfolios run on a worker each), never more items than workers."""
    from pyapp.web.neverpool import pool_items

    shallow = {**game, "moves": game["moves"][:8]}  # 28 pegs: no jumps share, the two portfolios
    for args, workers in [(game, 2), (game, 3), (game, 5), (shallow, 2), (shallow, 3), (shallow, 4), (shallow, 7)]:
        plan = run({**args, "workers": workers})
        names = [s for s in plan["shares"] if s != "jumps"]
        items = plan["items"]
        assert 1 <= len(items) <= workers and items == pool_items(_problem(args), plan["shares"], plan["decided"],
                                                                   workers)
        assert [i["decide"] for i in items].count("jumps") == plan["shares"].count("jumps")
        groups = [i for i in items if i["decide"] == "group"]
        for name in names:
            mine = [i for i in groups if name in i["group"]]
            assert len(mine) in (1, 2) and (len(mine) == 1) == ("portfolio" not in mine[0]), (workers, name, items)
            assert sorted(i.get("portfolio") for i in mine if len(mine) == 2) == ([0, 1] if len(mine) == 2 else [])
    assert [i.get("portfolio") for i in run({**shallow, "workers": 2})["items"]] == [0, 1]


def _board_and(args: dict):
    problem = _problem(args)
    return problem.board, problem.start


def _problem(args: dict):
    from pyapp.core.problem import Problem

    problem = default_problem("french")
    return Problem(problem.board, replay(problem.board, problem.start, args["moves"]).final, problem.goal)


def test_a_group_out_of_time_still_answers_every_question_it_was_not_told_of(game, fresh_tables):
    """A group whose budget runs out before some of its searches start (the page's first check also pays the pool's
    start) says each of those unknown, so the merge can file every jump."""
    plan = run({**game, "workers": 2})
    names = [s for s in plan["shares"] if s != "jumps"]
    part = run(group(game, *names, max_seconds=0.001, max_nodes=1))
    fresh_tables()
    assert [a["decide"] for a in part["answers"]] == names
    got = merge({**game, "parts": [part]})["ok"]
    assert got["status"] == "unknown" and len(got["unknown"]) == len(legal_jumps(*_board_and(game))), got


def test_a_group_refuses_a_portfolio_it_does_not_run(game, fresh_tables):
    """``portfolio`` names one of the one-worker check's portfolios: 0 or 1 in a request, and 0 alone where only the
    solver's own runs (here the shared search stands in for the prover's); each refusal says so in one line."""
    plan = run({**game, "workers": 2})
    names = [s for s in plan["shares"] if s != "jumps"]
    for extra, message in [({"portfolio": 2}, "'portfolio'"), ({"portfolio": "one"}, "'portfolio'"),
                           ({"portfolio": 1, "shared": True}, "'portfolio' must be below 1 here, not 1")]:
        error = json.loads(webapi.start("never_lose", json.dumps(group(game, *names, **extra))).step()).get("error", "")
        assert message in error and "\n" not in error, (extra, error)
    assert run(group(game, *names, portfolio=0, shared=True))["answers"]


PLAN_THEN_ALONE = """
import { checkOnPool } from "./static/panels/neverpool.mjs";
const asked = [];
const engine = {
  request(name, args) {
    asked.push({ name, max_seconds: args.max_seconds, workers: args.workers ?? null });
    const answer = asked.length === 1 ? { shares: ["position", "j1", "j2"] } : { done: true };
    return { id: asked.length, promise: new Promise((resolve) => setTimeout(() => resolve(answer), 300)) };
  },
  cancel() {},
};
const pool = { running: () => false, acquire: () => Promise.resolve({ size: 0 }) };
const ctx = { engine, store: { state: { pool: { size: 2 } } }, pool };
const got = await checkOnPool(ctx, { max_seconds: 2 }, { onVerdict() {}, onPool() {} }).promise;
console.log(JSON.stringify({ asked, why: got.why }));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
def test_a_check_the_pool_cannot_take_yet_runs_on_what_the_plan_left_of_its_budget():
    """The plan (which may spend the budget settling the goal's table) and the one-worker check that follows while
    the pool starts share the check's seconds: the second is asked for what is left, not the whole budget again."""
    out = subprocess.run(["node", "--input-type=module", "-e", PLAN_THEN_ALONE], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent, check=True)
    got = json.loads(out.stdout)
    plan, alone = got["asked"]
    assert got["why"] == "the pool was starting"
    assert (plan["name"], plan["max_seconds"], plan["workers"]) == ("never_lose", 2, 2)
    assert alone["name"] == "never_lose" and alone["workers"] is None and 0.1 <= alone["max_seconds"] <= 1.75


def test_the_plans_endgame_stage_gets_what_the_sets_preparation_left_of_the_budget(monkeypatch):
    """The plan settles a set's table first, then (when that cannot answer) the goal's endgame table: the second gets
    the check's remaining seconds, not a fresh budget (which let an asymmetric check in the page run 13.6 s of 10)."""
    import time

    from pyapp.core.budget import drive
    from pyapp.web import neverpool

    class Asked(Exception):
        pass

    asked: list[float | None] = []

    def slow_preparation(*_args, **_kw):
        time.sleep(0.4)  # the set's table settling, out of time or past its limit
        return False
        yield  # a step generator

    def endgame_stage(board, goal, pos, budget):
        asked.append(budget.max_seconds)
        raise Asked
        yield

    monkeypatch.setattr(neverpool, "prepare_steps", slow_preparation)
    monkeypatch.setattr(neverpool, "never_lose_prepared", lambda *_args, **_kw: None)
    monkeypatch.setattr(neverpool, "when_to_build", lambda problem: "after")
    monkeypatch.setattr(neverpool, "never_lose_endgame_steps", endgame_stage)
    problem = default_problem("french")
    with pytest.raises(Asked):
        drive(neverpool.plan_steps(problem, 2.0, [problem.start]))
    assert asked and asked[0] is not None and asked[0] <= 1.6
