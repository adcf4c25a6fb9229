"""scripts/parallelproject_compare.py: ParallelProject's state text reads as the same English position, its
files give each distinct state once, and the summary's wins and medians follow the per-state times (the C++
binary itself is built outside the repository, so it is not run here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import parallelproject_compare as ppc  # noqa: E402

from pyapp.core.catalogue import get_board  # noqa: E402
from pyapp.core.request import build  # noqa: E402
from pyapp.search.solver import solve  # noqa: E402

FULL = "..ooo....ooo..oooooooooo+oooooooooo..ooo....ooo.."
"""ParallelProject's text of the English start: every hole but the centre (row by row from the top)."""


def test_its_state_text_is_our_position():
    board = get_board("english")
    assert build("english", position=ppc.our_text(FULL)).problem.start == board.start("d4")
    centre = "." * 2 + "+++" + "." * 4 + "+++" + ".." + "+" * 7 + "+++o+++" + "+" * 7 + ".." + "+++" + "...." + "+++.."
    assert build("english", position=ppc.our_text(centre)).problem.start == 1 << board.hole("d4")


def test_a_generated_state_is_solved_to_the_centre():
    # from ParallelProject's moves:10: four pegs that reduce to one in the centre
    state = "..+++....+o+..++o+++++oooo+++++++oo..+++....+++.."
    problem = build("english", position=ppc.our_text(state)).problem
    result = solve(problem)
    assert result.status == "solved" and ppc._replays(problem, result.jumps)
    assert len(result.jumps) == problem.start.bit_count() - 1


def test_the_files_give_each_distinct_state_once(tmp_path):
    a, b = tmp_path / "moves:10", tmp_path / "moves:15"
    a.write_text(FULL + "\n" + FULL.replace("o", "+", 1) + "\n")
    b.write_text(FULL + "\n")
    assert ppc.read_states([str(a), str(b)]) == [FULL, FULL.replace("o", "+", 1)]
    b.write_text("not a state\n")
    with pytest.raises(SystemExit):
        ppc.read_states([str(b)])


def test_the_summary_counts_wins_and_medians_per_state():
    ours = [{"ms": 0.1, "solve_ms": 0.05, "pegs": 4}, {"ms": 0.3, "solve_ms": 0.2, "pegs": 12},
            {"ms": 1.0, "solve_ms": 0.9, "pegs": 12}]
    cpp = [{"ms": 0.01}, {"ms": 0.5}, {"ms": 4.0}]
    s = ppc.summary(ours, cpp)
    assert s["all"]["ours_wins"] == 2 and s["all"]["states"] == 3
    assert s["all"]["ours_median_ms"] == 0.3 and s["all"]["cpp_median_ms"] == 0.5
    assert s["all"]["total_ratio_cpp_over_ours"] == round(4.51 / 1.4, 2)
    assert s["by_pegs"]["12"]["ours_wins"] == 2 and s["by_pegs"]["4"]["ours_wins"] == 0
