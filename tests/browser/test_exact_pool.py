"""The exact count on the page's pool of Pyodide workers (``?workers=2``: two pool workers beside the
page's engine worker, whatever this machine's core count): the page's numbers are the command line's,
its level sizes are the sharded sweep's in CPython, it says how many workers ran, and one Cancel stops
every pool worker within 200 ms (measured in the page, ``data-cancel-ms``), after which a new count
starts the pool again and answers.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys

import pytest
from browser_support import ROOT, close_app, go, open_app, screenshot_both

pytestmark = pytest.mark.browser

DONE = "() => /jump sequences|no answer/.test(document.querySelector('#analysis').textContent)"


@pytest.fixture(scope="module")
def pooled(app_context, server):
    """The app with a pool of two workers."""
    page = open_app(app_context, server.url + "?workers=2")
    page.on("dialog", lambda dialog: dialog.accept())  # big boards ask before they start
    if not page.evaluate("document.querySelector('#count-all').closest('details').open"):
        page.locator("summary", has_text="Analyse and export").click()
    yield page
    close_app(page)


def _count(page, fragment: str) -> str:
    go(page, fragment)
    page.get_by_role("button", name="Count all solutions").click()
    page.wait_for_function(DONE, timeout=180_000)
    return page.text_content("#analysis") or ""


@functools.cache
def _cli_count(board: str) -> dict:
    """The command line's count, run once per board for the whole module (four tests compare with triangle 6's;
    they only read it)."""
    # one process: the page's pool shards each level of the same sweeps as the in-process count (for a goal of one
    # peg anywhere, the one sweep that carries both sides: pyapp.exact.count.joint)
    out = subprocess.run([sys.executable, "-m", "pyapp", "count", board, "--json", "--workers", "1"],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(out.stdout)


def _sharded_level_sizes(board: str, shards: int) -> list[list]:
    from pyapp.core.problem import default_problem
    from pyapp.exact.count import count_exact
    from pyapp.exact.pool import InProcess
    from pyapp.exact.sharded import Parallel

    par = Parallel(InProcess(), shards=shards)
    count_exact(default_problem(board), parallel=par)
    return [[st.stage, st.pegs, st.positions] for st in par.stats]


def test_count_on_two_pool_workers_is_the_command_lines(pooled):
    cli = _cli_count("triangle6")
    text = _count(pooled, "#board=triangle6")
    assert f"{cli['solutions']:,} jump sequences solve it (goal {cli['goal']})" in text
    assert f"{cli['positions']:,} positions up to symmetry, sweeps met at {cli['meet']} pegs" in text
    assert "on 2 workers" in text
    assert pooled.get_attribute("#analysis", "data-workers") == "2"
    r = pooled.evaluate("window.pegLab.exact")
    assert (r["solutions"], r["positions"], r["workers"]) == (cli["solutions"], cli["positions"], 2)
    assert r["level_sizes"] == _sharded_level_sizes("triangle6", 2)
    assert len(pooled.workers) == 3  # the page's engine and the two pool workers, kept for the next analysis
    assert not pooled.errors
    screenshot_both(pooled, "#analysis", "exact-count-pool")


def test_a_complement_count_on_two_pool_workers_is_the_command_lines(pooled):
    """The goal is the start's complement: the pool's steps sum the two middle levels (pyapp.exact.pairs)."""
    out = subprocess.run([sys.executable, "-m", "pyapp", "count", "triangle6", "--start", "5", "--goal", "5", "--json"],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    cli = json.loads(out.stdout)
    text = _count(pooled, "#board=triangle6&start=5&goal=5")
    assert f"{cli['solutions']:,} jump sequences solve it" in text and "on 2 workers" in text
    r = pooled.evaluate("window.pegLab.exact")
    assert (r["solutions"], r["positions"], r["workers"]) == (cli["solutions"], cli["positions"], 2)
    assert not pooled.errors


def test_fewest_moves_on_two_pool_workers_is_the_command_lines(pooled):
    out = subprocess.run([sys.executable, "-m", "pyapp", "fewest", "triangle5", "--json", "--workers", "1"],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    cli = json.loads(out.stdout)
    go(pooled, "#board=triangle5")
    pooled.get_by_role("button", name="Fewest moves").click()
    pooled.wait_for_function("() => /proven minimal|no answer/.test(document.querySelector('#analysis').textContent)",
                             timeout=180_000)
    text = pooled.text_content("#analysis") or ""
    assert text.startswith(f"{cli['moves']} moves ({cli['jumps']} jumps), proven minimal")
    # the page searches over the winnable set (kept for never-lose); the command line by the two sweeps, which
    # build none: the set's size comes from the winnable sweeps themselves
    from pyapp.core.problem import default_problem
    from pyapp.exact.fewest import fewest_exact

    assert cli["winnable"] is None
    over = fewest_exact(default_problem("triangle5"), method="levels")
    assert over.moves == cli["moves"]
    assert f"over all {over.winnable:,} positions" in text and "on 2 workers)" in text
    assert pooled.evaluate("window.pegLab.exact.workers") == 2


def test_one_cancel_stops_every_pool_worker_and_the_page_counts_again(pooled):
    go(pooled, "#board=english")
    pooled.get_by_role("button", name="Count all solutions").click()
    # wait until the pool is sweeping a level that keeps its workers busy for a while
    pooled.wait_for_function("() => /, (2[0-9]|1[0-9]) pegs:/.test(document.querySelector('#analysis').textContent)"
                             " && document.querySelector('#analysis').dataset.poolStatus === 'ready'",
                             timeout=180_000)
    assert len(pooled.workers) == 3
    pooled.get_by_role("button", name="Cancel").click()
    pooled.wait_for_function("() => document.querySelector('#analysis').textContent.includes('no answer')")
    analysis = pooled.locator("#analysis")
    stopped_ms = float(analysis.get_attribute("data-cancel-ms") or "inf")
    answered_ms = float(analysis.get_attribute("data-answer-ms") or "inf")
    assert stopped_ms < 200, f"the pool stopped {stopped_ms} ms after Cancel"
    assert answered_ms < 1000, f"the count answered {answered_ms} ms after Cancel"
    assert "cancelled" in (pooled.text_content("#analysis") or "")
    pooled.wait_for_function("() => window.pegLab.store.state.pool.status === 'off'")
    # the pool's workers were terminated (in the page, within data-cancel-ms); the browser reports each gone
    # worker to Playwright a little later: give that report a few seconds on a loaded machine
    waited = 0
    while len(pooled.workers) > 1 and waited < 5000:
        pooled.wait_for_timeout(20)
        waited += 20
    assert len(pooled.workers) == 1, f"{len(pooled.workers)} workers still reported {waited} ms after the pool stopped"
    assert not pooled.get_by_role("button", name="Count all solutions").is_disabled()
    # the page stays usable: the next count starts the pool again and answers
    cli = _cli_count("triangle6")
    text = _count(pooled, "#board=triangle6")
    assert f"{cli['solutions']:,} jump sequences solve it" in text and "on 2 workers" in text
    assert len(pooled.workers) == 3
    assert not pooled.errors


ONE_CORE = "Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 1 });"
# the page's own engine is the first worker; every later one (the pool's) fails to start
NO_MORE_WORKERS = """
const Real = window.Worker;
let made = 0;
window.Worker = class extends Real {
  constructor(url, options) {
    if (++made > 1) throw new Error("no more workers allowed here");
    super(url, options);
  }
};
"""


@pytest.mark.parametrize(("script", "query", "why"), [
    (ONE_CORE, "", "on 1 worker (this device reports one core)"),
    (NO_MORE_WORKERS, "?workers=2",
     "on 1 worker (the pool of 2 workers could not start: no more workers allowed here)"),
])
def test_one_worker_fallback_says_why(chromium, server, script, query, why):
    """Triangle 5's count: the one-worker reason does not depend on the board (one core, or a forced pool that cannot
    start), and its count takes a fraction of triangle 6's in one Pyodide worker."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(script)
    try:
        page = open_app(context, server.url + query)
        if not page.evaluate("document.querySelector('#count-all').closest('details').open"):
            page.locator("summary", has_text="Analyse and export").click()
        cli = _cli_count("triangle5")
        text = _count(page, "#board=triangle5")
        assert f"{cli['solutions']:,} jump sequences solve it" in text
        assert why in text
        assert page.get_attribute("#analysis", "data-workers") == "1"
        assert len(page.workers) == 1
    finally:
        context.close()
