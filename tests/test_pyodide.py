"""pyapp inside real Pyodide (CPython 3.14 compiled to WebAssembly) under Node, offline.

``scripts/pyodide_runner.mjs`` loads the pinned npm ``pyodide`` from ``node_modules`` (network
requests refused), writes ``pyapp/`` into Pyodide's file system and runs Python there.  One Node
process per module (loading Pyodide costs seconds) answers every question below as JSON; the
answers are then re-checked here, in CPython, so the two runtimes check each other.

Skipped only when ``node`` or ``node_modules/pyodide`` is missing, and then a failure instead
when ``PEG_REQUIRE_PYODIDE=1`` (as in CI).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pyapp.cli.main import main
from pyapp.core.game import replay
from pyapp.core.problem import default_problem

pytestmark = pytest.mark.pyodide

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "scripts" / "pyodide_runner.mjs"

IN_PYODIDE = r"""
import contextlib, io, json, sys
from pyapp.core.problem import default_problem
from pyapp.search.solver import solve
from pyapp.core.game import replay
from pyapp.core.notation import format_moves
from pyapp.cli.main import main
from pyapp.bench import suite as bench

p = default_problem("english")
r = solve(p, max_seconds=30)
moves = format_moves(p.board, r.jumps)
check = replay(p.board, p.start, moves)
cli_out = io.StringIO()
with contextlib.redirect_stdout(cli_out):
    code = main(["solve", "triangle5", "--json"])
row = next(bench.iter_suite(quick=True, only=["default-triangle6"], memory=True))
import hashlib
from pyapp.sat import to_dimacs
cnf = hashlib.sha256(to_dimacs(p).encode()).hexdigest()
sat_out, sat_err = io.StringIO(), io.StringIO()
with contextlib.redirect_stdout(sat_out), contextlib.redirect_stderr(sat_err):
    sat_code = main(["solve", "triangle5", "--engine", "sat"])
from pyapp.core.budget import Budget, drive
from pyapp.exact.endgame import endgame_steps
d = default_problem("diamond41")
eg = drive(endgame_steps(d.board, d.goal, d.start, Budget(120)))
from pyapp.core.moves import apply_jump, legal_jumps
at = d.start
while at.bit_count() > eg.ceiling + 1:
    at = apply_jump(at, legal_jumps(d.board, at)[-1])
eg.limit = 1 << 40
eg.question()
pruned = [[eg.can_win(apply_jump(at, j)) for j in legal_jumps(d.board, at)], eg.searched]
eg.memo.clear(); eg._subtree = None; eg.pagodas = lambda: None  # the plain search too
eg.question()
before = eg.searched
plain = [[eg.can_win(apply_jump(at, j)) for j in legal_jumps(d.board, at)], eg.searched - before]
print("RESULT " + json.dumps({
    "endgame": [eg.low, eg.ceiling, len(eg), sum(sum(keys) % 1000003 for keys in eg.levels.values())],
    "endgame_search": [pruned, plain],
    "platform": sys.platform, "version": sys.version.split()[0],
    "english": {"status": r.status, "reason": r.reason, "moves": moves, "jumps": len(r.jumps),
                "replay_valid": check.valid, "replay_final": check.final, "goal_reached": p.goal.reached(check.final),
                "nodes": r.nodes, "seconds": r.seconds},
    "cli": {"code": code, "out": cli_out.getvalue()},
    "cnf": {"sha256": cnf, "sat_code": sat_code, "sat_out": sat_out.getvalue(), "sat_err": sat_err.getvalue()},
    "bench_row": row,
}))
"""


def _pyodide_missing() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").exists():
        return "node_modules/pyodide is missing (run 'npm ci')"
    return None


@pytest.fixture(scope="module")
def pyodide_answers() -> dict:
    missing = _pyodide_missing()
    if missing:
        if os.environ.get("PEG_REQUIRE_PYODIDE") == "1":
            pytest.fail(f"PEG_REQUIRE_PYODIDE=1 but {missing}")
        pytest.skip(missing)
    proc = subprocess.run(["node", str(RUNNER), "--timing", "-c", IN_PYODIDE], cwd=ROOT, capture_output=True,
                          text=True, timeout=180)
    assert proc.returncode == 0, f"runner failed ({proc.returncode}):\n{proc.stderr[-3000:]}"
    line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
    assert line, f"no RESULT line in the runner's output:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    answers = json.loads(line[len("RESULT "):])
    timing = next(x for x in proc.stderr.splitlines() if x.startswith('{"timing"'))
    answers["timing"] = json.loads(timing)["timing"]
    return answers


def test_really_runs_in_webassembly(pyodide_answers):
    assert pyodide_answers["platform"] == "emscripten"
    assert pyodide_answers["version"].startswith("3.")
    assert pyodide_answers["timing"]["load_s"] > 0


def test_solves_the_english_central_game(pyodide_answers):
    # Bergholt (1912); Winning Ways ch. 23: the central game d4 -> d4 is solvable, in 31 jumps (32 pegs -> 1).
    english = pyodide_answers["english"]
    assert english["status"] == "solved", english
    assert english["jumps"] == 31
    assert english["replay_valid"] and english["goal_reached"]


def test_pyodide_solution_replays_in_cpython(pyodide_answers):
    p = default_problem("english")
    check = replay(p.board, p.start, pyodide_answers["english"]["moves"])
    assert check.valid, check.error
    assert check.final == 1 << p.board.hole("d4")
    assert check.final == pyodide_answers["english"]["replay_final"]


def test_cli_gives_the_same_answer_in_both_runtimes(pyodide_answers, capsys):
    # the solver is deterministic without a seed: both runtimes must print the same solution
    assert pyodide_answers["cli"]["code"] == 0
    wasm = json.loads(pyodide_answers["cli"]["out"])
    assert main(["solve", "triangle5", "--json"]) == 0
    native = json.loads(capsys.readouterr().out)
    for key in ("status", "moves", "jumps", "final", "nodes"):
        assert wasm[key] == native[key], key


def test_cnf_export_in_pyodide(pyodide_answers):
    """The web app's "Download CNF" runs to_dimacs in Pyodide: the same text as in CPython, and a clear one-line
    error for the SAT engine, which needs a native package (asked in the module's one Pyodide run: a Pyodide start
    under Node is 4-5 s of CPU)."""
    import hashlib

    from pyapp.sat import to_dimacs

    cnf = pyodide_answers["cnf"]
    assert cnf["sha256"] == hashlib.sha256(to_dimacs(default_problem("english")).encode()).hexdigest()
    assert cnf["sat_code"] == 2 and not cnf["sat_out"], cnf
    assert cnf["sat_err"].startswith("error: no SAT solver installed") and cnf["sat_err"].count("\n") == 1, cnf


def test_quick_bench_row_in_pyodide(pyodide_answers):
    row = pyodide_answers["bench_row"]
    assert row["name"] == "default-triangle6"
    assert row["check"] == "ok", row["check"]
    assert row["median_s"] > 0 and row["peak_mb"] is not None
    assert row["wasm_heap_mb"] and row["wasm_heap_mb"] > 1  # measured from the Emscripten heap inside Pyodide


def test_the_endgame_table_is_the_same_in_pyodide(pyodide_answers):
    """The goal's endgame table (pyapp.exact.endgame) swept in the page's runtime holds the same classes as here, and
    its compiled search (pyapp.exact.subtree) gives the same verdicts after searching the same classes, with the
    board's table pagodas (pyapp.exact.pagoda_prune) and without them."""
    from pyapp.core.budget import Budget, drive
    from pyapp.core.moves import apply_jump, legal_jumps
    from pyapp.core.problem import default_problem
    from pyapp.exact import endgame

    d = default_problem("diamond41")
    endgame.clear()
    eg = drive(endgame.endgame_steps(d.board, d.goal, d.start, Budget(120)))
    assert eg is not None
    here = [eg.low, eg.ceiling, len(eg), sum(sum(keys) % 1000003 for keys in eg.levels.values())]
    at = d.start
    while at.bit_count() > eg.ceiling + 1:  # the same walk as in Pyodide: the last legal jump each time
        at = apply_jump(at, legal_jumps(d.board, at)[-1])
    eg.limit = 1 << 40
    eg.question()
    pruned = [[eg.can_win(apply_jump(at, j)) for j in legal_jumps(d.board, at)], eg.searched]
    eg.memo.clear()
    eg._subtree = None
    eg.pagodas = lambda: None  # type: ignore[method-assign]  # the plain search too (the table's pagodas cut it)
    eg.question()
    before = eg.searched
    plain = [[eg.can_win(apply_jump(at, j)) for j in legal_jumps(d.board, at)], eg.searched - before]
    endgame.clear()
    assert pyodide_answers["endgame"] == here and here[2] > 100_000
    assert pyodide_answers["endgame_search"] == [pruned, plain] and plain[1] > 1_000, (pruned, plain)
    assert pruned[0] == plain[0] and pruned[1] < plain[1]
