"""The count's final sum taken over the jumps into the middle level, so that the forward sweep never builds it.

With the forward class weights ``T_f`` one level above the middle (see :mod:`.sweep`) and ``ways(y)`` the
number of jump sequences from a position ``y`` of the middle level to the goal::

    solutions = sum over classes P above the middle of T_f(P) * (sum over the children y of rep(P) of ways(y))

which is the class sum of :mod:`.combine` regrouped: ``T_f(C) = sum over P of T_f(P) * (children of rep(P)
in C)``, and ``ways`` is the same on every member of ``C`` (the goal is invariant under the forward group).
So the forward side stops one level short: the middle level's classes are never gathered, merged or sorted
(on triangle7 vacancy 4 that level costs more than any other); each parent's children are merged by exact
position a chunk at a time, as in the sweep, and looked up in the backward level instead.

``ways(y)`` is read from a dict of the backward level (:func:`ways_table`: key -> ways from one member; by
binary search when the dict would pass the memory ceiling, :func:`ways_search`) at
the complement of one image of ``y`` per coset ``H g`` of the backward group ``H`` in the forward one: the
lanes ``h g`` of the child's packed images are the backward images of ``g(y)``, so its backward canonical
complement is ``everything ^ (their greatest)`` with no repacking.  The images of one coset lie in one
position class, and only the backward sources' class is in the dict, so at most one coset finds ``y``.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable

from ...core.codec.compiled import Codec, least_tree
from ..setup import Sides
from ..sweep import weights_array


def coset_groups(s: Sides, fcd: Codec) -> list[tuple[int, ...]]:
    """For each coset ``H g`` of the backward group ``H`` in ``fcd``'s group: the lanes of ``fcd`` holding the
    images ``h g`` (``h`` in ``H``), which are the backward images of ``g(y)`` for a child ``y``."""
    board = s.problem.board
    holes = [1 << b for b in board.bits]

    def perm(*syms: int) -> tuple[int, ...]:
        out = []
        for p in holes:
            for g in syms:
                p = board.transform(p, g)
            out.append(p)
        return tuple(out)

    lane_of = {perm(g): lane for lane, g in enumerate(fcd.group)}
    groups: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for lane, g in enumerate(fcd.group):
        if lane in seen:
            continue
        coset = tuple(lane_of[perm(g, h)] for h in s.back_codec.group)  # h after g
        seen.update(coset)
        groups.append(coset)
    return groups


def ways_table(bcd: Codec, keys: array, weights: array | list) -> dict[int, int]:
    """The backward level as ``{key: ways from one member of its class to the goal}`` (``T_b(D) / |D|``)."""
    return dict(zip(keys, _ways(bcd, keys, weights)))


def ways_search(bcd: Codec, keys: array, weights: array | list) -> Callable[[int, int], int]:
    """:func:`ways_table`'s ``get`` by binary search in the sorted keys, for a level whose dict would not fit
    the memory ceiling: a few times slower, no more memory than the level itself."""
    ways = weights_array(_ways(bcd, keys, weights))
    n = len(keys)

    def get(key: int, default: int) -> int:
        i = bisect_left(keys, key)
        return ways[i] if i < n and keys[i] == key else default

    return get


def _ways(bcd: Codec, keys: array, weights: array | list) -> list[int]:
    packed_key, orbit = bcd.packed_key, bcd.orbit_size
    out = []
    for k, w in zip(keys, weights):
        ways, rest = divmod(w, orbit(packed_key(k)))
        if rest:  # pragma: no cover - a broken invariant, never silently wrong
            raise ArithmeticError("class weights not divisible by the orbit size")
        out.append(ways)
    return out


def edge_function(fcd: Codec, groups: list[tuple[int, ...]]) -> Callable[..., int]:
    """``edge(keys, counts, lo, hi, get)``: ``sum T_f(P) * ways(y)`` over the parents ``keys[lo:hi]`` (weights
    ``counts``) and their children ``y``, ``get`` the backward level's ``ways_table(...).get`` (generated code,
    cached on the codec per coset layout)."""
    cache = fcd.__dict__.setdefault("_edge_functions", {})
    key = tuple(groups)
    if key not in cache:
        cache[key] = fcd.compile_source(_edge_source(fcd, groups), "edge")
    return cache[key]


def _edge_source(fcd: Codec, groups: list[tuple[int, ...]]) -> str:
    board, n, m, last = fcd.board, fcd.holes, fcd.everything, len(fcd.group) - 1
    lines = ["def edge(keys, counts, lo, hi, get):", f"    full = {board.mask}", "    raw = {}", "    rget = raw.get"]
    for d_index, d in enumerate(board.directions):
        lines.append(f"    J{d_index}_ = {fcd.packed_jumps(d)!r}")
    lines += ["    for i in range(lo, hi):", "        k = keys[i]", "        t = counts[i]",
              f"        pos = {fcd.layout_source('k')}", f"        x0 = {fcd.images_source('k')}",
              "        e = full ^ pos"]
    for d_index, d in enumerate(board.directions):
        lines += [f"        m = {fcd.jump_mask_source(d)}", "        while m:", "            low = m & -m",
                  "            m ^= low", f"            x = x0 ^ J{d_index}_[low.bit_length()]",
                  "            raw[x] = rget(x, 0) + t"]
    lines += ["    total = 0", "    for x, t in raw.items():"]
    for i, coset in enumerate(groups):
        lanes = [f"(x >> {n * g}) & {m}" if 0 < g < last else ("x >> " + str(n * g) if g else f"x & {m}")
                 for g in coset]
        greatest = least_tree([f"{m} ^ {lane}" for lane in lanes])  # the least complement is the greatest lane's
        lines.append(f"        w = get({greatest}, 0)" if i == 0 else f"        w = w or get({greatest}, 0)")
    lines += ["        if w:", "            total += t * w", "    return total"]
    return "\n".join(lines) + "\n"
