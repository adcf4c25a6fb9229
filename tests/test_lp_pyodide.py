"""The same programmes give the same answers from both back ends: highspy in CPython and the highs WebAssembly
module in real Pyodide under Node (scripts/pyodide_runner.mjs registers static/engine/lp.mjs as ``peg_lp``).
Without the module the Pyodide side answers ``unavailable`` and the proofs that need no programme still run.

Skipped only when ``node``, ``node_modules/pyodide`` or ``node_modules/highs`` is missing, and then a failure
instead when ``PEG_REQUIRE_PYODIDE=1`` (as in CI)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.pyodide

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "scripts" / "pyodide_runner.mjs"

MODELS = r"""
import json
from pyapp.core.catalogue import get_board
from pyapp.proofs import lp
from pyapp.proofs.pagoda import find_pagoda, pagoda_model, peg_row
from pyapp.proofs.separation import frontier, separation_steps
from pyapp.proofs.pagoda import _drive

def knapsack():
    m = lp.Model(sense="max")
    a, b, c = (m.add_var(0, 1, cost=w, integer=True) for w in (5, 4, 3))
    for coef, cap in (((2, 3, 1), 5), ((4, 1, 2), 11), ((3, 4, 2), 8)):
        m.add_row(dict(zip((a, b, c), coef)), upper=cap)
    return m

def pigeons(n):
    m = lp.Model(sense="min")
    x = [[m.add_var(0, 1, integer=True) for _ in range(n)] for _ in range(n + 1)]
    for row in x:
        m.add_row({v: 1 for v in row}, lower=1)
    for h in range(n):
        m.add_row({row[h]: 1 for row in x}, upper=1)
    return m

def pagoda_lp(board_id, holes, goal):
    board = get_board(board_id)
    m = pagoda_model(board, 2)
    t = m.add_var(None, None, cost=1)
    row = peg_row(board, 1 << board.hole(goal)); row[t] = -1
    m.add_row(row, lower=0)
    for h in holes:
        m.cost[board.bits.index(board.hole(h))] = -1
    return m

def out(s):
    return {"status": s.status, "objective": None if s.objective is None else round(s.objective, 9),
            "x": None if s.x is None else [round(v, 9) for v in s.x], "nodes": s.nodes, "backend": s.backend,
            "message": s.message}

d41 = get_board("diamond41")
english = get_board("english")
answers = {
    "knapsack": out(lp.solve(knapsack())),
    "pigeons": out(lp.solve(pigeons(5))),
    "pagoda-english": out(lp.solve(pagoda_lp("english", ["c1", "e1", "d4"], "d4"))),
    "pagoda-english-solvable": out(lp.solve(pagoda_lp("english", [h for h in english.names if h != "d4"], "d4"))),
    "find-pagoda": sorted(find_pagoda(english, sum(1 << english.hole(h) for h in ("c1", "e1", "d4")),
                                      [1 << english.hole("d4")]).items()),
    "separation": _drive(separation_steps(d41, d41.start("e1"), 1 << d41.hole("e9"))).reason(d41),
}
from pyapp.core.position import parse_position
from pyapp.proofs.jumpcounts import counts_model
lost = parse_position(english, "o.o/o.o/ooooooo/o...ooo/ooo.ooo/ooo/ooo")  # tests/test_jumpcounts.py: no pagoda
answers["counts-lost"] = lp.solve(counts_model(english, lost, [1 << english.hole("d1")])).status
answers["counts-start"] = lp.solve(counts_model(english, english.start("d1"), [1 << english.hole("d1")])).status
import random
rng = random.Random(1)
limited = lp.Model(sense="min")  # a market split: thousands of nodes to settle
xs = [limited.add_var(0, 1, integer=True) for _ in range(30)]
for _ in range(4):
    a = [rng.randint(0, 99) for _ in xs]
    limited.add_row(dict(zip(xs, a)), lower=sum(a) // 2, upper=sum(a) // 2)
limited.options["mip_max_nodes"] = 20
answers["node-limit"] = out(lp.solve(limited))

import contextlib, io
from pyapp.cli.main import main
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    code = main(["solve", "triangle5", "--start", "1", "--goal", "1", "--engine", "ilp", "--json"])
answers["engine-ilp"] = {"code": code, "answer": json.loads(buf.getvalue())}
print("RESULT " + json.dumps(answers))
"""
"""The models, the pagoda programmes and ``solve triangle5 --start 1 --goal 1 --engine ilp`` (the command's own
code, in the same Pyodide: one start-up for the module's tests; this cell's programme is settled at the root in
both back ends, where the default one-peg-anywhere problem took the WebAssembly module 151 nodes and 8 s)."""


def _missing() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    for pkg in ("pyodide", "highs"):
        if not (ROOT / "node_modules" / pkg).is_dir():
            return f"node_modules/{pkg} is missing (run 'npm ci')"
    return None


@pytest.fixture(scope="module")
def runner_ok():
    why = _missing()
    if why:
        if os.environ.get("PEG_REQUIRE_PYODIDE") == "1":
            pytest.fail(why)
        pytest.skip(why)


def _node(code: str) -> subprocess.Popen:
    """The runner started on ``code`` (read its answers with :func:`_results`)."""
    return subprocess.Popen(["node", str(RUNNER), "-c", code], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _results(proc: subprocess.Popen) -> list[dict]:
    """Every ``RESULT`` line the runner printed, in order."""
    try:
        out, err = proc.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    assert proc.returncode == 0, err[-3000:]
    return [json.loads(line.removeprefix("RESULT ")) for line in out.splitlines() if line.startswith("RESULT ")]


def _cpython(code: str) -> dict:
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(code, "<models>", "exec"), {"__name__": "__models__"})
    line = next(line for line in buf.getvalue().splitlines() if line.startswith("RESULT "))
    return json.loads(line.removeprefix("RESULT "))


WITHOUT_THE_MODULE = r"""
import sys
import pyodide_js
from pyapp.proofs import lp
# as in a page whose highs file is missing (the runner's --no-lp): no peg_lp module, the back end chosen anew
pyodide_js.unregisterJsModule("peg_lp")
sys.modules.pop("peg_lp", None)
lp.use_backend(None)
from pyapp.core.catalogue import get_board
from pyapp.core.problem import make_problem
from pyapp.search.solver import solve
m = lp.Model(); m.add_var(0, 1, cost=1); m.add_row({0: 1}, upper=1)
s = lp.solve(m)
r = solve(make_problem(get_board("french"), start="d4", goal="d4"), max_nodes=10000)
print("RESULT " + json.dumps({"status": s.status, "message": s.message, "french": r.status, "reason": r.reason}))
"""
"""Run after :data:`MODELS` in the same Pyodide: the ``peg_lp`` module taken away again, as if never registered."""


@pytest.fixture(scope="module")
def answers(runner_ok) -> tuple[dict, dict, dict]:
    """:data:`MODELS` answered in Pyodide (the WebAssembly back end) and in CPython (highspy), and
    :data:`WITHOUT_THE_MODULE` in the same Pyodide afterwards (one Node start-up for the module; CPython answers
    while Node runs)."""
    proc = _node(MODELS + WITHOUT_THE_MODULE)
    try:
        native = _cpython(MODELS)
    finally:
        results = _results(proc)
    wasm, without = results
    return wasm, native, without


def test_both_back_ends_give_the_same_answers(answers):
    wasm, native, _ = answers
    assert wasm["knapsack"]["backend"] == "HiGHS 1.15.1 (WebAssembly)"
    assert native["knapsack"]["backend"] == "HiGHS 1.15.1 (highspy)"
    assert wasm["knapsack"]["status"] == "optimal" and wasm["knapsack"]["objective"] == 9
    assert wasm["pigeons"]["status"] == "infeasible"
    assert wasm["pagoda-english"]["objective"] > 0 and wasm["pagoda-english-solvable"]["objective"] <= 1e-9
    assert (wasm["counts-lost"], wasm["counts-start"]) == ("infeasible", "optimal")  # the jump-count programme
    # HiGHS's options reach the WebAssembly module too: a node limit stops it there as in CPython
    assert wasm["node-limit"]["status"] == native["node-limit"]["status"] == "node limit", wasm["node-limit"]
    for name in native:
        if name in ("node-limit", "engine-ilp"):
            continue
        if isinstance(native[name], dict):
            for key in ("status", "objective", "x"):
                assert wasm[name][key] == native[name][key], (name, key, wasm[name][key], native[name][key])
        else:
            assert wasm[name] == native[name], name


def test_pyodide_without_the_module_answers_unavailable_and_still_proves_by_class(answers):
    out = answers[2]
    assert out["status"] == "unavailable" and "provides no highs module" in out["message"]
    assert out["french"] == "impossible" and "position class" in out["reason"]


def test_engine_ilp_in_pyodide_solves_and_the_solution_replays_in_cpython(answers):
    from pyapp.core.catalogue import get_board
    from pyapp.core.game import replay
    from pyapp.core.problem import make_problem

    ran = answers[0]["engine-ilp"]
    out = ran["answer"]
    assert ran["code"] == 0 and out["status"] == "solved"
    assert out["method"] == "integer programming (HiGHS 1.15.1 (WebAssembly))"
    problem = make_problem(get_board("triangle5"), start="1", goal="1")
    check = replay(problem.board, problem.start, out["moves"])
    assert check.valid and problem.goal.reached(check.final)
