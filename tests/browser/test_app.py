"""The web app in a real Chromium: load, play, keyboard, solve, cancel, playback, share links.

All tests of this module share one loaded page (one Pyodide start-up); each opens its game
through the URL fragment, which the app reads on ``hashchange`` without reloading.
"""

from __future__ import annotations

import json
import re
from urllib.parse import unquote

import pytest
from browser_support import ARTIFACTS, go, open_app, wait_state

pytestmark = pytest.mark.browser

# Searches that run for seconds with the solver of this repository: a 12x12 square board, centre
# vacant, one peg anywhere (144 holes: no search here finishes it in minutes), then classic boards
# with the "fewest pegs" goal.  The progress/cancel test uses the first that is still running after
# a second, so a faster solver cannot make it vacuous.
_ROWS12 = ["o" * 12] * 5 + ["ooooo.oooooo"] + ["o" * 12] * 6
LONG_SEARCHES = [
    "#board=square:" + "/".join(_ROWS12) + "&goal=any",
    "#board=german&start=e5&goal=min",
    "#board=diamond41&start=e5&goal=min",
]
FRAME_MONITOR = """() => {
  const m = window.__frames = {gaps: [], last: performance.now(), on: true};
  const tick = (t) => { if (!m.on) return; m.gaps.push(t - m.last); m.last = t; requestAnimationFrame(tick); };
  requestAnimationFrame((t) => { m.last = t; requestAnimationFrame(tick); });
}"""


def pegs(page) -> set[str]:
    return set(page.eval_on_selector_all("[data-hole].peg", "els => els.map(e => e.dataset.hole)"))


def holes(page) -> list[str]:
    return page.eval_on_selector_all("[data-hole]", "els => els.map(e => e.dataset.hole)")


def status(page) -> str:
    return page.get_by_role("status").text_content()


def test_default_page_is_english_with_the_centre_empty(app):
    assert len(holes(app)) == 33
    assert "d4" not in pegs(app) and len(pegs(app)) == 32
    for name in ("Solve", "Cancel", "Undo", "Redo", "Restart", "Copy link"):
        button = app.get_by_role("button", name=name, exact=True)
        assert button.is_visible(), name
        assert button.text_content().strip() == name
    assert app.get_by_role("status").count() == 1
    assert "board=english" in app.url and "start=d4" in app.url
    assert app.errors == []
    # every catalogue board is in the picker
    options = app.eval_on_selector_all("#board-select option", "os => os.map(o => o.value)")
    assert options == ["english", "french", "german", "asymmetric", "diamond41",
                       "triangle4", "triangle5", "triangle6", "triangle7", "triangle8"]


def test_a_jump_by_clicking_then_undo_and_redo(app):
    go(app, "#board=english&start=d4&goal=d4")
    app.click("[data-hole='f4']")
    assert app.get_attribute("[data-hole='f4']", "class").split().count("selected") == 1
    assert "target" in app.get_attribute("[data-hole='d4']", "class").split()
    app.click("[data-hole='d4']")
    wait_state(app, 1)
    assert {"f4", "e4"}.isdisjoint(pegs(app)) and "d4" in pegs(app)
    assert app.text_content("#count-pegs") == "31" and app.text_content("#count-moves") == "1"
    assert "moves=f4-d4" in app.url
    app.get_by_role("button", name="Undo").click()
    wait_state(app, 0)
    assert "d4" not in pegs(app) and {"f4", "e4"} <= pegs(app)
    app.get_by_role("button", name="Redo").click()
    wait_state(app, 1)
    assert "d4" in pegs(app) and "f4" not in pegs(app)
    # a second jump by the same peg would continue the move; a different peg starts a new one
    app.click("[data-hole='d2']")
    app.click("[data-hole='d4']")
    wait_state(app, 1)  # d4 is full: d2 -> d4 is not a jump, nothing happens
    app.get_by_role("button", name="Restart").click()
    wait_state(app, 0)
    assert len(pegs(app)) == 32


def test_keyboard_focus_ring_select_jump_undo_redo(app):
    go(app, "#board=english&start=d4&goal=d4&moves=")
    app.focus("#board svg")
    focus = app.eval_on_selector(".hole.focus", "e => e.dataset.hole")
    assert focus == "d2"  # the first peg that can jump, in reading order
    app.keyboard.press("Enter")
    assert "selected" in app.get_attribute("[data-hole='d2']", "class").split()
    app.keyboard.press("ArrowDown")
    app.keyboard.press("ArrowDown")
    assert app.eval_on_selector(".hole.focus", "e => e.dataset.hole") == "d4"
    app.keyboard.press("Space")
    wait_state(app, 1)
    assert "d4" in pegs(app) and {"d2", "d3"}.isdisjoint(pegs(app))
    app.keyboard.press("ArrowLeft")
    assert app.eval_on_selector(".hole.focus", "e => e.dataset.hole") == "c4"
    app.keyboard.press("u")
    wait_state(app, 0)
    app.keyboard.press("Control+y")
    wait_state(app, 1)
    app.keyboard.press("Control+z")
    wait_state(app, 0)


def test_drag_a_peg_onto_a_target(app):
    go(app, "#board=triangle5&start=1")
    src = app.locator("[data-hole='4']").bounding_box()
    dst = app.locator("[data-hole='1']").bounding_box()
    app.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    app.mouse.down()
    for i in range(1, 9):
        f = i / 8
        app.mouse.move(src["x"] + src["width"] / 2 + f * (dst["x"] - src["x"]),
                       src["y"] + src["height"] / 2 + f * (dst["y"] - src["y"]))
    app.mouse.up()
    wait_state(app, 1)
    assert "1" in pegs(app) and {"4", "2"}.isdisjoint(pegs(app))
    assert "moves=4-1" in app.url


def _start_long_search(page, budget="60"):
    """Start the first search of LONG_SEARCHES that is still running after a second."""
    page.select_option("#budget", budget)
    for fragment in LONG_SEARCHES:
        go(page, fragment)
        page.evaluate(FRAME_MONITOR)
        before = page.evaluate("window.pegLab.progressEvents")
        t0 = page.evaluate("performance.now()")
        page.get_by_role("button", name="Solve").click()
        page.wait_for_timeout(1000)
        if not page.get_by_role("button", name="Cancel").is_disabled():
            return fragment, before, t0
        page.evaluate("window.__frames.on = false")
    pytest.fail(f"none of {LONG_SEARCHES} ran for a second: choose longer searches for this test")


def _search_then_cancel(app) -> tuple[str, float, float, list[float]]:
    """One long search: check its progress line and rate, cancel it; return (fragment, progress
    events per second, cancel ms, frame gaps)."""
    fragment, before, t0 = _start_long_search(app)
    cancels = app.evaluate("window.pegLab.cancels.length")
    try:
        text = app.text_content("#progress")
        events = app.evaluate("window.pegLab.progressEvents") - before
        elapsed = (app.evaluate("performance.now()") - t0) / 1000
        assert re.search(r"Searching: [\d,]+ nodes · [\d.]+ s · [\d,]+ nodes/s", text), text
        assert events / elapsed >= 4, f"{events} progress events in {elapsed:.1f} s"
    finally:  # a failed check must not leave the search running into the next tests of this page
        app.get_by_role("button", name="Cancel").click()
    app.wait_for_function(f"window.pegLab.cancels.length > {cancels}")
    cancel_ms = app.evaluate("window.pegLab.cancels.at(-1)")
    gaps = app.evaluate("window.__frames.on = false, window.__frames.gaps")
    return fragment, events / elapsed, cancel_ms, gaps


FRAME_GAP_MS = 150
"""The longest frame gap allowed while a search runs in the worker: a blocked page shows its whole search as one gap
(seconds); the host's own stalls under the full suite's load reach about 120 ms."""


def test_progress_rate_frame_gaps_and_cancel_within_200_ms(app):
    ready_before = app.evaluate("window.pegLab.timings.engineReady")
    # On this shared 2-core machine the host can stall the page for ~120 ms while the search runs in
    # its worker (seen once in a fresh-clone CI run at load 1, every other frame 16.7 ms; in another,
    # beside the other test worker's heaviest files, 117, 317 and 117 ms on the three tries).  A page
    # that really blocks on the search fails every try, so the best of three is judged, against
    # FRAME_GAP_MS.
    tries = []
    for _ in range(3):
        fragment, rate, cancel_ms, gaps = _search_then_cancel(app)
        tries.append((fragment, rate, cancel_ms, max(gaps)))
        if cancel_ms < 200 and max(gaps) < FRAME_GAP_MS:
            break
    fragment, rate, cancel_ms, gap = min(tries, key=lambda t: (t[2] >= 200 or t[3] >= FRAME_GAP_MS, t[3]))
    assert cancel_ms < 200, f"cancel took {cancel_ms:.0f} ms ({fragment}); tries: {tries}"
    assert gap < FRAME_GAP_MS, f"largest frame gap {gap:.0f} ms during the search; tries: {tries}"
    assert "cancelled" in status(app)
    # the engine is still there: no reload, and it answers at once
    assert app.evaluate("window.pegLab.timings.engineReady") == ready_before
    go(app, "#board=english&start=d4&moves=f4-d4")
    assert app.text_content("#count-jumps") == "1"
    print(f"\ncancel: {cancel_ms:.0f} ms; progress {rate:.1f}/s; largest frame gap {gap:.0f} ms; tries {len(tries)}")


def test_solve_english_then_playback_and_screenshot(app):
    go(app, "#board=english&start=d4&goal=d4")
    app.select_option("#budget", "300")
    app.evaluate(FRAME_MONITOR)
    app.get_by_role("button", name="Solve").click()
    app.wait_for_function("window.pegLab.solves.length > 0 && document.getElementById('solve').disabled === false",
                          timeout=320_000)
    gaps = app.evaluate("window.__frames.on = false, window.__frames.gaps")
    solve = app.evaluate("window.pegLab.solves.at(-1)")
    assert solve["status"] == "solved" and solve["jumps"] == 31, solve
    assert "Solved" in status(app)
    assert re.search(r"[\d,]+ nodes in [\d.]+ s", app.text_content("#progress"))
    # the frame gaps are recorded, not asserted: this solve answers in a few frames (a host stall of 330 ms was seen
    # once under the full suite's load); test_progress_rate_frame_gaps_and_cancel_within_200_ms asserts them over
    # a search that runs for seconds
    # playback: step, scrub, play/pause, the solution text
    panel = app.locator("#playback")
    assert panel.is_visible()
    text = app.text_content("#solution-text")
    assert app.text_content("#pb-total") == "31"
    assert all(re.fullmatch(r"[a-g][1-7](-[a-g][1-7])+", move) for move in text.split()), text
    app.get_by_role("button", name="Forward").click()
    wait_state(app, 1)
    app.get_by_role("button", name="Back").click()
    wait_state(app, 0)
    app.get_by_role("button", name="Play").click()
    wait_state(app, 2)
    app.get_by_role("button", name="Pause").click()
    app.locator("#pb-scrubber").fill("10")
    wait_state(app, 10)
    assert app.text_content("#pb-index") == "10"
    app.get_by_role("button", name="End").click()
    wait_state(app, 31)
    assert pegs(app) == {"d4"}
    assert "Solved" in status(app)
    url_moves = re.search(r"moves=([^&]+)", app.url).group(1).split(",")
    assert url_moves == text.split()
    app.get_by_role("button", name="Copy solution").click()
    assert app.evaluate("navigator.clipboard.readText()") == text
    app.get_by_role("button", name="Copy link").click()
    assert app.evaluate("navigator.clipboard.readText()") == app.url
    app.wait_for_timeout(300)
    ARTIFACTS.mkdir(exist_ok=True)
    app.screenshot(path=str(ARTIFACTS / "solved-english.png"), full_page=True)
    app.locator("#board").screenshot(path=str(ARTIFACTS / "solved-english-board.png"))
    (ARTIFACTS / "solve-english.json").write_text(json.dumps({**solve, "max_frame_gap_ms": max(gaps)}, indent=1))
    print(f"\nEnglish solved in the browser: {solve}; largest frame gap {max(gaps):.0f} ms")


def test_share_link_round_trip_into_a_new_page(app, chromium, server):
    go(app, "#board=english&start=d4&goal=d4")
    for n, (src, dst) in enumerate((("f4", "d4"), ("e2", "e4"), ("c3", "e3")), 1):
        app.click(f"[data-hole='{src}']")
        app.click(f"[data-hole='{dst}']")
        wait_state(app, n)
    link = app.url
    assert "#board=english&start=d4&goal=d4&moves=f4-d4,e2-e4,c3-e3" in link
    expected = pegs(app)
    context = chromium.new_context()
    try:
        other = open_app(context, link)
        assert pegs(other) == expected
        assert other.text_content("#count-jumps") == "3" and other.text_content("#moves-text") == "f4-d4 e2-e4 c3-e3"
        assert other.url == link
        # a custom board with a goal also survives the trip
        go(other, "#board=square:ooo_/o.oo/oooo&goal=min&moves=d2-b2")
        custom_link = other.url
        assert "board=square:ooo/o.oo/oooo" in custom_link and "goal=min" in custom_link
        third = open_app(context, custom_link)
        assert pegs(third) == pegs(other) and third.text_content("#count-jumps") == "1"
    finally:
        context.close()


HOSTILE = [
    "#board=<img src=x onerror=\"window.__pwned=1\">",
    "#board=english&moves=<script>window.__pwned=2</script>",
    "#board=square:<svg/onload=window.__pwned=3>",
    "#board=english&start=zz9",
    "#%E0%A4%A",
    "#board=english&evil=1",
    "#board=english&goal=%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D4%3E",
]


def test_malformed_and_hostile_links_show_a_message_and_fall_back(chromium, server):
    context = chromium.new_context()
    dialogs = []
    try:
        page = context.new_page()
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.errors = []
        page.on("pageerror", lambda err: page.errors.append(str(err)))
        page.goto(server.url + HOSTILE[0])
        page.wait_for_function("window.pegLab && window.pegLab.timings.firstBoard", timeout=90_000)
        for n, fragment in enumerate(HOSTILE):
            if n:
                go(page, fragment)
            message = status(page)
            assert page.locator("#status").evaluate("e => e.children.length") == 0
            assert len(holes(page)) == 33 and "d4" not in pegs(page), fragment
            assert page.evaluate("window.__pwned") is None
            assert page.locator("img, script:not([src]), [onerror], [onload]").count() == 0
            if "moves=" in fragment:
                # a readable board with a move that cannot be played opens without it and names it (issue 12)
                assert "Opened the shared game without its moves: move 1 (" in message, (fragment, message)
                continue
            assert "could not be opened" in message and "English board" in message, (fragment, message)
            # the address keeps what was typed, so a typo can be fixed there (issue 12)
            assert unquote(page.url).endswith(unquote(fragment)), (page.url, fragment)
        assert dialogs == [] and page.errors == []
    finally:
        context.close()


def test_editor_toggles_pegs_and_sets_the_goal(app):
    go(app, "#board=triangle5&start=1")
    app.get_by_role("button", name="Edit board").click()
    app.check("input[name=tool][value=peg]")
    app.click("[data-cell='0,0']")  # hole 1: add a peg
    app.click("[data-cell='4,4']")  # hole 15: remove its peg
    app.check("input[name=tool][value=goal]")
    app.click("[data-cell='2,1']")  # hole 5 is the goal
    before = app.evaluate("window.pegLab.states")
    app.get_by_role("button", name="Use this board").click()
    app.wait_for_function("n => window.pegLab.states > n", arg=before)
    assert "1" in pegs(app) and "15" not in pegs(app)
    assert "board=triangle5" in app.url and "goal=5" in app.url and "pos=" in app.url
    assert "goal" in app.get_attribute("[data-hole='5']", "class").split()
    # removing a hole makes a custom board
    app.get_by_role("button", name="Edit board").click()
    app.check("input[name=tool][value=hole]")
    app.click("[data-cell='4,4']")
    before = app.evaluate("window.pegLab.states")
    app.get_by_role("button", name="Use this board").click()
    app.wait_for_function("n => window.pegLab.states > n", arg=before)
    assert len(holes(app)) == 14 and "board=triangle:" in app.url


def test_custom_board_from_typed_text(app):
    go(app, "#board=english&start=d4")
    app.locator("summary", has_text="Custom board from text").click()
    app.fill("#custom-text", "ooo\no.o\nooo")
    app.get_by_role("button", name="Use this board", exact=True).last.click()
    app.wait_for_function("location.hash.includes('square:ooo/o.o/ooo')")
    assert len(holes(app)) == 9 and len(pegs(app)) == 8
    app.fill("#custom-text", "o?o")
    app.get_by_role("button", name="Use this board", exact=True).last.click()
    app.wait_for_function("document.getElementById('status').textContent.includes('cannot be used')")
    assert "unexpected character '?'" in status(app)


def test_hint_and_cnf_download(app, tmp_path):
    go(app, "#board=triangle5&start=1")
    app.locator("summary", has_text="Analyse and export").click()
    app.get_by_role("button", name="Hint").click()
    app.wait_for_function("document.getElementById('analysis').textContent.startsWith('Good jumps')")
    hinted = set(app.eval_on_selector_all(".hole.hint", "els => els.map(e => e.dataset.hole)"))
    assert hinted == {"4", "6"}  # both first jumps of the 15-hole game keep one peg reachable
    with app.expect_download() as info:
        app.get_by_role("button", name="Download CNF").click()
    download = info.value
    assert download.suggested_filename == "triangle5-0.cnf"
    path = tmp_path / "t.cnf"
    download.save_as(path)
    text = path.read_text()
    assert "p cnf" in text and "triangle5" in text
