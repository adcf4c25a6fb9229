"""The build's Pyodide memory snapshot (scripts/make_snapshot.mjs, restored by static/engine/worker.mjs):
the app starts from it, and boots Python the usual way when it is corrupt or cannot be restored."""

from __future__ import annotations

import gzip
import hashlib
import json
import os

import pytest
from browser_support import LOAD_TIMEOUT_MS, ROOT

pytestmark = pytest.mark.browser


def test_the_app_starts_from_the_snapshot(app, dist_dir):
    meta = json.loads((dist_dir / "snapshot.json").read_text())
    assert meta["pyodide"] == json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    assert meta["sha256"] == hashlib.sha256((dist_dir / "snapshot.bin").read_bytes()).hexdigest()
    assert app.evaluate("window.pegLab.snapshot") == "restored"
    assert set(app.evaluate("Object.keys(window.pegLab.stages)")) >= {"snapshot", "runtime", "pyapp", "import", "warm"}


def _solve_english(page) -> dict:
    page.get_by_role("button", name="Solve").click()
    page.wait_for_function("window.pegLab.solves.length > 0", timeout=LOAD_TIMEOUT_MS)
    return page.evaluate("window.pegLab.solves[0]")


@pytest.mark.parametrize("damage", ["bytes", "memory"])
def test_a_bad_snapshot_falls_back_to_a_normal_boot(chromium, server, dist_dir, damage):
    """bytes: the file does not match its recorded hash; memory: it matches, but is not a memory
    image Pyodide can restore.  Either way Python boots as without a snapshot, and solves."""
    meta = json.loads((dist_dir / "snapshot.json").read_text())
    junk = gzip.compress(os.urandom(1 << 20))
    if damage == "memory":
        meta = {**meta, "sha256": hashlib.sha256(junk).hexdigest(), "size": len(junk)}
    context = chromium.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.route("**/snapshot.json",
                   lambda route: route.fulfill(body=json.dumps(meta), content_type="application/json"))
        page.route("**/snapshot.bin", lambda route: route.fulfill(body=junk, content_type="application/octet-stream"))
        page.goto(server.url + "#board=english&start=d4&goal=d4")
        page.wait_for_function("window.pegLab.timings.engineReady", timeout=LOAD_TIMEOUT_MS)
        why = page.evaluate("window.pegLab.snapshot")
        expected = "does not match its hash" if damage == "bytes" else "restore failed"
        assert expected in why, why
        solve = _solve_english(page)
        assert solve["status"] == "solved" and solve["jumps"] == 31, solve
    finally:
        context.close()
