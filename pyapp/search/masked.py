"""Levels of positions with a mask each: sorted 64-bit keys and, at the same index, a 64-bit mask.

The shared level search (:mod:`pyapp.search.sharedlevels`) stores, beside each canonical key of a
level, the mask of the classes of first jumps that reach it.  :class:`MaskBuilder` collects
``(key, mask)`` entries (duplicates allowed) packed as one int ``key << classes | mask`` into sorted
runs of bounded size, and merges them into one :class:`Masked` level: a
:class:`~pyapp.core.codec.keyset.KeySet` and a parallel ``array('Q')`` of masks, the masks of equal
keys OR-merged.  16 bytes per position.

>>> from pyapp.core.budget import drive
>>> kb = MaskBuilder(2, run=2)
>>> for key, m in ((7, 1), (1, 2), (7, 2)):
...     kb.buffer.append(key << 2 | m)
...     if len(kb.buffer) >= kb.run:
...         kb.flush()
>>> level = drive(kb.build())
>>> list(level.keys), list(level.masks), level.nbytes
([1, 7], [2, 3], 32)
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Generator
from dataclasses import dataclass

from ..core.codec.keyset import KeySet

RUN = 1 << 14
"""Entries per sorted run while a level is built: bounds the temporary Python list, and the time a flush holds
the search without a pause (about 10 ms in CPython; the runs are merged only once, when the level is built)."""

ENTRY_BYTES = 16
"""Bytes per stored position: its key and its mask."""

SORT_OVERHEAD = 80
"""Bytes per entry waiting in the buffer (a Python int and its list slot, with slack)."""


@dataclass
class Masked:
    """A forward level: sorted canonical keys and, at the same index, the mask of the classes reaching each."""

    keys: KeySet
    masks: array

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def nbytes(self) -> int:
        return ENTRY_BYTES * len(self.keys)


def merge_runs(runs: list[tuple[array, array]], pause: int = 1 << 14) -> Generator[None, None, tuple[array, array]]:
    """One sorted run from several (keys ascending, masks beside them), equal keys' masks OR-merged; pauses
    every ``pause`` entries (a merge of millions of entries takes seconds in Python)."""
    if len(runs) == 1:
        return runs[0]
    keys, masks = array("Q"), array("Q")
    last = -1
    for count, (key, m) in enumerate(heapq.merge(*(zip(k, ms) for k, ms in runs)), 1):
        if key == last:
            masks[-1] |= m
        else:
            keys.append(key)
            masks.append(m)
            last = key
        if not count % pause:
            yield
    return keys, masks


class MaskBuilder:
    """Collects ``(key, mask)`` entries as ints ``key << classes | mask`` into sorted runs, then one
    :class:`Masked` level (equal keys' masks OR-merged)."""

    def __init__(self, classes: int, run: int = RUN) -> None:
        self.shift = classes
        self.low = (1 << classes) - 1
        self.run = run
        self.buffer: list[int] = []
        self.runs: list[tuple[array, array]] = []

    def flush(self) -> None:
        if not self.buffer:
            return
        keys, masks = array("Q"), array("Q")
        shift, low, last = self.shift, self.low, -1
        for v in sorted(set(self.buffer)):
            key = v >> shift
            if key == last:
                masks[-1] |= v & low
            else:
                keys.append(key)
                masks.append(v & low)
                last = key
        self.buffer = []
        self.runs.append((keys, masks))

    @property
    def nbytes(self) -> int:
        return sum(ENTRY_BYTES * len(k) for k, _ in self.runs) + SORT_OVERHEAD * len(self.buffer)

    def build(self) -> Generator[None, None, Masked]:
        """The level (pausing while the runs are merged)."""
        self.flush()
        keys, masks = (yield from merge_runs(self.runs)) if self.runs else (array("Q"), array("Q"))
        self.runs = []
        return Masked(KeySet.from_sorted(keys), masks)
