"""The winnable sets are not precached: a first visit downloads none of them, never-lose on a game fetches
that game's set only (once, checked by the service worker), and that game then answers from its set
offline, after a reload with the server gone; a symmetric image of a game is answered from its set."""

from __future__ import annotations

import json

import pytest
from browser_support import Server, go, wait_ready, wait_verdict

pytestmark = pytest.mark.browser

NOTE = "#neverlose-note"



def test_sets_are_fetched_on_first_use_only_and_work_offline_after(chromium, dist_dir):
    index = json.loads((dist_dir / "sets" / "index.json").read_text())
    files = {f"/sets/{e[k]}" for e in index for k in ("file", "ways") if k in e}
    triangle6 = next(e for e in index if e["board"] == "triangle6" and e["default"])
    used = {f"/sets/{triangle6['file']}", f"/sets/{triangle6['ways']}"}
    server = Server(dist_dir)
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(server.url)
        wait_ready(page)
        page.wait_for_function("() => window.pegLab.offline === 'installed'", timeout=120_000)
        assert not files & set(server.hits), "the first visit downloaded a winnable set"
        # a symmetric image of triangle 6's default game (vacancy 19, an image of 4): answered from its set (the
        # default game's start itself is answered from the opening book, with no set)
        go(page, "#board=triangle6&start=19&goal=any")
        button = page.get_by_role("button", name="Never lose")
        button.click()
        wait_verdict(page, "win", 20)
        assert "winnable set" in (page.text_content(NOTE) or "")
        fetched = [p for p in server.hits if p in files]
        assert sorted(fetched) == sorted(used), fetched  # this game's set and counts, once each, nothing else
        kept = page.evaluate("async () => (await (await caches.open('peg-sets')).keys()).map(r => r.url)")
        assert sorted(kept) == sorted(server.url + p[1:] for p in used)
        button.click()

        server.stop()
        context.set_offline(True)
        page.reload()
        wait_ready(page)
        go(page, "#board=triangle6&moves=1-4,7-2")  # the default game itself, two jumps in (past the book)
        page.get_by_role("button", name="Never lose").click()
        wait_verdict(page, "win", 18)
        assert "winnable set" in (page.text_content(NOTE) or "")
    finally:
        context.close()
        server.stop()
