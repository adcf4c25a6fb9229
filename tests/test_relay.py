"""The page's pool, run here: the sharded sweep on a :class:`~pyapp.exact.relay.Relay` whose steps are run
by an outside loop (as ``static/engine/pool.mjs`` runs them in Pyodide workers: buckets kept by the
runner and routed to their owner shard as bytes, only ``info`` and the kept shards handed back) gives
the same keys, weights, level sizes and answers as :func:`~pyapp.exact.sharded.sharded_sweep` on
:class:`~pyapp.exact.pool.InProcess` and as the unsharded sweep."""

from __future__ import annotations

import functools
import json
from collections.abc import Generator
from typing import Any

import pytest
from reference_counts import in_process_count

from pyapp.core.problem import default_problem
from pyapp.core.request import build
from pyapp.exact.count import count_exact, sweep_steps
from pyapp.exact.fewest import fewest_exact, fewest_steps
from pyapp.exact.levels import level_table, levels_steps
from pyapp.exact.pool import InProcess
from pyapp.exact.relay import Relay, run_step
from pyapp.exact.setup import sides
from pyapp.exact.sharded import Parallel, sharded_sweep
from pyapp.exact.shardstep import step
from pyapp.exact.sweep import Level


class Runner:
    """What the page's JavaScript pool does, in Python: run the taken steps, keep their buckets by
    ``(task, j)``, hand each to the step of its shard, deliver ``info`` and the kept shard."""

    def __init__(self, relay: Relay, order: str = "fifo") -> None:
        self.relay = relay
        self.order = order
        self.buckets: dict[tuple[int, int], tuple[bytes, bytes | None]] = {}
        self.steps = 0
        self.kept = 0
        self.shards_seen: set[int] = set()

    def run_pending(self) -> None:
        tasks = json.loads(self.relay.take())
        blobs = {k: self.relay.blob(k) for t in tasks for ref in t["incoming"] for k in (ref.get("keys"),
                 ref.get("weights")) if k is not None}
        self.relay.forget_blobs()
        if self.order == "lifo":
            tasks.reverse()
        for t in tasks:
            keys, weights = [], []
            for ref in t["incoming"]:
                if "task" in ref:
                    k, w = self.buckets.pop((ref["task"], ref["bucket"]))
                    assert ref["bucket"] % t["spec"]["shards"] == t["shard"]  # routed to its owner (pairs: S + j)
                else:
                    k, w = blobs[ref["keys"]], None if ref["weights"] is None else blobs[ref["weights"]]
                keys.append(k)
                weights.append(w)
            out = run_step(t["spec"], keys, weights if t["spec"]["weights"] else None,
                           expand_it=t["expand_it"], keep=t["keep"], pairs_out=t["pairs_out"], pairs_in=t["pairs_in"])
            for j, b in enumerate(out["buckets"]):
                self.buckets[(t["id"], j)] = b
            kept = out["kept"]
            self.kept += kept is not None
            self.relay.deliver(t["id"], json.dumps(out["info"]), *(kept if kept else (None, None)))
            self.steps += 1
            self.shards_seen.add(t["shard"])

    def drive(self, gen: Generator[Any, None, Any]) -> Any:
        """Step ``gen`` to its end, running the recorded steps whenever it pauses."""
        try:
            while True:
                item = next(gen)
                self.run_pending()
                if isinstance(item, Level):
                    yield item
        except StopIteration as stop:
            return stop.value


def _levels(gen) -> dict[int, tuple[list[int], list[int] | None]]:
    return {lv.pegs: (list(lv.load().keys), None if lv.weights is None else list(lv.weights))
            for lv in gen if isinstance(lv, Level)}


def _sweep_problem():
    """Triangle 6 from vacancy 5: 20 levels, a symmetry group of two, a third of the default game's positions (the
    default game, with no symmetry, is counted on the relay below)."""
    return build("triangle6", start="5").problem


@functools.cache
def _in_process(weights: bool) -> dict[int, tuple[list[int], list[int] | None]]:
    """Triangle 6's levels (:func:`_sweep_problem`) swept in process on two shards: computed once per ``weights``
    for both orders (tests only read it)."""
    s = sides(_sweep_problem())
    sources: Any = {s.start: 1} if weights else [s.start]
    return _levels(sharded_sweep(Parallel(InProcess(), shards=2), s.codec, sources, 1, weights=weights))


@pytest.mark.parametrize("weights", [True, False])
@pytest.mark.parametrize("order", ["fifo", "lifo"])
def test_relay_sweep_gives_the_in_process_keys_weights_and_sizes(weights, order):
    s = sides(_sweep_problem())
    sources: Any = {s.start: 1} if weights else [s.start]
    reference = _in_process(weights)
    relay = Relay(2)
    runner = Runner(relay, order)
    par = Parallel(relay)
    got = _levels(runner.drive(sharded_sweep(par, s.codec, sources, 1, weights=weights)))
    assert got == reference
    assert {p: len(k) for p, (k, _) in got.items()} == {st.pegs: st.positions for st in par.stats}
    assert runner.shards_seen == {0, 1} and not runner.buckets  # every bucket consumed by its owner


def test_relay_count_levels_and_fewest_answer_as_the_command_line():
    p = default_problem("triangle6")
    relay = Relay(2)
    counted = Runner(relay).drive(sweep_steps(p, parallel=Parallel(relay)))
    c = _drain(counted)
    plain = in_process_count("triangle6")
    assert (c.status, c.solutions, c.positions, c.meet) == ("counted", plain.solutions, plain.positions, plain.meet)
    q = build("triangle6", start="5", goal="5").problem  # a complement count: the shards sum the halves
    relay = Relay(3)
    runner = Runner(relay)
    c = _drain(runner.drive(sweep_steps(q, parallel=Parallel(relay))))
    plain = in_process_count("triangle6", "5", "5")
    assert (c.status, c.solutions, c.positions, c.meet) == ("counted", plain.solutions, plain.positions, plain.meet)
    assert not runner.buckets and runner.kept == 0  # the pair buckets consumed too; no shard came back here
    relay = Relay(3)
    t = _sweep_problem()  # the level table of a smaller game: the default one's costs nearly twice as much
    table = _drain(Runner(relay).drive(levels_steps(t, parallel=Parallel(relay))))
    assert table.rows == level_table(t).rows
    q = build("square:oooo/oooo/oooo/oooo", start="b1", goal="any").problem  # one sweep, halves on one level
    relay = Relay(2)
    runner = Runner(relay)
    c = _drain(runner.drive(sweep_steps(q, parallel=Parallel(relay))))
    plain = count_exact(q)
    assert (c.status, c.solutions, c.positions) == ("counted", plain.solutions, plain.positions)
    assert not runner.buckets and runner.kept == 2  # the meeting level's shards came back once, to settle its pairs
    q = build("triangle5", start="1", goal="any").problem
    relay = Relay(2)
    f = _drain(Runner(relay).drive(fewest_steps(q, parallel=Parallel(relay))))
    assert (f.status, f.moves) == (fewest_exact(q).status, fewest_exact(q).moves)


def _drain(gen) -> Any:
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value


def test_relay_cancel_drops_what_is_open_and_refuses_files():
    s = sides(default_problem("triangle5"))
    relay = Relay(2)
    gen = sharded_sweep(Parallel(relay), s.codec, {s.start: 1}, 1, weights=True)
    next(gen)  # the first level's steps are recorded, none answered
    assert relay.waiting() is False  # not taken yet
    assert len(json.loads(relay.take())) == 2 and relay.waiting()
    gen.close()  # a budget stop mid-level: the sweep cancels its pool
    assert relay.cancelled and not relay.waiting()
    relay.deliver(0, "{}")  # a late answer is ignored
    with pytest.raises(ValueError):
        relay.submit(step, None, [], spill="/tmp/x")
