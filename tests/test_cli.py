"""The command line: JSON output, exit codes, one-line errors; the shared CLI contract."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pyapp.cli import main

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ROOT.parent / "shared" / "contract" / "check_cli.py"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv):
    code, out, err = run(capsys, *argv, "--json")
    return code, json.loads(out), err


def test_boards(capsys):
    code, obj, _ = run_json(capsys, "boards")
    assert code == 0
    assert [b["id"] for b in obj["boards"]][:2] == ["english", "french"]
    assert obj["boards"][0]["holes"] == 33


def test_show_text_and_svg(capsys):
    code, out, _ = run(capsys, "show", "english")
    assert code == 0 and "ooo.ooo" in out and "f4-d4" in out
    code, obj, _ = run_json(capsys, "show", "triangle5", "--start", "1", "--svg")
    assert obj["svg"].startswith("<svg") and 'data-hole="15"' in obj["svg"]


def test_solve_json_keys(capsys):
    code, obj, _ = run_json(capsys, "solve", "triangle5", "--start", "1", "--goal", "any")
    assert code == 0 and obj["status"] == "solved"
    assert obj["jumps"] == 13 and obj["pegs_left"] == 1 and obj["reason"] is None
    assert set(obj) >= {"status", "reason", "moves", "jumps", "pegs_left", "final", "nodes", "seconds"}


def test_solve_custom_board(capsys):
    code, obj, _ = run_json(capsys, "solve", "square:.ooo", "--goal", "any")
    assert code == 0 and obj["status"] == "impossible"  # three pegs in a row next to a hole: one jump, two left


def test_replay_moves_after_options(capsys):
    code, obj, _ = run_json(capsys, "replay", "english", "f4-d4", "--start", "d4", "e2-e4")
    assert code == 0 and obj["valid"] and obj["jumps"] == 2


def test_replay_valid_and_invalid(capsys):
    code, obj, _ = run_json(capsys, "replay", "english", "--start", "d4", "f4-d4", "g3-e3")
    assert code == 0 and not obj["valid"] and "move 2 (g3-e3)" in obj["error"]
    code, obj, _ = run_json(capsys, "replay", "english", "--start", "d4", "f4-d4", "e2-e4")
    assert obj["valid"] and obj["jumps"] == 2 and obj["moves"] == 2 and obj["pegs_left"] == 30


@pytest.mark.parametrize("argv,message", [
    (["solve", "nope"], "unknown board 'nope'"),
    (["solve", "english", "--start", "z99"], "no hole 'z99'"),
    (["solve", "english", "--position", "ooo/ooo"], "expected 7 rows"),
    (["solve", "english", "--max-nodes", "-3"], "expected a number >= 0"),
    (["solve", "english", "--start", "d4", "--position", "x"], "not allowed with argument"),
    (["frobnicate"], "invalid choice"),
    (["show", "square:o?o"], "unexpected character '?'"),
])
def test_bad_input_is_exit_2_with_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv, "--json")
    assert code == 2
    assert message in json.loads(out)["error"]
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err


def test_entry_point_runs_as_module():
    proc = subprocess.run([sys.executable, "-m", "pyapp", "solve", "triangle4", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and json.loads(proc.stdout)["status"] == "solved"


@pytest.mark.skipif(not CONTRACT.exists(), reason="shared/contract/check_cli.py is not beside the project")
def test_shared_cli_contract():
    proc = subprocess.run([sys.executable, str(CONTRACT)], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "CLI contract holds" in proc.stdout
