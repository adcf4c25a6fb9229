"""The whole-board table on the page's pool of Pyodide workers (``?workers=2``: two pool workers beside
the page's engine worker): its starts run side by side, the grid and counts are the table CPython's
``pyapp.web`` computes in one process, the answer says how many workers ran it, and one Cancel stops
every pool worker's request within 200 ms, keeping the cells already done (measured in the page: the
time from Cancel until the last pool worker answered, or was terminated for not answering in time).
"""

from __future__ import annotations

import json

import pytest
from browser_support import close_app, go, open_app, screenshot_both
from test_table_page import GRID_DONE, open_table, verdicts

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def pooled(app_context, server):
    page = open_app(app_context, server.url + "?workers=2")
    page.evaluate("() => localStorage.clear()")  # no stored table: compute each one
    yield page
    close_app(page)


def _cpython_table(board: str) -> dict:
    from pyapp.web import api as webapi

    job = webapi.start("table", json.dumps({"board": board, "problem_seconds": 25}))
    out = json.loads(job.step())
    while not out["done"]:
        out = json.loads(job.step())
    return out["result"]


def test_a_cancel_while_the_pool_starts_answers_at_once(pooled):
    """The first pooled analysis starts the pool (seconds); Cancel meanwhile does not wait for it."""
    go(pooled, "#board=asymmetric&start=d4")
    open_table(pooled)
    assert pooled.evaluate("window.pegLab.store.state.pool.status") == "off"
    pooled.click("#table-compute")
    pooled.wait_for_function("() => window.pegLab.store.state.pool.status === 'starting'")
    t0 = pooled.evaluate("performance.now()")
    pooled.click("#table-cancel")
    pooled.wait_for_function("() => !window.pegLab.store.state.task", timeout=30_000)
    waited = pooled.evaluate("performance.now()") - t0
    assert waited < 2000, f"the table answered {waited:.0f} ms after Cancel"
    result = pooled.evaluate("window.pegLab.store.state.table.result")
    assert result["cancelled"] and result["counts"]["solved"] == 0
    assert "not computed" in (pooled.text_content("#status") or "")
    # the pool went on starting, for the next analysis
    pooled.wait_for_function("() => window.pegLab.store.state.pool.status === 'ready'", timeout=120_000)
    assert not pooled.errors


def test_a_table_on_two_pool_workers_is_the_one_process_table(pooled):
    go(pooled, "#board=triangle6&start=1")
    open_table(pooled)
    pooled.evaluate("""() => { window.tableRunning = 0;
      window.pegLab.store.subscribe((s) => {
        const p = s.table.progress;
        if (p && p.current) window.tableRunning = Math.max(window.tableRunning, p.current.length);
      }); }""")
    pooled.get_by_role("button", name="Compute the table").click()
    pooled.wait_for_function(GRID_DONE, timeout=180_000)
    cpython = _cpython_table("triangle6")
    got = pooled.evaluate("window.pegLab.store.state.table.result")
    assert got["workers"] == 2 and not got["cancelled"]
    assert got["counts"] == cpython["counts"]
    assert {h: e["summary"] for h, e in got["starts"].items()} == \
        {h: e["summary"] for h, e in cpython["starts"].items()}
    assert pooled.evaluate("window.tableRunning") == 2  # two starts were computed at once
    assert len(pooled.workers) == 3  # the page's engine and the two pool workers, kept
    assert "on 2 workers" in (pooled.text_content("#status") or "")
    assert "on 2 workers" in (pooled.text_content("#table-summary") or "")
    assert set(verdicts(pooled).values()) == {"tv-all"}  # every finish its class allows, from every start
    assert not pooled.errors
    screenshot_both(pooled, "#table-panel", "table-pool")


def test_one_cancel_stops_every_pool_worker_and_keeps_what_is_done(pooled):
    go(pooled, "#board=asymmetric&start=d4")  # 39 holes: a table for the pool, every allowed cell solvable
    open_table(pooled)
    pooled.evaluate("() => window.pegLab.store.do('pool/set', { cancelMs: null })")
    pooled.get_by_role("button", name="Compute the table").click()
    # both workers busy, and at least one start finished (its cells are kept through the Cancel)
    pooled.wait_for_function("() => { const t = window.pegLab.store.state.table;"
                             " return t.progress && (t.progress.current || []).length === 2"
                             " && Object.keys(t.partial).length > 0; }", timeout=240_000)
    pooled.click("#table-cancel")
    pooled.wait_for_function("() => { const t = window.pegLab.store.state.table; return !!t.result; }",
                             timeout=30_000)
    cancel_ms = pooled.evaluate("window.pegLab.store.state.pool.cancelMs")
    assert cancel_ms is not None and cancel_ms < 200, f"the pool's requests answered {cancel_ms} ms after Cancel"
    result = pooled.evaluate("window.pegLab.store.state.table.result")
    assert result["cancelled"] and result["workers"] == 2 and result["counts"]["solved"] > 0
    assert "cancelled before the end" in (pooled.text_content("#table-summary") or "")
    assert "not computed" in (pooled.text_content("#status") or "")
    # the requests were stopped and answered with what they had done, the pool kept for the next
    # analysis; or one worker was too busy to answer in time, and the whole pool was terminated
    if pooled.evaluate("window.pegLab.store.state.pool.status") == "ready":
        assert len(pooled.workers) == 3
    else:
        assert pooled.evaluate("window.pegLab.store.state.pool.status") == "off"
    assert not pooled.get_by_role("button", name="Compute again").is_disabled()
    assert not pooled.errors
