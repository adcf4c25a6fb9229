"""Fixtures for the browser tests (helpers and the server live in ``browser_support``).

One built site per session, a static server on a free port, one Chromium per session, and
one loaded app page per test module.  Without a browser the tests skip, unless
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


@pytest.fixture(scope="module")
def app(chromium, server):
    """One loaded app page shared by a module's tests (one Pyodide start-up)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = open_app(context, server.url)
    yield page
    context.close()
