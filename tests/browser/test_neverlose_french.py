"""Never lose on the French board (no shipped set: the page's search decides): a game played with it on
gets a verdict (data-verdict) for every position, and a jump the engine proves losing is marked
`loses-to` on the board once its peg is selected.

The line is a seeded random line of good jumps; after it, d2-b2 loses (the command line proves it with a
pagoda function: `python -m pyapp hint french --position ...` lists it under bad)."""

from __future__ import annotations

import pytest
from browser_support import ARTIFACTS, go, screenshot_both, wait_state

pytestmark = pytest.mark.browser

LINE = ["b2-d2", "c4-c2", "a3-c3", "a5-a3", "c5-a5"]


def _verdict(page, pegs: int) -> str:
    page.wait_for_function("n => { const d = document.getElementById('neverlose-note').dataset;"
                           " return d.pegs === String(n) && ['win', 'lose', 'unknown'].includes(d.verdict); }",
                           arg=pegs, timeout=180_000)
    return page.eval_on_selector("#neverlose-note", "el => el.dataset.verdict")


def test_a_french_game_gets_a_verdict_for_every_position_and_the_losing_jump_marked(app):
    go(app, "#board=french")
    button = app.get_by_role("button", name="Never lose")
    button.click()
    verdicts = [_verdict(app, 36)]
    for played, move in enumerate(LINE, 1):
        a, c = move.split("-")
        app.click(f"[data-hole='{a}']")
        app.click(f"[data-hole='{c}']")
        wait_state(app, played)
        verdicts.append(_verdict(app, 36 - played))
    assert verdicts[0] == "win" and "lose" not in verdicts, verdicts  # a line of good jumps never loses
    # the per-jump detail of the last position: d2-b2 proved losing, marked on the board
    app.click("[data-hole='d2']")
    app.wait_for_selector("[data-hole='b2'].loses-to", timeout=180_000)
    note = app.text_content("#neverlose-note") or ""
    assert "d2-b2 (pagoda function)" in note, note  # the note names what proved it
    ARTIFACTS.mkdir(exist_ok=True)
    screenshot_both(app, "body", "never-lose-french")
    app.set_viewport_size({"width": 1280, "height": 900})
    app.click("[data-hole='d2']")
    button.click()
