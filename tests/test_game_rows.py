"""The never-lose rows over random games (pyapp.bench.game_rows): a row plays, checks its verdicts against
the game's exact set and the lines it claims, and a wrong verdict or a line that misses the goal fails it."""

from __future__ import annotations

import pytest

from pyapp.bench import game_rows
from pyapp.core.budget import Budget
from pyapp.core.problem import default_problem
from pyapp.exact.winnable import winnable


@pytest.fixture()
def triangle5(monkeypatch):
    problem = default_problem("triangle5")
    win = winnable(problem)
    monkeypatch.setattr(game_rows, "exact_set", lambda p, stem: win if p == problem else None)
    case = game_rows.play_case("triangle5", "1", "any")
    return case, case.work(0, Budget())


def test_a_row_plays_every_position_and_agrees_with_the_exact_set(triangle5):
    case, raw = triangle5
    out = case.check(0, raw)
    assert out.wrong is None and out.unanswered is None, (out.wrong, out.unanswered)
    assert "checked against the exact set" in out.answer and len(raw) > game_rows.GAMES


def test_a_wrong_verdict_or_a_line_that_misses_the_goal_fails_the_row(triangle5):
    case, raw = triangle5
    v = next(v for v in raw if v["good"] and v["status"] == "winnable")
    wrong = [*raw, {**v, "good": [], "bad": v["good"]}]
    assert "disagrees with the exact set" in (case.check(0, wrong).wrong or "")
    short = [*raw, {**v, "line": v["line"][:-1]}]
    assert "does not reach the goal" in (case.check(0, short).wrong or "")


def test_every_standard_game_has_a_row():
    names = {c.name for c in game_rows.cases()}
    assert {"neverlose-play-french-d2-d6", "neverlose-play-german-e5-e5", "neverlose-play-english-d4-d4",
            "neverlose-play-diamond41-d2-any", "neverlose-play-asymmetric-d5-d5"} <= names


def test_a_game_played_along_a_path_follows_it_through_lost_positions():
    """``played(paths=...)`` (a run following another's jumps) keeps to the path to its end, even past a position
    this run's check finds lost, so the two runs are compared on the same positions."""
    import random

    from pyapp.core.moves import apply_jump, legal_jumps

    problem = default_problem("triangle5")
    win = winnable(problem)
    rng = random.Random(5)
    pos, path, lost_on_the_way = problem.start, [], False
    while jumps := legal_jumps(problem.board, pos):
        jump = rng.choice(jumps)
        path.append(list(jump))
        pos = apply_jump(pos, jump)
        lost_on_the_way |= bool(legal_jumps(problem.board, pos)) and not win.can_win(pos)
    assert lost_on_the_way
    rows = list(game_rows.played(problem, 1, random.Random(0), {0: path}))
    assert [row[4] for row in rows] == [tuple(j) for j in path] + [None]
    assert any(row[2].status == "lost" for row in rows[:-1])
