""""Count all solutions" and "Fewest moves" in the page: exact answers from the worker, per-level
progress, the time estimate before a big board, and Cancel.

Small problems (the 15-hole triangle) answer at once and are checked against the figures the
depth-first count and the exhaustive oracle give (29,760 solutions and 10 moves from vacancy 1
to one peg), and never lose then answers from the winnable set; the English central game shows
its estimate, then its level-by-level progress, and is cancelled; triangle7 says its estimate.
"""

from __future__ import annotations

import pytest
from browser_support import ARTIFACTS, go

pytestmark = pytest.mark.browser


def _open_analyses(page) -> None:
    if not page.evaluate("document.querySelector('#count-all').closest('details').open"):
        page.locator("summary", has_text="Analyse and export").click()


def _analysis(page) -> str:
    return page.text_content("#analysis") or ""


def test_count_and_fewest_on_a_small_board(app):
    go(app, "#board=triangle5&start=1&goal=any")
    _open_analyses(app)
    app.get_by_role("button", name="Count all solutions").click()
    app.wait_for_function("() => document.querySelector('#analysis').textContent.includes('jump sequences')")
    assert "29,760 jump sequences solve it" in _analysis(app)
    app.get_by_role("button", name="Fewest moves").click()
    app.wait_for_function("() => document.querySelector('#analysis').textContent.includes('proven minimal')")
    assert _analysis(app).startswith("10 moves (13 jumps), proven minimal")
    assert app.is_visible("#playback")
    app.screenshot(path=str(ARTIFACTS / "exact-fewest-triangle5.png"), full_page=True)
    # reuse for play: never lose now answers from the winnable set Fewest moves computed, with no search
    never_lose = app.get_by_role("button", name="Never lose")
    never_lose.click()
    app.wait_for_function("() => document.getElementById('neverlose-note').textContent.includes('winnable set')")
    assert "the goal can still be reached" in (app.text_content("#neverlose-note") or "")
    never_lose.click()


def _answer_dialogs(app, button: str, until: str, accept: bool) -> tuple[list[str], str]:
    """Click ``button``, accept or dismiss the estimate's confirm dialog, wait until the analysis text
    contains ``until``; the dialogs' messages and that text (as it was then: progress lines change fast).
    The wait is long: a big board starts the page's pool of workers first, slow on a loaded machine."""
    dialogs: list[str] = []

    def answer(dialog) -> None:
        dialogs.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    app.on("dialog", answer)
    try:
        app.get_by_role("button", name=button).click()
        seen = app.wait_for_function("t => { const s = document.querySelector('#analysis').textContent; "
                                     "return s.includes(t) ? s : false; }", arg=until, timeout=120_000)
        return dialogs, seen.json_value()
    finally:
        app.remove_listener("dialog", answer)
    return dialogs


def test_estimate_names_time_memory_and_the_pages_ceiling(app):
    go(app, "#board=triangle7&start=4&goal=any")
    _open_analyses(app)
    dialogs, _ = _answer_dialogs(app, "Fewest moves", "not started", accept=False)
    text = _analysis(app)
    assert dialogs and "MB here" in dialogs[0] and "positions up to symmetry on 28 holes" in text
    assert "ceiling" not in text  # the count holds about 0.4-0.5 GB: under the page's 900 MB
    go(app, "#board=triangle8&start=1&goal=any")
    _answer_dialogs(app, "Count all solutions", "ceiling", accept=False)
    assert "900 MB memory ceiling" in _analysis(app)
    app.screenshot(path=str(ARTIFACTS / "exact-estimate-triangle8.png"), full_page=True)


def test_big_board_says_its_estimate_shows_levels_and_cancels(app):
    go(app, "#board=english")
    _open_analyses(app)
    # on a pool of workers the first line (before any level is done) holds no memory yet: wait for one that does
    dialogs, line = _answer_dialogs(app, "Count all solutions", "MB ·", accept=True)
    assert dialogs and "estimate" in dialogs[0] and "Start?" in dialogs[0]
    assert "pegs:" in line and "positions" in line and "MB" in line
    app.screenshot(path=str(ARTIFACTS / "exact-count-english-progress.png"), full_page=True)
    app.get_by_role("button", name="Cancel").click()
    app.wait_for_function("() => document.querySelector('#analysis').textContent.includes('no answer')")
    assert "cancelled" in _analysis(app)
    assert not app.get_by_role("button", name="Count all solutions").is_disabled()


# Twelve separate 4-hole rows "oo.o", each solved by two jumps to one peg: a count far above 2**53
# (24! / 2**12 = 151,476,660,579,404,160,000 interleavings) from only ~300,000 positions, so it
# answers in about a second; every digit the page shows must be the command line's.
INDEPENDENT_ROWS = "/".join(["oo.o oo.o oo.o", " " * 14] * 3 + ["oo.o oo.o oo.o"])
ONE_PEG_EACH = "/".join([".o.. .o.. .o..", " " * 14] * 3 + [".o.. .o.. .o.."])


def test_a_count_above_2_to_the_53_shows_every_digit(app):
    import json
    import math
    import subprocess
    import sys
    from urllib.parse import quote

    from browser_support import ROOT

    cli = subprocess.run([sys.executable, "-m", "pyapp", "count", f"square:{INDEPENDENT_ROWS}", "--target",
                          ONE_PEG_EACH, "--json"], capture_output=True, text=True, cwd=ROOT, check=True)
    expected = json.loads(cli.stdout)["solutions"]
    assert expected > 2**53 and expected == math.factorial(24) // 2**12
    go(app, f"#board={quote('square:' + INDEPENDENT_ROWS)}&goal={quote('target:' + ONE_PEG_EACH)}")
    _open_analyses(app)
    # in the engine worker alone (a second): a 48-hole board would start the page's pool of workers, whose start-up
    # (two more runtimes) is what the pool tests measure, not this one
    size = app.evaluate("window.pegLab.store.state.pool.size")
    app.evaluate("window.pegLab.store.do('pool/set', { size: 1 })")
    try:
        _answer_dialogs(app, "Count all solutions", "jump sequences", accept=True)  # a 48-hole board asks first
        assert f"{expected:,} jump sequences solve it" in _analysis(app)
    finally:
        app.evaluate("n => window.pegLab.store.do('pool/set', { size: n })", size)
    app.screenshot(path=str(ARTIFACTS / "exact-count-above-2-53.png"), full_page=True)
