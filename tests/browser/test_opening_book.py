"""The first never-lose verdict without waiting for Python: the start of a default game is answered from
opening.json (decided when the site was built, pyapp/web/opening.py) while the engine is still starting,
with the jumps filed and the book named, and so is the position after a first jump; the engine, once ready,
answers the positions after that.  How long after the first paint the verdict comes is a benchmark figure
(``tests/browser/measure_start.py``: the goal is under a second), not asserted here, where the machine's
load during the suite sets it; what is asserted is that the verdict needs no Python (it comes before the
engine is ready) and follows the press at once.

Then the engine's own opening book (pyapp/exact/openingbook.py, the committed file in sets/): at a position a few
jumps in whose losing jump the book proves, the note names the book, no jump is left undecided, and the losing
jump is marked.  Both on the Diamond 41 board's default game (d2 -> one peg anywhere), whose answers there come from
its book: no winnable set of that game ships."""

from __future__ import annotations

import json

import pytest
from browser_support import ARTIFACTS, Server, go, screenshot_both, wait_state, wait_verdict
from measure_start import VERDICT_JS

pytestmark = pytest.mark.browser

NOTE = "#neverlose-note"
BOARD = "diamond41"


def _start_pegs() -> int:
    from pyapp.core.problem import default_problem

    return default_problem(BOARD).start.bit_count()


def _jump_after(first: str) -> str:
    """A legal jump (in notation) after the jump ``first`` from the start of the default game."""
    from pyapp.core.game import replay
    from pyapp.core.moves import legal_jumps
    from pyapp.core.problem import default_problem

    problem = default_problem(BOARD)
    board = problem.board
    played = replay(board, problem.start, [first])
    assert played.valid, played
    pos = played.final
    a, _, c = legal_jumps(board, pos)[0]
    return f"{board.name_of[a]}-{board.name_of[c]}"


def test_the_start_of_a_default_game_is_answered_before_the_engine_is_ready(chromium, dist_dir):
    server = Server(dist_dir)
    context = chromium.new_context()  # a first visit: the engine starts only after the offline copy is saved
    try:
        page = context.new_page()
        page.goto(server.url + f"#board={BOARD}")
        page.wait_for_function("() => window.pegLab && window.pegLab.timings.firstPlayable", timeout=30_000)
        # pressed as soon as the board plays, from inside the page (no automation round trips in the timing)
        timing = page.evaluate(VERDICT_JS)
        assert page.evaluate("document.getElementById('neverlose-note').dataset.verdict") == "win"
        text = page.text_content(NOTE) or ""
        assert "opening book" in text and "solved or proved" in text, text
        assert timing["engine"] is None or timing["engine"] > timing["verdict"], timing  # before the engine was ready
        first, answered = timing["verdict"] - timing["paint"], timing["verdict"] - timing["pressed"]
        assert answered < 1000, f"the verdict came {answered:.0f} ms after never-lose was pressed"
        opening = json.loads((dist_dir / "opening.json").read_text())["games"][BOARD]
        book, top = opening["result"], _start_pegs()
        assert book["status"] == "winnable" and book["proof"] == "search" and book["good"]
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "first-verdict.json").write_text(json.dumps({"board": BOARD, **timing}))
        print(f"first verdict {first:.0f} ms after the first paint ({answered:.0f} ms after never-lose was pressed)")
        # one jump in: opening.json still answers; two jumps in: the engine, once it is ready (from the game's shipped
        # opening book, pyapp/exact/openingbook.py, which the engine names as its own)
        first = next(jump for jump, answer in opening["after"].items() if answer["status"] == "winnable")
        second = _jump_after(first)
        for hole in first.split("-"):
            page.click(f"[data-hole='{hole}']")
        page.wait_for_function("n => { const d = document.getElementById('neverlose-note').dataset;"
                               " return d.pegs === String(n) && d.verdict === 'win'; }", arg=top - 1, timeout=10_000)
        assert "opening book" in (page.text_content(NOTE) or "")
        for hole in second.split("-"):
            page.click(f"[data-hole='{hole}']")
        page.wait_for_function("n => { const d = document.getElementById('neverlose-note').dataset;"
                               " return d.pegs === String(n) && (d.verdict === 'win' || d.verdict === 'lose'"
                               " || d.verdict === 'unknown'); }", arg=top - 2, timeout=180_000)
        note = page.text_content(NOTE) or ""
        assert "computed when the site was built" not in note and "opening book of this game" in note, note
    finally:
        context.close()
        server.stop()


def _booked_position():
    """The jumps (in notation) from the start of the default game to the first position, breadth first, past those
    ``opening.json`` answers (the start and the positions after its jumps), where the shipped opening book files a
    jump as losing, and that jump's holes."""
    from build import SETS_ARTEFACTS
    from pyapp.analysis.neverlose_exact import never_lose_book
    from pyapp.core.moves import apply_jump, legal_jumps
    from pyapp.core.problem import default_problem
    from pyapp.exact import openingbook
    from pyapp.exact.openingbook_files import decode_book, file_name

    problem = default_problem(BOARD)
    board = problem.board
    book = decode_book((SETS_ARTEFACTS / file_name(problem)).read_bytes(), problem)
    openingbook.install(book)
    try:
        frontier = [(problem.start, [])]
        while frontier:
            pos, path = frontier.pop(0)
            answer = never_lose_book(board, problem.goal, pos)
            if len(path) >= 2 and answer is not None and answer.jumps.bad and answer.status == "winnable":
                a, _, c = answer.jumps.bad[0]
                return path, (board.name_of[a], board.name_of[c])
            if pos.bit_count() > book.deepest + 1:
                frontier += [(apply_jump(pos, j), [*path, f"{board.name_of[j[0]]}-{board.name_of[j[2]]}"])
                             for j in legal_jumps(board, pos)]
    finally:
        openingbook.clear()
    raise AssertionError("no position of the book's levels has a losing jump")


def test_the_first_moves_are_answered_from_the_shipped_opening_book(app):
    path, (x, y) = _booked_position()
    go(app, f"#board={BOARD}&moves=" + ",".join(path))
    wait_state(app, len(path))
    button = app.get_by_role("button", name="Never lose")
    if app.get_attribute("#never-lose", "aria-pressed") != "true":
        button.click()
    wait_verdict(app, "win", _start_pegs() - len(path), timeout=60_000)
    note = app.text_content("#neverlose-note") or ""
    assert "opening book of this game" in note and "Not decided" not in note, note
    assert f"{x}-{y} (opening book)" in note, note
    app.click(f"[data-hole='{x}']")
    app.wait_for_selector(f"[data-hole='{y}'].loses-to", timeout=30_000)
    screenshot_both(app, "body", f"never-lose-{BOARD}-book")
    app.click(f"[data-hole='{x}']")
    button.click()
