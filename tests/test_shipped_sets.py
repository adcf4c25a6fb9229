"""Every shipped winnable set (pyapp.web.sets.SHIPPED) against the solver: on positions of seeded random
games of each shipped game, the set's "can still win" agrees with ``solve`` wherever the solver decides,
both verdicts are met, and the files the build ships decode (the committed artefacts included); the goals'
endgame tables the site ships agree with it on the positions they cover, and so do the opening books.

The sets come from the build's cache (:func:`pyapp.exact.store.sets_cache`, filled by ``python3 build.py``)
or, for the games committed in ``sets/``, from there; a game's files not yet cached are computed here (the solution
counts of the English central game: about a minute of CPU), or, while the suite's background build computes them,
waited for and read (the game's lock in the cache)."""

from __future__ import annotations

import random
import sys
import zlib
from pathlib import Path

import pytest

from pyapp.core.budget import CPU_CLOCK, Budget
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import Problem
from pyapp.exact import endgame
from pyapp.exact.endgame import Endgame, Overrun
from pyapp.exact.openingbook import Book
from pyapp.search.solver import solve
from pyapp.web import setfiles
from pyapp.web.setfiles import checked as checked_files
from pyapp.web.setfiles import game_files
from pyapp.web.sets import SHIPPED, Game

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

pytestmark = pytest.mark.usefixtures("sets_ready")  # under scripts/test.sh: after its background build fills the cache

GAMES_PER_SET = 3
"""Seeded random games a set (and a book) is asked on: in each shipped set's first three, both verdicts are met (a
game asks 4 positions; 1-3 of them lost on every set but triangle 6, whose first game is all winnable); more games
ask more positions of the same two kinds."""
SOLVE_SECONDS = 5
"""CPU seconds of ``solve`` per sampled position (on the CPU clock: French's slowest winnable ones take 3.8-4.6 CPU s,
which a wall-clock budget under load left unknown, and so unchecked)."""
QUICK_SOLVE_SECONDS = {"asymmetric-d5-d5": 1}
"""Sets whose sampled positions the solver answers within a tenth of a second or not within :data:`SOLVE_SECONDS` at
all, asked with this budget instead: asymmetric's games reach two lost positions above its set's floor (24 and 27
pegs), which the solver proves in 7 and 20 CPU s, so at 5 s each was asked, left unknown and skipped (10 s of the
test); its other eight positions take it under 0.2 s."""


def _shipped(game: Game, monkeypatch):
    """The game's files as the build ships them (:func:`pyapp.web.setfiles.game_files`, which checks them) and the set,
    table or book they decode to: the one its check decoded (a big set takes a second to decode), or decoded here when
    the files were computed now instead of read."""
    decoded = []

    def keep(g: Game, data: dict[str, bytes]):
        decoded.append(checked_files(g, data))
        return decoded[-1]

    monkeypatch.setattr(setfiles, "checked", keep)
    files = game_files(game, build.SETS_CACHE, build.SETS_ARTEFACTS)
    assert files is not None, f"no file for {game.stem} (make it with scripts/make_sets.py or scripts/opening_book.py)"
    return decoded[-1] if decoded else checked_files(game, {"winnable": files["winnable"][1]})


def _random_game(problem: Problem, rng: random.Random) -> list[int]:
    pos, seen = problem.start, [problem.start]
    while jumps := legal_jumps(problem.board, pos):
        pos = apply_jump(pos, rng.choice(jumps))
        seen.append(pos)
    return seen


@pytest.mark.parametrize("game", [g for g in SHIPPED if g.kind == "winnable"], ids=lambda g: g.stem)
def test_a_shipped_set_agrees_with_the_solver_on_random_games(game: Game, monkeypatch):
    problem = game.problem()
    win = _shipped(game, monkeypatch)
    if game.over_table:  # its levels under the floor: the goal's endgame table, as the site ships it
        monkeypatch.setattr(endgame, "_SHIPPED", dict(endgame._SHIPPED))
        endgame.install(_shipped(next(g for g in SHIPPED if g.endgame and (g.board, g.goal) == (game.board, game.goal)),
                                 monkeypatch))
    rng = random.Random(zlib.crc32(game.stem.encode()))
    checked = {True: 0, False: 0}
    solved: dict[int, str] = {}  # one solve a position: the games often share their first jump (from d1: always)
    for _ in range(GAMES_PER_SET):
        line = _random_game(problem, rng)
        for pos in [line[1], *rng.sample(line, min(3, len(line)))]:
            if pos not in solved:
                seconds = QUICK_SOLVE_SECONDS.get(game.stem, SOLVE_SECONDS)
                budget = Budget(seconds, clock=CPU_CLOCK)
                solved[pos] = solve(Problem(problem.board, pos, problem.goal), budget=budget).status
            status = solved[pos]
            if status == "unknown":
                continue
            try:
                verdict = win.can_win(pos)
            except Overrun:  # under the floor of a set held over the table, past the table's limit
                continue
            assert verdict == (status == "solved"), (game.stem, problem.board.pegs(pos), status)
            checked[status == "solved"] += 1
    # a winnable position is met on every game's first moves; a lost one soon after on random play
    assert checked[True] and checked[False], checked


@pytest.mark.parametrize("game", [g for g in SHIPPED if g.endgame], ids=lambda g: g.stem)
def test_a_shipped_endgame_table_agrees_with_the_solver(game: Game, monkeypatch):
    """The goal's endgame table the site ships (pyapp.exact.endgame_files), against the solver: on a solver line's
    positions it covers (winnable) and on random games' (mostly lost), every verdict it gives."""
    problem = game.problem()
    table = _shipped(game, monkeypatch)
    assert isinstance(table, Endgame) and table.shipped and table.ceiling >= 19  # triangle 8: 19; the others 21-23
    rng = random.Random(zlib.crc32(game.stem.encode()))
    line, pos = [], problem.start
    for jump in solve(problem, budget=Budget(60)).jumps:
        pos = apply_jump(pos, jump)
        line.append(pos)
    asked = [p for p in line if p.bit_count() in (table.ceiling, table.low + 1)]
    for _ in range(3):
        asked += rng.sample([p for p in _random_game(problem, rng) if p.bit_count() <= table.ceiling], 2)
    checked = {True: 0, False: 0}
    for pos in asked:
        status = solve(Problem(problem.board, pos, problem.goal), budget=Budget(SOLVE_SECONDS)).status
        table.question()
        try:
            verdict = table.can_win(pos)
        except Overrun:
            continue
        if status != "unknown":
            assert verdict == (status == "solved"), (game.stem, problem.board.pegs(pos), status)
            checked[verdict] += 1
    assert checked[True] and checked[False], checked


@pytest.mark.parametrize("game", [g for g in SHIPPED if g.book], ids=lambda g: g.stem)
def test_a_shipped_opening_book_agrees_with_the_solver(game: Game, monkeypatch):
    """The opening book the site ships (pyapp.exact.openingbook, committed in sets/): it decodes (every solution in
    it replayed to the goal), covers the start, and on random games' first positions and on some of its lost classes
    every verdict it gives agrees with the solver wherever the solver decides; both verdicts are met."""
    problem = game.problem()
    book = _shipped(game, monkeypatch)
    assert isinstance(book, Book) and book.answer(problem.start) is not None
    rng = random.Random(zlib.crc32(game.stem.encode()))
    asked = [p for _ in range(GAMES_PER_SET) for p in _random_game(problem, rng)[:3]]  # mostly winnable
    # random play seldom loses this early: lost classes of the book too, the quickly proved ones (a pagoda)
    lost = sorted(k for k, why in book.lost.items() if why.startswith("pagoda"))
    asked += [book.codec.layout(k) for k in rng.sample(lost, min(3, len(lost)))]
    checked = {True: 0, False: 0}
    classes = {book.codec.canon(pos): pos for pos in asked}  # one solve a class: its members share the verdict
    for pos in classes.values():
        verdict = book.answer(pos)
        if verdict is None:
            continue
        status = solve(Problem(problem.board, pos, problem.goal), budget=Budget(SOLVE_SECONDS)).status
        if status != "unknown":
            assert verdict.won == (status == "solved"), (game.stem, problem.board.pegs(pos), status)
            checked[verdict.won] += 1
    assert checked[True] and (checked[False] or not lost), checked  # (asymmetric's book holds no lost class)
