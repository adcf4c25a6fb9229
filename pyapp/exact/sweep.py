"""Level-by-level sweeps of the game graph, by peg count, over canonical keys in sorted arrays.

Every jump removes one peg, so the positions reachable from a start fall into levels by
peg count and each level is computed from the one above alone.  A level is a sorted
``array('Q')`` of canonical dense keys (see :mod:`pyapp.core.codec.compiled`) with, when
counting, a parallel array of *class weights*: ``T(C)``, the number of jump sequences
from the sources that end anywhere in the symmetry class ``C``.  Pushing the weight of a
class representative to each of its children, canonicalised, is exact::

    T(C') = sum over classes C of T(C) * (number of children of rep(C) that lie in C')

because every member of ``C`` has the same number of children in ``C'``.  No orbit sizes
are needed until two sweeps are combined (:mod:`pyapp.exact.count`).

The parents of a level are processed in chunks: the children of a chunk are first merged
by exact position in a small dict (a child is typically reached from two or three parents
in the same orientation), then canonicalised once each and merged into the level.  Only
the level being built is a dict; every finished level is two compact arrays.  The sweep is
a generator: it yields :class:`Progress` after each chunk (so a caller can report, check
its budget and cancel by closing it) and each finished :class:`Level`.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field

from ..core.codec.compiled import Codec

CHUNK = 50_000
"""Parents expanded between two progress reports (about 0.5 s of work in CPython)."""

DICT_ENTRY_BYTES = 110
"""Estimated bytes per entry of the dict being built (table slot, key int, count int)."""
SET_ENTRY_BYTES = 75
"""Estimated bytes per entry of a set being built (table slot, key int)."""


@dataclass
class Level:
    """One finished level: the canonical keys of the positions with ``pegs`` pegs, sorted."""

    pegs: int
    keys: array
    weights: array | list | None = None
    """Class weights ``T(C)`` parallel to ``keys`` (None when only reachability was asked)."""
    size: int | None = None
    """The level's size when its keys are still spread over the shards of a sharded sweep
    (:mod:`pyapp.exact.sharded`): ``keys`` is empty until :meth:`load`."""
    fetch: Callable[[], tuple[array, array | list | None]] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.keys) if self.size is None else self.size

    def load(self) -> Level:
        """Bring the keys (and weights) of a sharded level in, if they are not yet; returns the level."""
        if self.fetch is not None:
            self.keys, self.weights = self.fetch()
            self.size, self.fetch = None, None
        return self

    @property
    def nbytes(self) -> int:
        extra = 0
        if isinstance(self.weights, array):
            extra = self.weights.itemsize * len(self.weights)
        elif self.weights is not None:
            extra = 40 * len(self.weights)
        return self.keys.itemsize * len(self.keys) + extra


@dataclass
class Progress:
    """Where a sweep stands: reported after every chunk of parents."""

    stage: str
    pegs: int
    """The level being built (its peg count)."""
    done: int
    """Parents of the level above expanded so far."""
    parents: int
    positions: int
    """Positions of the level being built found so far."""
    total: int
    """Positions in the finished levels of this sweep."""
    bytes: int
    """Estimated memory held by the sweep (finished levels kept + the level being built)."""
    seconds: float

    def as_dict(self) -> dict:
        return {"stage": self.stage, "level": self.pegs, "done": self.done, "parents": self.parents,
                "positions": self.positions, "total": self.total, "memory": self.bytes,
                "seconds": round(self.seconds, 3)}


class MemoryCeiling(Exception):
    """The next step would pass the caller's memory ceiling (raised before allocating)."""


def to_array(values: Iterable[int]) -> array:
    return array("Q", values)


def weights_array(values: list[int]) -> array | list:
    """Weights as ``array('Q')`` while they fit 64 bits, else the list of Python ints (exact either way)."""
    try:
        return array("Q", values)
    except OverflowError:
        return values


def sweep(cd: Codec, sources: dict[int, int] | Iterable[int], last_pegs: int, *, weights: bool,
          stage: str = "sweep", kept_bytes: Callable[[], int] = lambda: 0, max_bytes: int | None = None,
          ) -> Iterator[Progress | Level]:
    """Sweep down from ``sources`` (layout positions, all with the same peg count) to ``last_pegs``.

    ``sources`` maps positions to weights when ``weights`` is set (a set of positions
    otherwise).  Yields :class:`Progress` and every :class:`Level` (the first one included).
    ``kept_bytes`` tells the memory the caller holds besides the sweep's current level;
    past ``max_bytes`` a :class:`MemoryCeiling` is raised.
    """
    t0 = time.perf_counter()
    canon = cd.canon
    if weights:
        first: dict[int, int] = {}
        weighted: dict[int, int] = dict(sources)  # type: ignore[arg-type]
        for p, w in weighted.items():
            first[canon(p)] = first.get(canon(p), 0) + w
        keys = to_array(sorted(first))
        level = Level(_pegs_of(sources), keys, weights_array([first[k] for k in keys]))
    else:
        level = Level(_pegs_of(sources), to_array(sorted({canon(p) for p in sources})))
    yield level
    total = len(level)
    while level.pegs > last_pegs and len(level):
        acc = yield from level_below_steps(cd, level, weights, stage, total, kept_bytes, max_bytes,
                                           lambda: time.perf_counter() - t0)
        new_keys = to_array(sorted(acc))
        if weights:
            assert isinstance(acc, dict)
            get = acc.__getitem__
            level = Level(level.pegs - 1, new_keys, weights_array([get(k) for k in new_keys]))
        else:
            level = Level(level.pegs - 1, new_keys)
        del acc
        total += len(level)
        yield level


def level_below_steps(cd: Codec, level: Level, weights: bool, stage: str, total: int, kept_bytes: Callable[[], int],
                      max_bytes: int | None, elapsed: Callable[[], float]
                      ) -> Generator[Progress, None, dict[int, int] | set[int]]:
    """The canonical children of ``level``'s classes, unsorted: a dict of summed weights when ``weights`` is set,
    else a set.  Built chunk by chunk (:func:`expand_chunk`), with a :class:`Progress` after each (``total``: the
    positions stored before this level) and a :class:`MemoryCeiling` raised before ``max_bytes`` would be passed
    (``kept_bytes``: what the caller holds besides ``level``)."""
    keys, counts = level.keys, level.weights
    n = len(keys)
    entry = DICT_ENTRY_BYTES if weights else SET_ENTRY_BYTES
    acc: dict[int, int] | set[int] = {} if weights else set()
    for lo in range(0, n, CHUNK):
        hi = min(n, lo + CHUNK)
        raw_size = expand_chunk(cd, keys, counts, lo, hi, acc)
        held = kept_bytes() + level.nbytes + entry * (len(acc) + raw_size)
        if max_bytes is not None and held > max_bytes:
            raise MemoryCeiling(f"level {level.pegs - 1}: {len(acc):,} positions so far would pass the "
                                f"memory ceiling of {max_bytes / 1e6:,.0f} MB")
        yield Progress(stage, level.pegs - 1, hi, n, len(acc), total, held, elapsed())
    return acc


def expand_chunk(cd: Codec, keys: array, weights: array | list | None, lo: int, hi: int,
                 acc: dict[int, int] | set[int]) -> int:
    """Add the canonical children of parents ``keys[lo:hi]`` to ``acc`` (a dict of summed weights when
    ``weights`` is given, else a set); returns how many distinct children the chunk had (its peak memory).

    One chunk at a time so that a caller can report progress and check its memory between chunks; the
    chunk's children are merged first among themselves (generated code), then into ``acc``."""
    if weights is not None:
        assert isinstance(acc, dict)
        raw: dict[int, int] | set[int] = {}
        cd.expand_counts(keys, weights, lo, hi, raw)
        cd.merge_counts(raw, acc)
    else:
        assert isinstance(acc, set)
        raw = set()
        cd.expand_set(keys, lo, hi, raw)
        cd.merge_set(raw, acc)
    return len(raw)


def _pegs_of(sources) -> int:
    pegs = {p.bit_count() for p in sources}
    if len(pegs) != 1:
        raise ValueError(f"sweep sources must all have the same number of pegs, not {sorted(pegs)}")
    return pegs.pop()
