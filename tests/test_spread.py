"""Whole tables spread over a pool, start by start: the same table as in one process, one progress line,
and Ctrl+C stops every worker at once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from pyapp.cli.main import main
from tests.test_cli_robust import default_sigint

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(argv: list[str], capsys) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_table_on_two_workers_is_the_table_in_one_process(capsys):
    one = _run(["table", "triangle5", "--workers", "1", "--json", "--quiet"], capsys)
    two = _run(["table", "triangle5", "--workers", "2", "--json", "--quiet"], capsys)
    strip = [{k: v for k, v in c.items() if k != "seconds"} for c in one["cells"]]
    assert [{k: v for k, v in c.items() if k != "seconds"} for c in two["cells"]] == strip
    assert two["complete"] and two["counts"] == one["counts"]


def test_fewest_all_on_two_workers_is_the_table_in_one_process(capsys):
    one = _run(["fewest", "triangle5", "--all", "--workers", "1", "--json"], capsys)
    two = _run(["fewest", "triangle5", "--all", "--workers", "2", "--json"], capsys)

    def rows(r):
        return [{k: v for k, v in row.items() if "seconds" not in k} for row in r["rows"]]
    assert rows(two) == rows(one) and two["pending"] == one["pending"] == []


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def _interrupt(argv: list[str]) -> None:
    """Start the command, wait for its two workers to be busy, press Ctrl+C: it ends at once, and so do they."""
    proc = subprocess.Popen([sys.executable, "-m", "pyapp", *argv], cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    deadline = time.time() + 30
    workers: list[int] = []
    while time.time() < deadline and len(workers) < 2:
        time.sleep(0.05)
        workers = _children(proc.pid)
    assert len(workers) >= 2, "the workers never started"
    time.sleep(0.5)  # busy on their first tasks
    t0 = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=10) == 130
    assert time.perf_counter() - t0 < 2.0
    gone = time.perf_counter() + 0.2
    while time.perf_counter() < gone and any(os.path.exists(f"/proc/{w}") and _alive(w) for w in workers):
        time.sleep(0.01)
    assert not any(_alive(w) for w in workers)


def test_ctrl_c_stops_every_worker():
    _interrupt(["table", "english", "--workers", "2", "--problem-seconds", "60"])


TRIANGLE9 = "triangle:" + "/".join(" " * (8 - i) + " ".join("o" * (i + 1)) for i in range(9))
"""The triangle of side 9 (45 holes): from vacancy 4 finishes takes the solver method, several seconds of it."""


def test_ctrl_c_stops_every_finishes_worker():
    _interrupt(["finishes", TRIANGLE9, "--start", "4", "--workers", "2"])


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_a_batch_on_two_workers_answers_in_the_files_order(tmp_path, capsys):
    lines = ["o.o/ooo/ooo", "not a position", "", "ooo/o.o/ooo", "..o/.o./o.."]
    f = tmp_path / "batch.txt"
    f.write_text("\n".join(lines) + "\n")

    def answers(workers: str) -> list[dict]:
        assert main(["solve", "square:ooo/ooo/ooo", "--batch", str(f), "--goal", "any", "--workers", workers,
                     "--json"]) == 0
        return [{k: v for k, v in json.loads(x).items() if k != "seconds"}
                for x in capsys.readouterr().out.splitlines()]
    one = answers("1")
    assert answers("2") == one and [r["line"] for r in one] == [1, 2, 4, 5]


def test_bench_parallel_row_and_model(capsys):
    r = _run(["bench", "--parallel", "--only", "parallel-count-triangle6", "--json"], capsys)
    row = r["parallel"][0]
    assert row["same_answer"] and r["wrong"] == [] and row["answer"][1] == 113077359159
    assert [x["workers"] for x in row["runs"]] == [1, 2]
    # one sweep carries both sides of this count (pyapp.exact.count.joint): on a local pool of two it is sharded,
    # so its levels are recorded and the model projects them
    assert row["runs"][1]["levels"] and {"8", "64", "512", "best_workers"} <= set(row["model"])


def test_bench_parallel_model_of_the_sharded_levels():
    from pyapp.bench.speedup import model
    from pyapp.core.problem import default_problem
    from pyapp.exact.count import count_exact
    from pyapp.exact.pool import InProcess
    from pyapp.exact.sharded import Parallel

    par = Parallel(InProcess(), shards=2)
    count_exact(default_problem("triangle6"), parallel=par)
    levels = [st.as_dict() for st in par.stats]  # what bench --parallel records of a sharded run
    m = model(10.0, [{"workers": 2, "levels": levels, "wall": 6.0, "cpu": 11.0}])
    assert {"8", "64", "512", "best_workers"} <= set(m) and m["best_workers"] >= 2


def test_sharding_breakdown_times_its_parts_on_a_small_level():
    from pyapp.bench.speedup import breakdown

    b = breakdown("triangle6", pegs=14, shards=2)
    assert b["parents"] > 0 and b["children"] > 0 and b["keys_sent"] >= b["children"]
    assert set(b["sharded"]) == {"expand", "bucket", "merge"} and b["ratio"] > 0


# ---------------------------------------------------------------- finishes, puzzle batches, bench rows on a pool

def _cli(argv: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pyapp", *argv], cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT),
                          capture_output=True, text=True, timeout=60)


def _replays(board_id: str, start: str, moves: list[str], hole: str) -> bool:
    from pyapp.core.catalogue import get_board
    from pyapp.core.game import replay

    board = get_board(board_id)
    rep = replay(board, board.start(start), moves)
    return rep.valid and rep.final == 1 << board.hole(hole)


def test_finishes_on_two_workers_is_the_answer_in_one_process(capsys):
    # triangle7 from 4 takes the solver method by itself (its exploration passes the cap), cheaply
    one = _run(["finishes", "triangle7", "--start", "4", "--workers", "1", "--json"], capsys)
    two = _run(["finishes", "triangle7", "--start", "4", "--workers", "2", "--json"], capsys)
    assert one["method"] == two["method"] == "solver" and len(one["finishes"]) == 9
    for key in ("finishes", "impossible", "unknown", "positions"):
        assert two[key] == one[key], key
    for r in (one, two):
        assert set(r["solutions"]) == set(r["finishes"])
        assert all(_replays("triangle7", "4", moves, hole) for hole, moves in r["solutions"].items())


def test_finishes_shares_on_a_pool_answer_as_one_process():
    """The worker task on a real pool, the solver forced on a small board: the merged shares are the
    one-process answer of the same method."""
    from pyapp.analysis import spread
    from pyapp.analysis.finishes import finishes, merge, split_holes
    from pyapp.core.budget import Budget
    from pyapp.core.catalogue import get_board
    from pyapp.exact.processes import Processes

    board = get_board("triangle5")
    pos = board.start("4")
    whole = finishes(board, pos, max_seconds=30, max_positions=1)
    shares = split_holes(board, pos, 2)
    with Processes(2) as pool:
        parts = list(pool.map(spread.finishes_share, spread.finishes_jobs(board, pos, shares, Budget(30))))
    merged = merge(board, [f for _, f in sorted(parts, key=lambda p: p[0])])
    assert merged.method == whole.method == "solver" and len(shares) == 2
    assert (set(merged.possible), merged.impossible, merged.unknown) == (set(whole.possible), whole.impossible, {})


def test_finishes_by_the_exhaustive_method_starts_no_pool(capsys, monkeypatch):
    from pyapp.cli.commands import finishes as command

    def no_pool(*_):
        raise AssertionError("a pool was started for the exhaustive method")
    monkeypatch.setattr(command, "pool_from_args", no_pool)
    r = _run(["finishes", "triangle5", "--start", "1", "--workers", "2", "--json"], capsys)
    assert r["method"] == "exhaustive" and r["finishes"] == ["1", "7", "10", "13"]


def test_puzzle_batch_on_two_workers_is_the_puzzles_made_one_by_one(capsys):
    args = ["puzzle", "triangle6", "--pegs", "12", "--count", "9", "--seed", "40", "--json"]
    one = _run([*args, "--workers", "1"], capsys)
    two = _run([*args, "--workers", "2"], capsys)
    assert two == one and (one["seed"], one["count"]) == (40, 9)
    alone = [_run(["puzzle", "triangle6", "--pegs", "12", "--seed", str(s), "--json"], capsys) for s in range(40, 49)]
    assert one["puzzles"] == alone


def test_puzzle_batch_keeps_a_seeds_error_and_draws_a_printed_base_seed(capsys):
    # English with 31 pegs: seed 5's walk finds no position within its budget, seeds 4 and 6 do
    r = _run(["puzzle", "english", "--pegs", "31", "--count", "3", "--seed", "4", "--workers", "2", "--json"], capsys)
    assert [p["seed"] for p in r["puzzles"]] == [4, 5, 6] and "error" in r["puzzles"][1]
    assert "error" not in r["puzzles"][0] and "error" not in r["puzzles"][2]
    drawn = _run(["puzzle", "triangle5", "--pegs", "5", "--count", "2", "--workers", "1", "--json"], capsys)
    again = _run(["puzzle", "triangle5", "--pegs", "5", "--count", "2", "--seed", str(drawn["seed"]), "--json"],
                 capsys)
    assert again["puzzles"] == drawn["puzzles"]
    assert main(["puzzle", "triangle5", "--pegs", "5", "--count", "2", "--seed", "7"]) == 0
    assert capsys.readouterr().out.startswith("triangle5: 2 puzzles of 5 pegs, seeds 7 to 8\n")


def test_bench_rows_on_two_workers_answer_as_in_one_process(capsys):
    rows = ["default-triangle4", "default-triangle5", "triangle5-count-1-any", "impossible-french-centre"]
    args = ["bench", "--quick", "--no-memory", "--only", *rows, "--json"]
    one, two = _run(args, capsys), _run([*args, "--workers", "2"], capsys)
    keys = ("name", "status", "answer", "check", "nodes", "entries", "runs")
    assert [{k: r[k] for k in keys} for r in two["rows"]] == [{k: r[k] for k in keys} for r in one["rows"]]
    assert [r["name"] for r in one["rows"]] == rows and one["wrong"] == two["wrong"] == []


BAD_OPTIONS = [
    (["puzzle", "english", "--pegs", "10", "--count", "0"], "expected 1 to 10,000 puzzles"),
    (["puzzle", "english", "--pegs", "10", "--count", "10001"], "expected 1 to 10,000 puzzles"),
    (["puzzle", "english", "--pegs", "10", "--count", "many"], "whole number of puzzles"),
    (["puzzle", "english", "--pegs", "10", "--count", "5", "--seed", "999998"], "passes the last seed"),
    (["puzzle", "english", "--pegs", "10", "--workers", "2"], "go with --count"),
    (["puzzle", "english", "--pegs", "10", "--count", "3", "--workers", "2", "--cluster", "tcp://h:1"], "not both"),
    (["puzzle", "english", "--pegs", "40", "--count", "3"], "2 to 32 pegs"),
    (["finishes", "triangle5", "--workers", "2", "--cluster", "tcp://h:1"], "not both"),
    (["finishes", "triangle5", "--workers", "0"], "at least 1"),
    (["bench", "--only", "default-triangle4", "--workers", "2", "--cluster", "tcp://h:1"], "not both"),
    (["bench", "--parallel", "--workers", "2"], "--workers-list"),
]


@pytest.mark.parametrize("argv,message", BAD_OPTIONS)
def test_bad_pool_and_batch_options_are_one_line_errors(argv, message, capsys):
    """In this process, through :func:`main` (what ``python -m pyapp`` runs and exits with): a process of its own
    for each case cost half a second of start-up; the next test runs them through the command."""
    assert main([*argv, "--json"]) == 2
    out, err = capsys.readouterr()
    assert message in json.loads(out)["error"]
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err


def test_bad_pool_options_are_one_line_errors_from_the_command():
    """Two of :data:`BAD_OPTIONS` (a count and a pool option) through ``python -m pyapp``, in a process."""
    for argv, message in (BAD_OPTIONS[0], BAD_OPTIONS[7]):
        proc = _cli([*argv, "--json"])
        assert proc.returncode == 2 and message in json.loads(proc.stdout)["error"]
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: ") and "Traceback" not in proc.stderr


def test_hint_on_two_workers_files_the_jumps_as_one_process(capsys):
    # triangle 4 from its default start: two classes of jumps, 7-2 good and 9-2 proved losing
    argv = ["hint", "triangle4", "--json", "--cpu-time", "--max-seconds", "60"]
    one = _run([*argv, "--workers", "1"], capsys)
    two = _run([*argv, "--workers", "2"], capsys)
    assert one["good"] == ["7-2"] and one["bad"] == ["9-2"] and not one["unknown"]
    for key in ("good", "bad", "unknown", "reasons"):
        assert two[key] == one[key], key
    assert set(two["lines"]) == set(two["good"])
