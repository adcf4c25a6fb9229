"""Every shipped winnable set (pyapp.web.sets.SHIPPED) against the solver: on positions of seeded random
games of each shipped game, the set's "can still win" agrees with ``solve`` wherever the solver decides,
both verdicts are met, and the files the build ships decode (the committed artefacts included).

The sets come from the build's cache (:func:`pyapp.exact.store.sets_cache`, filled by ``python3 build.py``)
or, for the games committed in ``sets/``, from there; a game computed by the build and not yet cached is computed here
(about a minute of CPU for the English central game)."""

from __future__ import annotations

import random
import sys
import zlib
from pathlib import Path

import pytest

from pyapp.core.budget import Budget
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import Problem
from pyapp.exact.store import decode
from pyapp.search.solver import solve
from pyapp.web.setfiles import game_files
from pyapp.web.sets import SHIPPED, Game

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

GAMES_PER_SET = 6
SOLVE_SECONDS = 5


def _random_game(problem: Problem, rng: random.Random) -> list[int]:
    pos, seen = problem.start, [problem.start]
    while jumps := legal_jumps(problem.board, pos):
        pos = apply_jump(pos, rng.choice(jumps))
        seen.append(pos)
    return seen


@pytest.mark.parametrize("game", SHIPPED, ids=lambda g: g.stem)
def test_a_shipped_set_agrees_with_the_solver_on_random_games(game: Game):
    files = game_files(game, build.SETS_CACHE, build.SETS_ARTEFACTS)
    assert files is not None, f"no set file for {game.stem} (make it with scripts/make_sets.py)"
    problem = game.problem()
    win = decode(files["winnable"][1], problem)
    rng = random.Random(zlib.crc32(game.stem.encode()))
    checked = {True: 0, False: 0}
    for _ in range(GAMES_PER_SET):
        line = _random_game(problem, rng)
        for pos in [line[1], *rng.sample(line, min(3, len(line)))]:
            status = solve(Problem(problem.board, pos, problem.goal), budget=Budget(SOLVE_SECONDS)).status
            if status == "unknown":
                continue
            assert win.can_win(pos) == (status == "solved"), (game.stem, problem.board.pegs(pos), status)
            checked[status == "solved"] += 1
    # a winnable position is met on every game's first moves; a lost one soon after on random play
    assert checked[True] and checked[False], checked
