"""The build side of the shipped winnable sets: each game's checked files, from a cache, a committed
artefact or computed (``build.py``'s ``write_sets``, ``scripts/make_sets.py``).

A game of :data:`pyapp.web.sets.SHIPPED` whose set takes minutes to compute (``Game.artefact``) is not
computed during a build: its set file is committed in ``sets/`` (made by ``python scripts/make_sets.py``,
checked like any file: format, key version, game, SHA-256, order), and the build computes only the
solutions left per position from it.  Every other set is computed on the first build and kept in the
cache folder.  Both kinds of file are named by their key version (:func:`pyapp.web.sets.file_name`), so
they stay valid across engine changes that do not change what the keys mean; a cached or committed file
that does not decode is never shipped.  The cache also keeps a build file that follows from the library and the
sets alone (:func:`cached_text`: ``opening.json``).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from ..core.budget import drive
from ..core.errors import PegError
from ..exact.bitfiles import reachable_levels
from ..exact.endgame_files import decode_table, encode_table, sweep_table
from ..exact.openingbook import Book
from ..exact.openingbook_files import decode_book
from ..exact.overbits import BitsOverTable, over_bits
from ..exact.overtable import OverTable, over_table
from ..exact.partial import PartialWinnable, partial
from ..exact.store import StoreError, decode, decode_ways, encode, encode_ways
from ..exact.ways import ways_steps
from ..exact.winnable import Winnable, winnable
from . import sets
from .sets import Game, file_name, index_entry

Files = dict[str, tuple[str, bytes]]
"""``kind`` (``winnable``, ``ways``) -> (file name, bytes)."""


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # per build: two builds may share the cache
    tmp.write_bytes(data)
    tmp.replace(path)


@contextmanager
def _computing(cache: Path, stem: str) -> Iterator[None]:
    """Hold the lock of ``stem`` in ``cache`` (``<stem>.lock``, an exclusive ``flock``): a build and the test suite
    that start on a fresh machine at once (``scripts/test.sh`` builds the site beside the tests) compute a game's
    files once, the second reading what the first wrote, instead of both spending its minutes of CPU.  Without
    ``fcntl`` (not POSIX) no lock: each computes its own, as before."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - the build runs on POSIX machines
        yield
        return
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / f"{stem}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def checked(game: Game, data: dict[str, bytes]) -> Winnable | Book:
    """The set of ``game`` from its files (``kind`` -> bytes), checked: :class:`StoreError` when one is refused
    or the set holds other levels than the game ships (``Game.floor``, ``Game.upto``).  An endgame table gets its
    file's own checks (:func:`pyapp.exact.endgame_files.decode_table`); how deep it goes is not compared with
    :data:`pyapp.exact.endgame_files.SHIPPED_CLASSES`, so a cached table stays in use after that bound changes."""
    if game.endgame:
        return decode_table(data["winnable"], game.problem())
    if game.book:
        return decode_book(data["winnable"], game.problem())
    win = decode(data["winnable"], game.problem())
    held = (win.floor, win.upto or None) if isinstance(win, PartialWinnable) else (None, None)
    if held != (game.floor, game.upto) or isinstance(win, OverTable) != game.over_table \
            or isinstance(win, BitsOverTable) != game.bits:  # an earlier choice
        raise StoreError(f"winnable set file: holds the levels from {held[0] or 'the goal'} pegs up"
                         f"{f' and {held[1]} down' if held[1] else ''}{over(win)}, the game ships them from "
                         f"{game.floor or 'the goal'}{f' and {game.upto} down' if game.upto else ''}"
                         f"{over(game)}")
    if "ways" in data:
        decode_ways(data["ways"], win)
    return win


def _ways(win: Winnable) -> bytes | None:
    if isinstance(win, PartialWinnable):  # the counts need every level: a partial set ships without them
        return None
    try:
        return encode_ways(win, drive(ways_steps(win)))
    except OverflowError:  # a count past 2**64 - 1: the game ships without its survival funnel
        return None


def compute_set(game: Game, whole: bytes | None = None) -> bytes:
    """The set file of ``game``, computed in this process, or cut from ``whole`` (a checked file of its whole
    set) when given: the levels from ``game.floor`` up (and from ``game.upto`` down) when it has one
    (:mod:`pyapp.exact.partial`)."""
    win = winnable(game.problem()) if whole is None else decode(whole, game.problem())
    if game.floor is None:
        return encode(win)
    if game.bits:  # a small game's reachable levels, swept here (a big one's set is an artefact)
        return encode(over_bits(win, reachable_levels(game.problem(), game.floor), game.floor))
    return encode(over_table(win, game.floor) if game.over_table else partial(win, game.floor, game.upto or 0))


def over(held: Winnable | Game) -> str:
    """Words for a set (or a game's shipped set) whose lower levels the goal's endgame table answers
    (:mod:`pyapp.exact.overtable`), held as bits (:mod:`pyapp.exact.overbits`) or as keys."""
    table, bits = (held.over_table, held.bits) if isinstance(held, Game) else \
        (isinstance(held, OverTable), isinstance(held, BitsOverTable))
    return (" as bits over the reachable positions" if bits else "") + \
        (" over the goal's endgame table" if table else "")


def game_files(game: Game, cache: Path, artefacts: Path) -> Files | None:
    """The checked files of ``game``: from ``cache`` when they decode there, else made (the set read from
    ``artefacts`` for an artefact game, else computed; the solutions left computed from it) and written to
    ``cache``, all under the game's lock (:func:`_computing`: a process making the same files is waited for and its
    files read).  None for an artefact game whose committed file is missing or refused (named on stderr)."""
    names = {kind: file_name(game, kind) for kind in ("winnable", "ways")}
    if game.book:  # committed, and read from there (nothing to cache)
        read = _committed(game, artefacts / names["winnable"], "the opening book", "opening_book.py")
        return None if read is None else {"winnable": (names["winnable"], read[0]["winnable"])}
    with _computing(cache, game.stem):  # another process making the same files: wait for them, then read them
        return _cached_or_made(game, cache, artefacts, names)


def _cached_or_made(game: Game, cache: Path, artefacts: Path, names: dict[str, str]) -> Files | None:
    """:func:`game_files` past an opening book, under the game's lock."""
    paths = {kind: cache / name for kind, name in names.items()}
    if paths["winnable"].is_file():
        data = {kind: path.read_bytes() for kind, path in paths.items() if path.is_file()}
        try:
            checked(game, data)
            return {kind: (names[kind], data[kind]) for kind in data}
        except PegError as err:  # StoreError: truncated, damaged or not this game's
            print(f"dropping the cached set of {game.stem}: {err}", file=sys.stderr)
            for path in paths.values():
                path.unlink(missing_ok=True)
    if game.artefact:
        make = f"make_overtable.py {game.stem} --checkpoint DIR" if game.over_table else f"make_sets.py {game.stem}"
        read = _committed(game, artefacts / names["winnable"], "the set", make)
        if read is None:
            return None
        data, win = read
    elif game.endgame:
        print(f"sweeping the endgame table of {game.stem} (once per key version)", file=sys.stderr)
        win = sweep_table(game.problem())
        data = {"winnable": encode_table(win)}
    else:
        print(f"computing the winnable set of {game.stem} and the solutions left from each of its positions "
              "(once per key version)", file=sys.stderr)
        win = winnable(game.problem())
        data = {"winnable": encode(win)}
    ways = _ways(win) if isinstance(win, Winnable) else None
    if ways is not None:
        data["ways"] = ways
    cache.mkdir(parents=True, exist_ok=True)
    for kind, blob in data.items():
        _write(paths[kind], blob)
    return {kind: (names[kind], data[kind]) for kind in data}


def _committed(game: Game, path: Path, what: str, make: str) -> tuple[dict[str, bytes], Winnable | Book] | None:
    """The committed file of ``game`` at ``path``, read and checked, or None (named on stderr with the command that
    makes it, ``python scripts/MAKE``) when it is missing or refused."""
    try:
        data = {"winnable": path.read_bytes()}
        return data, checked(game, data)
    except (OSError, PegError) as err:
        print(f"not shipping {what} of {game.stem}: {path.name} is missing or refused ({err}); make it with "
              f"`python scripts/{make}`", file=sys.stderr)
        return None


def write_all(folder: Path, cache: Path, artefacts: Path) -> None:
    """Write the files of every game of :data:`pyapp.web.sets.SHIPPED` into ``folder`` (made by :func:`game_files`, the
    games side by side on the machine's cores: a first build computes minutes of sets) and ``index.json``
    listing them (:func:`~.sets.index_entry`); then :func:`prune` the cache to those files."""
    folder.mkdir()
    shipped = sets.SHIPPED
    workers = min(len(shipped), os.cpu_count() or 1)
    args = (shipped, [cache] * len(shipped), [artefacts] * len(shipped))
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            made = list(pool.map(game_files, *args))
    else:
        made = list(map(game_files, *args))
    index, kept = [], set()
    for game, files in zip(shipped, made):
        if files is None:
            continue
        for name, data in files.values():
            (folder / name).write_bytes(data)
            kept.add(name)
        ways = files.get("ways")
        index.append(index_entry(game, files["winnable"][1], ways[1] if ways else None))
    (folder / "index.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    prune(cache, kept)


def prune(cache: Path, keep: set[str]) -> None:
    """Delete the files of ``cache`` not named in ``keep`` (sets of an older key version or of a game no
    longer shipped), and the per-version folders of older builds; the games' locks (:func:`_computing`) and the
    build's cached ``opening.json`` files (``*.json``: ``build.py`` replaces its own) stay."""
    if not cache.is_dir():
        return
    for path in cache.iterdir():
        if path.is_dir():
            for inner in path.iterdir():
                inner.unlink(missing_ok=True)
            path.rmdir()
        elif path.name not in keep and not path.name.endswith((".tmp", ".lock", ".json")):  # a lock may be held
            path.unlink(missing_ok=True)


def cached_text(cache: Path, stem: str, inputs: list[bytes], compute: Callable[[], str]) -> str:
    """A build file that follows from ``inputs`` alone (``build.py``'s ``opening.json``), kept in ``cache`` as
    ``<stem>-<hash of the inputs>.json``: read from there when the inputs are the same, else computed and written
    there in place of the older ones (:func:`prune` leaves them)."""
    digest = hashlib.sha256()
    for data in inputs:
        digest.update(hashlib.sha256(data).digest())
    path = cache / f"{stem}-{digest.hexdigest()[:16]}.json"
    if path.is_file():
        return path.read_text(encoding="utf-8")
    text = compute()
    cache.mkdir(parents=True, exist_ok=True)
    for old in cache.glob(f"{stem}-*.json"):
        old.unlink(missing_ok=True)
    _write(path, text.encode("utf-8"))
    return text
