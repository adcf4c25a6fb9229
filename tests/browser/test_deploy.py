"""Deploys that go wrong: a half-updated deploy must not block the good deploy after it (the service
worker's install fetches bypass the HTTP cache), and a missing runtime file is named in the message."""

from __future__ import annotations

import os
import shutil
import time

import pytest
from browser_support import Server, wait_ready

pytestmark = pytest.mark.browser

INSTALL_OUTCOME = """async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    await reg.update();
    const w = reg.installing || reg.waiting;
    if (!w) return "no update";
    if (w.state === "installed" || w.state === "redundant" || w.state === "activated") return w.state;
    return await new Promise((resolve) => w.addEventListener("statechange", () => {
        if (w.state === "installed" || w.state === "redundant" || w.state === "activated") resolve(w.state);
    }));
}"""


def _version(site) -> str:
    return (site / "sw.js").read_text().split('const VERSION = "')[1].split('"')[0]


def test_a_good_deploy_replaces_a_failed_half_deploy(chromium, dist_dir, tmp_path):
    """The issue's sequence: visit v1; deploy a half-updated v2 (one file edited by hand), whose install
    fails, correctly; deploy v2 properly (that file with its build's bytes and an older modification
    time, as a build that keeps source times writes it): the update must install."""
    import build

    site = tmp_path / "site"
    shutil.copytree(dist_dir, site)
    server = Server(site)
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(server.url)
        wait_ready(page)
        v1 = _version(site)
        assert page.evaluate("caches.keys()") == [f"peg-lab-{v1}"]

        css = site / "static" / "style.css"
        good = css.read_text() + "\n/* v2 */\n"
        css.write_text(good)
        build.write_service_worker(site)  # v2's sw.js lists the hash of the good file
        v2 = _version(site)
        # half deploy: the file on the server is a hand-edited copy, newer than the good one will be
        css.write_text(good + "/* edited by hand */\n")
        now = time.time()
        os.utime(css, (now, now))
        assert page.evaluate(INSTALL_OUTCOME) == "redundant"  # the hash check refuses it, correctly
        assert page.evaluate("caches.keys()") == [f"peg-lab-{v1}"]

        # good deploy: the right bytes, with the (older) modification time the build gives them
        css.write_text(good)
        os.utime(css, (now - 3600, now - 3600))
        assert page.evaluate(INSTALL_OUTCOME) in ("installed", "activated")
        cached = page.evaluate("v => caches.open(v).then(c => c.match('static/style.css')).then(r => r.text())",
                               f"peg-lab-{v2}")
        assert cached == good
    finally:
        context.close()
        server.stop()


@pytest.mark.parametrize("missing", ["pyodide/python_stdlib.zip", "pyodide/pyodide-lock.json",
                                     "pyodide/pyodide.asm.wasm", "pyodide/pyodide.mjs", "pyapp.zip"])
def test_a_missing_runtime_file_is_named(chromium, dist_dir, tmp_path, missing):
    site = tmp_path / "broken"
    shutil.copytree(dist_dir, site)
    (site / missing).unlink()
    if missing == "pyodide/python_stdlib.zip":
        # Python restored from the build's memory snapshot needs no standard library zip at start:
        # without the snapshot it does (the "Program terminated with exit(1)")
        (site / "snapshot.json").unlink(missing_ok=True)
    server = Server(site)
    context = chromium.new_context(service_workers="block")  # the engine's own fetches, as on a plain host
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(server.url)
        page.wait_for_function("document.getElementById('status').classList.contains('error')", timeout=120_000)
        status = page.get_by_role("status").text_content()
        assert "The Python engine could not start" in status and missing in status, status
        assert errors == []
    finally:
        context.close()
        server.stop()


def test_a_damaged_lock_file_is_named(chromium, dist_dir, tmp_path):
    site = tmp_path / "damaged"
    shutil.copytree(dist_dir, site)
    (site / "pyodide" / "pyodide-lock.json").write_text("<html>not found</html>")
    server = Server(site)
    context = chromium.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_function("document.getElementById('status').classList.contains('error')", timeout=120_000)
        status = page.get_by_role("status").text_content()
        assert "pyodide/pyodide-lock.json is damaged" in status, status
    finally:
        context.close()
        server.stop()
