"""HiGHS as WebAssembly in the page (static/engine/lp.mjs, pyapp/proofs/lp_backends.py Wasm): fetched only when a
proof first needs a linear programme, it proves a cell no other proof settles; with its file blocked the answer
still comes, saying why the programme could not run."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from browser_support import LOAD_TIMEOUT_MS

pytestmark = pytest.mark.browser

SEPARATION_CELL = "#board=diamond41&start=e1&goal=e9"
"""Settled only by pagoda separation (a linear programme): the level search does not finish in 10 s."""


@pytest.fixture(scope="module")
def lp_context(chromium):
    """One context for the module's pages, with no service worker (the engine's own requests, which the context's
    routes and request events see): the second page starts from the HTTP cache the first filled (a route disables
    that cache, so HiGHS is blocked only once the page is up)."""
    context = chromium.new_context(service_workers="block")
    yield context
    context.close()


@contextmanager
def _open(context, server, *, block_highs: bool):
    """A new page on :data:`SEPARATION_CELL` once its engine is ready, and the URLs under ``/highs/`` the context
    requested meanwhile and until the page closes; with ``block_highs`` every request for HiGHS fails from then on
    (none was made yet: asserted here, as the first test does)."""
    fetched: list[str] = []

    def seen(request) -> None:
        if "/highs/" in request.url:
            fetched.append(request.url)

    context.on("request", seen)
    page = context.new_page()
    try:
        page.goto(server.url + SEPARATION_CELL)
        page.wait_for_function("() => window.pegLab && window.pegLab.timings.engineReady", timeout=LOAD_TIMEOUT_MS)
        if block_highs:
            assert fetched == [], "the engine fetched HiGHS before any proof asked for it"
            context.route("**/highs/**", lambda route: route.abort())
        yield page, fetched
    finally:
        page.close()
        context.unroute_all()
        context.remove_listener("request", seen)


def _solve(page, seconds: str = "10") -> dict:
    before = page.evaluate("window.pegLab.solves.length")
    page.select_option("#budget", seconds)
    page.get_by_role("button", name="Solve").click()
    page.wait_for_function("n => window.pegLab.solves.length > n", arg=before, timeout=LOAD_TIMEOUT_MS)
    return page.evaluate("window.pegLab.solves[window.pegLab.solves.length - 1]")


def test_highs_loads_only_when_a_proof_needs_it_and_proves_the_cell(lp_context, server):
    with _open(lp_context, server, block_highs=False) as (page, fetched):
        assert fetched == [], "the engine fetched HiGHS before any proof asked for it"
        solve = _solve(page)
        assert solve["status"] == "impossible", solve
        assert "pagoda separation" in solve["reason"] and "simplex iterations" in solve["reason"], solve
        assert any(url.endswith("/highs/highs.wasm") for url in fetched), fetched


def test_with_the_highs_file_blocked_an_answer_still_comes(lp_context, server):
    with _open(lp_context, server, block_highs=True) as (page, fetched):
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
