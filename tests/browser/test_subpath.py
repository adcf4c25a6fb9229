"""The site deployed under a sub-path (``/peg/``) of a host that serves other things too, as the README's
"Publishing the site" section describes: it starts, plays a jump by clicks, solves, and after one visit
reloads and solves with the server stopped and the browser offline.  A second deploy of another build at a
sibling path (``/peg-beta/``) on the same origin keeps its own cache: neither deploy's service worker
deletes the other's files."""

from __future__ import annotations

import shutil

import pytest
from browser_support import LOAD_TIMEOUT_MS, Server, wait_ready, wait_state

import build

pytestmark = pytest.mark.browser


def _version(site) -> str:
    return (site / "sw.js").read_text().split('const VERSION = "')[1].split('"')[0]


def _solve(page) -> dict:
    before = page.evaluate("window.pegLab.solves.length")
    page.get_by_role("button", name="Solve").click()
    page.wait_for_function("n => window.pegLab.solves.length > n", arg=before, timeout=300_000)
    return page.evaluate("window.pegLab.solves.at(-1)")


def test_a_sub_path_deploy_plays_solves_and_works_offline(chromium, dist_dir, tmp_path):
    host = tmp_path / "host"
    shutil.copytree(dist_dir, host / "peg")
    shutil.copytree(dist_dir, host / "peg-beta")
    (host / "peg-beta" / "static" / "style.css").write_text(
        (host / "peg-beta" / "static" / "style.css").read_text() + "\n/* beta */\n")
    build.write_service_worker(host / "peg-beta")  # another build: its own version
    (host / "index.html").write_text("<!doctype html><title>another site</title>")
    server = Server(host, plain=False)  # build.py serve's handler: the CSP and security headers in force
    context = chromium.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        missing: list[str] = []
        page.on("response", lambda r: missing.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        page.goto(server.url + "peg/")
        wait_ready(page)
        page.wait_for_function("() => window.pegLab.offline === 'installed'", timeout=LOAD_TIMEOUT_MS)
        assert missing == [] and errors == []
        assert all(p.startswith("/peg/") for p in server.hits if p != "/favicon.ico"), server.hits
        scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)")
        assert scope == server.url + "peg/"

        page.locator("[data-hole='f4']").click()
        page.locator("[data-hole='d4']").click()
        wait_state(page, 1)
        assert "moves=f4-d4" in page.evaluate("location.hash")
        solved = _solve(page)
        assert solved["status"] == "solved" and solved["jumps"] == 30, solved

        beta = context.new_page()
        beta.goto(server.url + "peg-beta/")
        wait_ready(beta)
        beta.wait_for_function("() => window.pegLab.offline === 'installed'", timeout=LOAD_TIMEOUT_MS)
        names = sorted(page.evaluate("caches.keys()"))
        assert len(names) == 2, names  # each deploy keeps its own cache
        assert any(n.endswith(_version(host / "peg")) for n in names)
        assert any(n.endswith(_version(host / "peg-beta")) for n in names)
        beta.close()

        server.stop()
        context.set_offline(True)
        page.reload()
        wait_ready(page)
        assert page.evaluate("window.pegLab.offline") == "cached"
        assert page.evaluate("location.pathname") == "/peg/"
        solved = _solve(page)
        assert solved["status"] == "solved", solved
    finally:
        context.close()
        server.stop()
