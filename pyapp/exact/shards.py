"""One level of a sweep split into shards: the per-shard functions every back end calls.

A level's canonical keys are split into ``S`` shards (:mod:`.partition`: the parity of the pegs on a symmetric
set of holes that few jumps change, then a hash of the key's top bits; :meth:`Spec.owner`).
One *step* on shard ``j`` (:func:`.shardstep.step`) merges the buckets sent to it (duplicates removed, class
weights added: the shard of level ``L``), may save that shard to a file (a checkpoint),
then expands it: its children's canonical keys, bucketed by *their* shard, are the buckets of
level ``L - 1``.  Shards never share a key, so the level is the union of its shards and its
size the sum of theirs, whichever back end ran the steps and in whatever order.

What a shard costs beyond the unsharded sweep, and how it is kept small:

* a child whose parents lie in several shards is found, sent and merged once per shard.  The partition
  (:mod:`.partition`) keeps most children in their parents' shard, so few cross and the parents a shard
  expands together share more children, merged before they are canonicalised;
* children are routed to their owner's dict inside the generated loop that canonicalises them
  (:func:`router`), so bucketing is one hash per child and no second pass;
* each bucket holds a key once, so the owner adds weights by C loops only (:func:`merge`);
* the owner sorts its shard before expanding it, as the unsharded sweep expands its sorted levels: neighbouring
  parents share children, so a chunk's children merge more among themselves before they are canonicalised
  (English to 17 pegs on 2 workers: 21.1-21.6 s against 23.2 s expanding in the dict's order, the 18-peg step
  9.3-9.7 CPU s a shard against 10.5), and a kept shard is a sorted run the driver merges.

The interface is plain data so that any worker can call it: a thread, a local process, a Dask
worker or (later) a Pyodide worker in the page, driven from JavaScript:

* a :class:`Spec` (``as_dict``/``from_dict``: board text, lattice, symmetry group, whether to
  count, the number of shards) from which a worker rebuilds the compiled codec itself (generated
  source is never pickled: :func:`pyapp.core.codec.compiled.codec` caches it per worker);
* a *bucket* is ``(keys, weights)``: ``keys`` the bytes of an ``array('Q')`` of canonical keys
  (little-endian, unsorted, no duplicates), ``weights`` None when only reachability is asked, else
  ``w`` little-endian 64-bit limbs per key (``w = len(weights) // len(keys)``; 1 while every weight
  fits 64 bits), or the path of a file holding the same (:func:`save_bucket`, a spilled bucket);
* :func:`.shardstep.step` returns a dict: ``info`` (``size``, the positions of the shard, and ``stats``:
  ``seconds``, ``bytes_in``, ``bytes_out``, the measured cost of the step; ``pairs``, a partial sum of
  the final combination of a complement count, :mod:`.pairs`), ``kept`` (the shard as a bucket, sorted,
  when asked to keep it) and ``buckets`` (one per shard, for the next level; then the pair buckets).

A JavaScript pool passes the ``ArrayBuffer`` of each bucket as ``bytes`` and transfers the
returned ones back without copying.
"""

from __future__ import annotations

import os
import sys
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import repeat
from operator import add

from ..core.board import Board
from ..core.codec.compiled import Codec, codec
from ..core.lattice import LATTICES
from .partition import owner_function, owner_source
from .sweep import CHUNK

Bucket = tuple[bytes, bytes | None] | str


@dataclass(frozen=True)
class Spec:
    """What a worker needs to run a step: the board, the symmetry group, counting or not, the shard count, and
    for a one-sweep count carrying two weights how its final combination pairs classes (:mod:`.pairs`)."""

    board: Board
    group: tuple[int, ...]
    weights: bool
    shards: int
    joint: tuple[tuple[int, ...], int, int] | None = None
    """``(group, lane, shift)`` of :mod:`pyapp.exact.count.joint`: its weights are packed ``T_b + (T_f << shift)``
    and a class ``C`` pairs with the class of the complement of ``lane``'s packed image of ``C`` under
    ``codec(board, group)``; None for a complement count (``C`` with the class of its complement)."""

    def codec(self) -> Codec:
        return codec(self.board, self.group)

    def owner_source(self, var: str) -> str:
        """Source of the shard owning the canonical key in variable ``var`` (:mod:`.partition`)."""
        return owner_source(self.board, self.group, self.shards, var)

    def owner(self, key: int) -> int:
        """The shard owning a canonical key (:mod:`.partition`)."""
        return owner_function(self.board, self.group, self.shards)(key)

    def as_dict(self) -> dict:
        """Plain data (JSON) for a worker that is not Python's pickle: the board as text."""
        b = self.board
        return {"board": b.id, "title": b.title, "lattice": b.lattice.name, "cells": [list(c) for c in b.cells],
                "group": list(self.group), "weights": self.weights, "shards": self.shards,
                **({"joint": [list(self.joint[0]), self.joint[1], self.joint[2]]} if self.joint else {})}

    @classmethod
    def from_dict(cls, d: dict) -> Spec:
        cells = [(int(r), int(c)) for r, c in d["cells"]]
        board = Board.from_cells(d["board"], d["title"], LATTICES[d["lattice"]], cells)
        joint = d.get("joint")
        return cls(board, tuple(d["group"]), bool(d["weights"]), int(d["shards"]),
                   None if joint is None else (tuple(int(g) for g in joint[0]), int(joint[1]), int(joint[2])))


# ---------------------------------------------------------------- bytes of keys and weights
def _q(values) -> array:
    a = array("Q", values)
    if sys.byteorder == "big":  # pragma: no cover - the interface is little-endian everywhere
        a.byteswap()
    return a


def _from_bytes(data: bytes) -> array:
    a = array("Q")
    a.frombytes(data)
    if sys.byteorder == "big":  # pragma: no cover
        a.byteswap()
    return a


def encode_weights(weights) -> bytes:
    """Weights as little-endian 64-bit limbs, as few limbs per weight as the largest needs."""
    try:
        return _q(weights).tobytes()
    except OverflowError:
        width = 8 * max(1, -(-max(weights).bit_length() // 64))
        return b"".join(w.to_bytes(width, "little") for w in weights)


def decode_weights(data: bytes, n: int) -> array | list:
    """The weights of :func:`encode_weights` for ``n`` keys (an ``array('Q')`` when one limb each)."""
    if n == 0 or len(data) == 8 * n:
        return _from_bytes(data)
    width = len(data) // n
    return [int.from_bytes(data[i:i + width], "little") for i in range(0, len(data), width)]


def save_bucket(path: str, bucket: tuple[bytes, bytes | None]) -> str:
    """Write a bucket to ``path`` (atomically: a partial file is never read) and return the path."""
    keys, weights = bucket
    tmp = f"{path}.{os.getpid()}.part"  # per process: a task run again after a lost worker may write it too
    with open(tmp, "wb") as f:
        f.write(len(keys).to_bytes(8, "little"))
        f.write(keys)
        if weights is not None:
            f.write(weights)
    os.replace(tmp, path)
    return path


def load_bucket(path: str, weights: bool) -> tuple[bytes, bytes | None]:
    with open(path, "rb") as f:
        data = f.read()
    n = int.from_bytes(data[:8], "little")
    return data[8:8 + n], (data[8 + n:] if weights else None)


def bucket_bytes(bucket: Bucket) -> int:
    """Bytes a bucket moves (0 for a spilled one: it stays on disk until its owner reads it)."""
    if isinstance(bucket, str):
        return 0
    return len(bucket[0]) + len(bucket[1] or b"")


# ---------------------------------------------------------------- the step
def merge(spec: Spec, incoming: list[Bucket], *, ordered: bool = True) -> tuple[array, array | list | None]:
    """The shard the buckets make up: its keys without duplicates (and their summed weights), sorted when
    ``ordered``, else in the order the buckets brought them (the largest bucket's first)."""
    return arrays(spec, accumulate(spec, incoming), ordered=ordered)


def accumulate(spec: Spec, incoming: list[Bucket]) -> dict[int, int] | dict[int, None]:
    """The buckets merged into one dict: key -> summed weight (None when only reachability is asked).

    Each bucket holds a key at most once (its sender merged its own duplicates), so the weights are added
    by C loops alone: the largest bucket becomes the dict, and each other one updates it with its
    weights plus what the dict already holds for its keys (``map(add, ws, map(acc.get, ks, zeros))``)."""
    loaded = [load_bucket(b, spec.weights) if isinstance(b, str) else b for b in incoming]
    loaded.sort(key=lambda b: -len(b[0]))
    if not spec.weights:
        seen: dict[int, None] = {}
        for keys, _ in loaded:
            seen.update(dict.fromkeys(_from_bytes(keys)))
        return seen
    acc: dict[int, int] = {}
    for keys, weights in loaded:
        ks = _from_bytes(keys)
        ws = decode_weights(weights or b"", len(ks))
        if acc:
            acc.update(zip(ks, map(add, ws, map(acc.get, ks, repeat(0)))))
        else:
            acc = dict(zip(ks, ws, strict=True))
    return acc


def arrays(spec: Spec, acc: dict, *, ordered: bool) -> tuple[array, array | list | None]:
    """The keys of :func:`accumulate`'s dict (and their weights, in the same order), sorted when ``ordered``."""
    if not spec.weights:
        return _q(sorted(acc) if ordered else acc), None
    if ordered:
        keys_in = sorted(acc)
        return _q(keys_in), _weights_of(list(map(acc.__getitem__, keys_in)))
    return _q(acc), _weights_of(list(acc.values()))


def _weights_of(values: list[int]) -> array | list:
    try:
        return _q(values)
    except OverflowError:
        return values


FLUSH = 1 << 24
"""Children a reachability step routes into its owners' sets (up to about 1.5 GB of Python sets) before it moves them
into sorted arrays, 8 bytes a key.  Held in sets to the end, French d2 -> d6's backward level 20 took 12 GB a worker
for one of 8 shards, and the kernel killed the workers.  One sender may then send a key once a run; the owner's merge
(:func:`accumulate`) keeps it once.  A counting step keeps its dicts whole: a bucket holds each key once, weights
summed."""


def expand(spec: Spec, keys: array, weights: array | list | None) -> list[tuple[bytes, bytes | None]]:
    """The children of a shard, canonical, bucketed by their shard: merged (each key once a bucket) when counting,
    else merged a run of :data:`FLUSH` children at a time (:func:`reach_children`)."""
    if spec.weights:
        assert weights is not None, "a counting shard's step expands its weights too"
        return bucket(children(spec, keys, weights))
    return [(run.tobytes(), None) for run in reach_children(spec, keys)]


def reach_children(spec: Spec, keys: array) -> list[array]:
    """The canonical children of a shard's positions, one array per owner shard: runs of sorted keys, each run the
    children routed since the last, moved out of the owners' sets once :data:`FLUSH` children were routed."""
    cd = spec.codec()
    route = router(cd, spec.owner_source("c"), False)
    accs: list[set[int]] = [set() for _ in range(spec.shards)]
    runs = [array("Q") for _ in range(spec.shards)]
    routed = 0
    for lo in range(0, len(keys), CHUNK):
        raw: set[int] = set()
        cd.expand_set(keys, lo, min(len(keys), lo + CHUNK), raw)
        route(raw, accs)
        routed += len(raw)
        if routed >= FLUSH or lo + CHUNK >= len(keys):
            for run, acc in zip(runs, accs, strict=True):
                run.extend(_q(sorted(acc)))
                acc.clear()
            routed = 0
    return runs


def children(spec: Spec, keys: array, weights: array | list) -> list[dict[int, int]]:
    """The canonical children of a counting shard's positions, one dict (weights summed) per owner shard (a
    reachability shard's: :func:`reach_children`).

    Each chunk's children are first merged by exact position (the codec's generated expansion), then
    canonicalised, routed to their owner's dict and merged there in one generated loop (:func:`router`),
    so splitting them by owner costs one hash per child and no second pass."""
    cd = spec.codec()
    route = router(cd, spec.owner_source("c"), True)
    n = len(keys)
    accs: list[dict[int, int]] = [{} for _ in range(spec.shards)]
    for lo in range(0, n, CHUNK):
        raw: dict[int, int] = {}
        cd.expand_counts(keys, weights, lo, min(n, lo + CHUNK), raw)
        route(raw, accs)
    return accs


@cache
def router(cd: Codec, owner: str, weights: bool) -> Callable:
    """``route(raw, accs)``: the canonical key ``c`` of every packed child in ``raw`` merged into
    ``accs[j]``, ``j`` its owner shard (``owner``: :meth:`Spec.owner_source` of ``c``, inlined), weights added
    when counting; generated."""
    least = cd.least_source("x")
    if weights:
        src = ("def route(raw, accs):\n    gets = [a.get for a in accs]\n    for x, t in raw.items():\n"
               f"        c = {least}\n        j = {owner}\n        accs[j][c] = gets[j](c, 0) + t\n")
    else:
        src = ("def route(raw, accs):\n    adds = [a.add for a in accs]\n    for x in raw:\n"
               f"        c = {least}\n        adds[{owner}](c)\n")
    return cd.compile_source(src, "route")


def bucket(accs: list[dict[int, int]]) -> list[tuple[bytes, bytes | None]]:
    """Each owner's children (:func:`children`) as the bytes of its bucket: keys, and weights in the same order."""
    return [(_q(a).tobytes(), encode_weights(a.values())) for a in accs]


def first_buckets(spec: Spec, sources, weights: dict[int, int] | None = None
                  ) -> list[list[Bucket]]:
    """The incoming buckets of the first level: each source's canonical key (weights added) in its shard."""
    cd = spec.codec()
    acc: dict[int, int] = {}
    for p in sources:
        k = cd.canon(p)
        acc[k] = acc.get(k, 0) + (weights[p] if weights is not None else 1)
    s = spec.shards
    ks: list[list[int]] = [[] for _ in range(s)]
    ws: list[list[int]] = [[] for _ in range(s)]
    for k, w in acc.items():
        j = spec.owner(k)
        ks[j].append(k)
        ws[j].append(w)
    return [[(_q(ks[j]).tobytes(), encode_weights(ws[j]) if spec.weights else None)] for j in range(s)]
