"""The benchmark suite as a CI regression guard: right ANSWERS in quick mode, never times.

Times belong in BENCHMARKS.md (``python -m pyapp bench``); here every quick row must come back
``ok`` (its answer replayed / re-derived / matched against exhaustive enumeration), and the
checking machinery itself must be able to fail.
"""

from __future__ import annotations

import json

import pytest

from pyapp.bench import cases as bench_cases
from pyapp.bench import suite as bench
from pyapp.cli.main import main
from pyapp.core.catalogue import get_board
from pyapp.core.problem import Result, default_problem

QUICK = [c.name for c in bench.select(quick=True)]


class TestQuickSuite:
    @pytest.mark.parametrize("name", QUICK)
    def test_row_answers_right(self, name):
        (row,) = bench.iter_suite(quick=True, only=[name])
        assert row["check"] == "ok", f"{name}: {row['check']} (answer: {row['answer']})"
        assert row["runs"] >= 1 and row["median_s"] is not None and row["worst_s"] >= row["median_s"]
        json.dumps(row)  # every row crosses to JS as JSON

    def test_quick_subset_covers_each_kind_of_row(self):
        assert {"english", "english-seeds", "impossible-french-centre", "impossible-diamond41-centre",
                "triangle5-finishes"} <= set(QUICK)
        full = bench.names()
        assert set(QUICK) < set(full)
        # issue 4 item 2: the default problem of every catalogue board is a row
        from pyapp.core.catalogue import ENTRIES
        for e in ENTRIES:
            assert e.id == "english" or f"default-{e.id}" in full


class TestOracle:
    """The exhaustive cross-check agrees with published tables."""

    def test_triangle5_finishes_from_corner(self):
        # G. I. Bell, 15-hole triangular board catalogue (gibell.net/pegsolitaire/Catalogs/Triangular15):
        # vacate a1 (hole 1) -> finish at a1, a4 (hole 7) or c5 (hole 13); hole 10 by the mirror symmetry.
        b = get_board("triangle5")
        finishes = bench.oracle(b).finishes(b.start("1"))
        assert [b.name_of[x] for x in b.bits if finishes >> x & 1] == ["1", "7", "10", "13"]

    def test_triangle5_inner_start_finishes_only_at_13(self):
        # Same catalogue: vacate b3 (hole 5) -> a1, b3, a4 impossible; c5 (hole 13) shortest 11 moves.
        b = get_board("triangle5")
        o = bench.oracle(b)
        finishes = o.finishes(b.start("5"))
        assert [b.name_of[x] for x in b.bits if finishes >> x & 1] == ["13"]
        assert o.fewest(b.start("5"), 1 << b.hole("13")) == 11

    @pytest.mark.parametrize(("start", "finish", "moves"), [("1", "1", 10), ("1", "13", 10), ("13", "1", 9),
                                                             ("13", "13", 9), ("7", "7", 11)])
    def test_triangle5_shortest_solutions(self, start, finish, moves):
        # Same catalogue, "Length of Shortest Solution": a1->a1 10, a1->c5 10, c5->a1 9, c5->c5 9, a4->a4 11
        # (a1 = hole 1, a4 = hole 7, c5 = hole 13 in our reading-order numbering).
        b = get_board("triangle5")
        assert bench.oracle(b).fewest(b.start(start), 1 << b.hole(finish)) == moves

    def test_oracle_refuses_large_boards(self):
        with pytest.raises(ValueError, match="too large"):
            bench.Oracle(get_board("english"))


class TestChecksCanFail:
    """A wrong answer must come out as WRONG, loudly, not as ok."""

    def _case(self, result):
        good = bench.select(only=["default-triangle5"])[0]
        return bench.Case("fake", "fake", lambda i, budget: result, good.check, good.expected)

    def _row(self, case):
        return bench.run_case(case, repeat=2, quick=True, memory=False, budget=1.0)

    def test_tampered_solution_is_wrong(self):
        from pyapp.search.solver import solve

        p = default_problem("triangle5")
        r = solve(p)
        jumps = list(r.jumps)
        a, b, c = jumps[0]
        jumps[0] = (c, b, a)  # backwards: from the empty hole into a filled one
        row = self._row(self._case(Result("solved", None, jumps, r.final, r.nodes, r.entries, r.seconds)))
        assert row["check"].startswith("WRONG") and "replay" in row["check"]

    def test_impossible_for_solvable_is_wrong(self):
        row = self._row(self._case(Result("impossible", "made up", [], 0)))
        assert row["check"].startswith("WRONG") and "solvable" in row["check"]

    def test_budget_spent_is_unanswered_not_ok(self):
        row = self._row(self._case(Result("unknown", "budget spent", [], 0)))
        assert row["check"].startswith("unanswered")
        assert row["runs"] == 1  # a run that spent the budget is not repeated

    def test_crash_is_wrong(self):
        def boom(i, budget):
            raise RuntimeError("solver exploded")

        good = bench.select(only=["default-triangle5"])[0]
        row = self._row(bench.Case("crash", "crash", boom, good.check, good.expected))
        assert row["check"].startswith("WRONG") and "solver exploded" in row["check"]
        assert bench.wrong_rows([row]) == [row]

    def test_wrong_count_is_wrong(self):
        case = bench.select(only=["triangle5-count-1-any"])[0]
        outcome = case.check(0, 12345)
        assert outcome.wrong and "exhaustive" in outcome.wrong

    def test_false_class_proof_is_wrong(self):
        from pyapp.core.problem import Goal, Problem

        b = get_board("triangle5")
        p = Problem(b, b.start("1"), Goal("hole", 1 << b.hole("13")))
        case = bench_cases._solve_case("x", "x", p, "unknown", "none", quick=True)
        outcome = case.check(0, Result("impossible", "position class: made up", [], p.start))
        assert outcome.wrong and "position-class" in outcome.wrong


class TestCommand:
    def test_json_row(self, capsys):
        assert main(["bench", "--only", "impossible-french-centre", "--repeat", "2", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        (row,) = out["rows"]
        assert row["check"] == "ok" and row["status"] == "impossible" and row["runs"] == 2
        assert row["peak_mb"] is not None and out["wrong"] == []
        assert out["environment"]["platform"]

    def test_table(self, capsys):
        assert main(["bench", "--only", "default-triangle4", "--quick"]) == 0
        text = capsys.readouterr().out
        assert "| default-triangle4 | solved" in text and "Runtime:" in text

    def test_unknown_row_is_a_usage_error(self, capsys):
        assert main(["bench", "--only", "nonsense"]) == 2
        assert "unknown benchmark 'nonsense'" in capsys.readouterr().err

    def test_bad_repeat(self, capsys):
        assert main(["bench", "--repeat", "0"]) == 2
        assert "at least 1 run" in capsys.readouterr().err
