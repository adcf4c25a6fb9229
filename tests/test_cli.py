"""The command line: JSON output, exit codes, one-line errors; the shared CLI contract."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pyapp.cli.main import main

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


@pytest.mark.parametrize("typed,meant", [("germn", "german"), ("englsh", "english"), ("Diamond", "diamond41"),
                                         ("trangle5", "triangle5")])
def test_misspelt_board_ids_get_a_did_you_mean(capsys, typed, meant):
    code, out, err = run(capsys, "show", typed)
    assert code == 2 and f"unknown board '{typed}': did you mean '{meant}'?" in err
    assert "expected one of english" in err


def test_far_off_board_ids_get_no_guess(capsys):
    code, out, err = run(capsys, "show", "chess")
    assert code == 2 and "did you mean" not in err


def test_counts_are_singular_for_one(capsys):
    code, out, _ = run(capsys, "solve", "triangle4")
    assert code == 0 and "1 peg left" in out and "1 pegs" not in out
    code, out, _ = run(capsys, "replay", "english", "--start", "d4", "f4-d4")
    assert "1 jump, 1 move, 31 pegs left" in out


def test_long_analyses_report_progress_on_stderr(capsys, monkeypatch):
    from pyapp.cli.commands import _progress

    monkeypatch.setattr(_progress, "FIRST_SECONDS", 0.0)
    monkeypatch.setattr(_progress, "EVERY_SECONDS", 0.0)
    # half a second (the budget is not the subject): about 15 progress lines, all on stderr
    code, out, err = run(capsys, "count", "english", "--max-seconds", "0.5", "--json")
    assert code == 0 and json.loads(out)["status"] == "unknown"  # stdout stays one JSON object
    lines = err.strip().splitlines()
    numbers = [int(line.split(": ")[1].split()[0].replace(",", "")) for line in lines]
    assert len(lines) >= 3 and all(line.startswith("count: ") and " positions, " in line for line in lines)
    assert numbers == sorted(numbers) and numbers[-1] > numbers[0]  # real, growing counts


def test_short_runs_print_no_progress(capsys):
    code, out, err = run(capsys, "count", "triangle5", "--start", "1", "--goal", "any")
    assert code == 0 and err == ""


@pytest.mark.parametrize("argv", [["finishes", "german", "--max-seconds", "0.5"],
                                  ["hint", "german", "--max-seconds", "0.5"]])
def test_finishes_and_hint_report_progress_too(capsys, monkeypatch, argv):
    from pyapp.cli.commands import _progress

    monkeypatch.setattr(_progress, "FIRST_SECONDS", 0.0)
    monkeypatch.setattr(_progress, "EVERY_SECONDS", 0.0)
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0 and json.loads(out)
    lines = err.strip().splitlines()
    # nodes searched in this process; a pool of workers (finishes' solver method) reports shares done instead
    assert lines and all(line.startswith(f"{argv[0]}: ") and (" nodes, " in line or " workers, " in line)
                         for line in lines), err
