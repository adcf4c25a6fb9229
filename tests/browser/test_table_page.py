"""The whole-board table in the page (issue 9): the board-shaped grid of starts computed in the
worker with progress and Cancel, a start's finishes on the board (a solved one replays), the
browser's copy used after a reload without computing again, and a broken or full storage ignored.

The 15-hole triangle's table is checked against pyapp's own answers (tests/test_webtable.py:
from the corner hole 1 one peg can finish on 1, 7, 10 and 13; from hole 4 on every hole its
position class allows).  Screenshots (desktop and a 390x844 phone) go to test-artifacts/.
"""

from __future__ import annotations

import pytest
from browser_support import ARTIFACTS, go, open_app, set_speed, wait_ready

pytestmark = pytest.mark.browser

PREFIX = "peg-lab-table:"
GRID_DONE = ("() => { const b = document.querySelectorAll('#table-grid [data-start]');"
             " return b.length > 0 && !document.querySelector('#table-grid .tv-pending')"
             " && [...b].every(x => !x.disabled); }")


def open_tools(page) -> None:
    if not page.evaluate("document.querySelector('#table-open').closest('details').open"):
        page.locator("summary", has_text="Analyse and export").click()


def open_table(page) -> None:
    open_tools(page)
    page.get_by_role("button", name="Whole-board table").click()
    page.wait_for_function("() => !document.getElementById('table-panel').hidden")


def verdicts(page) -> dict[str, str]:
    return page.eval_on_selector_all(
        "#table-grid [data-start]",
        "els => Object.fromEntries(els.map(e => [e.dataset.start,"
        " [...e.classList].find(c => c.startsWith('tv-') && c !== 'tv-start' && c !== 'tv-computed'"
        " && c !== 'tv-running')]))")


def marked(page, cls: str) -> set[str]:
    return set(page.eval_on_selector_all(f"[data-hole].{cls}", "els => els.map(e => e.dataset.hole)"))


def stored_keys(page) -> list[str]:
    return page.evaluate("p => Object.keys(localStorage).filter(k => k.startsWith(p))", PREFIX)


def test_grid_progress_finishes_and_a_solved_finish_replays(app):
    go(app, "#board=triangle5&start=1")
    open_table(app)
    assert "need a search" in app.text_content("#table-summary")
    assert app.evaluate("window.pegLab.tableRequests") == 0
    # every change of the progress, as the store saw it
    app.evaluate("""() => { window.tableDone = []; window.tableEarly = 0;
      window.pegLab.store.subscribe((s) => {
        if (!s.table.progress) return;
        window.tableDone.push(s.table.progress.done);
        // starts coloured before the end: the grid fills in class by class
        const coloured = document.querySelectorAll('#table-grid .tv-some, #table-grid .tv-all').length;
        window.tableEarly = Math.max(window.tableEarly, coloured);
      }); }""")
    app.get_by_role("button", name="Compute the table").click()
    app.wait_for_function(GRID_DONE, timeout=120_000)
    done = app.evaluate("window.tableDone")
    assert done == sorted(done) and len(set(done)) > 5 and max(done) == 60, done  # 4 starts x 15 finishes
    assert app.evaluate("window.tableEarly") >= 3  # the corners (class of 1) before the table's end
    assert app.evaluate("window.pegLab.tableRequests") == 1
    v = verdicts(app)
    assert len(v) == 15 and v["1"] == "tv-some" and v["4"] == "tv-all"
    assert set(v.values()) <= {"tv-all", "tv-some"}
    computed = app.eval_on_selector_all("#table-grid .tv-computed", "els => els.map(e => e.dataset.start)")
    assert sorted(computed, key=int) == ["1", "2", "4", "5"]
    assert "Computed: 14 solved, 46 impossible, 0 unknown" in app.text_content("#table-summary")
    # a start on the grid: its finishes on the board, the reasons grouped, a green one replays
    app.click("#table-grid [data-start='11']")  # a corner: mapped by symmetry from 1
    app.wait_for_function("() => document.querySelectorAll('[data-hole].finish-yes').length > 0")
    assert marked(app, "finish-yes") == {"2", "6", "11", "14"}
    assert len(marked(app, "finish-no")) == 11 and "mapped by symmetry from 1" in app.text_content("#status")
    assert app.get_attribute("#table-grid [data-start='11']", "aria-pressed") == "true"
    ARTIFACTS.mkdir(exist_ok=True)
    app.screenshot(path=str(ARTIFACTS / "table-desktop.png"), full_page=True)
    set_speed(app, "4")  # its 13 jumps played at 4x: 2 s instead of 8 s
    try:
        app.click("[data-hole='14']")
        app.wait_for_function("() => document.getElementById('count-pegs').textContent === '1'", timeout=60_000)
    finally:
        set_speed(app, "1")
    assert app.eval_on_selector_all("[data-hole].peg", "els => els.map(e => e.dataset.hole)") == ["14"]
    assert "Solved" in app.text_content("#status")
    assert app.errors == []


def test_keyboard_reaches_and_picks_a_start(app):
    go(app, "#board=triangle5&start=1")
    open_table(app)
    app.wait_for_function(GRID_DONE)  # the table of the test above, from this browser's copy
    app.focus("#table-grid [tabindex='0']")
    first = app.evaluate("document.activeElement.dataset.start")
    app.keyboard.press("ArrowDown")
    moved = app.evaluate("document.activeElement.dataset.start")
    assert moved != first and app.get_attribute(f"[data-start='{moved}']", "tabindex") == "0"
    app.keyboard.press("Enter")
    app.wait_for_function("s => document.getElementById('status').textContent.startsWith(`Start ${s} `)", arg=moved)


def test_the_browser_copy_is_used_after_a_reload(app):
    assert stored_keys(app)  # the triangle5 table of the first test
    app.reload()
    wait_ready(app)
    go(app, "#board=triangle5&start=1")
    open_table(app)
    app.wait_for_function(GRID_DONE)
    assert app.evaluate("window.pegLab.tableRequests") == 0  # shown without asking the engine
    assert app.text_content("#table-summary").startswith("From this browser's copy: 14 solved")
    assert verdicts(app)["4"] == "tv-all"
    app.click("#table-grid [data-start='4']")
    app.wait_for_function("() => document.querySelectorAll('[data-hole].finish-yes').length === 5")


def test_a_broken_or_full_storage_is_ignored(app):
    keys = stored_keys(app)
    assert keys
    app.evaluate("ks => ks.forEach(k => localStorage.setItem(k, '{\"starts\": broken'))", keys)
    app.reload()
    wait_ready(app)
    go(app, "#board=triangle5&start=1")
    open_table(app)
    assert "need a search" in app.text_content("#table-summary")
    assert app.locator("#table-grid .tv-pending").count() == 15 and stored_keys(app) == []
    # storage that refuses every write: the table is still shown, and says it is not kept
    app.evaluate("""() => { Storage.prototype.setItem = function () {
      throw new DOMException('full', 'QuotaExceededError'); }; }""")
    go(app, "#board=triangle4&start=1")
    open_table(app)
    app.get_by_role("button", name="Compute the table").click()
    app.wait_for_function(GRID_DONE, timeout=60_000)
    assert "could not keep it" in app.text_content("#table-note")
    assert app.errors == []


def test_cancel_stops_a_big_table_at_once_and_keeps_what_is_done(app):
    go(app, "#board=german&start=e5")
    open_table(app)
    assert "at most" in app.text_content("#table-summary")  # the estimate, before anything starts
    before = app.evaluate("window.pegLab.cancels.length")
    app.get_by_role("button", name="Compute the table").click()
    app.wait_for_function("() => /Problem [2-9]\\d* of 405/.test(document.getElementById('table-progress-text')"
                          ".textContent)", timeout=60_000)
    # the start being computed is marked: one in a single worker; on a device with cores to spare a board
    # this big runs on the page's pool, one start per worker (tests/browser/test_table_pool.py)
    # the grid and the progress are read together, polled until the grid has drawn the newest progress
    app.wait_for_function("""() => {
      const marked = document.querySelectorAll('#table-grid .tv-running').length;
      const running = (window.pegLab.store.state.table.progress.current || ['one']).length;
      return marked >= 1 && marked <= Math.max(running, 1);
    }""", timeout=10_000)
    app.locator("#table-cancel").click()
    app.wait_for_function("n => window.pegLab.cancels.length > n || /failed/.test(document.getElementById('status')"
                          ".textContent)", arg=before, timeout=10_000)
    assert "failed" not in app.text_content("#status"), app.text_content("#status")
    assert app.evaluate("window.pegLab.cancels.at(-1)") < 1000  # the worker answers within one slice
    app.wait_for_function("() => document.getElementById('table-summary').textContent.includes('cancelled')")
    assert app.locator("#table-grid .tv-pending").count() > 0
    assert "Whole-board table cancelled" in app.text_content("#status")
    assert app.get_by_role("button", name="Solve", exact=True).is_enabled()
    app.get_by_role("button", name="Close the table").click()  # the other modules' pages never open it


def test_phone_layout(chromium, server):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                   is_mobile=True, has_touch=True)
    try:
        page = open_app(context, server.url)
        go(page, "#board=triangle5&start=1")
        open_table(page)
        page.get_by_role("button", name="Compute the table").click()
        page.wait_for_function(GRID_DONE, timeout=120_000)
        page.tap("#table-grid [data-start='1']")
        page.wait_for_function("() => document.querySelectorAll('[data-hole].finish-yes').length > 0")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        for el in page.locator("#table-grid [data-start]").all():
            box = el.bounding_box()
            assert box["width"] >= 40 and box["height"] >= 40, box
        page.locator("#table-panel").scroll_into_view_if_needed()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "table-phone.png"), full_page=True)
        assert page.errors == []
    finally:
        context.close()
