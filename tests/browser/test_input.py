"""Input is never dropped: quick key presses, clicks and button presses are all applied, in order,
while earlier ones still animate or wait (the store's queue); and a Solve pressed while Python
is still starting waits for it and then runs."""

from __future__ import annotations

import pytest
from browser_support import go, wait_state

pytestmark = pytest.mark.browser


def pegs(page) -> set[str]:
    return set(page.eval_on_selector_all("[data-hole].peg", "els => els.map(e => e.dataset.hole)"))


def centre(page, hole: str) -> tuple[float, float]:
    box = page.locator(f"[data-hole='{hole}']").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def settle(page, jumps: int) -> None:
    """Wait for `jumps` on the counter and for the input queue to be empty, then check it stayed."""
    wait_state(page, jumps)
    page.wait_for_function("window.pegLab.store.state.queue.pending === 0")
    assert page.text_content("#count-jumps") == str(jumps)


def test_three_quick_u_presses_undo_three_jumps(app):
    go(app, "#board=english&start=d4&goal=d4&moves=f4-d4,e6-e4,c5-e5,c3-c5")
    assert app.text_content("#count-jumps") == "4"
    app.evaluate("document.activeElement?.blur()")
    t0 = app.evaluate("performance.now()")
    for _ in range(3):
        app.keyboard.press("u")
    pressed_ms = app.evaluate("performance.now()") - t0
    settle(app, 1)
    assert "moves=f4-d4&" in app.url + "&" and app.text_content("#count-pegs") == "31"
    print(f"\nthree presses in {pressed_ms:.0f} ms (one undo animates for 180 ms)")


def test_four_quick_clicks_play_two_jumps_and_a_quick_double_undo_undoes_two(app):
    go(app, "#board=english&start=d4&goal=d4")
    points = [centre(app, h) for h in ("d2", "d4", "f3", "d3")]
    t0 = app.evaluate("performance.now()")
    for x, y in points:
        app.mouse.click(x, y)
    clicked_ms = app.evaluate("performance.now()") - t0
    settle(app, 2)
    assert "moves=d2-d4,f3-d3" in app.url
    assert {"d2", "f3", "e3"}.isdisjoint(pegs(app)) and {"d4", "d3"} <= pegs(app)
    undo = app.get_by_role("button", name="Undo")
    box = undo.bounding_box()
    for _ in range(2):
        app.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    settle(app, 0)
    assert len(pegs(app)) == 32 and "d4" not in pegs(app)
    print(f"\nfour clicks in {clicked_ms:.0f} ms (one jump animates for 260 ms)")


def test_solve_pressed_while_python_starts_runs_when_it_is_ready(chromium, server):
    context = chromium.new_context(service_workers="block")
    held = []
    try:
        page = context.new_page()
        page.route("**/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
        page.goto(server.url + "#board=triangle5&start=1")
        page.wait_for_function("window.pegLab.timings.firstPlayable", timeout=10_000)
        page.get_by_role("button", name="Solve").click()
        page.wait_for_function("document.getElementById('progress').textContent.includes('Engine starting')")
        assert page.get_by_role("button", name="Cancel").is_enabled()
        page.wait_for_function("document.getElementById('loading-text').textContent.length > 0")
        for _ in range(100):
            if held:
                break
            page.wait_for_timeout(100)
        assert held, "the engine never asked for its WebAssembly"
        held[0].continue_()
        page.wait_for_function("window.pegLab.solves.length > 0", timeout=120_000)
        solve = page.evaluate("window.pegLab.solves[0]")
        assert solve["status"] == "solved" and solve["jumps"] == 13, solve
        assert "Solved" in page.text_content("#status")
        assert page.locator("#playback").is_visible()
    finally:
        context.close()
