"""Hint and "Where can one peg finish?" can be cancelled in the page, and the engine answers at once after.

Both run in the worker as step generators under a budget (pyapp.core.budget): Cancel cancels the budget,
the analysis answers with what it has settled, and the same Python engine answers the next request.
The board is a 12x12 square with the centre vacant and the goal 'one peg anywhere': every search
there runs for its whole share of the budget, so both analyses run for seconds.
"""

from __future__ import annotations

import pytest
from browser_support import go

pytestmark = pytest.mark.browser

_ROWS12 = ["o" * 12] * 5 + ["ooooo.oooooo"] + ["o" * 12] * 6
BIG = "#board=square:" + "/".join(_ROWS12) + "&goal=any"
CANCEL_MS = 200
"""From the Cancel click to the engine's answer (the analysis's partial result)."""
NEXT_MS = 1000
"""From asking for the next game to the page showing it (engine answer plus page rendering; loose,
so a loaded machine cannot fail it: it shows the same engine is free, not how fast the page renders)."""


def _open_analyses(page) -> None:
    summary = page.locator("summary", has_text="Analyse and export")
    if not page.evaluate("document.querySelector('#hint').closest('details').open"):
        summary.click()


@pytest.mark.parametrize("button", ["Hint", "Where can one peg finish?"])
def test_cancel_answers_within_200_ms_and_the_engine_answers_again(app, button):
    go(app, BIG)
    _open_analyses(app)
    ready = app.evaluate("window.pegLab.timings.engineReady")
    cancels = app.evaluate("window.pegLab.cancels.length")
    app.get_by_role("button", name=button, exact=True).click()
    app.wait_for_timeout(1000)
    cancel = app.get_by_role("button", name="Cancel")
    assert not cancel.is_disabled(), f"{button} was no longer running after a second: the test is vacuous"
    cancel.click()
    app.wait_for_function("n => window.pegLab.cancels.length > n", arg=cancels)
    cancel_ms = app.evaluate("window.pegLab.cancels.at(-1)")
    assert "cancelled" in app.text_content("#status")
    # the same engine (no restart) answers the next request at once
    t0 = app.evaluate("performance.now()")
    go(app, "#board=english&start=d4&moves=f4-d4")
    answer_ms = app.evaluate("performance.now()") - t0
    assert app.evaluate("window.pegLab.timings.engineReady") == ready
    assert app.text_content("#count-jumps") == "1"
    print(f"{button}: cancel answered in {cancel_ms:.0f} ms, next request in {answer_ms:.0f} ms")
    assert cancel_ms < CANCEL_MS, f"{button}: cancel took {cancel_ms:.0f} ms"
    assert answer_ms < NEXT_MS, f"{button}: the next game took {answer_ms:.0f} ms to show after the cancel"
