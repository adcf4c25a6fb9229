"""The first never-lose verdict without waiting for Python: the start of a default game is answered from
opening.json (decided when the site was built, pyapp/web/opening.py) while the engine is still starting,
within a second of the first paint, with the jumps filed and the book named; the engine, once ready,
answers the next position as before."""

from __future__ import annotations

import json

import pytest
from browser_support import ARTIFACTS, Server

pytestmark = pytest.mark.browser

NOTE = "#neverlose-note"


def test_the_start_of_a_default_game_is_answered_before_the_engine_is_ready(chromium, dist_dir):
    server = Server(dist_dir)
    context = chromium.new_context()  # a first visit: the engine starts only after the offline copy is saved
    try:
        page = context.new_page()
        page.goto(server.url + "#board=french")
        page.wait_for_function("() => window.pegLab && window.pegLab.timings.firstPlayable", timeout=30_000)
        button = page.get_by_role("button", name="Never lose")
        button.click()
        page.wait_for_function("() => document.getElementById('neverlose-note').dataset.verdict === 'win'",
                               timeout=10_000)
        timing = page.evaluate("""() => ({
            engine: window.pegLab.timings.engineReady ?? null,
            paint: performance.getEntriesByName('first-paint')[0]?.startTime ?? 0,
            now: performance.now()})""")
        text = page.text_content(NOTE) or ""
        assert "opening book" in text and "solved or proved" in text, text
        assert timing["engine"] is None or timing["engine"] > timing["now"], timing  # before the engine was ready
        first = timing["now"] - timing["paint"]
        assert first < 1000, f"first verdict {first:.0f} ms after the first paint"
        book = json.loads((dist_dir / "opening.json").read_text())["games"]["french"]["result"]
        assert book["status"] == "winnable" and book["proof"] == "search" and len(book["good"]) == 3
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "first-verdict.json").write_text(json.dumps({"board": "french", "ms_from_first_paint": first}))
        print(f"first verdict {first:.0f} ms after the first paint")
        # the engine answers the next position once it is ready
        page.click("[data-hole='b2']")
        page.click("[data-hole='d2']")
        page.wait_for_function("() => { const d = document.getElementById('neverlose-note').dataset;"
                               " return d.pegs === '35' && (d.verdict === 'win' || d.verdict === 'lose'"
                               " || d.verdict === 'unknown'); }", timeout=180_000)
    finally:
        context.close()
        server.stop()
