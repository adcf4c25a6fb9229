"""The final combination of a complement count, done by the shards of its one sweep (no level gathered).

When the goal is the start's complement (the English central game) one sweep gives both halves of the
count (:mod:`pyapp.exact.count.sweep`)::

    solutions = sum over classes C of the meet level of T(C) * T(D) / |D|,  D the class of complement(C)

``D`` lies one level lower (``holes - meet`` pegs) in the same sweep, under the same symmetry group.  A
sharded sweep can sum that where the classes already are, in two halves of two steps it runs anyway:

* the step of shard ``i`` of the meet level (:func:`emit`) sends, for each of its classes ``C``, the
  canonical key of ``D`` and ``T(C)`` to the shard that owns ``D`` (:func:`~.shards.shard_of`: the same
  partition as the sweep's, so the pair lands beside ``D``), as buckets ``S + j`` of its answer;
* the step of shard ``j`` of the level of ``D`` (:func:`settle`) merges that level's shard as usual, then
  adds ``T(C) * T(D) / |D|`` for every pair it was sent whose ``D`` it holds, and answers the partial sum
  (decimal, in ``info["pairs"]``).

The driver adds the partial sums.  Nothing is sorted and no level passes through the driver, which
before gathered both middle levels and summed them alone (English: about 9 of 96 CPU seconds).  A pair
bucket is a bucket of the bytes interface (``keys``: the keys of ``D``; ``weights``: ``T(C)``), spilled
to a file like the others, so every back end (local processes, Dask, the page's pool) carries it as it
carries the level's buckets.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from ..core.codec.compiled import Codec
from .shards import MASK64, MIX, Bucket, Spec, _from_bytes, _q, decode_weights, encode_weights, load_bucket


def emit(spec: Spec, keys, weights) -> list[tuple[bytes, bytes | None]]:
    """For each class of a shard (``keys`` and their weights ``T(C)``): the canonical key of its complement's
    class and ``T(C)``, one bucket per owner shard of that key."""
    cd = spec.codec()
    ks: list[list[int]] = [[] for _ in range(spec.shards)]
    ws: list[list[int]] = [[] for _ in range(spec.shards)]
    _emitter(cd, spec.shards, spec.shift)(keys, weights, [k.append for k in ks], [w.append for w in ws])
    return [(_q(k).tobytes(), encode_weights(w)) for k, w in zip(ks, ws, strict=True)]


@cache
def _emitter(cd: Codec, shards: int, shift: int) -> Callable:
    """``run(keys, weights, key_adds, weight_adds)``, generated: the complement's canonical key of each key
    is ``everything ^`` the greatest lane of its packed images (as ``Codec.least_greatest`` says)."""
    n, m, count = cd.holes, cd.everything, len(cd.group)
    lanes = ", ".join([f"x & {m}"] + [f"(x >> {n * g}) & {m}" if g < count - 1 else f"x >> {n * g}"
                                         for g in range(1, count)])
    greatest = f"max({lanes})" if count > 1 else f"x & {m}"
    owner = f"(((c >> {shift}) * {MIX} & {MASK64}) >> 32) % {shards}" if shards > 1 else "0"
    src = ("def run(keys, weights, kadds, wadds):\n    for k, t in zip(keys, weights):\n"
           f"        x = {cd.images_source('k')}\n        c = {m} ^ {greatest}\n        j = {owner}\n"
           "        kadds[j](c)\n        wadds[j](t)\n")
    return cd.compile_source(src, "run")


def settle(spec: Spec, shard: dict[int, int], pairs: list[Bucket]) -> int:
    """``sum T(C) * T(D) / |D|`` over the pairs ``(D, T(C))`` sent to this shard whose class ``D`` it holds
    (``shard``: its keys and weights ``T(D)``).  A weight not divisible by its orbit size is a broken
    invariant and raises: never a silently wrong count."""
    run = _settler(spec.codec())
    total = 0
    for b in pairs:
        keys, weights = load_bucket(b, True) if isinstance(b, str) else b
        ks = _from_bytes(keys)
        total += run(ks, decode_weights(weights or b"", len(ks)), shard.get)
    return total


@cache
def _settler(cd: Codec) -> Callable:
    """``run(keys, weights, get)``, generated: the partial sum of :func:`settle` for one pair bucket, the
    orbit size ``|D|`` (distinct lanes of the packed images, as ``Codec.orbit_size``) inlined."""
    n, m, count = cd.holes, cd.everything, len(cd.group)
    lanes = ", ".join(f"({'x' if g == 0 else f'x >> {n * g}'}) & {m}" for g in range(count))
    src = ("def run(keys, weights, get):\n    total = 0\n    for d, t in zip(keys, weights, strict=True):\n"
           "        w = get(d)\n        if w:\n"
           f"            x = {cd.images_source('d')}\n            ways, rest = divmod(w, len({{{lanes}}}))\n"
           "            if rest:  # a broken invariant: never a silently wrong count\n"
           "                raise ArithmeticError('class weights not divisible by the orbit size')\n"
           "            total += t * ways\n    return total\n")
    return cd.compile_source(src, "run")
