"""HiGHS as WebAssembly in the page (static/engine/lp.mjs, pyapp/proofs/lp_backends.py Wasm): fetched only when a
proof first needs a linear programme, it proves a cell no other proof settles; with its file blocked the answer
still comes, saying why the programme could not run."""

from __future__ import annotations

import pytest
from browser_support import LOAD_TIMEOUT_MS

pytestmark = pytest.mark.browser

SEPARATION_CELL = "#board=diamond41&start=e1&goal=e9"
"""Settled only by pagoda separation (a linear programme): the level search does not finish in 10 s."""


def _open(chromium, server, *, block_highs: bool):
    context = chromium.new_context(service_workers="block")
    fetched: list[str] = []
    context.on("request", lambda request: fetched.append(request.url) if "/highs/" in request.url else None)
    if block_highs:
        context.route("**/highs/**", lambda route: route.abort())
    page = context.new_page()
    page.goto(server.url + SEPARATION_CELL)
    page.wait_for_function("() => window.pegLab && window.pegLab.timings.engineReady", timeout=LOAD_TIMEOUT_MS)
    return context, page, fetched


def _solve(page, seconds: str = "10") -> dict:
    before = page.evaluate("window.pegLab.solves.length")
    page.select_option("#budget", seconds)
    page.get_by_role("button", name="Solve").click()
    page.wait_for_function("n => window.pegLab.solves.length > n", arg=before, timeout=LOAD_TIMEOUT_MS)
    return page.evaluate("window.pegLab.solves[window.pegLab.solves.length - 1]")


def test_highs_loads_only_when_a_proof_needs_it_and_proves_the_cell(chromium, server):
    context, page, fetched = _open(chromium, server, block_highs=False)
    try:
        assert fetched == [], "the engine fetched HiGHS before any proof asked for it"
        solve = _solve(page)
        assert solve["status"] == "impossible", solve
        assert "pagoda separation" in solve["reason"] and "simplex iterations" in solve["reason"], solve
        assert any(url.endswith("/highs/highs.wasm") for url in fetched), fetched
    finally:
        context.close()


def test_with_the_highs_file_blocked_an_answer_still_comes(chromium, server):
    context, page, fetched = _open(chromium, server, block_highs=True)
    try:
        solve = _solve(page)
        assert fetched, "the engine never asked for HiGHS"
        assert solve["status"] == "unknown", solve
        assert "the HiGHS WebAssembly module could not be loaded" in solve["reason"], solve
        assert solve["wallSeconds"] < 40, solve
        # the proofs that need no programme still answer: the position class, then a solution found
        page.evaluate("f => { location.hash = f; }", "#board=french&start=d4&goal=d4")
        page.wait_for_function("() => document.querySelector('#solve') && !document.querySelector('#solve').disabled")
        french = _solve(page)
        assert french["status"] == "impossible" and "position class" in french["reason"], french
    finally:
        context.close()
