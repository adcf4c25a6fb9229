"""scripts/opening_book.py, the command that makes the committed opening books: run in two parts and resumed, it
writes a book file that decodes to the book its records assemble, and its figures (levels, solver CPU, never-lose
with and without the book) into the JSON the report reads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pyapp.analysis.proven import REPAIRED
from pyapp.core.problem import default_problem
from pyapp.exact.openingbook import assemble, frontier
from pyapp.exact.openingbook_files import decode_book, file_name

ROOT = Path(__file__).resolve().parents[1]
GAME = ["triangle6", "4", "any", "--pegs", "17"]


def script(name: str, *args: str) -> str:
    """Run ``scripts/NAME`` with ``args`` from the project root; its output (it must succeed)."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / name), *args],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _run(*args: str) -> str:
    return script("opening_book.py", *GAME, *args)


def test_parts_resume_write_and_measure(tmp_path):
    records = [tmp_path / "part0.jsonl", tmp_path / "part1.jsonl"]
    for k, path in enumerate(records):
        _run("--seconds", "5", "--records", str(path), "--part", str(k), "--parts", "2")
    assert "0 left in part 0" in _run("--records", str(records[0]), "--part", "0", "--parts", "2")  # resumed: done
    both = [arg for path in records for arg in ("--records", str(path))]
    out = tmp_path / "books.json"
    made = json.loads(_run(*both, "--write", str(tmp_path), "--out", str(out)))
    problem = default_problem("triangle6")
    data = (tmp_path / file_name(problem)).read_bytes()
    assert made["bytes"] == len(data) and made["decided"] == made["asked"] == 91
    cd, levels = frontier(problem, 17)
    rows = [json.loads(line) for path in records for line in path.read_text().splitlines()]
    want = assemble(problem, cd, levels, rows)
    got = decode_book(data, problem)
    assert (got.won, got.lost) == (want.won, want.lost) and len(got) == sum(len(k) for k in levels.values())
    _run(*both, "--measure", "1", "--out", str(out))
    figures = json.loads(out.read_text())["games"]["triangle6 4 -> any"]
    assert figures["book"]["levels"]["17"] == [91, 0, 91] and figures["measure"]["disagreements"] == 0
    assert figures["measure"]["count"] > 0 and figures["measure"]["from_book"] == figures["measure"]["count"]


def test_a_deeper_book_starts_from_the_book_above(tmp_path):
    """``--book``: a level one deeper is decided mostly by adapting the lines of the book above (no solver), the
    book's own verdicts join the records, and the result is the book the solver alone makes."""
    above = tmp_path / "above"
    above.mkdir()
    first = tmp_path / "17.jsonl"
    _run("--seconds", "5", "--records", str(first))
    _run("--records", str(first), "--write", str(above))
    deeper = [*GAME[:3], "--pegs", "16"]

    def run16(*args: str) -> str:
        return script("opening_book.py", *deeper, *args)

    adapted, alone = tmp_path / "16-adapted.jsonl", tmp_path / "16-alone.jsonl"
    out = run16("--seconds", "5", "--records", str(adapted), "--book", str(above))
    rows = [json.loads(line) for line in adapted.read_text().splitlines()]
    repaired = [r for r in rows if r["method"] == REPAIRED]
    first_pass = int(out.split(" adapted from a neighbour's line")[0].split("\n")[-1])
    assert 0 < first_pass <= len(repaired)  # the first pass, then more as the solver's lines join them
    run16("--seconds", "5", "--records", str(alone))
    problem = default_problem("triangle6")
    for folder, records, book in ((tmp_path / "a", adapted, ["--book", str(above)]), (tmp_path / "b", alone, [])):
        folder.mkdir()
        run16("--records", str(records), *book, "--write", str(folder))
    got = decode_book((tmp_path / "a" / file_name(problem)).read_bytes(), problem)
    want = decode_book((tmp_path / "b" / file_name(problem)).read_bytes(), problem)
    assert set(got.won) == set(want.won) and set(got.lost) == set(want.lost) and got.deepest == want.deepest == 16


def test_without_a_book_the_classes_solved_so_far_are_adapted(tmp_path):
    """``--adapt`` with no book above: a class whose parent has a solved child is settled by adapting that child's
    line (no solver), and the records make the same book as the solver's alone."""
    adapted, alone = tmp_path / "adapted.jsonl", tmp_path / "alone.jsonl"
    _run("--seconds", "5", "--records", str(adapted), "--adapt")
    _run("--seconds", "5", "--records", str(alone))
    rows = {path: [json.loads(line) for line in path.read_text().splitlines()] for path in (adapted, alone)}
    assert any(r["method"] == REPAIRED for r in rows[adapted])
    assert not any(r["method"] == REPAIRED for r in rows[alone])
    problem = default_problem("triangle6")
    cd, levels = frontier(problem, 17)
    got, want = (assemble(problem, cd, levels, rows[path]) for path in (adapted, alone))
    assert (set(got.won), set(got.lost)) == (set(want.won), set(want.lost))
