"""The estimate the page gives before an exact analysis (pyapp.exact.estimate), against measured runs.

Small problems are counted here and the estimate must find the count's own positions (exactly on
the 15-hole triangle, whose sweeps end within the probe); the big ones are compared with the
figures measured by the bench rows and recorded in BENCHMARKS.md ("Exact analyses at full scale"):
8,966,402 positions for triangle7 vacancy 4 -> one peg and 9,568,755 for the English central game.
"""

from __future__ import annotations

import pytest

from pyapp.bench.cases import _problem
from pyapp.core.errors import PegError
from pyapp.exact.count import count_exact
from pyapp.exact.estimate import FACTOR, estimate, estimate_positions, position_classes
from pyapp.web import api as webapi

MEASURED = {("triangle7", "4", "any"): (8_966_402, 451, 744, 925),
            ("english", "d4", "d4"): (9_568_755, 458, 814, 669)}
"""Positions stored by ``count``, the memory (MB) it said it held at its peak, the CPython process's max RSS
and the Pyodide WebAssembly heap (MB) (bench rows exact-count-triangle7 and exact-count-english, BENCHMARKS.md).
Triangle7's figures are those of the count in one sweep (count.joint: 8,966,402 positions, 451 MB held, max RSS
744 MB for the count alone, 2026-11-27); its Pyodide heap is that of an earlier run (17,796,556 positions, a
count and its recount), not measured again."""


def _within(guess: float, actual: float, factor: float) -> bool:
    return actual / factor <= guess <= actual * factor


def test_position_classes_of_the_two_lattices():
    assert position_classes(_problem("english", "d4", "d4")) == 16
    assert position_classes(_problem("triangle6", "4", "any")) == 4


@pytest.mark.parametrize("start,goal", [("1", "any"), ("4", "any"), ("5", "13")])
def test_small_board_estimate_is_the_counts_own_positions(start, goal):
    problem = _problem("triangle5", start, goal)
    counted = count_exact(problem)
    guess = estimate_positions(problem)
    assert guess["positions"] == counted.positions
    assert guess["meet"] == counted.meet


def test_triangle6_within_the_stated_factor():
    problem = _problem("triangle6", "4", "any")
    counted = count_exact(problem)
    assert counted.positions == 121_859  # one sweep carries both sides (count.joint)
    guess = estimate_positions(problem)
    assert guess["meet"] == counted.meet
    assert _within(guess["positions"], counted.positions, FACTOR)


@pytest.mark.parametrize("key", sorted(MEASURED))
def test_big_boards_within_the_stated_factor_of_the_measured_runs(key):
    guess = estimate(_problem(*key))
    positions, held_mb, rss_mb, heap_mb = MEASURED[key]
    assert _within(guess["positions"], positions, FACTOR), guess
    assert _within(guess["held_mb"], held_mb, FACTOR), guess
    assert _within(guess["memory_mb"], rss_mb, FACTOR) and _within(guess["browser_memory_mb"], heap_mb, FACTOR), guess
    assert guess["big"]


def test_kinds_memory_and_the_pages_ceiling():
    problem = _problem("triangle7", "4", "any")
    count, fewest = estimate(problem, "count"), estimate(problem, "fewest")
    assert fewest["seconds"] > count["seconds"] and fewest["positions"] == count["positions"]
    assert count["browser_memory_mb"] < count["memory_mb"]
    small = webapi.exact_estimate({"board": "triangle5", "start": "1", "goal": "any"})
    assert not small["big"] and not small["over_ceiling"] and small["ceiling_mb"] == 900
    assert not webapi.exact_estimate({"board": "triangle7", "start": "4", "goal": "any"})["over_ceiling"]
    t8 = webapi.exact_estimate({"board": "triangle8", "start": "1", "goal": "any", "analysis": "fewest"})
    assert t8["over_ceiling"] and t8["positions"] > 10**9


def test_unknown_analysis_is_a_clear_error():
    with pytest.raises(PegError, match="unknown exact analysis 'sum'"):
        webapi.exact_estimate({"board": "triangle5", "analysis": "sum"})
