"""Winnable sets as compact, checked files: computed once (by ``build.py``), then loaded in a blink.

A :class:`~pyapp.exact.winnable.Winnable` answers "can this position still win?" with one canonical
key and one binary search, but computing it takes a minute of CPU for the English central game
(1,679,072 classes).  So the classic games ship theirs, and the page answers never-lose from the
first move.  The file must be small to download and fast to decode in pure Python under Pyodide, and
never trusted when it is stale or damaged:

* **Exact and compact**: per peg count, the sorted canonical keys become their differences (the first
  key itself), stored as 8-byte little-endian words *byte-shuffled* (all first bytes, then all second
  bytes, ...: the high bytes of small differences are zeros, so they line up in long runs) and
  compressed with zlib.  Measured on the English central game: about 1.4 bytes a key.
* **Decoded at C speed**: ``zlib.decompress``, eight extended-slice copies to unshuffle,
  ``array('Q').frombytes`` and ``itertools.accumulate``; no Python loop runs per key.
* **Checked**: a header names the format, the key version (:func:`key_version`: what the keys mean,
  see below), the problem (board, start, goal), the symmetry group and the keys per level, and carries
  the SHA-256 of the compressed body.  :func:`decode` refuses (with :class:`StoreError`) a file of
  another format or key version, another problem or group, a truncated or altered body, or keys that
  are not strictly increasing: the caller drops it and computes or fetches it again.

A file may hold only the levels from some peg count up (kind :data:`PARTIAL`, its header's ``from`` and
``closed``, :mod:`.partial`): an own-hole game's set, closed under complement (``closed: complement``), or a
set holding its low levels too (``closed: held levels``, ``upto``: the most pegs of a held low level), or one
whose lower levels the goal's endgame table answers (``closed: endgame table``, :mod:`.overtable`);
:func:`decode` then checks that the game's set is closed under complement, or that every level from ``upto``
down to the goal's is there, and that every level from the start's pegs down to ``from`` is, and returns a
:class:`~.partial.PartialWinnable`, which answers the other levels exactly.  A whole set must hold
every level between the start and the goal.

A set is a mathematical fact about a game: it changes only when the meaning of its keys does (the
board's holes and bit layout, the symmetry group, the canonical-key definition of
:mod:`pyapp.core.codec`) or the file format.  So the version is a hash of exactly those: the layout,
the group, :data:`KEY_DEFINITION` and the canonical keys this engine gives to :data:`PROBES` fixed
pseudo-random positions of the board (a codec that keys positions differently changes them), never of
the engine's source, and a change elsewhere in the engine keeps every computed set valid.

The layout (:mod:`.setheader`, shared by every shipped file): ``MAGIC``, a 4-byte little-endian header length, the
header (UTF-8 JSON), the body.

>>> from pyapp.core.problem import default_problem
>>> from pyapp.exact.winnable import winnable
>>> win = winnable(default_problem("triangle5"))
>>> data = encode(win)
>>> back = decode(data, default_problem("triangle5"))
>>> back.levels == win.levels and len(back) == 390
True
>>> decode(data[:-1], default_problem("triangle5"))
Traceback (most recent call last):
...
pyapp.exact.setheader.StoreError: winnable set file: the body is 1 byte short (truncated)
"""

from __future__ import annotations

import os
import sys
import zlib
from array import array
from collections.abc import Generator
from itertools import accumulate
from pathlib import Path

from ..core.budget import drive
from ..core.problem import Problem
from .bitfiles import KIND as BITS
from .bitfiles import decode_bits_steps, encode_bits
from .overbits import BitsOverTable
from .overtable import OverTable
from .partial import PartialWinnable, complement_closed
from .setheader import FORMAT as FORMAT
from .setheader import KEY_DEFINITION as KEY_DEFINITION
from .setheader import MAGIC as MAGIC
from .setheader import WORD, StoreError, checked_body, pack, read_header
from .setheader import _key_version as _key_version
from .setheader import identity as identity
from .setheader import key_version as key_version
from .setheader import start_hole as start_hole
from .setheader import stem as stem
from .setup import sides
from .winnable import Winnable

PARTIAL = "winnable-from"
"""The kind of a file holding only the levels from some peg count up (:mod:`.partial`; its header's ``from``
and ``closed``): an older reader refuses it by its kind instead of taking it for a whole set."""


def sets_cache() -> Path:
    """The folder where builds keep the set files they computed: ``$PEG_SETS_CACHE``, else
    ``$XDG_CACHE_HOME/peg-solitaire-lab/sets`` (``~/.cache/...``).  It lies outside the checkout, so every
    clone and every build on a machine shares it: a file is named by its game and key version and checked
    on every read (:func:`decode`), so a set is computed once per machine and what its keys mean."""
    if os.environ.get("PEG_SETS_CACHE"):
        return Path(os.environ["PEG_SETS_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "peg-solitaire-lab" / "sets"


def _shuffle(raw: bytes) -> bytes:
    return b"".join(raw[i::WORD] for i in range(WORD))


def _unshuffle_steps(data: bytes | bytearray, count: int) -> Generator[None, None, bytearray]:
    """The words' bytes back in order, one of the :data:`WORD` byte planes at a time (a pause after each)."""
    out = bytearray(len(data))
    for i in range(WORD):
        out[i::WORD] = data[i * count:(i + 1) * count]
        yield
    return out


def _inflate_steps(body: bytes, size: int) -> Generator[None, None, bytearray]:
    """The body decompressed :data:`INFLATE_PIECE` bytes at a time (a pause after each); :class:`StoreError` when
    it does not decompress or gives other than ``size`` bytes (checked as it goes: a small body that would inflate
    past ``size`` is refused before it does)."""
    inflate = zlib.decompressobj()
    raw = bytearray()
    try:
        rest = body
        while True:
            raw += inflate.decompress(rest, INFLATE_PIECE)
            rest = inflate.unconsumed_tail
            if len(raw) > size:
                break
            yield
            if not rest:
                break
        if len(raw) <= size:
            raw += inflate.flush(size + 1 - len(raw))
    except zlib.error as err:
        raise StoreError(f"winnable set file: the body does not decompress ({err})") from None
    if not inflate.eof and len(raw) <= size:
        raise StoreError("winnable set file: the body does not decompress (incomplete or truncated stream)")
    if len(raw) != size:
        raise StoreError(f"winnable set file: {len(raw)}{'+' if len(raw) > size else ''} bytes of words, "
                         f"expected {size}")
    return raw


def encode(win: Winnable) -> bytes:
    """The file of a computed winnable set (see the module docstring)."""
    levels = sorted(win.levels.items(), reverse=True)
    diffs = array("Q")
    for _, keys in levels:
        if keys:
            diffs.append(keys[0])
            diffs.extend(b - a for a, b in zip(keys, keys[1:]))
    if isinstance(win, BitsOverTable):
        return encode_bits(win)
    if isinstance(win, PartialWinnable):
        held = {"upto": win.upto, "closed": "held levels"} if win.upto else \
            {"closed": "endgame table" if isinstance(win, OverTable) else "complement"}
        return _pack(win, PARTIAL, diffs, {"from": win.floor, **held})
    return _pack(win, "winnable", diffs)


def encode_ways(win: Winnable, ways: dict[int, array]) -> bytes:
    """The file of the solutions left from each position of ``win`` (:mod:`pyapp.exact.ways`), aligned with
    its keys: loaded after the set, it gives the survival funnel by lookup."""
    words = array("Q")
    for pegs in sorted(win.levels, reverse=True):
        words.extend(ways[pegs])
    return _pack(win, "ways", words)


def _pack(win: Winnable, kind: str, words: array, held: dict | None = None) -> bytes:
    if sys.byteorder == "big":  # pragma: no cover - the file is little-endian everywhere
        words.byteswap()
    body = zlib.compress(_shuffle(words.tobytes()), 9)
    levels = [[pegs, len(keys)] for pegs, keys in sorted(win.levels.items(), reverse=True)]
    return pack(kind, win.problem, win.codec.group, levels, body, held)


def decode(data: bytes, problem: Problem) -> Winnable:
    """The winnable set of ``problem`` from its file, checked (:class:`StoreError` when it must not be used)."""
    return drive(decode_steps(data, problem))


def decode_steps(data: bytes, problem: Problem) -> Generator[None, None, Winnable]:
    """:func:`decode`, pausing (``yield``) about every 20 ms of CPython's time (:func:`_open_steps`,
    :func:`levels_steps`): a web worker decoding a set still takes its messages."""
    s = sides(problem)
    fcd = s.wide_codec
    kind = read_header(data)[0].get("kind", "winnable")
    if kind == BITS:  # one bit per reachable position (:mod:`.bitfiles`)
        return (yield from decode_bits_steps(data, problem))
    levels, diffs = yield from _open_steps(data, problem, PARTIAL if kind == PARTIAL else "winnable", list(fcd.group))
    if kind != PARTIAL and levels and [pegs for pegs, _ in levels] != list(range(s.first_pegs, s.last_pegs - 1, -1)):
        raise StoreError("winnable set file: a whole set that lacks some level between the start and the goal")
    held = _held(data, problem, levels) if kind == PARTIAL else None
    win = Winnable(problem, fcd, source=bytes(data)) if held is None else \
        OverTable(problem, fcd, source=bytes(data), floor=held[0]) if held[2] else \
        PartialWinnable(problem, fcd, source=bytes(data), floor=held[0], upto=held[1])
    win.levels.update((yield from levels_steps(levels, diffs, "winnable set file")))
    return win


INFLATE_PIECE = 1 << 21
"""Bytes decompressed between two pauses of :func:`_inflate_steps` (about 10 ms in CPython, 25 ms in Pyodide)."""
PIECE = 100_000
"""Keys summed from their differences between two pauses of :func:`levels_steps` (about 16 ms in CPython, 40 ms
in Pyodide: a web worker sees a cancel that much later at most, and pays a turn of its event loop per pause)."""


def levels_steps(levels: list[tuple[int, int]], diffs: array, what: str) -> Generator[None, None, dict[int, array]]:
    """The sorted keys of each level from the file's differences (a level's first word is its first key), checked
    strictly increasing (:class:`StoreError` names ``what``); pausing (``yield``) every :data:`PIECE` keys, so a
    web worker decoding a big file (French's endgame table: about 3 s in Pyodide) still takes its messages."""
    out: dict[int, array] = {}
    at = 0
    for pegs, n in levels:
        keys = array("Q")
        for lo in range(at, at + n, PIECE):
            hi = min(at + n, lo + PIECE)
            if hi - lo > 1 and _has_zero(diffs, lo + 1, hi) or lo > at and not diffs[lo]:
                raise StoreError(f"{what}: the keys with {pegs} pegs are not strictly increasing")
            sums = accumulate(diffs[lo:hi], initial=keys[-1] if keys else 0)
            next(sums)  # the running sum the piece starts from
            keys.extend(sums)
            yield
        out[pegs] = keys
        at += n
    return out


def _has_zero(words: array, start: int, stop: int) -> bool:
    try:
        words.index(0, start, stop)
    except ValueError:
        return False
    return True


def _held(data: bytes, problem: Problem, levels: list[tuple[int, int]]) -> tuple[int, int, bool]:
    """The floor (fewest pegs of the high levels), ``upto`` (most pegs of the low levels, 0 when the
    complements or the goal's endgame table answer them) and whether the table does, of a checked partial file,
    once its header is shown to hold what :class:`~.partial.PartialWinnable` answers from: every level from the
    start's pegs down to the floor, and either every level from ``upto`` down to the goal's, a game whose set is
    closed under complement, or the goal's endgame table (:class:`~.overtable.OverTable`)."""
    header = read_header(data)[0]
    floor, upto, closed = header.get("from"), header.get("upto", 0), header.get("closed")
    if closed not in ("complement", "held levels", "endgame table") or not isinstance(floor, int) \
            or not isinstance(upto, int):
        raise StoreError("winnable set file: a partial set that does not say how the rest is answered")
    top, held = problem.start.bit_count(), [pegs for pegs, _ in levels]
    low: list[int] = []
    if closed == "endgame table":
        upto = 0
    elif closed == "complement":
        why = complement_closed(problem)
        if why is not None:
            raise StoreError(f"winnable set file: a partial set, but this game's is not closed under complement "
                             f"({why})")
        upto = 0
    else:
        low = list(range(upto, sides(problem).last_pegs - 1, -1))
        if not low or upto >= floor - 1:
            raise StoreError(f"winnable set file: a partial set from {floor} pegs up and {upto} down holds no search "
                             "between, or no low level")
    if held != [*range(top, floor - 1, -1), *low] or not all(n for _, n in levels):
        which = f"from {top} down to {floor}" + (f" or from {upto} down to the goal" if low else "")
        raise StoreError(f"winnable set file: a partial set from {floor} pegs lacks some level {which}")
    return floor, upto, closed == "endgame table"


def decode_ways(data: bytes, win: Winnable) -> dict[int, array]:
    """The solutions left per position of ``win`` from their file, checked against the set it belongs to."""
    if isinstance(win, PartialWinnable):
        raise StoreError("winnable set file: solution counts for a partial set (they need every level)")
    levels, words = _open(data, win.problem, "ways", list(win.codec.group))
    if levels != [(pegs, len(keys)) for pegs, keys in sorted(win.levels.items(), reverse=True)]:
        raise StoreError("winnable set file: the counts do not belong to the loaded set (other levels)")
    out, at = {}, 0
    for pegs, n in levels:
        out[pegs] = words[at:at + n]
        at += n
    return out


def _open(data: bytes, problem: Problem, kind: str, group: list[int]) -> tuple[list[tuple[int, int]], array]:
    """The levels and the words of a checked file of ``kind`` for ``problem`` (see :func:`decode`)."""
    return drive(_open_steps(data, problem, kind, group))


def _open_steps(data: bytes, problem: Problem, kind: str, group: list[int]
                ) -> Generator[None, None, tuple[list[tuple[int, int]], array]]:
    """:func:`_open`, pausing while it decompresses and unshuffles (French's endgame table: 38 MB of words)."""
    header, body = checked_body(data, problem, kind, group)
    yield
    try:
        levels = [(int(p), int(n)) for p, n in header["levels"]]
    except (KeyError, TypeError, ValueError):
        raise StoreError("winnable set file: unreadable level sizes") from None
    total = sum(n for _, n in levels)
    raw = yield from _inflate_steps(body, WORD * total)
    plain = yield from _unshuffle_steps(raw, total)
    del raw  # two copies of the words at most at any time: the peak a phone's worker pays for a big set
    words = array("Q")
    words.frombytes(plain)
    del plain
    if sys.byteorder == "big":  # pragma: no cover - the file is little-endian everywhere
        words.byteswap()
    return levels, words
