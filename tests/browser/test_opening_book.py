"""The first never-lose verdict without waiting for Python: the start of a default game is answered from
opening.json (decided when the site was built, pyapp/web/opening.py) while the engine is still starting,
with the jumps filed and the book named, and so is the position after a first jump; the engine, once ready,
answers the positions after that.  How long after the first paint the verdict comes is a benchmark figure
(``tests/browser/measure_start.py``: the goal is under a second), not asserted here, where the machine's
load during the suite sets it; what is asserted is that the verdict needs no Python (it comes before the
engine is ready) and follows the press at once."""

from __future__ import annotations

import json

import pytest
from browser_support import ARTIFACTS, Server
from measure_start import VERDICT_JS

pytestmark = pytest.mark.browser

NOTE = "#neverlose-note"


def test_the_start_of_a_default_game_is_answered_before_the_engine_is_ready(chromium, dist_dir):
    server = Server(dist_dir)
    context = chromium.new_context()  # a first visit: the engine starts only after the offline copy is saved
    try:
        page = context.new_page()
        page.goto(server.url + "#board=french")
        page.wait_for_function("() => window.pegLab && window.pegLab.timings.firstPlayable", timeout=30_000)
        # pressed as soon as the board plays, from inside the page (no automation round trips in the timing)
        timing = page.evaluate(VERDICT_JS)
        assert page.evaluate("document.getElementById('neverlose-note').dataset.verdict") == "win"
        text = page.text_content(NOTE) or ""
        assert "opening book" in text and "solved or proved" in text, text
        assert timing["engine"] is None or timing["engine"] > timing["verdict"], timing  # before the engine was ready
        first, answered = timing["verdict"] - timing["paint"], timing["verdict"] - timing["pressed"]
        assert answered < 1000, f"the verdict came {answered:.0f} ms after never-lose was pressed"
        book = json.loads((dist_dir / "opening.json").read_text())["games"]["french"]["result"]
        assert book["status"] == "winnable" and book["proof"] == "search" and len(book["good"]) == 3
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "first-verdict.json").write_text(json.dumps({"board": "french", **timing}))
        print(f"first verdict {first:.0f} ms after the first paint ({answered:.0f} ms after never-lose was pressed)")
        # one jump in: opening.json still answers; two jumps in: the engine, once it is ready (from the game's shipped
        # opening book, pyapp/exact/openingbook.py, which the engine names as its own)
        page.click("[data-hole='b2']")
        page.click("[data-hole='d2']")
        page.wait_for_function("() => { const d = document.getElementById('neverlose-note').dataset;"
                               " return d.pegs === '35' && d.verdict === 'win'; }", timeout=10_000)
        assert "opening book" in (page.text_content(NOTE) or "")
        page.click("[data-hole='e2']")
        page.click("[data-hole='c2']")
        page.wait_for_function("() => { const d = document.getElementById('neverlose-note').dataset;"
                               " return d.pegs === '34' && (d.verdict === 'win' || d.verdict === 'lose'"
                               " || d.verdict === 'unknown'); }", timeout=180_000)
        note = page.text_content(NOTE) or ""
        assert "computed when the site was built" not in note and "opening book of this game" in note, note
    finally:
        context.close()
        server.stop()
