"""BENCHMARKS.md is generated: the committed file is exactly what ``bench --report`` renders from the
committed JSON in ``benchmarks/`` (so it cannot go stale), it stays short, every figure it embeds is
committed beside it, every table names its date and command, and matplotlib stays a bench-only import."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from pyapp.bench import plots, report

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 685
# 680 before the German book's comparison over 10 games, 675 before the artefact sets measured from their files,
# 670 before the table beams' comparisons, 655 before
# the never-lose stops table
# (benchmarks/neverlose_games.json "stops"),
# 620 before the never-lose games table of the games shipped with a set (benchmarks/
# neverlose_games.json) and German e1 -> e1's split coverage, 615 before the first never-lose verdict's start-up figure,
# 600 before the never-lose comparisons past the books (a row per change and game),
# 565 before the opening books (benchmarks/books.json),
# 450 before the table of the games' winnable sets (benchmarks/sets.json), 500 before the
# comparison with ParallelProject's C++ solver (benchmarks/parallelproject.json), 515 before a row for each settled
# part of German e1 -> e1's integer programme (benchmarks/lp.json; 5 of 20 so far), 525 before the goals' endgame
# tables (benchmarks/endgame.json), 545 before their shipped tables and their rows in the page


@pytest.fixture(scope="module")
def rendered():
    return report.render(report.load(ROOT / report.RESULTS))


def test_the_committed_report_is_what_the_json_renders(rendered):
    committed = (ROOT / "BENCHMARKS.md").read_text()
    assert committed == rendered, "BENCHMARKS.md is stale: run python -m pyapp bench --report"


def test_the_report_is_short_and_complete(rendered):
    assert rendered.count("\n") <= MAX_LINES
    data = report.load(ROOT / report.RESULTS)
    assert set(data) == set(report.FILES)  # every section has its file
    for image in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", rendered):
        assert (ROOT / image).is_file(), image
    assert "scaling-time-vs-pegs.svg" in rendered and "scaling-outcomes.svg" in rendered


def test_every_result_file_names_its_date_and_command():
    for name, data in report.load(ROOT / report.RESULTS).items():
        text = repr(data)
        assert re.search(r"20\d\d-\d\d-\d\d", text), name
        assert "python" in text or "node" in text, name


def test_the_published_figures_are_computed_from_the_json(rendered):
    data = report.load(ROOT / report.RESULTS)
    rows = {r["name"]: r for r in data["suite"]["rows"]}
    english = rows["english"]["chromium"]["median"]
    assert f"| Go port, fixed order (English) | 2.7 s | english, median {english * 1000:.1f} ms | " \
           f"{2.7 / english:,.0f}x |" in rendered
    assert "40,861,647,040,079,968" in rendered and "18 moves" in rendered  # the anchors kept


def test_the_committed_study_is_valid_and_full():
    from pyapp.bench import scaling

    data = report.load(ROOT / report.RESULTS)["scaling"]
    assert scaling.validate(data) == [] and data["study"]["quick"] is False
    assert {r["board"] for r in data["runs"]} == set(scaling.BOARDS)


def test_in_the_committed_study_the_baseline_searches_far_more_on_every_board():
    """Per puzzle the baseline sometimes searches fewer nodes (the report counts those puzzles); summed over
    the puzzles both solved, it searches at least ten times as many on every board."""
    from pyapp.bench.report import node_comparison

    data = report.load(ROOT / report.RESULTS)["scaling"]
    by: dict[tuple, dict] = {}
    for r in data["runs"]:
        by.setdefault((r["board"], r["pegs"], r["seed"]), {})[r["solver"]] = r
    for board in data["study"]["boards"]:
        both = [v for k, v in by.items() if k[0] == board and len(v) == 2
                and all(x["status"] == "solved" for x in v.values())]
        assert sum(v["baseline"]["nodes"] for v in both) >= 10 * sum(v["ours"]["nodes"] for v in both), board
    solved, fewer = node_comparison(data)
    assert len(fewer) < solved / 4


def test_missing_matplotlib_is_said_plainly(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(plots.PlotsUnavailable, match="pip install"):
        plots.pyplot()


def test_only_the_plots_module_imports_matplotlib():
    for path in (ROOT / "pyapp").rglob("*.py"):
        if path.name == "plots.py" and path.parent.name == "bench":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.split(".")[0] == "matplotlib" for n in names), path


def test_the_parallel_section_computes_its_ratios_and_draws_every_job(rendered, tmp_path):
    """The speedups in the section are the committed runs' median walls divided (not typed in), the goal's
    verdict follows from them, and the figure has a measured and a model series per job."""
    from pyapp.bench import report_parallel

    data = report.load(ROOT / report.RESULTS)["parallel"]
    assert "## Every core: the sharded sweeps" in rendered and "parallel-speedup.svg" in rendered
    for row in data["parallel"]:
        walls = {w: report_parallel._median([x["wall"] for x in row["runs"] if x["workers"] == w])
                 for w in {x["workers"] for x in row["runs"]}}
        assert row["speedup"]["2"] == round(walls[1] / walls[2], 2)
        assert f"**{row['speedup']['2']:.2f}**" in rendered and row["same_answer"]
    met = any(r["speedup"]["2"] >= report_parallel.GOAL_SPEEDUP for r in data["parallel"])
    assert ("**not met**" in rendered) is not met
    svg = (ROOT / report.RESULTS / "parallel-speedup.svg").read_text()
    for row in data["parallel"]:
        assert f'id="measured-{row["name"]}"' in svg and f'id="model-{row["name"]}"' in svg


def test_parallel_rows_merge_by_name(tmp_path):
    from pyapp.bench.speedup import merge_into

    path = tmp_path / "parallel.json"
    merge_into(path, [{"name": "parallel-count-triangle7", "v": 1}, {"name": "parallel-count-english", "v": 1}])
    merge_into(path, [{"name": "parallel-count-triangle7", "v": 2}])
    import json

    rows = json.loads(path.read_text())["parallel"]
    assert [(r["name"], r["v"]) for r in rows] == [("parallel-count-english", 1), ("parallel-count-triangle7", 2)]


def test_the_research_answers_replay_to_their_goal():
    """Each cell the report calls solved carries its moves: they are legal and end with one peg on the goal."""
    from pyapp.core.game import replay
    from pyapp.core.request import build

    data = report.load(ROOT / report.RESULTS)["research"]
    assert data["cells"] and data["answers"]
    for a in data["answers"]:
        problem = build(a["board"], start=a["start"], goal=a["goal"]).problem
        r = replay(problem.board, problem.start, a["moves"])
        assert r.valid and r.final == 1 << problem.board.bit_of[a["goal"]], a["cell"]


def test_a_set_shipped_over_its_goals_table_is_named_so():
    from pyapp.bench import report_sets

    floor = {"from": 23, "over": "endgame table", "bytes": 4_200_000, "classes": 3_000_000, "key_bytes": 24_000_000,
             "cpu_decode": 0.4, "answers": 300, "p50_ms": 1.0, "p95_ms": 20.0, "max_ms": 90.0}
    game = {"board": "french", "start": "d2", "goal": "d6", "estimated_positions": 693330683, "estimated_cpu": 6240.0,
            "floors": [floor], "shipped": "committed artefact", "shipped_from": 23}
    text = report_sets.section({"python": "3.11", "machine": "m", "commands": [], "games": [game]})
    assert "| french d2 -> d6 | exact set from 23 pegs up over the goal's endgame table (4.20 MB); committed artefact" \
        in text
    assert "never-lose from the set and the table: p50 1.0, p95 20.0, max 90 CPU ms over 300 answers" in text


def test_a_bits_set_measured_from_its_file_says_so():
    from pyapp.bench import report_sets

    floor = {"from": 24, "over": "endgame table", "bytes": 13_078_281, "classes": 46_244_305, "key_bytes": 13_000_000,
             "format": "bits", "reachable": 85_054_056, "cpu_decode": 0.07, "answers": 30, "p50_ms": 1.0,
             "p95_ms": 20.0, "max_ms": 90.0}
    game = {"board": "asymmetric", "start": "d5", "goal": "d5", "estimated_positions": 955546724,
            "estimated_cpu": 8600.0, "held_classes": 46_244_305, "floors": [floor], "shipped": "committed artefact",
            "shipped_from": 24}
    text = report_sets.section({"python": "3.11", "machine": "m", "commands": [], "games": [game]})
    assert "| 46,244,305 from 24 pegs up |" in text and "the whole set never built" in text
    assert "46,244,305 winnable of 85,054,056 reachable classes (one bit each, read in place" in text
    assert "MB of keys" not in text


def test_the_further_check_of_the_one_worker_page_is_reported_from_its_figures():
    from pyapp.bench.report_games import section

    page = {"positions": 12, "unknown_jumps": 8, "median_s": 0.04, "p95_s": 0.4, "max_s": 10.2}
    row = {"game": "asymmetric:d5:d5", "games": 1, "pool": {**page, "unknown_jumps": 5},
           "one": {**page, "further_positions": 1, "further_unknown_before": 8, "further_unknown_after": 1,
                   "further_max_s": 25.232}, "disagreements": []}
    cpy = {"game": "asymmetric:d5:d5", "shipped_bytes": 1e6, "games": 1, "positions": 10, "unknown_jumps": 0,
           "median_ms": 1.0, "p95_ms": 2.0, "max_ms": 3.0, "disagreements": [], "checked_against": "solve"}
    text = section({"cpython": {"runtime": "r", "date": "d", "command": "c", "rows": [cpy]}, "machine": "m",
                    "chromium": {"runtime": "r", "date": "d", "command": "c", "rows": [row]}, "note": ""})
    assert ("40 / 400 / 10,200; 8 unknown, of which the further check (30 s more) decided 7 at 1 position, at most "
            "25,232 ms after the position's change") in text
    assert "| 0 / 5 |" in text  # the page's column is the pool's, as before
