"""``solve --batch FILE``: one process, one answer per line (JSON Lines with --json), the keys of
``solve --json`` plus the line number, a clear error object for a line that is not a position, and
every solution replaying."""

from __future__ import annotations

import json

import pytest

from pyapp.analysis.puzzle import make_puzzle
from pyapp.cli.main import main
from pyapp.core.catalogue import get_board
from pyapp.core.game import replay
from pyapp.core.position import format_position, parse_position


def _positions(n: int) -> list[str]:
    board = get_board("english")
    return [format_position(board, make_puzzle(board, 8 + 3 * i, seed=i).position).replace("\n", "/")
            for i in range(n)]


def test_every_line_answered_in_one_process(tmp_path, capsys):
    positions = _positions(4)
    path = tmp_path / "states.txt"
    path.write_text("# generated puzzles\n" + "\n".join([*positions[:2], "", "bad/row", *positions[2:]]) + "\n")
    assert main(["solve", "english", "--batch", str(path), "--goal", "any", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["line"] for r in rows] == [2, 3, 5, 6, 7]
    assert rows[2] == {"line": 5, "error": rows[2]["error"]} and "expected 7 rows" in rows[2]["error"]
    assert main(["solve", "english", "--position", positions[0], "--goal", "any", "--json"]) == 0
    single = json.loads(capsys.readouterr().out)
    solved = [r for r in rows if "error" not in r]
    assert all(set(r) == {"line", *single} for r in solved)
    board = get_board("english")
    for r, text in zip(solved, positions):
        assert r["status"] == "solved" and r["seconds"] >= 0
        game = replay(board, parse_position(board, text), r["moves"])
        assert game.valid and game.final.bit_count() == 1


def test_batch_refuses_what_it_cannot_do(tmp_path, capsys):
    assert main(["solve", "english", "--batch", str(tmp_path / "missing.txt"), "--json"]) == 2
    assert "cannot read the batch file" in json.loads(capsys.readouterr().out)["error"]
    path = tmp_path / "one.txt"
    path.write_text(_positions(1)[0] + "\n")
    assert main(["solve", "english", "--batch", str(path), "--start", "d4"]) == 2
    assert "leave out --start" in capsys.readouterr().err


@pytest.mark.parametrize("line", ["x" * 3000, "\x1b[31m/red"])
def test_hostile_lines_get_an_error_object(tmp_path, capsys, line):
    path = tmp_path / "bad.txt"
    path.write_text(line + "\n")
    assert main(["solve", "english", "--batch", str(path), "--json"]) == 0
    out = capsys.readouterr().out
    row = json.loads(out)
    assert row["line"] == 1 and "error" in row and "\x1b" not in out
