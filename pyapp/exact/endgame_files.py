"""Endgame tables as checked files, so the site ships the deeper tables a page cannot afford to sweep.

A goal's endgame table (:mod:`.endgame`) swept in the page stops below about 800,000 classes (French d2 -> d6: up
to 10 pegs, 1.4 s in Pyodide).  Two levels more answer the positions of up to 22 pegs at a fraction of the cost
(French: to 12 pegs, 4.8 million classes, 12 CPU s in CPython, about 28 s in Pyodide), too slow to sweep while
a player waits but a few MB as a file.  So ``build.py`` sweeps them (:data:`SHIPPED_CLASSES`), writes them in
the format of the shipped winnable sets (:mod:`.store`: sorted keys as shuffled, compressed differences, a
checked header) as kind :data:`KIND`, and the worker fetches one the first time never-lose or Hint asks about
its game; :func:`decode_table` checks it as strictly as a winnable set (format, key version, game, symmetry
group, class of ends, SHA-256, levels, order) and :func:`pyapp.exact.endgame.install` keeps it.
"""

from __future__ import annotations

from array import array
from collections.abc import Generator

from ..core.budget import Budget, drive
from ..core.problem import Problem
from .endgame import Endgame, endgame_steps, made
from .setup import sides
from .store import StoreError, _open_steps, _pack, key_version, levels_steps, read_header

KIND = "endgame"
"""The header's ``kind`` of an endgame table file."""
SHIPPED_CLASSES = 6_000_000
"""A shipped table's sweep stops before a level predicted to pass this many classes (French, asymmetric: 12
pegs, 4.8 and 4.1 million classes; German: 13 pegs; Diamond 41: 11; triangle 8: 9 pegs, 2.4 million, its next level
alone 7.0 million)."""


def file_name(stem: str, problem: Problem) -> str:
    """The file of the table shipped for the game ``stem`` (``board-start-goal``): named, as the shipped sets are,
    by the game and its key version."""
    return f"{stem}-{key_version(problem)}.endgame.bin"


def sweep_table(problem: Problem) -> Endgame:
    """The table to ship for ``problem``'s goal and the class of its start (swept here, in CPython)."""
    table = drive(endgame_steps(problem.board, problem.goal, problem.start, Budget(), SHIPPED_CLASSES))
    if table is None:
        raise StoreError(f"no endgame table for {problem.board.id} {problem.goal.text(problem.board)}")
    return table


def encode_table(table: Endgame) -> bytes:
    """The file of ``table`` (its levels, top down, as the shipped sets' differences)."""
    diffs = array("Q")
    for _, keys in sorted(table.levels.items(), reverse=True):
        if keys:
            diffs.append(keys[0])
            diffs.extend(b - a for a, b in zip(keys, keys[1:]))
    return _pack(table, KIND, diffs, {"low": table.low, "ends": sorted(table.ends)})


def decode_table(data: bytes, problem: Problem) -> Endgame:
    """The table of ``problem``'s goal from its file, checked (:class:`StoreError` when it must not be used)."""
    return drive(decode_table_steps(data, problem))


def decode_table_steps(data: bytes, problem: Problem) -> Generator[None, None, Endgame]:
    """:func:`decode_table`, pausing (``yield``) about every 20 ms of CPython's time while it decompresses and
    unshuffles (:func:`~.store._open_steps`) and sums the keys (:func:`~.store.levels_steps`): the French table
    decodes in about 1 CPU s in CPython, 2-3 s in Pyodide, and a web worker that decodes it in one go sees no
    message meanwhile (a cancel from the page waits for the whole decode)."""
    back = sides(problem)
    board, goal = problem.board, problem.goal
    levels, diffs = yield from _open_steps(data, problem, KIND, list(back.back_codec.group))
    header = read_header(data)[0]
    ends = goal.pagoda_targets(board, problem.start)
    if not ends or header.get("ends") != sorted(ends):
        raise StoreError("endgame table file: swept for another class of ends of the goal")
    pegs = [p for p, _ in levels]
    first = len(board) - ends[0].bit_count()  # the complement game starts from the goal's complement
    if not pegs or pegs != list(range(first, first - len(pegs), -1)) or not all(n for _, n in levels) \
            or header.get("low") != len(board) - pegs[-1]:
        raise StoreError("endgame table file: its levels do not run down from the goal's complement")
    out = yield from levels_steps(levels, diffs, "endgame table file")
    return made(back, out, ends, shipped=True)
