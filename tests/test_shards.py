"""The sharded sweep: the same levels, counts and answers on every back end, the bytes interface a
JavaScript pool would call, checkpoints that survive SIGKILL, and spilling to disk under a memory ceiling.

Kept cheap (triangle 5 and 6): each test takes a second or two.  The Dask cluster tests are in
``tests/test_dask.py``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from array import array

import pytest
from reference_counts import in_process_count

from pyapp.core.request import build
from pyapp.exact.count import count_exact
from pyapp.exact.count.joint import joint_start
from pyapp.exact.levels import level_table
from pyapp.exact.pairs import settle
from pyapp.exact.pool import InProcess
from pyapp.exact.processes import Processes
from pyapp.exact.setup import sides
from pyapp.exact.sharded import Checkpoint, Parallel, make_pool
from pyapp.exact.shards import (
    Spec,
    decode_weights,
    encode_weights,
    first_buckets,
    load_bucket,
    merge,
    save_bucket,
)
from pyapp.exact.shardstep import step
from pyapp.exact.sweep import Level, sweep

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
T6_SOLUTIONS = 113077359159


@pytest.fixture(scope="module")
def processes():
    with Processes(2) as pool:
        yield pool


def _levels(gen) -> dict[int, tuple[list, list | None]]:
    out = {}
    for item in gen:
        if isinstance(item, Level):
            out[item.pegs] = (list(item.keys), None if item.weights is None else list(item.weights))
    return out


@pytest.mark.parametrize(("weights", "shards", "merge_keys"), [(True, 3, None), (False, 1, None), (False, 3, 0)])
def test_every_level_equals_the_unsharded_sweep(weights, shards, merge_keys, processes, monkeypatch):
    """Triangle 6 from vacancy 5, whose symmetry group has two elements (class weights carry orbit sizes):
    a third of the default game's positions (vacancy 4, no symmetry), whose sharded totals the counts below
    check.  With ``merge_keys`` 0 every level is gathered by merging its shards (``MERGE_KEYS``: the big levels)."""
    from pyapp.exact import sharded

    if merge_keys is not None:
        monkeypatch.setattr(sharded, "MERGE_KEYS", merge_keys)
    s = sides(build("triangle6", start="5").problem)
    src = {s.start: 1} if weights else [s.start]
    want = _levels(sweep(s.codec, src, 1, weights=weights))
    for pool in (InProcess(), processes):
        assert _levels(Parallel(pool, shards=shards).sweep(s.codec, src, 1, weights=weights)) == want


def test_a_reachability_step_sends_its_children_in_runs_that_the_owner_merges(monkeypatch):
    """pyapp.exact.shards.reach_children: with FLUSH at 50 children (and parents 10 at a time) a shard's step
    moves its owners' sets into sorted arrays many times; a bucket then holds runs, each sorted and without repeats,
    a key in several of them, and the sweep's levels are still the unsharded sweep's, key for key (each held once)."""
    from pyapp.exact import shards as module

    s = sides(build("triangle6", start="5").problem)
    want = _levels(sweep(s.codec, [s.start], 1, weights=False))
    monkeypatch.setattr(module, "FLUSH", 50)
    monkeypatch.setattr(module, "CHUNK", 10)  # parents expanded 10 at a time, so the flushes fall inside a level
    spec = Spec(s.codec.board, s.codec.group, False, 3)
    level = max(want, key=lambda pegs: len(want[pegs][0]))
    sent = []
    for keys, _ in module.expand(spec, array("Q", want[level][0]), None):
        sent.append(array("Q"))
        sent[-1].frombytes(keys)
    assert sum(map(len, sent)) > sum(len(set(run)) for run in sent)  # some key sent twice: runs, not one set
    assert sorted(set().union(*sent)) == want[level - 1][0]
    assert _levels(Parallel(InProcess(), shards=3).sweep(s.codec, [s.start], 1, weights=False)) == want


def test_count_and_levels_equal_in_process(processes):
    problem = build("triangle6").problem
    ref = in_process_count("triangle6")
    par = Parallel(processes, shards=2)  # sharded (two sweeps that differ run whole on a pool of two: test_twosided)
    got = count_exact(problem, parallel=par)
    assert (got.solutions, got.positions) == (ref.solutions, ref.positions) == (T6_SOLUTIONS, ref.positions)
    assert par.stats and all(st.bytes_exchanged >= 0 and st.shard_seconds for st in par.stats)
    p5 = build("triangle5", start="1", goal="any").problem
    assert level_table(p5, parallel=Parallel(processes, shards=4)).rows == level_table(p5).rows


def test_a_complement_count_is_summed_by_the_shards(processes):
    """triangle 6, vacancy 5 -> 5 (one sweep gives both halves): the steps of the middle levels sum the count
    (pyapp.exact.pairs) on every pool and shard count, spilled or not, and no level is gathered or shelved."""
    problem = build("triangle6", start="5", goal="5").problem
    want = in_process_count("triangle6", "5", "5")
    for par, budget in ((Parallel(InProcess(), shards=1), None), (Parallel(InProcess(), shards=3), None),
                        (Parallel(processes), None), (Parallel(processes), _budget(max_bytes=60_000))):
        got = count_exact(problem, parallel=par, budget=budget)
        assert (got.status, got.solutions, got.positions, got.meet) == ("counted", want.solutions, want.positions,
                                                                        want.meet)
    assert any(st.spilled for st in par.stats)
    assert not [f for f in os.listdir(processes.exchange_dir) if ".K" in f]
    s = sides(problem)
    spec = Spec(s.codec.board, s.codec.group, False, 2)
    with pytest.raises(ValueError):  # pairs need weights
        step(spec, first_buckets(spec, [s.start])[0], expand_it=False, pairs_out=True)
    key = s.codec.canon(s.start)
    weighted = Spec(s.codec.board, s.codec.group, True, 1)
    with pytest.raises(ArithmeticError):  # a class weight not a multiple of its orbit's size is refused
        settle(weighted, {key: 1}, [(array("Q", [key]).tobytes(), encode_weights([1]))])


def test_bytes_interface_round_trips():
    """What a JavaScript pool sees: buckets of little-endian 64-bit keys and weight limbs, a JSON spec."""
    big = [1, 2**64 + 5, 3 * 2**70]
    assert decode_weights(encode_weights(big), 3) == big
    assert list(decode_weights(encode_weights([7, 8]), 2)) == [7, 8]
    s = sides(build("triangle6").problem)
    spec = Spec(s.codec.board, s.codec.group, True, 3)
    again = Spec.from_dict(json.loads(json.dumps(spec.as_dict())))
    assert again.board == spec.board and again.group == spec.group and again.shards == 3 and again.joint is None
    joint = Spec(s.codec.board, s.codec.group, True, 3, ((0, 1, 2), 1, 70))
    assert Spec.from_dict(json.loads(json.dumps(joint.as_dict()))) == joint
    buckets = first_buckets(spec, {s.start: 1}, {s.start: 1})
    j = spec.owner(s.codec.canon(s.start))
    out = step(again, buckets[j], keep=True)
    assert out["info"]["size"] == 1 and len(out["buckets"]) == 3
    children = sum(len(b[0]) // 8 for b in out["buckets"])
    second = [len(x) for x in sweep(s.codec, {s.start: 1}, s.first_pegs - 1, weights=True) if isinstance(x, Level)]
    assert children == second[1]
    for b in out["buckets"]:
        keys = array("Q")
        keys.frombytes(b[0])
        assert all(spec.owner(k) == out["buckets"].index(b) for k in keys)


def test_a_spilled_bucket_merges_like_one_in_memory(tmp_path):
    s = sides(build("triangle6").problem)
    spec = Spec(s.codec.board, s.codec.group, True, 1)
    bucket = (array("Q", [5, 3, 9]).tobytes(), encode_weights([1, 2**65, 4]))
    path = save_bucket(str(tmp_path / "b"), bucket)
    assert load_bucket(path, True) == bucket
    keys, ws = merge(spec, [path, bucket])
    assert list(keys) == [3, 5, 9] and list(ws or []) == [2**66, 2, 8]


def test_spill_under_a_memory_ceiling_keeps_the_answer(processes):
    problem = build("triangle6").problem
    par = Parallel(processes, shards=2)
    got = count_exact(problem, parallel=par, budget=_budget(max_bytes=150_000))
    assert got.solutions == T6_SOLUTIONS
    assert any(st.spilled for st in par.stats)


def _budget(**kw):
    from pyapp.core.budget import Budget
    return Budget(**kw)


def test_checkpoint_resumes_after_a_level_was_abandoned(tmp_path):
    problem = build("triangle6", start="5").problem  # a third of the default game's positions: 20 levels too
    ck = Checkpoint(str(tmp_path))
    s = sides(problem)
    gen = Parallel(InProcess(), ck, shards=3).sweep(s.codec, {s.start: 1}, 1, weights=True)
    seen = 0
    for item in gen:
        seen += isinstance(item, Level)
        if seen == 6:
            break
    gen.close()  # as if killed: 6 levels on disk
    assert len(next(iter(Checkpoint(str(tmp_path)).manifest["sweeps"].values()))["levels"]) == 6
    again = Parallel(InProcess(), Checkpoint(str(tmp_path)), shards=5)  # the checkpoint keeps its 3 shards
    assert _levels(again.sweep(s.codec, {s.start: 1}, 1, weights=True)) == \
        _levels(sweep(s.codec, {s.start: 1}, 1, weights=True))
    assert max(st.pegs for st in again.stats) == 15  # levels 20..15 were read back, not swept again


def test_checkpoint_survives_sigkill(tmp_path):
    """A run killed by SIGKILL (its workers with it) mid-sweep resumes from the last finished level."""
    cmd = [sys.executable, "-m", "pyapp", "count", "triangle6", "--workers", "2", "--checkpoint", str(tmp_path),
           "--json"]
    env = dict(os.environ, PYTHONPATH=ROOT)
    manifest = tmp_path / "manifest.json"
    for _ in range(5):
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        while proc.poll() is None and not (manifest.exists() and _recorded(manifest) >= 3):
            time.sleep(0.002)
        killed = proc.poll() is None
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        if killed:
            break
        for f in tmp_path.iterdir():  # finished before it could be killed: try again from nothing
            subprocess.run(["rm", "-rf", str(f)], check=True)
    assert killed, "the run always finished before it could be killed"
    before = _recorded(manifest)
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert answer["solutions"] == T6_SOLUTIONS
    assert answer["positions"] == in_process_count("triangle6").positions
    assert _recorded(manifest) > before


def _recorded(manifest) -> int:
    try:
        data = json.loads(manifest.read_text())
    except (OSError, ValueError):
        return 0
    return sum(len(s["levels"]) for s in data["sweeps"].values())


def test_cancel_stops_every_worker_at_once():
    pool = Processes(2)
    handles = [pool.submit(time.sleep, 30) for _ in range(2)]
    pids = list(pool._pids)
    t0 = time.perf_counter()
    pool.cancel()
    # at once means not after the 30 s tasks: a bound well above a loaded machine's scheduling delays
    assert time.perf_counter() - t0 < 2.0
    time.sleep(0.05)
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert handles


class _SlowLargeTask:
    """An argument that takes 0.5 s to pickle and pickles to 256 KB, more than a pipe holds."""

    def __reduce__(self):
        time.sleep(0.5)
        return bytes, (bytes(1 << 18),)


def test_cancel_returns_while_a_large_task_is_being_sent():
    """The pool's feeder was still pickling a large task when ``terminate`` drained the task pipe and stopped
    the workers: the task then filled a pipe nobody read and ``terminate`` waited for the feeder for ever (a
    rare hang on Ctrl+C, seen in ``table --workers 2``).  Here it is made certain: the one worker is busy, the
    second task is slow to pickle and larger than the pipe, and the cancel comes while it is pickled."""
    import threading
    pool = Processes(1)
    pool.submit(time.sleep, 30)
    time.sleep(0.3)  # the worker has taken the sleep: nothing is left in the pipe
    pool.submit(len, _SlowLargeTask())
    time.sleep(0.1)
    done = threading.Event()
    threading.Thread(target=lambda: (pool.cancel(), done.set()), daemon=True).start()
    assert done.wait(20), "cancel hung: the feeder is blocked writing a task nobody reads"


def test_boards_travel_to_workers_as_their_spec():
    """A task carrying a board pickles its spec, not its compiled tables (73 KB for English), and the worker's
    board is the same board."""
    import pickle
    board = build("english", start="d4").problem.board
    data = pickle.dumps(board)
    assert len(data) < 1000 and pickle.loads(data) == board
    with Processes(1) as pool:
        assert pool.result(pool.submit(_names, board)) == board.names


def _names(board):
    return board.names


def test_make_pool_and_a_missing_dask(monkeypatch):
    assert isinstance(make_pool(1), InProcess)
    monkeypatch.setitem(sys.modules, "distributed", None)
    from pyapp.core.errors import PegError
    with pytest.raises(PegError, match="needs Dask"):
        make_pool(cluster="tcp://127.0.0.1:1")


@pytest.mark.parametrize(("board", "start"), [("triangle5", "1"), ("square:oooo/oooo/oooo/oooo", "b1")])
def test_a_count_in_one_sweep_is_summed_by_the_shards(board, start, processes):
    """A single vacancy to one peg anywhere is counted in one sweep carrying both weights (count.joint); on
    every pool its shards sum the halves: on triangle 5 (15 holes) the next level's steps, on the 4x4 square
    (16 holes: both halves meet at 8 pegs) one more step per shard.  Nothing is left in shared memory (the last
    level's buckets stayed there until the pool closed before)."""
    problem = build(board, start=start, goal="any").problem
    assert joint_start(sides(problem)) is not None
    want = count_exact(problem)
    assert want.solutions > 0
    for par, budget in ((Parallel(processes, shards=2), None), (Parallel(InProcess(), shards=3), None),
                        (Parallel(InProcess(), shards=1), None), (Parallel(processes), _budget(max_bytes=20_000))):
        got = count_exact(problem, parallel=par, budget=budget)
        assert (got.status, got.solutions, got.positions) == ("counted", want.solutions, want.positions)
        assert not os.listdir(processes.exchange_dir)  # no level, bucket or pair bucket left in shared memory


def _die_first(marker: str) -> None:
    """Kill this process (as SIGKILL or the kernel's out-of-memory killer would) if it is the first to get here.

    The marker is created exclusively, so of two tasks started at once only one dies (a check then a create
    let both die now and then, and the pool then rightly counted two lost workers)."""
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return
    os.kill(os.getpid(), signal.SIGKILL)


def _die_once(marker: str, value: int) -> int:
    """A task whose first run kills its own worker."""
    _die_first(marker)
    return value * 2


def test_a_killed_local_worker_costs_time_not_the_answer(tmp_path):
    pool = Processes(2)
    try:
        jobs = [pool.submit(_die_once, str(tmp_path / "died"), v) for v in range(4)]
        t0 = time.perf_counter()
        while not pool.wait(jobs, 0.05):
            assert time.perf_counter() - t0 < 30, "the lost task was never run again"
        assert [pool.result(j) for j in jobs] == [0, 2, 4, 6] and pool.lost_workers == 1
    finally:
        pool.close()


_STEP_MARKER: list[str] = []


def _step_dies_once(*args, **kwargs):
    """The shard step, but the first call of the run kills its worker (as the out-of-memory killer kills a busy,
    growing worker): a marker made exclusively says which call is first, across the workers."""
    from pyapp.exact import shardstep
    _die_first(_STEP_MARKER[0])
    return shardstep.step(*args, **kwargs)


def test_a_sharded_count_survives_a_worker_killed_in_a_step(tmp_path, monkeypatch):
    """A worker killed in the middle of a step costs a rerun of that step on a fresh worker, not the answer.
    The step is replaced before the workers fork, so they run the replacement, and the first step of the run dies
    (a kill timed from outside raced the count's end)."""
    import threading

    from pyapp.exact import sharded

    problem = build("triangle6").problem
    want = in_process_count("triangle6")
    monkeypatch.setattr(sharded, "step", _step_dies_once)
    monkeypatch.setattr(sys.modules[__name__], "_STEP_MARKER", [str(tmp_path / "died")])
    pool = Processes(2)
    done: dict = {}

    def count() -> None:
        done["count"] = count_exact(problem, parallel=Parallel(pool, shards=2))

    runner = threading.Thread(target=count, daemon=True)
    try:
        runner.start()
        runner.join(timeout=240)  # never hang the suite: a lost step left unrun fails here instead
        assert not runner.is_alive(), "the count never finished after a worker was killed"
        lost = pool.lost_workers
    finally:
        if not runner.is_alive():
            pool.close()
    got = done["count"]
    assert (got.solutions, got.positions) == (want.solutions, want.positions)
    assert (tmp_path / "died").exists() and lost == 1  # a step's worker died, and it was noticed


def test_workers_killed_while_idle_do_not_stop_the_pool():
    """Python's ``multiprocessing.Pool`` stopped for ever when an idle worker was killed (it took the task
    queue's read lock with it); with a pipe per worker, fresh workers take their places and ``close`` returns."""
    import threading

    pool = Processes(2)
    try:
        assert pool.result(pool.submit(abs, -3)) == 3
        time.sleep(0.1)  # both workers idle, waiting for a task: one of them held the old pool's lock
        victims = set(pool._pids)
        for pid in victims:
            os.kill(pid, signal.SIGKILL)
        jobs = [pool.submit(abs, -v) for v in range(6)]
        assert pool.wait(jobs, 30), "the pool stopped after its idle workers were killed"
        assert [pool.result(j) for j in jobs] == list(range(6))
        assert not victims & pool._pids and len(pool._pids) == 2 and pool.lost_workers == 2
    finally:
        closing = threading.Thread(target=pool.close, daemon=True)
        closing.start()
        closing.join(30)
        assert not closing.is_alive(), "close hung"


def _gone(pids: set[int], seconds: float) -> bool:
    """Whether every process of ``pids`` has ended (or become a zombie) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        alive = set()
        for pid in pids:
            try:
                if open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z":  # noqa: SIM115
                    alive.add(pid)
            except OSError:
                pass
        if not alive:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_a_pool_dropped_without_close_and_the_workers_of_a_dead_driver_end():
    """A pool nobody closed is killed when it is collected (its workers held copies of the driver's pipes: a
    browser driver started before them then never saw its own pipe close, and the test session hung at its end);
    and the workers of a driver that died without closing its pool end on their own, within seconds."""
    import gc

    pool = Processes(2)
    assert pool.result(pool.submit(abs, -1)) == 1
    pids = set(pool._pids)
    del pool
    gc.collect()
    assert _gone(pids, 10), "the workers of a dropped pool still run"
    code = ("import os, sys; from pyapp.exact.processes import Processes; p = Processes(2); "
            "print(p.exchange_dir, ' '.join(map(str, p._pids)), flush=True); os._exit(0)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=ROOT))
    left, *pids = out.stdout.split()
    shutil.rmtree(left, ignore_errors=True)  # a killed driver leaves it (the next pool would remove it)
    orphans = {int(p) for p in pids}
    assert len(orphans) == 2 and _gone(orphans, 10), "the workers outlived their driver"


def _fails(value: int) -> int:
    raise ValueError(f"bad value {value}")


def test_a_task_that_raises_raises_where_its_result_is_asked_for():
    with Processes(2) as pool:
        job = pool.submit(_fails, 7)
        with pytest.raises(ValueError, match="bad value 7"):
            pool.result(job)
        assert sorted(pool.map(abs, [-1, -2, -3])) == [(0, 1), (1, 2), (2, 3)]
        assert pool.lost_workers == 0


def test_the_workers_exchange_through_a_folder_on_disk_when_asked(tmp_path):
    """``--exchange DIR`` (pyapp.exact.pool.Processes): the buckets pass through DIR instead of /dev/shm, the sweep
    gives the same levels, and the folder made there is removed with the pool; a folder that cannot be made, and the
    option where no files are exchanged, are refused with a message."""
    s = sides(build("triangle6", start="5").problem)
    folder = tmp_path / "exchange"
    with make_pool(2, exchange=str(folder)) as pool:
        assert pool.exchange_dir is not None and os.path.dirname(pool.exchange_dir) == str(folder)
        got = _levels(Parallel(pool, shards=3).sweep(s.codec, [s.start], 1, weights=False))
        made = pool.exchange_dir
    assert got == _levels(sweep(s.codec, [s.start], 1, weights=False))
    assert not os.path.exists(made) and folder.is_dir()
    env = dict(os.environ, PYTHONPATH=ROOT)
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    for extra, why in ((["--workers", "2", "--exchange", str(blocked / "x")], "cannot use"),
                       (["--workers", "1", "--exchange", str(folder)], "--exchange is for two local workers")):
        out = subprocess.run([sys.executable, "-m", "pyapp", "count", "triangle5", *extra], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=60)
        assert out.returncode != 0 and why in out.stderr and "Traceback" not in out.stderr, out.stderr
