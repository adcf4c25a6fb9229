"""The opening book's file (:mod:`.openingbook`): compact, versioned by what its keys mean, and checked before use.

The header is the shipped sets' (:func:`pyapp.exact.store.read_header`: magic bytes, format, JSON) with kind
``book``, the key version of the book's symmetry group, the game, the deepest level, per level the classes
reached, won and lost, the proofs of the lost ones and the body's SHA-256.  The body, zlib-compressed, holds
per level (top down) the won keys then the lost keys (sorted ``uint64``), one ``uint16`` proof index per lost
key, and per won key its solution (a byte of length, then a byte per jump: its index in :func:`jump_table`).
:func:`decode_book` refuses a file that is not a book of this game and version, is damaged, or whose keys are out
of order, and replays every solution to the goal before the book is used.
"""

from __future__ import annotations

import hashlib
import json
import struct
import sys
import zlib
from array import array
from collections.abc import Generator

from ..core.board import Board
from ..core.budget import drive
from ..core.game import illegal_reason
from ..core.moves import Jump, apply_jump
from ..core.problem import Problem
from .openingbook import Book
from .setheader import FORMAT, MAGIC, StoreError, _key_version, identity, read_header, stem
from .setup import sides

KIND = "book"


def jump_table(board: Board) -> list[Jump]:
    """Every jump of the board (source, jumped, landing bit), in one fixed order: a solution's bytes index it."""
    return sorted({j for d in board.directions for j in _jumps_of(board, d.shift, d.src)})


def _jumps_of(board: Board, shift: int, src: int) -> list[Jump]:
    return [(b, b + shift, b + 2 * shift) for b in board.bits if src >> b & 1]


def file_name(problem: Problem) -> str:
    """``BOARD-START-GOAL-VERSION.book.bin`` (the start and goal holes of a catalogue game)."""
    version = _key_version(problem.board, sides(problem).codec.group)
    return f"{stem(problem)}-{version}.book.bin"


def encode_book(book: Book) -> bytes:
    """The file of ``book``."""
    board, cd = book.problem.board, book.codec
    table = {j: i for i, j in enumerate(jump_table(board))}
    if len(table) > 256:
        raise StoreError(f"opening book file: {board.id} has {len(table)} jumps, more than a byte indexes")
    proofs = sorted(set(book.lost.values()))
    keys, indices, lines = array("Q"), array("H"), bytearray()
    levels = []
    for pegs in sorted(book.reached, reverse=True):
        won = sorted(k for k in book.won if cd.layout(k).bit_count() == pegs)
        lost = sorted(k for k in book.lost if cd.layout(k).bit_count() == pegs)
        levels.append([pegs, book.reached[pegs], len(won), len(lost)])
        keys.extend(won)
        keys.extend(lost)
        indices.extend(proofs.index(book.lost[k]) for k in lost)
        for k in won:
            line = book.won[k]
            lines.append(len(line))
            lines.extend(table[j] for j in line)
    if sys.byteorder == "big":  # pragma: no cover - the file is little-endian everywhere
        keys.byteswap()
        indices.byteswap()
    body = zlib.compress(keys.tobytes() + indices.tobytes() + bytes(lines), 9)
    header = {"format": FORMAT, "kind": KIND, "keys": _key_version(board, cd.group), **identity(book.problem),
              "group": list(cd.group), "deepest": book.deepest, "levels": levels, "proofs": proofs,
              "sha256": hashlib.sha256(body).hexdigest(), "body_bytes": len(body)}
    head = json.dumps(header, separators=(",", ":")).encode()
    return MAGIC + struct.pack("<I", len(head)) + head + body


def decode_book(data: bytes, problem: Problem) -> Book:
    """The opening book of ``problem`` from its file, checked (:class:`StoreError` naming why it is refused)."""
    return drive(decode_book_steps(data, problem))


BOOK_PAUSE = 256
"""Keys checked (each solution replayed) between two pauses of :func:`decode_book_steps` (about 10 ms in CPython)."""


def decode_book_steps(data: bytes, problem: Problem) -> Generator[None, None, Book]:
    """:func:`decode_book`, pausing (``yield``) every :data:`BOOK_PAUSE` keys: French's book takes 0.1-0.2 s in
    CPython, about three times that in Pyodide, where a web worker decoding it in one go takes no message."""
    header, body = read_header(data)
    board, cd = problem.board, sides(problem).codec
    if header.get("kind") != KIND:
        raise StoreError("opening book file: not an opening book")
    if any(header.get(k) != v for k, v in identity(problem).items()):
        raise StoreError("opening book file: made for another game")
    if header.get("keys") != _key_version(board, cd.group) or header.get("group") != list(cd.group):
        raise StoreError("opening book file: its keys mean something else in this engine (another key version)")
    if len(body) != header.get("body_bytes") or hashlib.sha256(body).hexdigest() != header.get("sha256"):
        raise StoreError("opening book file: damaged (its SHA-256 does not match)")
    try:
        raw = zlib.decompress(body)
        levels = [(int(p), int(r), int(w), int(lo)) for p, r, w, lo in header["levels"]]
        proofs = [str(p) for p in header["proofs"]]
        deepest = int(header["deepest"])
    except (zlib.error, KeyError, TypeError, ValueError) as err:
        raise StoreError(f"opening book file: unreadable ({err})") from None
    count = sum(w + lo for _, _, w, lo in levels)
    lost_count = sum(lo for _, _, _, lo in levels)
    if len(raw) < 8 * count + 2 * lost_count or not levels or min(p for p, *_ in levels) != deepest:
        raise StoreError("opening book file: truncated")
    keys, indices = array("Q"), array("H")
    keys.frombytes(raw[:8 * count])
    indices.frombytes(raw[8 * count:8 * count + 2 * lost_count])
    if sys.byteorder == "big":  # pragma: no cover
        keys.byteswap()
        indices.byteswap()
    book = Book(problem, cd, deepest, reached={p: r for p, r, _, _ in levels})
    table = jump_table(board)
    yield
    lines = memoryview(raw)[8 * count + 2 * lost_count:]
    at = k = li = 0
    for pegs, _, won, lost in levels:
        for part, n in ((0, won), (1, lost)):
            chunk = keys[k:k + n]
            if any(b <= a for a, b in zip(chunk, chunk[1:])):
                raise StoreError(f"opening book file: the keys with {pegs} pegs are not strictly increasing")
            for done, key in enumerate(chunk, 1):
                if not done % BOOK_PAUSE:
                    yield
                if cd.layout(key).bit_count() != pegs:
                    raise StoreError(f"opening book file: a key of the level of {pegs} pegs has another peg count")
                if part:
                    if indices[li] >= len(proofs):
                        raise StoreError("opening book file: a proof index out of range")
                    book.lost[key] = proofs[indices[li]]
                    li += 1
                    continue
                if at >= len(lines) or at + 1 + lines[at] > len(lines):
                    raise StoreError("opening book file: truncated in its solutions")
                picks = lines[at + 1:at + 1 + lines[at]]
                if any(i >= len(table) for i in picks):
                    raise StoreError("opening book file: a solution names a jump the board does not have")
                line = tuple(table[i] for i in picks)
                at += 1 + lines[at]
                book.won[key] = _checked(problem, cd.layout(key), line)
            k += n
    return book


def _checked(problem: Problem, pos: int, line: tuple[Jump, ...]) -> tuple[Jump, ...]:
    """``line`` when it plays legally from ``pos`` to the goal (every solution replayed before it is used)."""
    for jump in line:
        if illegal_reason(problem.board, pos, jump):
            raise StoreError("opening book file: a solution plays an illegal jump")
        pos = apply_jump(pos, jump)
    if not problem.goal.reached(pos):
        raise StoreError("opening book file: a solution does not end at the goal")
    return line
