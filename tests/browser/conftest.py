"""Fixtures for the browser tests (helpers and the server live in ``browser_support``).

One built site per session, a static server on a free port, one Chromium per session, and
one loaded app page per test module (in one browser context per session).  Without a browser the tests skip, unless
``PEG_REQUIRE_BROWSER=1`` (CI), where they fail.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    CspAwareBrowser,
    Server,
    close_app,
    no_browser,
    open_app,
)


@pytest.fixture(scope="session")
def dist_dir(built_site) -> Path:
    """The site, built once per test run (``tests/conftest.py``); tests that edit files copy it first."""
    return built_site


@pytest.fixture(scope="session")
def server(dist_dir) -> Iterator[Server]:
    srv = Server(dist_dir)
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def chromium():
    """A Chromium browser for the session."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as err:
        no_browser(f"playwright is not installed ({err})")
    manager = sync_playwright().start()
    browser = None
    errors = []
    if Path(CHROMIUM).exists():
        try:
            browser = manager.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        except Exception as err:  # noqa: BLE001 - any launch failure means: try the next browser
            errors.append(f"{CHROMIUM}: {err}")
    if browser is None:
        try:
            browser = manager.chromium.launch(args=CHROMIUM_ARGS)
        except Exception as err:  # noqa: BLE001
            errors.append(f"Playwright's chromium: {err}")
    if browser is None:
        manager.stop()
        no_browser("; ".join(errors) or "no Chromium found")
    yield CspAwareBrowser(browser)
    browser.close()
    manager.stop()


@pytest.fixture(scope="session")
def app_context(chromium, server):
    """The browser context of every module's :func:`app` page and of the pool tests' pages (per test process): the
    service worker installed and its offline copy saved by the first page, so each later page starts as a returning
    visitor's does (about 1.8 s and 2.2 CPU seconds instead of 3.5 s and 4.7). What else a page stored is forgotten
    when it closes (:func:`browser_support.close_app`); the tests of a first visit, the offline copy, stored sets
    and tables open their own contexts."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    yield context
    context.close()


@pytest.fixture(scope="module")
def app(app_context, server):
    """One loaded app page shared by a module's tests (one Pyodide start-up), in the session's :func:`app_context`;
    closed with what it stored forgotten."""
    page = open_app(app_context, server.url)
    yield page
    close_app(page)
