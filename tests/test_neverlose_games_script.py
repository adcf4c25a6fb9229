"""scripts/neverlose_games.py: a run of seeded games, a second run that follows its jumps onto the same positions, and
the two compared into the JSON the report reads."""

from __future__ import annotations

import json

from tests.test_opening_book_script import script

GAME = ["triangle5", "1", "any"]
"""A shipped game (its set and book installed as the page has them) whose never-lose checks take milliseconds: the
script's playing, following and comparing are what is tested here, not the engine's speed."""


def _run(*args: str) -> str:
    return script("neverlose_games.py", *GAME, *args)


def test_a_run_a_follower_and_their_comparison(tmp_path):
    first, second, out = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "books.json"
    _run("--games", "2", "--seed", "3", "--jsonl", str(first))
    _run("--games", "2", "--seed", "99", "--follow", str(first), "--jsonl", str(second))
    a = [json.loads(line) for line in first.read_text().splitlines()]
    b = [json.loads(line) for line in second.read_text().splitlines()]
    assert [(r["game"], r["pegs"], r["jump"]) for r in a] == [(r["game"], r["pegs"], r["jump"]) for r in b]
    assert {r["game"] for r in a} == {0, 1} and a[-1]["jump"] is None
    printed = json.loads(_run("--compare", str(first), str(second), "--pegs", "5", "20", "--label", "same code",
                              "--out", str(out)))
    inside = [r for r in a if 5 <= r["pegs"] <= 20]
    assert printed["positions"] == len(inside) and printed["before"]["decided"] == printed["after"]["decided"] > 0
    along = json.loads(out.read_text())["games"]["triangle5 1 -> any"]["along"]
    assert [(m["label"], m["positions"]) for m in along] == [("same code", len(inside))]
    # a second label is added after the first; the same label measured again replaces its entry
    for label in ("narrower", "same code"):
        _run("--compare", str(first), str(second), "--pegs", "5", "9", "--label", label, "--out", str(out))
    along = json.loads(out.read_text())["games"]["triangle5 1 -> any"]["along"]
    assert [m["label"] for m in along] == ["narrower", "same code"] and along[1]["pegs"] == [5, 9]


def test_the_page_measurement_opens_the_run_s_positions(tmp_path):
    """scripts/endgame_chromium.py --follow: the positions of a run with the given pegs, replayed from the start, with
    the CPU seconds the run took at each (the page's figures are set beside them)."""
    import sys
    from pathlib import Path

    from pyapp.core.catalogue import get_board
    from pyapp.core.moves import apply_jump
    from pyapp.core.problem import make_problem

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import endgame_chromium

    run = tmp_path / "a.jsonl"
    _run("--games", "2", "--seed", "3", "--jsonl", str(run))
    rows = [json.loads(line) for line in run.read_text().splitlines()]
    problem = make_problem(get_board(GAME[0]), start=GAME[1], goal=GAME[2])
    where, seconds = endgame_chromium.followed(problem, run, 5, 9)
    expected, pos, game = [], problem.start, None
    for r in rows:
        pos = problem.start if r["game"] != game else pos
        game = r["game"]
        assert pos.bit_count() == r["pegs"]
        if 5 <= r["pegs"] <= 9:
            expected.append((pos, r["s"]))
        pos = apply_jump(pos, tuple(r["jump"])) if r["jump"] else pos
    assert list(zip(where, seconds)) == expected and len(where) >= 4
