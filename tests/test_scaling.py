"""The scaling study (``bench --scaling --quick``, the CI run): the JSON validates and covers every board,
peg count and solver of the plan, every answer is right (both solvers replay their solutions inside the
study), the fits grow, the baseline never searches fewer nodes than ours on a puzzle both solved, and the
SVG figures hold the expected series.  The baseline and the fits are checked on their own too."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET

import pytest

from pyapp.bench import fits, scaling
from pyapp.bench.baseline import baseline_solve
from pyapp.bench.report import node_comparison
from pyapp.cli.main import main
from pyapp.core.budget import Budget
from pyapp.core.catalogue import get_board
from pyapp.core.goal import Goal
from pyapp.core.problem import Problem, default_problem
from pyapp.search.solver import solve


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    out = tmp_path_factory.mktemp("scaling")
    assert main(["bench", "--scaling", "--quick", "--out", str(out), "--json"]) == 0
    return out, json.loads((out / "scaling.json").read_text())


def test_the_json_validates_and_covers_the_plan(study):
    _, data = study
    assert scaling.validate(data) == []
    plan = scaling.Plan.of(True)
    assert data["study"]["boards"] == list(scaling.BOARDS) and data["study"]["quick"] is True
    gone = {(g["board"], g["pegs"], g["seed"]) for g in data["study"]["not_generated"]}
    for board_id in scaling.BOARDS:
        for pegs in plan.peg_counts(get_board(board_id)):
            if (board_id, pegs, 1) in gone:
                continue
            got = {r["solver"] for r in data["runs"] if r["board"] == board_id and r["pegs"] == pegs}
            assert got == {"ours", "baseline"}, (board_id, pegs)
    assert all(r["seconds"] <= 3 * plan.budget + 1 for r in data["runs"])  # the budget held


def test_ours_answers_every_quick_puzzle_and_the_baseline_never_searches_less(study):
    _, data = study
    assert all(r["status"] == "solved" for r in data["runs"] if r["solver"] == "ours" and r["pegs"] <= 15)
    both, fewer = node_comparison(data)
    assert both >= 8 and fewer == []


def test_the_fitted_growth_bases_are_positive_and_growing(study):
    _, data = study
    for board in [*scaling.BOARDS, "all"]:
        for solver in ("ours", "baseline"):
            f = data["fits"][board][solver]
            for key in ("time_vs_pegs", "time_vs_length"):
                if f[key] is not None:
                    assert f[key]["base"] > 0 and 0 <= f[key]["r2"] <= 1
            if f["time_vs_nodes"] is not None:
                assert f["time_vs_nodes"]["a"] > 0
    for solver in ("ours", "baseline"):
        assert data["fits"]["all"][solver]["time_vs_pegs"]["base"] > 1  # more pegs cost more
    assert data["fits"]["all"]["baseline"]["time_vs_pegs"]["base"] > data["fits"]["all"]["ours"]["time_vs_pegs"]["base"]


def test_fixed_cost_is_measured_cold_and_warm(study):
    _, data = study
    c = data["fixed_cost"]
    assert c["warm_ms"] > 0 and c["cold_ms"] > 0 and c["state_ms"] > 0
    assert c["warm_answer_p95_ms"] >= c["warm_answer_ms"] > 0 and c["warm_answer_cpu_ms"] > 0
    assert c["cpp_median_ms"] == list(scaling.CPP_MEDIAN_MS)


def _ids(path):
    return {el.get("id") for el in ET.parse(path).iter() if el.get("id")}


def test_the_figures_are_svg_with_the_expected_series(study):
    pytest.importorskip("matplotlib")
    out, _ = study
    ids = _ids(out / "scaling-time-vs-pegs.svg")
    assert {f"{s}-{b}" for s in ("ours", "baseline") for b in scaling.BOARDS} <= ids
    assert {"ours-nodes", "baseline-nodes", "ours-fit", "baseline-fit"} <= _ids(out / "scaling-time-vs-nodes.svg")
    outcome = _ids(out / "scaling-outcomes.svg")
    assert {f"{s}-{b}-{k}" for s in ("ours", "baseline") for b in scaling.BOARDS
            for k in ("solved", "impossible", "unknown")} <= outcome


def test_the_baseline_agrees_with_the_solver_on_every_triangle5_finish():
    problem = default_problem("triangle5")
    board = problem.board
    answers = set()
    for bit in board.bits:
        goal = Problem(board, problem.start, Goal("hole", 1 << bit))
        ours = solve(goal, budget=Budget(20))
        base = baseline_solve(board, problem.start, 1 << bit, Budget(20))
        assert base.status == ours.status, board.name_of[bit]
        if base.status == "solved":
            assert len(base.jumps) == problem.start.bit_count() - 1
        answers.add(base.status)
    assert answers == {"solved", "impossible"}
    english = get_board("english")
    assert baseline_solve(english, english.start("d4"), 1 << english.hole("d4"),
                          Budget(max_nodes=5000)).status == "unknown"


def test_the_fits_recover_known_curves():
    p = fits.power_fit([10, 100, 1000, 10000], [2 * x ** 1.5 for x in (10, 100, 1000, 10000)])
    assert p is not None and abs(p["a"] - 2) < 1e-9 and abs(p["b"] - 1.5) < 1e-9 and abs(p["r2"] - 1) < 1e-12
    e = fits.exp_fit(list(range(8)), [3 * 1.8 ** x for x in range(8)])
    assert e is not None and abs(e["base"] - 1.8) < 1e-9
    assert fits.power_fit([1, 2], [1, 2]) is None  # too few points
    xs = list(range(10, 30))
    bent = fits.bend(xs, [1.6 ** x if x <= 20 else 1.6 ** 20 * 1.05 ** (x - 20) for x in xs])
    assert bent is not None and bent["bends"] and bent["at"] == 20 and bent["base_after"] < bent["base_before"]
    straight = fits.bend(xs, [1.3 ** x for x in xs])
    assert straight is not None and not straight["bends"]


def test_the_page_study_runs_under_cpython_without_matplotlib_and_yields_progress(monkeypatch):
    """bench.html's "Run the quick study here" is the worker's "study" request: the same runs as the
    command line's plan, one per step with progress, then JSON that validates (matplotlib is never
    needed: Pyodide cannot fetch it)."""
    from pyapp.web import api

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # any import of it now fails
    args = {"boards": ["triangle7", "english"], "max_pegs": 15, "warm_solves": 5, "browser": "test"}
    job = api.start("study", json.dumps(args))
    seen = []
    while True:
        out = json.loads(job.step())
        if out["done"]:
            break
        seen.append(out["progress"])
    data = out["result"]
    assert scaling.validate(data) == []
    plan = scaling.Plan.of(True, ["triangle7", "english"], max_pegs=15)
    expected = [(b, p, 1, s) for b in plan.boards for p in plan.peg_counts(get_board(b)) for s in scaling.SOLVERS]
    assert [(r["board"], r["pegs"], r["seed"], r["solver"]) for r in data["runs"]] == expected
    runs = [p for p in seen if p["phase"] == "runs"]
    assert [p["done"] for p in runs] == list(range(1, len(expected) + 1))
    assert runs[-1]["planned"] == len(expected) == plan.planned_runs()
    assert [p["run"] for p in runs] == data["runs"]
    assert [p["done"] for p in seen if p["phase"] == "fixed cost"] == list(range(1, 16))  # 5 solves, answers, states
    assert data["fixed_cost"]["cold_ms"] is None and data["fixed_cost"]["warm_ms"] > 0
    assert data["study"]["max_pegs"] == 15 and data["study"]["environment"]["browser"] == "test"
    assert set(data["fits"]) == {"all", "triangle7", "english"}


def test_the_page_study_stops_between_two_runs_on_cancel():
    from pyapp.web import api

    job = api.start("study", json.dumps({"boards": ["english"]}))
    for _ in range(3):
        assert not json.loads(job.step())["done"]
    out = json.loads(job.cancel())
    assert out["done"] and out["result"]["cancelled"] is True and len(out["result"]["runs"]) == 3
    bad = json.loads(api.start("study", json.dumps({"boards": ["moon"]})).step())
    assert bad["done"] and "not moon" in bad["error"]
