"""Whole tables spread over a pool, start by start: the same table as in one process, one progress line,
and Ctrl+C stops every worker at once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from pyapp.cli.main import main

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


def test_ctrl_c_stops_every_worker(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "pyapp", "table", "english", "--workers", "2",
                             "--problem-seconds", "60"], cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    workers: list[int] = []
    while time.time() < deadline and len(workers) < 2:
        time.sleep(0.05)
        workers = _children(proc.pid)
    assert len(workers) >= 2, "the workers never started"
    time.sleep(0.5)  # busy on their first starts
    t0 = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=10) == 130
    assert time.perf_counter() - t0 < 2.0
    gone = time.perf_counter() + 0.2
    while time.perf_counter() < gone and any(os.path.exists(f"/proc/{w}") and _alive(w) for w in workers):
        time.sleep(0.01)
    assert not any(_alive(w) for w in workers)


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
    assert row["runs"][1]["levels"] and all("shard_cpu" in lv and lv["bytes"] >= 0 for lv in row["runs"][1]["levels"])
    assert {"8", "64", "512", "best_workers"} <= set(row["model"])


def test_sharding_breakdown_times_its_parts_on_a_small_level():
    from pyapp.bench.speedup import breakdown

    b = breakdown("triangle6", pegs=14, shards=2)
    assert b["parents"] > 0 and b["children"] > 0 and b["keys_sent"] >= b["children"]
    assert set(b["sharded"]) == {"expand", "bucket", "merge"} and b["ratio"] > 0
