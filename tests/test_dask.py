"""The sharded sweep on a Dask cluster: a ``LocalCluster`` of two worker processes (loopback only, no
dashboard) gives the same counts and level sizes as the in-process run, even when a worker is killed
mid-run.  Skipped when the optional ``distributed`` package is not installed.
"""

from __future__ import annotations

import os
import signal

import pytest
from reference_counts import in_process_count

from pyapp.core.budget import drive
from pyapp.core.request import build
from pyapp.exact.count import count_exact, sweep_steps
from pyapp.exact.levels import level_table
from pyapp.exact.sharded import Parallel

distributed = pytest.importorskip("distributed")
from pyapp.exact.dask_pool import DaskPool  # noqa: E402 - only with Dask installed


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                       host="127.0.0.1", silence_logs=40)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def test_counts_and_levels_equal_the_in_process_run(client):
    pool = DaskPool(client=client)
    assert pool.workers == 2
    # triangle 6's default count on this cluster: test_a_worker_killed_mid_run_costs_time_not_the_answer (the same
    # comparison, one worker killed mid-sweep); tests/test_package.py counts it on a cluster of separate processes
    t6c = build("triangle6", start="5", goal="5").problem  # a complement count: the shards sum the halves
    got, want = count_exact(t6c, parallel=Parallel(pool)), in_process_count("triangle6", "5", "5")
    assert (got.solutions, got.positions) == (want.solutions, want.positions)
    par = Parallel(pool)
    t5 = build("triangle5", start="1", goal="any").problem  # the winnable levels of a cheaper board than English
    rows = level_table(t5, parallel=par).rows
    assert rows == level_table(t5).rows
    assert par.stats and sum(st.bytes_exchanged for st in par.stats) > 0


def test_a_worker_killed_mid_run_costs_time_not_the_answer(client):
    pool = DaskPool(client=client)
    t6 = build("triangle6").problem
    pids = list(client.run(os.getpid).values())
    killed = []

    def kill_one(progress) -> None:
        if not killed and progress.stage in ("forward", "backward") and progress.pegs <= 16:  # mid-sweep
            os.kill(pids[0], signal.SIGKILL)
            killed.append(progress.pegs)

    got = drive(sweep_steps(t6, parallel=Parallel(pool)), kill_one)
    assert killed
    assert got.solutions == 113077359159 and got.positions == in_process_count("triangle6").positions
