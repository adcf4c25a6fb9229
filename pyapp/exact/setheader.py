"""What every shipped set file begins with, and the checks that decide whether its body may be used.

The files of :mod:`.store` (winnable sets as keys), :mod:`.bitfiles` (one bit per reachable position),
:mod:`.endgame_files` and :mod:`.openingbook_files` share one layout: :data:`MAGIC`, a 4-byte little-endian
header length, the header (UTF-8 JSON: the format, the kind, the key version, the problem, the symmetry group, the
body's size and SHA-256) and the body.  A set is a mathematical fact about a game: it changes only when the
meaning of its keys does (the board's holes and bit layout, the symmetry group, the canonical-key definition of
:mod:`pyapp.core.codec`) or the file format.  So its version (:func:`key_version`) is a hash of exactly those, and
of the canonical keys this engine gives to :data:`PROBES` fixed pseudo-random positions of the board, never of the
engine's source.
"""

from __future__ import annotations

import hashlib
import json
import struct
from functools import cache

from ..core.board import Board
from ..core.codec.compiled import codec
from ..core.errors import PegError
from ..core.position import format_position
from ..core.problem import Problem
from .setup import sides

MAGIC = b"PSL-WINNABLE\n"
FORMAT = 2
"""1: versioned by a hash of the engine's source; 2: by :func:`key_version`."""

KEY_DEFINITION = 1
"""Raise it when the canonical key is defined otherwise (:mod:`pyapp.core.codec`: the least dense image)."""
PROBES = 64
"""Fixed pseudo-random positions whose canonical keys go into :func:`key_version`."""
WORD = 8
"""Bytes of a key as :func:`_key_version` hashes it (and of a stored word, :mod:`.store`)."""


class StoreError(PegError):
    """A winnable set file that must not be used (stale, of another problem, truncated or altered)."""


def _probes(mask: int, bits: tuple[int, ...]) -> list[int]:
    """:data:`PROBES` positions on the holes ``bits`` (a 64-bit linear congruential generator, the same
    in every Python), each hole a peg when its bit of the generator's high word is set."""
    state, out = 0x9E3779B97F4A7C15, []
    for _ in range(PROBES):
        pos = 0
        for bit in bits:
            state = (state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
            pos |= (state >> 63) << bit
        out.append(pos & mask)
    return out


@cache
def _key_version(board: Board, group: tuple[int, ...]) -> str:
    fcd = codec(board, group)
    digest = hashlib.sha256(json.dumps({"format": FORMAT, "key": KEY_DEFINITION, "lattice": board.lattice.name,
                                        "cells": board.cells, "bits": board.bits, "group": fcd.group,
                                        "symmetries": board.symmetries}).encode())
    for pos in _probes(board.mask, board.bits):
        digest.update(fcd.canon(pos).to_bytes(WORD, "little"))
    return digest.hexdigest()[:16]


def key_version(problem: Problem) -> str:
    """16 hex digits naming what the keys of ``problem``'s set mean (see the module docstring): equal for two
    engines exactly when they key every position of this board and group alike (probed)."""
    return _key_version(problem.board, sides(problem).wide_codec.group)


def start_hole(problem: Problem) -> str:
    """The name of the one empty hole of a single-vacancy start (how files and reports name a catalogue game)."""
    board = problem.board
    return board.name_of[(board.full() ^ problem.start).bit_length() - 1]


def stem(problem: Problem) -> str:
    """``BOARD-START-GOAL``: the game's part of the name of its shipped files (a single-vacancy start)."""
    return f"{problem.board.id}-{start_hole(problem)}-{problem.goal.text(problem.board)}"


def identity(problem: Problem) -> dict:
    """What a set file must be for: the board, the start (as position text) and the goal."""
    board = problem.board
    return {"board": board.id, "holes": len(board), "start": format_position(board, problem.start),
            "goal": problem.goal.text(board)}



def read_header(data: bytes) -> tuple[dict, bytes]:
    """The header and the body of a set file; :class:`StoreError` when it is not one."""
    if not data.startswith(MAGIC):
        raise StoreError("winnable set file: not a winnable set (wrong magic bytes)")
    start = len(MAGIC) + 4
    if len(data) < start:
        raise StoreError("winnable set file: truncated before its header")
    (size,) = struct.unpack("<I", data[len(MAGIC):start])
    if len(data) < start + size:
        raise StoreError("winnable set file: truncated inside its header")
    try:
        header = json.loads(data[start:start + size].decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise StoreError(f"winnable set file: unreadable header ({err})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise StoreError(f"winnable set file: format {header.get('format') if isinstance(header, dict) else '?'}, "
                         f"expected {FORMAT}")
    return header, data[start + size:]


def checked_body(data: bytes, problem: Problem, kind: str, group: list[int]) -> tuple[dict, bytes]:
    """The header and body of a file of ``kind`` for ``problem`` kept under ``group``, once the header says so and
    the body has its size and checksum; :class:`StoreError` naming what is wrong (another kind, a stale key
    version, another game or group, a truncated or damaged body)."""
    header, body = read_header(data)
    if header.get("kind", "winnable") != kind:
        raise StoreError(f"winnable set file: holds {header.get('kind')}, not {kind}")
    if header.get("keys") != key_version(problem):
        raise StoreError(f"winnable set file: keys of version {header.get('keys')}, this engine's are "
                         f"{key_version(problem)} (stale: compute it again)")
    want = identity(problem)
    got = {k: header.get(k) for k in want}
    if got != want:
        raise StoreError(f"winnable set file: for {got['board']} {got['goal']!r}, not this problem "
                         f"({want['board']} {want['goal']!r} from this start)")
    if header.get("group") != group:
        raise StoreError("winnable set file: kept under another symmetry group")
    expected = header.get("body_bytes")
    if len(body) != expected:
        short = expected - len(body) if isinstance(expected, int) else "?"
        raise StoreError(f"winnable set file: the body is {short} byte{'' if short == 1 else 's'} short (truncated)"
                         if isinstance(short, int) and short > 0 else "winnable set file: the body has the wrong size")
    if hashlib.sha256(body).hexdigest() != header.get("sha256"):
        raise StoreError("winnable set file: the body does not match its checksum (damaged)")
    return header, body


def pack(kind: str, problem: Problem, group: tuple[int, ...], levels: list[list[int]], body: bytes,
         extra: dict | None = None) -> bytes:
    """A file of ``kind`` for ``problem``: the header (the key version, the game, ``group``, ``levels``, the body's
    size and SHA-256, and ``extra``) and ``body``."""
    header = {"format": FORMAT, "kind": kind, "keys": key_version(problem), **identity(problem), "group": list(group),
              "levels": levels, "sha256": hashlib.sha256(body).hexdigest(), "body_bytes": len(body), **(extra or {})}
    head = json.dumps(header, separators=(",", ":")).encode()
    return MAGIC + struct.pack("<I", len(head)) + head + body
