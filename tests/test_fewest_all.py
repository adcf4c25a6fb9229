"""fewest --all: every single-vacancy problem of a board proved, checked against Bell's catalogue and an oracle.

The 15-hole triangle's table is published: George I. Bell, "15 Hole Triangular Board: Single
Vacancy to Single Survivor Problems" (gibell.net/pegsolitaire/Catalogs/Triangular15/), the
column "Length of Shortest Solution".  Bell names holes ``(x, -row)``; in our numbering (rows
top to bottom, holes left to right, 1 to 15) his a1 is 1, b3 is 5, a4 is 7, d4 is 10 and c5
is 13.  Our table keeps one start per class (1, 2, 4, 5) and one finish per class under the
start's symmetries, so :data:`pyapp.bench.exact_rows.BELL_T15` (the bench row's reference)
states Bell's 17 problems mapped by a symmetry onto our representatives (a4 = 7 is 2
reflected, c5 = 13 is 4 rotated).  The search by moves is
checked besides against the bench's memoised exhaustive oracle, independent of it.
"""

from __future__ import annotations

import json
import random
from array import array

import pytest

from pyapp.bench.exact_rows import BELL_T15
from pyapp.bench.suite import oracle, replay_error
from pyapp.cli.main import main
from pyapp.core.budget import Budget, drive
from pyapp.core.catalogue import get_board
from pyapp.core.goal import singles_in_class
from pyapp.core.moves import count_moves
from pyapp.exact.fewest.table import fewest_all_steps, single_vacancy_problems
from pyapp.exact.lookup import Marked
from pyapp.exact.report import fewest_table_json

T5 = get_board("triangle5")

def _table(board=T5, **kw) -> dict:
    return fewest_table_json(drive(fewest_all_steps(board, **kw)))


class TestTable:
    def test_triangle5_equals_bells_catalogue(self):
        out = _table()
        got = {(r["start"], r["finish"]): (r["moves"] if r["status"] == "solved" else None) for r in out["rows"]}
        assert got == BELL_T15
        assert all(r["proven"] for r in out["rows"]) and out["unknown"] == 0 and not out["pending"]
        assert (out["solved"], out["impossible"]) == (12, 5)
        # impossibility carries over to the reverse problem; fewest moves do not (1 -> 13: 10, 13 -> 1: 9)
        assert {r["reverse_of"] for r in out["rows"]} == {None, "1 -> 5", "2 -> 8"}
        assert all(r["status"] == "impossible" for r in out["rows"] if r["reverse_of"])

    def test_every_row_against_the_oracle_and_replayed(self):
        table = drive(fewest_all_steps(T5))
        for row in table.rows:
            want = oracle(T5).fewest(row.problem.start, row.problem.goal.target)
            f = row.answer
            if want == float("inf"):
                assert f.status == "impossible" and f.reason
                continue
            assert (f.status, f.moves, f.lower_bound) == ("solved", want, want)
            err, final = replay_error(T5, row.problem.start, f.jumps)
            assert err is None and row.problem.goal.reached(final) and count_moves(f.jumps) == want

    @pytest.mark.parametrize("board_id", ["triangle5", "english", "triangle7"])
    def test_rows_stand_for_every_pair_of_the_board(self, board_id):
        board = get_board(board_id)
        pairs = sum(len(singles_in_class(board, board.start(name))) for name in board.names)
        assert sum(size for _, size in single_vacancy_problems(board)) == pairs

    def test_english_has_seven_starts_and_the_central_game(self):
        board = get_board("english")
        problems = single_vacancy_problems(board)
        starts = {board.name_of[(board.mask ^ p.start).bit_length() - 1] for p, _ in problems}
        assert len(starts) == 7 and len(problems) == 21
        assert any(p.start == board.start("d4") and p.goal.text(board) == "d4" for p, _ in problems)

    def test_starts_keep_their_classes_only(self):
        out = _table(starts=["13"])  # 13 is in 4's class
        assert {r["start"] for r in out["rows"]} == {"4"} and len(out["rows"]) == 4

    def test_budget_spent_leaves_unknown_or_pending_rows(self):
        budget = Budget(max_nodes=0)
        budget.cancel()
        out = _table(budget=budget)
        assert not out["rows"] and len(out["pending"]) == 17
        board = get_board("triangle7")
        out = _table(board, budget=Budget(5.0), each_seconds=0.01, starts=["2"])
        row = out["rows"][0]
        assert row["status"] == "unknown" and not row["proven"] and row["lower_bound"] >= 1


class TestMarked:
    def test_find_agrees_with_a_set(self):
        rng = random.Random(7)
        for n in (0, 1, 5, 100, 5000):
            keys = sorted(rng.sample(range(1 << 40), n))
            level = Marked(array("Q", keys))
            present = set(keys)
            for k in keys[:50] + [rng.randrange(1 << 41) for _ in range(200)] + [0, (1 << 64) - 1]:
                i = level.find(k)
                assert (i >= 0) == (k in present) and (i < 0 or level.keys[i] == k)
            assert len(level.marks) == n and level.nbytes >= n


class TestCommand:
    def test_json_and_text(self, capsys):
        assert main(["fewest", "triangle5", "--all", "--starts", "4", "--json"]) == 0
        printed = capsys.readouterr()
        out = json.loads(printed.out)
        # each row also went to stderr as soon as it was answered
        lines = [json.loads(line.split(" row ", 1)[1]) for line in printed.err.splitlines() if " row " in line]
        assert [(r["finish"], r["moves"]) for r in lines] == [(r["finish"], r["moves"]) for r in out["rows"]]
        assert [(r["finish"], r["moves"]) for r in out["rows"]] == [("3", 10), ("4", 9), ("9", 10), ("15", 9)]
        assert all(r["problems"] in (3, 6) and r["cpu_seconds"] >= 0 for r in out["rows"])
        assert main(["fewest", "triangle5", "--all"]) == 0
        text = capsys.readouterr().out
        assert "impossible" in text and "proven" in text and len(text.splitlines()) == 1 + 17 + 5

    @pytest.mark.parametrize("argv", [["fewest", "triangle5", "--all", "--start", "1"],
                                      ["fewest", "triangle5", "--starts", "1"],
                                      ["fewest", "triangle5", "--all", "--starts", "99"]])
    def test_bad_combinations_are_clear_errors(self, argv, capsys):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and err.strip()


class TestBenchRows:
    def test_rows_exist_run_once_and_are_not_quick(self):
        from pyapp.bench import suite as bench

        names = ["exact-fewest-all-triangle5", "exact-fewest-all-triangle6", "exact-fewest-all-english"]
        rows = bench.select(only=names)
        assert [c.name for c in rows] == names and all(c.runs == 1 and not c.quick for c in rows)

    def test_triangle5_row_compares_with_bells_table(self):
        from pyapp.bench import suite as bench

        (row,) = bench.select(only=["exact-fewest-all-triangle5"])
        table = drive(fewest_all_steps(T5))
        assert row.check(0, table).wrong is None
        table.rows[0].answer.moves += 1  # 1 -> 1 now claims 11 moves: its solution no longer matches
        assert row.check(0, table).wrong
        table.rows[0].answer.moves -= 1
        table.pending = [("5", "13")]
        table.rows.pop()
        out = row.check(0, table)
        assert out.wrong is None and "1 not run" in out.unanswered

    def test_rows_without_a_published_table_ask_the_bounded_search(self):
        from pyapp.bench.exact_rows import _table_row
        from pyapp.exact.fewest import ExactFewest

        row = _table_row("t", "t", "triangle5", "-", "-")
        table = drive(fewest_all_steps(T5, starts=["4"]))
        assert row.check(0, table).wrong is None
        table.rows[1].answer = ExactFewest("impossible", reason="a wrong proof")
        assert "the bounded search says solved 9" in row.check(0, table).wrong


def test_an_answer_cut_short_in_the_sweeps_says_where():
    from pyapp.core.problem import Goal, Problem
    from pyapp.exact.fewest import fewest_exact

    board = get_board("triangle7")
    got = fewest_exact(Problem(board, board.start("2"), Goal("hole", 1 << board.hole("3"))), Budget(0.3),
                       method="levels")
    assert got.status == "unknown" and "in the level sweeps (" in got.reason and "positions there" in got.reason
