"""Issue 12 in a real Chromium: coordinates, the move list, the finishes map, never-lose mode,
puzzles and the link fixes.  The tests of this module share one loaded page (one Pyodide
start-up) and open their games through the URL fragment; screenshots of the move list, the
finishes map and never-lose mode (desktop and a 390x844 phone) go to test-artifacts/.
"""

from __future__ import annotations

import re

import pytest
from browser_support import ARTIFACTS, go, open_app, set_speed, wait_state

pytestmark = pytest.mark.browser

# a short English game whose third move is a chain of two jumps by one peg (6 jumps, 5 moves)
CHAIN_GAME = "#board=english&start=d4&goal=d4&moves=d2-d4,d5-d3,f4-d4-d2,b4-d4,c2-c4"
# the 15-hole triangle after 4-1 6-4 12-5: the jumps 4-6, 9-2 and 13-6 lose (pyapp's never-lose
# analysis, checked against the solver in tests/test_neverlose.py)
TRIANGLE_LOSING = "#board=triangle5&start=1&moves=4-1,6-4,12-5"


def status(page) -> str:
    return page.get_by_role("status").text_content()


def pegs(page) -> set[str]:
    return set(page.eval_on_selector_all("[data-hole].peg", "els => els.map(e => e.dataset.hole)"))


def entries(page) -> list[str]:
    return page.eval_on_selector_all("[data-ply]", "els => els.map(e => e.textContent.replace(/\\s+/g, ' ').trim())")


def current_ply(page) -> int | None:
    found = page.eval_on_selector_all("[data-ply][aria-current='step']", "els => els.map(e => Number(e.dataset.ply))")
    assert len(found) <= 1, found
    return found[0] if found else None


def marked(page, cls: str) -> set[str]:
    return set(page.eval_on_selector_all(f"[data-hole].{cls}", "els => els.map(e => e.dataset.hole)"))


def open_tools(page) -> None:
    if not page.locator("#hint").is_visible():
        page.locator("summary", has_text="Analyse and export").click()


def test_coordinates_spell_the_notation_and_can_be_hidden(app):
    go(app, "#board=english&start=d4")
    labels = app.eval_on_selector_all("svg text.coord", "els => els.map(e => e.textContent)")
    assert labels == list("abcdefg") + [str(n) for n in range(1, 8)]
    # the letter under a column and the number beside a row name the hole where they meet
    box = app.evaluate("""() => {
      const c = (el) => { const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
      const text = (t) => [...document.querySelectorAll('text.coord')].find(e => e.textContent === t);
      return {hole: c(document.querySelector("[data-hole='e2'] .socket")), file: c(text('e')), rank: c(text('2'))};
    }""")
    assert abs(box["file"][0] - box["hole"][0]) < 2 and abs(box["rank"][1] - box["hole"][1]) < 2
    toggle = app.get_by_role("button", name="Coordinates")
    assert toggle.get_attribute("aria-pressed") == "true"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "false"
    assert app.locator("text.coord").first.is_hidden()
    go(app, "#board=triangle5&start=1")  # the choice holds for the next board
    assert app.locator("text.coord").first.is_hidden()
    toggle.click()
    numbers = app.eval_on_selector_all("svg text.coord", "els => els.map(e => e.textContent)")
    assert numbers == [str(n) for n in range(1, 16)] and app.locator("text.coord").first.is_visible()


def test_move_list_one_entry_per_move_click_and_arrow_keys(app):
    go(app, CHAIN_GAME)
    assert entries(app) == ["1. d2-d4", "2. d5-d3", "3. f4-d4-d2", "4. b4-d4", "5. c2-c4"]
    assert current_ply(app) == 5 and app.text_content("#count-jumps") == "6"
    app.click("[data-ply='3']")
    wait_state(app, 4)  # the chain is one move: showing it plays both of its jumps
    assert current_ply(app) == 3 and "moves=d2-d4,d5-d3,f4-d4-d2" in app.url
    assert status(app) == "Move 3 of 5: f4-d4-d2."
    assert entries(app)[3:] == ["4. b4-d4", "5. c2-c4"]  # the moves ahead stay in the list
    # the list has focus after the click: the arrow keys step through it
    app.keyboard.press("ArrowLeft")
    wait_state(app, 2)
    assert current_ply(app) == 2 and status(app) == "Move 2 of 5: d5-d3."
    app.keyboard.press("ArrowRight")
    app.keyboard.press("ArrowRight")
    wait_state(app, 5)
    assert current_ply(app) == 4
    app.keyboard.press("Home")
    wait_state(app, 0)
    assert current_ply(app) is None and "Start position" in status(app)
    app.keyboard.press("End")
    wait_state(app, 6)
    assert current_ply(app) == 5
    # playing a different move from an earlier position starts a new line
    app.click("[data-ply='1']")
    wait_state(app, 1)
    app.click("[data-hole='f3']")
    app.click("[data-hole='d3']")
    wait_state(app, 2)
    assert entries(app) == ["1. d2-d4", "2. f3-d3"] and current_ply(app) == 2
    assert app.errors == []


def test_restart_keeps_the_moves_as_redo(app):
    go(app, "#board=triangle5&start=1&moves=4-1,6-4")
    app.get_by_role("button", name="Restart").click()
    wait_state(app, 0)
    assert entries(app) == ["1. 4-1", "2. 6-4"] and current_ply(app) is None
    assert "Redo" in status(app)
    app.get_by_role("button", name="Redo").click()
    wait_state(app, 1)
    app.get_by_role("button", name="Redo").click()
    wait_state(app, 2)
    assert "moves=4-1,6-4" in app.url and current_ply(app) == 2


def test_solution_continues_the_game_and_the_status_names_the_move(app):
    go(app, "#board=triangle5&start=1&moves=4-1")
    app.get_by_role("button", name="Solve").click()
    app.wait_for_function("document.querySelectorAll('[data-ply]').length > 1 "
                          "&& !document.getElementById('solve').disabled")
    listed = entries(app)
    assert listed[0] == "1. 4-1" and current_ply(app) == 1
    solution = app.text_content("#solution-text").split()
    assert [e.split(" ", 1)[1] for e in listed[1:]] == solution
    classes = app.eval_on_selector_all("[data-ply]", "els => els.map(e => e.className)")
    assert "from-solution" not in classes[0] and all("from-solution" in c for c in classes[1:])
    app.get_by_role("button", name="Forward").click()
    wait_state(app, 2)
    assert status(app).startswith("Move 2 of ") and "of the solution" in status(app)
    ARTIFACTS.mkdir(exist_ok=True)
    app.screenshot(path=str(ARTIFACTS / "move-list-desktop.png"), full_page=True)
    last = len(listed)
    app.click(f"[data-ply='{last}']")
    app.wait_for_function("document.getElementById('count-pegs').textContent === '1'")
    assert current_ply(app) == last and "Solved" in status(app)
    assert app.locator("#playback").is_visible() and app.text_content("#pb-index") == app.text_content("#pb-total")
    # the solve line belongs to its game: another board clears it
    assert "nodes in" in app.text_content("#progress")
    app.select_option("#board-select", "triangle4")
    app.wait_for_function("location.hash.includes('triangle4')")
    assert app.text_content("#progress") == ""


def test_finishes_map_marks_every_hole_groups_reasons_and_plays_a_pick(app):
    go(app, "#board=english&start=d4&goal=d4")
    open_tools(app)
    app.get_by_role("button", name="Where can one peg finish?").click()
    app.wait_for_function("document.querySelectorAll('.finish-yes').length > 0", timeout=120_000)
    assert marked(app, "finish-yes") == {"d1", "a4", "d4", "g4", "d7"}
    assert len(marked(app, "finish-no")) == 28 and marked(app, "finish-unknown") == set()
    groups = app.eval_on_selector_all("#finish-reasons > li", "els => els.map(e => e.textContent)")
    assert len(groups) == 2  # one line for the five finishes, one for the 28 holes of the rule of three
    assert groups[1].startswith("Impossible c1, e1, c2") and "(28 holes): position class" in groups[1]
    assert "d7" in status(app) and "Pick one" in status(app)
    assert re.search(r"Finishes answered after [\d.]+ s", app.text_content("#progress"))
    ARTIFACTS.mkdir(exist_ok=True)
    app.screenshot(path=str(ARTIFACTS / "finishes-map-desktop.png"), full_page=True)
    # clicking an impossible hole says why; clicking a possible one plays its solution (at the playback's 4x
    # speed: 31 jumps take 5 s instead of 20 s at 1x)
    app.click("[data-hole='c1']")
    app.wait_for_function("document.getElementById('status').textContent.includes('No single peg can finish on c1')")
    assert "No single peg can finish on c1: position class" in status(app)
    set_speed(app, "4")
    try:
        app.click("[data-hole='d7']")
        app.wait_for_function("document.getElementById('count-pegs').textContent === '1'", timeout=60_000)
    finally:
        set_speed(app, "1")
    assert pegs(app) == {"d7"} and marked(app, "finish-yes") == set()
    assert "Solved" in status(app)


def test_finishes_search_shows_progress_and_cancels_like_solve(app):
    go(app, "#board=german&start=e5")
    open_tools(app)
    before = app.evaluate("window.pegLab.cancels.length")
    app.get_by_role("button", name="Where can one peg finish?").click()
    app.wait_for_function("document.getElementById('progress').textContent.includes('nodes')", timeout=30_000)
    assert re.search(r"Finishes: [\d,]+ nodes · [\d.]+ s", app.text_content("#progress"))
    cancel = app.get_by_role("button", name="Cancel")
    assert cancel.is_enabled()
    cancel.click()
    app.wait_for_function("n => window.pegLab.cancels.length > n", arg=before, timeout=10_000)
    assert app.evaluate("window.pegLab.cancels.at(-1)") < 1000  # answers with what it has, at once
    assert "Finishes cancelled" in app.text_content("#progress")
    assert "cancelled" in status(app) and marked(app, "finish-unknown")
    assert app.get_by_role("button", name="Solve").is_enabled()


def test_finish_marks_and_hint_rings_are_cleared_when_the_position_changes(app):
    go(app, "#board=triangle5&start=1&moves=4-1")
    open_tools(app)
    app.get_by_role("button", name="Where can one peg finish?").click()
    app.wait_for_function("document.querySelectorAll('.finish-yes').length > 0")
    yes = marked(app, "finish-yes")
    assert yes and len(yes | marked(app, "finish-no") | marked(app, "finish-unknown")) == 15
    app.get_by_role("button", name="Hide the map").click()
    assert marked(app, "finish-yes") == set() and app.locator("#finish-reasons").is_hidden()
    app.get_by_role("button", name="Hint").click()
    app.wait_for_function("document.querySelectorAll('.hole.hint').length > 0")
    app.get_by_role("button", name="Where can one peg finish?").click()
    app.wait_for_function("document.querySelectorAll('.finish-yes').length > 0")
    app.keyboard.press("u")  # the position changes (undo): the map and the hint rings go
    wait_state(app, 0)
    assert marked(app, "hint") == set() and marked(app, "finish-yes") == set() and marked(app, "finish-no") == set()
    assert app.locator("#finish-reasons").is_hidden()


def test_never_lose_flags_a_losing_move_with_why_and_offers_undo(app):
    go(app, TRIANGLE_LOSING)
    button = app.get_by_role("button", name="Never lose")
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    app.wait_for_function("document.getElementById('neverlose-note').textContent.includes('Losing jumps')")
    note = app.text_content("#neverlose-note")
    assert "the goal can still be reached" in note and all(j in note for j in ("4-6", "9-2", "13-6"))
    # before moving: select peg 4, its losing target is marked
    app.click("[data-hole='4']")
    assert marked(app, "loses-to") == {"6"} and "target" in app.get_attribute("[data-hole='6']", "class")
    ARTIFACTS.mkdir(exist_ok=True)
    app.screenshot(path=str(ARTIFACTS / "never-lose-desktop.png"), full_page=True)
    app.click("[data-hole='6']")
    wait_state(app, 4)
    app.wait_for_function("document.getElementById('status').textContent.includes('loses')")
    text = status(app)
    assert text.startswith("The move 4-6 loses: ") and "Undo" in text
    assert re.search(r"exact analysis|exhaustive search|pagoda|position class", text)
    undo = app.get_by_role("button", name="Undo that move")
    app.wait_for_function("!document.getElementById('neverlose-undo').hidden")
    undo.click()
    wait_state(app, 3)
    app.wait_for_function("document.getElementById('neverlose-note').textContent.includes('Losing jumps')")
    button.click()
    assert button.get_attribute("aria-pressed") == "false" and marked(app, "loses-from") == set()


def test_never_lose_says_unknown_when_hints_budget_runs_out(app):
    # 144 holes, centre vacant, one peg anywhere: no search here settles it within Hint's 10 s
    rows = ["o" * 12] * 5 + ["ooooo.oooooo"] + ["o" * 12] * 6
    go(app, "#board=square:" + "/".join(rows) + "&goal=any")
    button = app.get_by_role("button", name="Never lose")
    button.click()
    app.wait_for_function("document.getElementById('neverlose-note').textContent.includes('unknown')",
                          timeout=60_000)
    note = app.text_content("#neverlose-note")
    assert re.search(r"unknown — not decided within the 10 s budget \(budget spent after [\d,]+ nodes\)", note), note
    assert "Not decided in time: " in note
    # while the position stays shown, the check goes on once, on a longer budget, for what it left undecided
    assert "Checking what is undecided further (up to 30 s more)" in note
    assert app.get_attribute("#neverlose-note", "data-further") == "30"
    assert app.get_by_role("button", name="Solve").is_enabled()  # the check never locks the board
    # off, then on at once, while the engine gets the cancel late (as a busy worker under load does): the cancelled
    # further check answers after never-lose is on again, and that answer is not the new check's
    app.evaluate(DELAYED_CANCEL)
    button.click()  # off: the further check is cancelled, and nothing of it is shown when never-lose comes back on
    assert app.get_attribute("#neverlose-note", "data-further") is None
    button.click()
    app.wait_for_function("document.getElementById('neverlose-note').dataset.verdict === 'checking'")
    assert app.get_attribute("#neverlose-note", "data-further") is None
    app.wait_for_timeout(5000)  # the cancel arrived (3 s) and the cancelled check answered; the new one runs 10 s
    assert app.get_attribute("#neverlose-note", "data-verdict") == "checking", app.text_content("#neverlose-note")
    app.evaluate("window.restoreCancel()")
    app.wait_for_function("document.getElementById('neverlose-note').dataset.verdict === 'unknown'", timeout=60_000)
    button.click()


DELAYED_CANCEL = """() => {
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (msg, ...rest) {
    if (msg && msg.type === "cancel") return void setTimeout(() => post.call(this, msg, ...rest), 3000);
    return post.call(this, msg, ...rest);
  };
  window.restoreCancel = () => { Worker.prototype.postMessage = post; };
}"""
"""Every cancel reaches the workers 3 s late."""


def test_new_puzzle_is_in_the_address_and_the_link_opens_the_same_puzzle(app, chromium, server):
    go(app, "#board=english&start=d4")
    app.select_option("#puzzle-level", "medium")
    app.get_by_role("button", name="New puzzle").click()
    app.wait_for_function("location.hash.includes('puzzle=10')")
    assert len(pegs(app)) == 10 and re.search(r"#board=english&puzzle=10&seed=\d+&goal=[a-g][1-7]$", app.url)
    assert "Puzzle" in status(app) and "10 pegs" in status(app)
    link, shown = app.url, pegs(app)
    context = chromium.new_context()
    try:
        other = open_app(context, link)
        assert pegs(other) == shown and other.url == link and "Puzzle" in status(other)
    finally:
        context.close()
    # a puzzle is solvable: Solve finds the way to its goal
    app.get_by_role("button", name="Solve").click()
    app.wait_for_function("window.pegLab.solves.length && !document.getElementById('solve').disabled")
    assert app.evaluate("window.pegLab.solves.at(-1).status") == "solved"


def test_links_keep_the_legal_prefix_quote_bad_input_and_normalise_holes(chromium, server):
    context = chromium.new_context()
    try:
        page = open_app(context, server.url + "#board=english&start=D4&moves=f4-d4,e2-e4,f4-d4,c3-e3")
        assert page.text_content("#count-jumps") == "2"
        assert status(page) == ("Opened the shared game up to move 2: move 3 (“f4-d4”) was refused: "
                                "jump f4-d4 is illegal: no peg on f4.")
        assert "start=d4" in page.url and "moves=f4-d4,e2-e4" in page.url
        # reloading one's own game is not "the shared game"
        page.reload()
        page.wait_for_function("window.pegLab && window.pegLab.timings.firstBoard", timeout=90_000)
        assert "Opened the shared game" not in status(page)
        # a bad link: the message quotes it and the address bar keeps it, so it can be fixed there
        go(page, "#board=germn&start=e5")
        text = status(page)
        assert "did you mean 'german'?" in text and "“#board=germn&start=e5”" in text
        assert page.url.endswith("#board=germn&start=e5") and len(pegs(page)) == 32
        go(page, "#board=german&start=e5")
        assert len(pegs(page)) == 44 and status(page) == "Opened the shared game."
    finally:
        context.close()


def test_phone_screenshots_of_the_move_list_finishes_map_and_never_lose(chromium, server):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                   is_mobile=True, has_touch=True)
    try:
        page = open_app(context, server.url + CHAIN_GAME)
        ARTIFACTS.mkdir(exist_ok=True)
        page.tap("[data-ply='3']")
        wait_state(page, 4)
        for el in page.locator("[data-ply]").all():
            box = el.bounding_box()
            assert box["height"] >= 40, box  # a finger can hit every move
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.locator("#move-list").screenshot(path=str(ARTIFACTS / "move-list-phone-list.png"))
        page.screenshot(path=str(ARTIFACTS / "move-list-phone.png"), full_page=True)
        go(page, "#board=triangle5&start=1")
        page.locator("summary", has_text="Analyse and export").tap()
        page.get_by_role("button", name="Where can one peg finish?").tap()
        page.wait_for_function("document.querySelectorAll('.finish-yes').length > 0", timeout=60_000)
        page.screenshot(path=str(ARTIFACTS / "finishes-map-phone.png"), full_page=True)
        page.get_by_role("button", name="Hide the map").tap()
        go(page, TRIANGLE_LOSING)
        page.get_by_role("button", name="Never lose").tap()
        page.wait_for_function("document.getElementById('neverlose-note').textContent.includes('Losing jumps')")
        page.tap("[data-hole='4']")
        page.screenshot(path=str(ARTIFACTS / "never-lose-phone.png"), full_page=True)
        assert page.errors == []
    finally:
        context.close()


def test_a_target_goal_from_a_link_shows_in_the_goal_picker(app):
    """A link whose goal is an exact final position selects an option naming it (not an empty picker)."""
    target = "..o/.../......./......./......./.../..."
    go(app, "#board=english&start=d4&goal=target:" + target)
    app.wait_for_function("document.getElementById('goal-select').selectedOptions.length === 1 && "
                          "document.getElementById('goal-select').selectedOptions[0].value.startsWith('target:')")
    label = app.eval_on_selector("#goal-select", "s => s.selectedOptions[0].textContent")
    assert label == "To the target position (1 peg) (from the link)"
    app.set_viewport_size({"width": 390, "height": 844})  # on a phone the long option does not widen the page
    try:
        assert app.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        app.set_viewport_size({"width": 1280, "height": 900})
    app.select_option("#goal-select", "any")  # the other goals are still there to pick
    app.wait_for_function("location.hash.includes('goal=any')")
