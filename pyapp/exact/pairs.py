"""The final combination of a one-sweep count, done by the shards of its sweep (no level gathered).

When the goal is the start's complement (the English central game) one sweep gives both halves of the
count (:mod:`pyapp.exact.count.sweep`)::

    solutions = sum over classes C of the meet level of T(C) * T(D) / |D|,  D the class of complement(C)

``D`` lies one level lower (``holes - meet`` pegs) in the same sweep, under the same symmetry group ``G``.  A
sharded sweep can sum that where the classes already are, in two halves of two steps it runs anyway:

* the step of shard ``i`` of the meet level (:func:`emit`) sends, for each of its classes ``C``, the
  canonical key of ``D`` and ``T(C) * |G| / |D|`` (an integer: an orbit's size divides the group's order,
  and the sender has ``D``'s images at hand, so the owner need not compute them again) to the shard that
  owns ``D`` (:meth:`~.shards.Spec.owner`: the same partition as the sweep's, so the pair lands beside ``D``),
  as buckets ``S + j`` of its answer;
* the step of shard ``j`` of the level of ``D`` (:func:`settle`) merges that level's shard as usual, then
  adds ``T(D)`` times the weight of every pair it was sent whose ``D`` it holds, and answers the partial sum
  divided by ``|G|`` (decimal, in ``info["pairs"]``; each term is ``|G|`` times ``T(C) * T(D) / |D|``, a
  whole number since class weights are multiples of their orbit's size: a partial sum that is not a
  multiple of ``|G|`` is a broken invariant and raises, never a silently wrong count).

A one-sweep count carrying two weights (:mod:`pyapp.exact.count.joint`, :attr:`~.shards.Spec.joint`) pairs
its forward weights ``T_f(C)`` with the backward weights ``T_b(D)`` of ``D``, the class of the complement of
an image of ``C``; its two meeting levels are the same level when the board has an even number of holes, and
then the sweep runs one more step per shard to settle them (:mod:`.sharded`).

The driver adds the partial sums.  Nothing is sorted and no level passes through the driver, which
before gathered both middle levels and summed them alone (English: about 9 of 96 CPU seconds).  A pair
bucket is a bucket of the bytes interface (``keys``: the keys of ``D``; ``weights``: as above), spilled
to a file like the others, so every back end (local processes, Dask, the page's pool) carries it as it
carries the level's buckets.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from ..core.codec.compiled import Codec, codec
from .shards import Bucket, Spec, _from_bytes, _q, decode_weights, encode_weights, load_bucket


def emit(spec: Spec, keys, weights) -> list[tuple[bytes, bytes | None]]:
    """For each class ``C`` of a shard (``keys`` and their weights): the canonical key of the class ``D`` it pairs
    with and ``T(C) * |G| / |D|``, one bucket per owner shard of that key."""
    cd = spec.codec()
    ks: list[list[int]] = [[] for _ in range(spec.shards)]
    ws: list[list[int]] = [[] for _ in range(spec.shards)]
    run = _emitter(cd, spec.shards, spec.owner_source("c"), spec.joint)
    run(keys, weights, [k.append for k in ks], [w.append for w in ws])
    return [(_q(k).tobytes(), encode_weights(w)) for k, w in zip(ks, ws, strict=True)]


@cache
def _emitter(cd: Codec, shards: int, owner: str, joint: tuple[tuple[int, ...], int, int] | None) -> Callable:
    """``run(keys, weights, key_adds, weight_adds)``, generated: the complement's canonical key of each key
    is ``everything ^`` the greatest lane of its packed images (as ``Codec.least_greatest`` says), and the
    number of distinct lanes is the orbit's size.  A joint count (``joint``) sends only the classes with a
    forward weight, that weight scaled, and the class of the complement of their image in the given lane."""
    n, m, count = cd.holes, cd.everything, len(cd.group)
    lanes = ", ".join([f"x & {m}"] + [f"(x >> {n * g}) & {m}" if g < count - 1 else f"x >> {n * g}"
                                         for g in range(1, count)])
    head, images = "", None
    if joint is not None:
        group, lane, packed = joint
        head = (f"        t >>= {packed}\n        if not t:\n            continue\n"
                f"        k = (images(k) >> {lane * n}) & {m}\n")
        images = codec(cd.board, group).packed_key
    scale = (f"        ls = ({lanes},)\n        c = {m} ^ max(ls)\n        t *= {count} // len(set(ls))\n"
             if count > 1 else f"        c = {m} ^ (x & {m})\n")
    src = ("def run(keys, weights, kadds, wadds):\n    for k, t in zip(keys, weights):\n" + head +
           f"        x = {cd.images_source('k')}\n" + scale + f"        j = {owner}\n"
           "        kadds[j](c)\n        wadds[j](t)\n")
    return cd.compile_source(src, "run", images=images)


def backward_part(spec: Spec, weights):
    """The weights a shard keeps for the step that settles its own pairs: a joint count's backward weights
    ``T_b`` (below :attr:`~.shards.Spec.joint`'s shift: fewer 64-bit limbs than the packed weights), else the
    weights unchanged."""
    if spec.joint is None or weights is None:
        return weights
    below = (1 << spec.joint[2]) - 1
    return [w & below for w in weights]


def settle(spec: Spec, shard: dict[int, int], pairs: list[Bucket]) -> int:
    """``sum T(C) * T(D) / |D|`` over the pairs sent to this shard whose class ``D`` it holds (``shard``: its
    keys and weights, ``T(D)`` below a joint count's shift), from the pairs' ``T(C) * |G| / |D|``."""
    run = _settler(spec.joint[2] if spec.joint else 0)
    total = 0
    for b in pairs:
        keys, weights = load_bucket(b, True) if isinstance(b, str) else b
        ks = _from_bytes(keys)
        total += run(ks, decode_weights(weights or b"", len(ks)), shard.get)
    order = len(spec.codec().group)
    whole, rest = divmod(total, order)
    if rest:  # a class weight not a multiple of its orbit's size: a broken invariant, never a silently wrong count
        raise ArithmeticError("class weights not divisible by the orbit size")
    return whole


@cache
def _settler(packed: int) -> Callable:
    """``run(keys, weights, get)``: the partial sum of :func:`settle` for one pair bucket, times ``|G|``;
    ``packed``: the bits of a stored weight below a joint count's forward weight (0: all of it is ``T(D)``)."""
    below = (1 << packed) - 1

    def run(keys, weights, get) -> int:
        total = 0
        for d, t in zip(keys, weights, strict=True):
            w = get(d)
            if w:
                total += t * (w & below if packed else w)
        return total
    return run
