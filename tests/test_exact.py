"""Exact analyses at full scale (pyapp.exact): small instances of each algorithm, cross-checked.

The level sweeps, the meet-in-the-middle count, the winnable sets and the search by moves
are each run on problems small enough for an independent brute force (the memoised
depth-first count of :mod:`pyapp.exact.count.memo`, the bench's exhaustive oracle, a plain
forward exploration), including English sub-problems taken from Bergholt's 18-move
solution.  The full-size published figures (English: 40,861,647,040,079,968 solutions,
Durango Bill and George Bell; 23,475,688 reachable and 1,679,072 winnable positions, Bell;
18 moves, Bergholt 1912 / Beasley 1964) take minutes and are checked by the bench rows.
"""

from __future__ import annotations

import pytest

from pyapp.bench.suite import oracle, replay_error
from pyapp.core.budget import Budget
from pyapp.core.catalogue import get_board
from pyapp.core.codec.compiled import codec
from pyapp.core.moves import apply_jump, count_moves, legal_jumps
from pyapp.core.notation import parse_moves
from pyapp.core.problem import Goal, Problem
from pyapp.exact.count import count_exact, count_solutions, sweep_steps
from pyapp.exact.count.joint import joint_start
from pyapp.exact.fewest import fewest_exact
from pyapp.exact.levels import level_table
from pyapp.exact.reach import explore
from pyapp.exact.setup import sides
from pyapp.exact.sweep import Progress
from pyapp.exact.winnable import winnable

T5 = get_board("triangle5")
ENGLISH = get_board("english")
BERGHOLT = ["f4-d4", "e6-e4", "g5-e5", "d5-f5", "b5-d5", "c7-c5", "c4-c6", "e7-c7-c5", "e3-e5", "e1-e3",
            "c2-c4-c6-e6-e4-e2", "g3-g5-e5-c5", "a3-c3", "d3-b3", "a5-a3-c3", "c1-e1-e3",
            "f3-d3-b3-b5-d5-d3", "d2-d4"]
"""Bergholt's 18-move solution of the central game (1912), as in tests/test_published.py."""


def _after(board, moves: list[str], n_moves: int) -> int:
    pos = board.start("d4")
    for jump in parse_moves(board, moves[:n_moves]):
        pos = apply_jump(pos, jump)
    return pos


def _problems():
    for start in T5.names:
        yield Problem(T5, T5.start(start), Goal("any"))
        for hole in ("1", "4", "13"):
            yield Problem(T5, T5.start(start), Goal("hole", 1 << T5.hole(hole)))


class TestCodec:
    def test_canonical_key_is_the_least_dense_image(self):
        cd = codec(ENGLISH, tuple(range(8)))
        for pos in (ENGLISH.start("d4"), ENGLISH.start("c1"), _after(ENGLISH, BERGHOLT, 5)):
            dense = [cd.packed(ENGLISH.transform(pos, g)) & cd.everything for g in range(8)]
            assert cd.canon(pos) == min(dense)
            assert cd.layout(dense[0]) == pos
            assert cd.orbit_size(cd.packed(pos)) == len({ENGLISH.transform(pos, g) for g in range(8)})


class TestCount:
    @pytest.mark.parametrize("problem", list(_problems()), ids=lambda p: f"{p.start:x}-{p.goal.text(p.board)}")
    def test_triangle5_matches_depth_first_count(self, problem):
        got = count_exact(problem)
        assert got.status == "counted"
        assert got.solutions == count_solutions(problem)

    def test_english_sub_problems_match_depth_first_count(self):
        goal = Goal("hole", 1 << ENGLISH.hole("d4"))
        for n_moves in (12, 13, 14):
            problem = Problem(ENGLISH, _after(ENGLISH, BERGHOLT, n_moves), goal)
            got = count_exact(problem)
            assert got.solutions == count_solutions(problem, max_positions=10**7) > 0

    def test_central_game_of_triangle_meets_itself(self):
        # start 1 -> one peg at 1 is its own complement problem: one sweep serves both sides
        problem = Problem(T5, T5.start("1"), Goal("hole", 1 << T5.hole("1")))
        assert sides(problem).complement_problem
        assert count_exact(problem).solutions == count_solutions(problem) == 6816

    def test_forward_sweep_uses_every_symmetry_of_the_goal(self):
        # triangle5 vacancy 2 -> one peg anywhere: only the identity fixes the start, all 6 symmetries the goal
        problem = Problem(T5, T5.start("2"), Goal("any"))
        s = sides(problem)
        assert len(s.codec.group) == 1 and len(s.wide_codec.group) == 6
        got = count_exact(problem, meet=s.meet())  # two sweeps (by default one carries both sides: count.joint)
        assert got.symmetries == 6 and got.solutions == count_solutions(problem) > 0

    def test_one_sweep_carries_both_sides_when_the_start_is_a_backward_source(self):
        # triangle5 vacancy 2 -> one peg anywhere: the mirror image of the start is a backward source, so the
        # backward sweep alone (under its 2 symmetries) gives both sides; the count is the two sweeps' and the
        # depth-first count's, and every position of the middle level comes with a weight from each end
        problem = Problem(T5, T5.start("2"), Goal("any"))
        s = sides(problem)
        assert joint_start(s) is not None
        one, two = count_exact(problem), count_exact(problem, meet=s.meet())
        assert one.symmetries == len(s.back_codec.group) == 2 and one.meet == 8
        assert one.solutions == two.solutions == count_solutions(problem) > 0
        assert one.positions < two.positions

    def test_sum_over_jumps_equals_sum_over_classes(self):
        # triangle5 vacancy 2 -> one peg anywhere: 6 forward symmetries, 2 backward, so 3 cosets to read.
        # By default the forward side stops a level above the middle and sums over its jumps (edge.py); a forced
        # middle level is built by both sides and summed class by class (combine.py): every split gives the
        # same number, which is the depth-first count's.
        problem = Problem(T5, T5.start("2"), Goal("any"))
        by_jumps = count_exact(problem)
        assert by_jumps.solutions == count_solutions(problem) > 0
        for meet in (14, 13, by_jumps.meet, 7, 2, 1):
            assert count_exact(problem, meet=meet).solutions == by_jumps.solutions, meet

    def test_ways_by_search_equal_the_table(self):
        # the fallback of a middle level whose dict would pass the memory ceiling: the same ways, key by key
        from pyapp.exact.count.edge import ways_search, ways_table
        from pyapp.exact.sweep import Level, sweep

        s = sides(Problem(T5, T5.start("2"), Goal("any")))
        levels = [lv for lv in sweep(s.back_codec, s.backward, 7, weights=True) if isinstance(lv, Level)]
        keys, weights = levels[-1].keys, levels[-1].weights
        table, search = ways_table(s.back_codec, keys, weights), ways_search(s.back_codec, keys, weights)
        assert len(table) == len(keys) > 100 and any(w > 1 for w in table.values())
        assert all(search(k, 0) == w for k, w in table.items())
        assert search(max(keys) + 1, 0) == 0 and search(max(keys) + 1, 7) == 7

    def test_progress_and_cancel(self):
        problem = Problem(get_board("triangle6"), get_board("triangle6").start("4"), Goal("any"))
        budget = Budget()
        gen = sweep_steps(problem, budget)
        first = next(gen)
        assert isinstance(first, Progress) and first.as_dict()["positions"] >= 0
        budget.cancel()
        with pytest.raises(StopIteration) as done:
            while True:
                next(gen)
        result = done.value.value
        assert result.status == "unknown" and result.solutions is None and "cancelled" in result.reason

    def test_memory_ceiling_stops_before_allocating_more(self):
        problem = Problem(get_board("triangle6"), get_board("triangle6").start("4"), Goal("any"))
        got = count_exact(problem, Budget(max_bytes=200_000))
        assert got.status == "unknown" and "memory ceiling" in got.reason


class TestLevels:
    def test_reachable_per_level_matches_plain_exploration(self):
        for start in ("1", "4", "5"):
            problem = Problem(T5, T5.start(start), Goal("any"))
            table = level_table(problem)
            reach = explore(T5, problem.start)
            assert [row["reachable"] for row in table.rows] == [len(layer) for layer in reach.layers]

    def test_winnable_is_reachable_and_solvable(self):
        for problem in list(_problems())[:5]:
            win = winnable(problem)
            reach = explore(T5, problem.start)
            cd = win.codec
            expected = {}
            for layer in reach.layers:
                for pos in layer:
                    alive = count_solutions(Problem(T5, pos, problem.goal)) > 0
                    assert win.can_win(pos) == alive
                    if alive:
                        expected.setdefault(pos.bit_count(), set()).add(cd.canon(pos))
            assert {k: v for k, v in win.counts().items() if v} == {k: len(v) for k, v in expected.items()}


class TestFewest:
    @pytest.mark.parametrize("problem", list(_problems())[::3], ids=lambda p: f"{p.start:x}-{p.goal.text(p.board)}")
    def test_triangle5_matches_oracle(self, problem):
        got = fewest_exact(problem)
        want = oracle(T5).fewest(problem.start, problem.goal.target if problem.goal.exact else 0)
        if want == float("inf"):
            assert got.status == "impossible" and got.reason
        else:
            assert (got.status, got.moves) == ("solved", want)
            err, final = replay_error(T5, problem.start, got.jumps)
            assert err is None and problem.goal.reached(final) and count_moves(got.jumps) == want

    def test_bergholt_tail_proved_and_replays(self):
        # after Bergholt's 11th move, his last 7 moves are the fewest (else 18 would not be minimal)
        mid = _after(ENGLISH, BERGHOLT, 11)
        problem = Problem(ENGLISH, mid, Goal("hole", 1 << ENGLISH.hole("d4")))
        got = fewest_exact(problem)
        assert (got.status, got.moves, got.lower_bound) == ("solved", 7, 7)
        err, final = replay_error(ENGLISH, mid, got.jumps)
        assert err is None and final == 1 << ENGLISH.hole("d4")

    def test_no_solution_is_proved_impossible(self):
        problem = Problem(T5, T5.start("13"), Goal("hole", 1 << T5.hole("4")))
        got = fewest_exact(problem)
        assert got.status == "impossible" and got.reason
        assert count_solutions(problem) == 0

    def test_never_shorter_than_any_legal_game_allows(self):
        problem = Problem(T5, T5.start("4"), Goal("any"))
        got = fewest_exact(problem)
        assert got.moves >= 1 and len(got.jumps) == 13 and legal_jumps(T5, problem.start)


class TestBenchRows:
    def test_rows_exist_run_once_and_are_not_quick(self):
        from pyapp.bench import suite as bench

        rows = {c.name: c for c in bench.select(only=["exact-count-english", "exact-fewest-english",
                                                      "exact-levels-english", "exact-count-triangle7",
                                                      "exact-fewest-triangle7"])}
        assert len(rows) == 5 and all(c.runs == 1 and not c.traced and not c.quick for c in rows.values())

    def test_checks_compare_with_the_published_figures(self):
        from pyapp.bench import suite as bench
        from pyapp.exact.count import ExactCount
        from pyapp.exact.fewest import ExactFewest

        count_row, fewest_row = bench.select(only=["exact-count-english", "exact-fewest-english"])
        right = ExactCount("counted", 40_861_647_040_079_968, None, 9_568_755, 17, 8, 1.0)
        assert count_row.check(0, right).wrong is None
        wrong = ExactCount("counted", 40_861_647_040_079_967, None, 9_568_755, 17, 8, 1.0)
        assert "published" in count_row.check(0, wrong).wrong
        jumps = parse_moves(ENGLISH, BERGHOLT)
        assert fewest_row.check(0, ExactFewest("solved", 18, jumps, None, 18, winnable=1_679_072)).wrong is None
        too_few = ExactFewest("solved", 18, jumps, None, 18, winnable=7)
        assert "published 1,679,072" in fewest_row.check(0, too_few).wrong
        assert fewest_row.check(0, ExactFewest("solved", 19, jumps, None, 19)).wrong

    def test_triangle7_row_holds_the_published_shortest_of_any_problem(self, monkeypatch):
        # OEIS A127500 (G. I. Bell, JIS 11 (2008)): a(7) = 12, no problem on the 28-hole triangle takes fewer
        from pyapp.bench import exact_rows as bench_rows
        from pyapp.bench import suite as bench
        from pyapp.exact.fewest import ExactFewest
        from pyapp.search.solver import solve

        (row,) = bench.select(only=["exact-fewest-triangle7"])
        t7 = get_board("triangle7")
        jumps = solve(Problem(t7, t7.start("4"), Goal("any")), max_nodes=200_000).jumps
        moves = count_moves(jumps)
        assert moves >= 12 and row.check(0, ExactFewest("solved", moves, jumps, None, moves)).wrong is None
        monkeypatch.setattr(bench_rows, "count_moves", lambda js: 11)  # as if the search had found 11 moves
        assert "fewer than the published 12" in row.check(0, ExactFewest("solved", 11, jumps, None, 11)).wrong

    def test_levels_row_compares_with_bells_totals(self):
        # 23,475,688 reachable / 1,679,072 can still win, up to symmetry: G. I. Bell, arXiv:0903.3696
        from pyapp.bench import suite as bench
        from pyapp.exact.levels import LevelTable

        (row,) = bench.select(only=["exact-levels-english"])
        right = LevelTable("counted", [{"pegs": 32, "reachable": 23_475_687, "winnable": 1_679_071},
                                       {"pegs": 1, "reachable": 1, "winnable": 1}], symmetries=8)
        assert row.check(0, right).wrong is None
        right.rows[1]["winnable"] = 2
        assert "published 23,475,688 / 1,679,072" in row.check(0, right).wrong
        assert row.check(0, LevelTable("unknown", reason="cancelled")).unanswered == "cancelled"

    def test_recount_at_another_level_agrees(self):
        problem = Problem(T5, T5.start("4"), Goal("any"))
        counts = {count_exact(problem, meet=m).solutions for m in (1, 4, 7, 10, 14)}
        assert counts == {count_solutions(problem)}


@pytest.mark.parametrize(("board_id", "start", "goal", "chunk"), [("triangle5", "4", "any", 10),
                                                                 ("triangle6", "4", "4", 1_000)])
def test_winnable_levels_expanded_in_chunks_equal_the_whole_expansion(board_id, start, goal, chunk, monkeypatch):
    """pyapp.exact.winnable expands the winnable levels above and below the middle in chunks (EXPAND_CHUNK): in small
    chunks the levels hold the same keys as in one chunk bigger than any level, and every chunk reports its progress
    (a budget or a cancel is seen within one).  Triangle 5 from hole 4 to one peg anywhere keeps its sets in two
    codecs (the goal is fixed by every symmetry, the start by fewer), triangle 6 from hole 4 to hole 4 in one."""
    from pyapp.core.budget import drive
    from pyapp.core.problem import make_problem
    from pyapp.exact import winnable as module

    problem = make_problem(get_board(board_id), start=start, goal=goal)
    module.clear_cache()
    monkeypatch.setattr(module, "EXPAND_CHUNK", 10**9)
    whole = drive(module.winnable_steps(problem))
    module.clear_cache()
    monkeypatch.setattr(module, "EXPAND_CHUNK", chunk)
    steps, seen = module.winnable_steps(problem), []
    try:
        while True:
            seen.append(next(steps))
    except StopIteration as stop:
        chunked = stop.value
    module.clear_cache()
    assert chunked.levels == whole.levels
    # the levels expanded: up from the middle each one below, down from it each one above (unless the game is its
    # own complement: those are the complements of the levels above, found without expanding)
    s, levels = sides(problem), whole.levels
    meet = s.meet()
    expanded = sum(len(levels[p]) for p in range(meet, s.first_pegs))
    if not s.complement_problem:
        expanded += sum(len(levels[p]) for p in range(s.last_pegs + 1, meet + 1))
    assert sum(1 for p in seen if p.stage == "can still win") >= expanded // chunk > 20
