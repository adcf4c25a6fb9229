"""The two sides of a count swept at the same time, each whole in a worker (pyapp.exact.twosided, count.both)."""

from __future__ import annotations

import os

import pytest

from pyapp.core.budget import Budget
from pyapp.core.request import build
from pyapp.exact.count import count_exact
from pyapp.exact.pool import InProcess
from pyapp.exact.processes import Processes
from pyapp.exact.setup import sides
from pyapp.exact.sharded import Checkpoint, Parallel
from pyapp.exact.twosided import two_sided

T6_TO_19 = 18427016546
"""Triangle 6, vacancy 4 -> one peg at 19 (counted in this process, two sweeps and one)."""


@pytest.fixture(scope="module")
def processes():
    with Processes(2) as pool:
        yield pool


def test_only_a_local_pool_of_two_runs_the_sides_at_once(processes, tmp_path):
    assert two_sided(Parallel(processes))
    assert not two_sided(None)
    assert not two_sided(Parallel(InProcess()))
    assert not two_sided(Parallel(processes, shards=2))
    assert not two_sided(Parallel(processes, Checkpoint(str(tmp_path))))


@pytest.mark.parametrize(("board", "start", "goal", "solutions"),
                         [("triangle5", "1", "13", 16128), ("triangle6", "4", "19", T6_TO_19)])
def test_count_equals_the_in_process_count_meeting_at_the_same_level(board, start, goal, solutions, processes):
    """Same solutions and, meeting at the same level, the same classes stored; nothing left in shared memory.
    (A goal of one peg anywhere from a single vacancy is counted in one sweep, count.joint: these goals are
    single holes other than the start's complement, whose two sides differ.)"""
    problem = build(board, start=start, goal=goal).problem
    s = sides(problem)
    assert not s.complement_problem  # the sides differ: two sweeps
    want = count_exact(problem, meet=s.meet())
    got = count_exact(problem, parallel=Parallel(processes))
    assert (got.status, got.solutions, got.positions, got.meet) == ("counted", want.solutions, want.positions, s.meet())
    assert got.solutions == solutions
    assert not os.listdir(processes.exchange_dir)


def test_a_spent_budget_stops_both_workers_and_answers_unknown():
    problem = build("triangle7", start="4", goal="any").problem  # minutes of sweeps: 3 s never finish it
    with Processes(2) as pool:
        got = count_exact(problem, Budget(max_seconds=3), parallel=Parallel(pool))
    assert got.status == "unknown" and got.solutions is None and "time budget" in (got.reason or "")
    assert got.positions > 0 and f"after {got.positions:,} positions" in (got.reason or "")  # how far the sides got


def test_a_memory_ceiling_in_a_worker_answers_unknown():
    problem = build("triangle6", start="4", goal="19").problem
    with Processes(2) as pool:  # a side that fails stops the other: the pool is cancelled
        got = count_exact(problem, Budget(max_bytes=2_000_000), parallel=Parallel(pool))
    assert got.status == "unknown" and "memory ceiling" in (got.reason or "")


def test_winnable_sets_and_fewest_moves_equal_the_in_process_ones(processes):
    from pyapp.core.budget import drive
    from pyapp.exact.fewest import fewest_steps
    from pyapp.exact.winnable import clear_cache, winnable_steps

    problem = build("triangle5", start="1", goal="any").problem
    clear_cache()
    want = drive(winnable_steps(problem))
    want_moves = drive(fewest_steps(problem, method="levels"))
    clear_cache()
    got = drive(winnable_steps(problem, parallel=Parallel(processes)))
    clear_cache()
    moves = drive(fewest_steps(problem, method="levels", parallel=Parallel(processes)))
    assert got.levels == want.levels and got.reachable == want.reachable and len(got) == 390
    assert (moves.status, moves.moves, moves.winnable) == (want_moves.status, want_moves.moves, want_moves.winnable)
    assert not os.listdir(processes.exchange_dir)


def test_the_move_cost_sweeps_on_the_pool_equal_the_in_process_ones(processes):
    from pyapp.bench.suite import replay_error
    from pyapp.core.budget import drive
    from pyapp.core.moves import count_moves
    from pyapp.exact.fewest import fewest_steps
    from pyapp.exact.fewest.meet import meet_sides
    from pyapp.exact.fewest.meetpool import Race
    from pyapp.exact.fewest.push import side_steps

    problem = build("triangle6", start="4", goal="any").problem
    s, cd, sources = meet_sides(problem)
    n = s.holes
    race = Race(Parallel(processes), problem.board, cd.group, Budget())
    race.submit(0, (s.start,), s.last_pegs, False, 6)
    race.submit(1, tuple(sources), n - s.first_pegs, True, 3)
    got_sides = dict([drive(race.next()), drive(race.next())])
    race.stop()
    want_ahead = drive(side_steps(cd, [s.start], s.last_pegs, False, Budget(), "f", [0], [0], 6))
    want_back = drive(side_steps(cd, sources, n - s.first_pegs, True, Budget(), "b", [0], [0], 3))
    assert got_sides[0] == want_ahead and got_sides[1] == want_back and max(want_back[12].costs) == 3
    assert not os.listdir(processes.exchange_dir)
    got, want = drive(fewest_steps(problem, parallel=Parallel(processes))), drive(fewest_steps(problem))
    # each side raised cap after cap in its worker: other caps than in this process, the same answer
    assert (got.status, got.moves) == (want.status, want.moves) == ("solved", 9)
    err, final = replay_error(problem.board, problem.start, got.jumps)
    assert err is None and problem.goal.reached(final) and count_moves(got.jumps) == 9
    assert not os.listdir(processes.exchange_dir)
    # the sweep still running when the answer was decided stopped at its stop file: the pool is still usable
    assert drive(fewest_steps(problem, parallel=Parallel(processes))).moves == 9


def test_the_dynamic_programme_split_over_the_pool_gives_the_same_costs_and_masks(processes, monkeypatch):
    from pyapp.core.budget import Budget, drive
    from pyapp.exact.fewest import dp, split
    from pyapp.exact.winnable import winnable

    monkeypatch.setattr(split, "POOL_PARENTS", 1)  # every level on the pool
    problem = build("triangle5", start="1", goal="any").problem
    win = winnable(problem)
    want = drive(dp.costs_steps(win, Budget(), [0]))
    bound = [0]
    got = drive(split.costs_on_pool(win, Parallel(processes), Budget(), bound))
    assert (got.moves, got.goal, got.reached) == (want.moves, want.goal, want.reached) == (10, got.goal, len(win))
    assert [bytes(level.marks) for level in got.levels] == [bytes(level.marks) for level in want.levels]
    assert got.masks == want.masks and bound[0] == 10
    assert not os.listdir(processes.exchange_dir)


def test_a_raced_sweep_still_running_stops_at_its_stop_file_and_the_pool_stays_usable(processes):
    import time

    from pyapp.core.budget import drive
    from pyapp.exact.fewest.meet import meet_sides
    from pyapp.exact.fewest.meetpool import Race
    from pyapp.exact.fewest.push import UNCAPPED

    problem = build("triangle7", start="4", goal="any").problem  # uncapped: minutes of work
    s, cd, _ = meet_sides(problem)
    race = Race(Parallel(processes), problem.board, cd.group, Budget())
    race.submit(0, (s.start,), s.last_pegs, False, UNCAPPED)
    time.sleep(0.5)
    t0 = time.perf_counter()
    race.stop()
    assert time.perf_counter() - t0 < 10 and not race.running and not os.listdir(processes.exchange_dir)
    race = Race(Parallel(processes), problem.board, cd.group, Budget())
    race.submit(1, (s.start,), s.last_pegs, False, 2)
    side, levels = drive(race.next())
    race.stop()
    assert side == 1 and max(max(lv.costs, default=0) for lv in levels.values()) == 2
    assert not os.listdir(processes.exchange_dir)
