"""Files of a winnable set held as one bit per reachable position (:class:`~.overbits.BitsOverTable`), checked.

The layout and the header's checks are every set file's (:mod:`.setheader`: format, key version, game, symmetry
group, body size and SHA-256), the kind :data:`KIND`.  The header's ``levels`` give each held level's reachable
classes, ``wins`` how many of them can still win, ``from`` the floor and ``closed: endgame table`` (the levels
under the floor are the goal's table's, as for :class:`~.overtable.OverTable`).  The body is each level's
:meth:`~.retrieval.BitRetrieval.to_bytes`, from the most pegs down, not compressed: the bits look random and do
not compress.  Decoding copies nothing per key: each level's bits are a slice of the file, read in place.

A file is refused (:class:`~.setheader.StoreError`) when its header is wrong, when a level from the start's pegs
down to the floor is missing, when a level's bits are not the size its count of reachable classes makes them, or
when it claims more winnable classes than reachable ones.  The bits themselves carry no redundancy to check: the
SHA-256 of the body is what stands for them.

>>> from pyapp.core.problem import make_problem
>>> from pyapp.core.catalogue import get_board
>>> from pyapp.exact.winnable import winnable
>>> from pyapp.exact.overbits import over_bits
>>> problem = make_problem(get_board("triangle5"), start="1", goal="1")
>>> win = winnable(problem)
>>> part = decode_bits(encode_bits(over_bits(win, reachable_levels(problem, 10), 10)), problem)
>>> part.counts() == {p: n for p, n in win.counts().items() if p >= 10}, part.floor
(True, 10)
"""

from __future__ import annotations

from array import array
from collections.abc import Generator

from ..core.budget import drive
from ..core.problem import Problem
from .overbits import BitsOverTable
from .retrieval import HEADER, from_bytes
from .setheader import StoreError, checked_body, pack
from .setup import sides
from .sweep import Level, sweep

KIND = "winnable-bits"
"""The kind of a file holding bits over reachable levels (an older reader refuses it by its kind)."""


def encode_bits(win: BitsOverTable) -> bytes:
    """The file of ``win`` (see the module docstring)."""
    pegs = sorted(win.bits, reverse=True)
    body = b"".join(win.bits[p].to_bytes() for p in pegs)
    return pack(KIND, win.problem, win.codec.group, [[p, win.bits[p].size] for p in pegs], body,
                {"wins": [[p, win.wins[p]] for p in pegs], "from": win.floor, "closed": "endgame table"})


def decode_bits(data: bytes, problem: Problem) -> BitsOverTable:
    """The set of ``problem`` from its file, checked (:class:`StoreError` when it must not be used)."""
    return drive(decode_bits_steps(data, problem))


def decode_bits_steps(data: bytes, problem: Problem) -> Generator[None, None, BitsOverTable]:
    """:func:`decode_bits`, pausing (``yield``) once after the checksum (13 MB hashed: tens of ms in Pyodide)."""
    fcd = sides(problem).wide_codec
    header, body = checked_body(data, problem, KIND, list(fcd.group))
    yield
    try:
        levels = [(int(p), int(n)) for p, n in header["levels"]]
        wins = {int(p): int(n) for p, n in header["wins"]}
        floor = int(header["from"])
    except (KeyError, TypeError, ValueError):
        raise StoreError("winnable set file: unreadable level sizes") from None
    if header.get("closed") != "endgame table":
        raise StoreError("winnable set file: bits over reachable levels that do not say how the rest is answered")
    top = problem.start.bit_count()
    if [p for p, _ in levels] != list(range(top, floor - 1, -1)) or set(wins) != {p for p, _ in levels}:
        raise StoreError(f"winnable set file: bits from {floor} pegs that lack some level from {top} down to {floor}")
    win = BitsOverTable(problem, fcd, source=bytes(data), floor=floor)
    view, at = memoryview(win.source or b"")[len(data) - len(body):], 0
    for pegs, n in levels:
        if not 0 < wins[pegs] <= n:
            raise StoreError(f"winnable set file: {wins[pegs]:,} winnable classes of {n:,} reachable with {pegs} pegs")
        if len(view) < at + HEADER.size:
            raise StoreError(f"winnable set file: the bits of {pegs} pegs are cut short")
        size, _, block = HEADER.unpack_from(view, at)
        end = at + HEADER.size + (3 * block + 7) // 8
        if size != n or end > len(view):
            raise StoreError(f"winnable set file: the bits of {pegs} pegs are not those of its {n:,} classes")
        win.bits[pegs] = from_bytes(view[at:end])
        win.wins[pegs] = wins[pegs]
        at = end
    if at != len(view):
        raise StoreError("winnable set file: bytes left after the last level's bits")
    return win


def reachable_levels(problem: Problem, floor: int) -> dict[int, array]:
    """The classes (canonical keys, under the set's group) the start of ``problem`` reaches, per level from its
    pegs down to ``floor``: one process's sweep, for a small game (a big one's comes from a sharded sweep,
    ``scripts/make_overtable.py``)."""
    s = sides(problem)
    return {item.pegs: item.keys for item in sweep(s.wide_codec, [s.start], floor, weights=False)
            if isinstance(item, Level)}
