"""An English own-hole game whose set ships from a level up (c1 -> c1, pyapp.exact.partial) gets exact
never-lose verdicts in the page: fetched on first use, answered from the set's held levels, and from a
position whose jumps lead between the held levels and their complements, by the short search, the note
naming which answered.  Triangle 7's default game, shipped as its high and low levels, likewise: its jumps
from the lowest high level answered by the search down to the held low levels."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from browser_support import Server, go, wait_ready, wait_verdict

from pyapp.analysis.neverlose_exact import line_from
from pyapp.exact.store import decode
from pyapp.web.sets import SHIPPED, file_name

pytestmark = pytest.mark.browser

NOTE = "#neverlose-note"


@contextmanager
def ready_page(chromium, dist_dir) -> Iterator[tuple]:
    """A page of the built site, its engine ready, and the server (whose ``hits`` list the files fetched)."""
    server = Server(dist_dir)
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(server.url)
        wait_ready(page)
        yield page, server
    finally:
        context.close()
        server.stop()


def test_c1_gets_exact_verdicts_from_its_partial_set(chromium, dist_dir):
    game = next(g for g in SHIPPED if g.stem == "english-c1-c1")
    problem = game.problem()
    win = decode((dist_dir / "sets" / file_name(game)).read_bytes(), problem)
    names = problem.board.name_of
    moves = [f"{names[a]}-{names[c]}" for a, _, c in line_from(win, problem.start)[:13]]  # 19 pegs left
    with ready_page(chromium, dist_dir) as (page, server):
        go(page, "#board=english&start=c1&goal=c1")
        page.get_by_role("button", name="Never lose").click()
        wait_verdict(page, "win", 32)
        note = page.text_content(NOTE) or ""
        assert "shipped from 19 pegs up: this position and its jumps by lookup" in note, note
        assert any(p.startswith("/sets/english-c1-c1-") for p in server.hits)
        go(page, f"#board=english&start=c1&goal=c1&moves={','.join(moves)}")
        wait_verdict(page, "win", 19)
        note = page.text_content(NOTE) or ""
        assert "this position by lookup, its jumps by an exhaustive search down to 14 pegs" in note, note


def test_triangle7_gets_exact_verdicts_from_its_high_and_low_levels(chromium, dist_dir):
    game = next(g for g in SHIPPED if g.board == "triangle7")
    problem = game.problem()
    win = decode((dist_dir / "sets" / file_name(game)).read_bytes(), problem)
    names = problem.board.name_of
    line = [f"{names[a]}-{names[c]}" for a, _, c in line_from(win, problem.start)]
    down = problem.start.bit_count() - game.floor  # the moves to the lowest held high level
    with ready_page(chromium, dist_dir) as (page, server):
        go(page, f"#board=triangle7&moves={','.join(line[:down])}")
        page.get_by_role("button", name="Never lose").click()
        wait_verdict(page, "win", game.floor)
        note = page.text_content(NOTE) or ""
        assert (f"shipped from {game.floor} pegs up and from {game.upto} pegs down: this position by lookup, its "
                f"jumps by an exhaustive search down to {game.upto} pegs, where the set answers") in note, note
        assert any(p.startswith("/sets/triangle7-4-any-") for p in server.hits)
        go(page, f"#board=triangle7&moves={','.join(line[:down + 8])}")
        wait_verdict(page, "win", game.upto - 2)
        note = page.text_content(NOTE) or ""
        assert "this position and its jumps by lookup" in note, note
