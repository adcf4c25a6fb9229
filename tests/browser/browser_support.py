"""Helpers for the browser tests: one built site, a static server on a free port, and
Chromium through Playwright (the Debian ``/usr/bin/chromium``, or Playwright's own browser
where one is installed).  Without any browser the tests skip, unless ``PEG_REQUIRE_BROWSER=1``
(CI), where they fail.

The app is served by Python's plain ``SimpleHTTPRequestHandler`` (no special headers), so a
pass here means ``dist/`` works from a plain static server.
"""

from __future__ import annotations

import functools
import http.server
import os
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LOAD_TIMEOUT_MS = 90_000


class CountingHandler(http.server.SimpleHTTPRequestHandler):
    """Python's plain static file handler (no extra headers: the tests prove that ``dist/`` works
    from any plain static server), recording every request path (to prove what was downloaded)."""

    def log_request(self, code="-", size="-") -> None:
        self.server.hits.append(self.path.split("?")[0])  # type: ignore[attr-defined]


class Server:
    """A static server for ``dist`` on 127.0.0.1 (free port), in a thread; stoppable.
    ``hits`` lists the paths it served."""

    def __init__(self, directory: Path, *, plain: bool = True) -> None:
        self.httpd = build.make_server(directory, 0, verbose=False)
        if plain:  # else build.py serve's own handler, security headers included
            self.httpd.RequestHandlerClass = functools.partial(CountingHandler, directory=str(directory))
        self.httpd.hits = []  # type: ignore[attr-defined]
        self.hits: list[str] = self.httpd.hits  # type: ignore[attr-defined]
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.running = True

    def stop(self) -> None:
        if self.running:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.running = False


class CspAwareBrowser:
    """The browser, whose contexts bypass the page's Content-Security-Policy unless asked not to
    (``bypass_csp=False``): Playwright evaluates expression strings (``wait_for_function("...")``) with
    ``eval``, which the app's CSP refuses.  ``test_csp.py`` runs the app with the policy in force."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, **options):
        options.setdefault("bypass_csp", True)
        return self._browser.new_context(**options)

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


def no_browser(reason: str):
    if os.environ.get("PEG_REQUIRE_BROWSER") == "1":
        pytest.fail(f"no browser for the browser tests (PEG_REQUIRE_BROWSER=1): {reason}")
    pytest.skip(f"no browser available: {reason}")


def open_app(context, url: str):
    """A new page on ``url``, waiting until the live board is shown (Pyodide loaded)."""
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    page.goto(url)
    wait_ready(page)
    return page


FORGET = """async () => {
  localStorage.clear();
  sessionStorage.clear();
  for (const name of await caches.keys()) if (!name.startsWith("peg-lab-")) await caches.delete(name);
}"""
"""What a page of the app keeps in the browser besides the service worker's offline copy (``peg-lab-VERSION``):
the settings and the stage times in localStorage, the whole-board tables there too, and the sets fetched on first
use (``peg-sets``)."""


def close_app(page) -> None:
    """Close a page opened in the session's shared context (``app_context`` in conftest.py), forgetting what it
    stored (:data:`FORGET`) so the next module's page starts as a returning visitor's with nothing kept."""
    try:
        page.evaluate(FORGET)
    finally:
        page.close()


def wait_ready(page) -> None:
    # a function, not an expression string: Playwright evaluates strings with eval, which the CSP refuses
    page.wait_for_function("() => window.pegLab && window.pegLab.timings.firstBoard", timeout=LOAD_TIMEOUT_MS)


def wait_state(page, jumps: int) -> None:
    """Wait until the jump counter shows ``jumps``."""
    page.wait_for_function("n => document.getElementById('count-jumps').textContent === n", arg=str(jumps))


def wait_verdict(page, value: str, pegs: int, timeout: float = 60_000) -> dict:
    """Wait until the never-lose note shows ``value`` (win, lose, unknown) for the position of ``pegs`` pegs;
    returns the note's data attributes."""
    page.wait_for_function("([v, n]) => { const d = document.getElementById('neverlose-note').dataset;"
                           " return d.verdict === v && d.pegs === String(n); }", arg=[value, pegs], timeout=timeout)
    return page.eval_on_selector("#neverlose-note", "el => ({...el.dataset})")


def set_speed(page, value: str) -> None:
    """The playback's speed (the panel's select, 0.5, 1, 2 or 4), set while the panel may be hidden (a finish picked
    on the board plays its solution at this speed): as choosing it in the select does."""
    page.eval_on_selector("#pb-speed", "(el, v) => { el.value = v; el.dispatchEvent(new Event('change')); }", value)
    assert page.input_value("#pb-speed") == value


def go(page, fragment: str) -> None:
    """Open a game in the already-loaded page (no reload: the app reads the fragment on hashchange)."""
    if page.evaluate("location.hash") == fragment:  # the same fragment fires no hashchange
        go(page, "#board=triangle4")
    before = page.evaluate("window.pegLab.states")
    page.evaluate("f => { location.hash = f; }", fragment)
    page.wait_for_function("n => window.pegLab.states > n", arg=before)


def screenshot_both(page, selector: str, name: str) -> None:
    """Screenshots of ``selector`` at the page's desktop size (1280x900) and on a 390x844 phone, as
    ``test-artifacts/NAME-desktop.png`` and ``NAME-phone.png``; the page is left at the desktop size."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(selector).screenshot(path=str(ARTIFACTS / f"{name}-desktop.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator(selector).screenshot(path=str(ARTIFACTS / f"{name}-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
