"""Loading and offline use: cold start, cached start (service worker), then a reload with the
server stopped and the browser offline, and a solve in that state.  Start-up times are
written to ``test-artifacts/start-times.json`` (they are reported, never asserted)."""

from __future__ import annotations

import json
import time

import pytest
from browser_support import ARTIFACTS, LOAD_TIMEOUT_MS, Server, wait_ready

pytestmark = pytest.mark.browser


def _load_time(page, url: str, *, reload: bool = False) -> dict:
    t0 = time.perf_counter()
    if reload:
        page.reload()
    else:
        page.goto(url)
    # something useful at once: page chrome and the board skeleton, before Pyodide is there
    page.wait_for_selector("svg.skeleton, [data-hole]", timeout=5_000)
    if not reload:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "loading.png"))
    wait_ready(page)
    timings = page.evaluate("window.pegLab.timings")
    return {"wall_s": round(time.perf_counter() - t0, 2),
            "engine_ready_s": round(timings["engineReady"] / 1000, 2),
            "board_shown_s": round(timings["firstBoard"] / 1000, 2),
            "offline_mode": page.evaluate("window.pegLab.offline")}


def test_cold_start_cached_start_then_offline_reload_and_solve(chromium, dist_dir):
    server = Server(dist_dir)
    requests: list[str] = []
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.on("request", lambda r: requests.append(r.url))
        bad = []
        page.on("response", lambda r: bad.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        cold = _load_time(page, server.url)
        assert cold["offline_mode"] == "installed"  # first visit: the service worker cached everything first
        assert bad == [], bad  # no 404, the favicon included
        # the runtime crossed the network once: the service worker's precache; the engine read it from the cache
        runtime = ("/pyodide/pyodide.asm.wasm", "/pyodide/python_stdlib.zip", "/pyapp.zip")
        assert {path: server.hits.count(path) for path in runtime} == dict.fromkeys(runtime, 1), server.hits
        wasm = [u for u in requests if u.endswith("pyodide.asm.wasm")]
        assert len(wasm) == 1, f"the engine requested the runtime {len(wasm)} times: {wasm}"
        caches = page.evaluate("caches.keys()")
        version = (dist_dir / "sw.js").read_text().split('const VERSION = "')[1].split('"')[0]
        assert caches == [f"peg-lab-{version}"]
        cached_urls = page.evaluate("v => caches.open(v).then(c => c.keys()).then(ks => ks.map(k => k.url))",
                                    f"peg-lab-{version}")
        for asset in ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "pyapp.zip", "static/engine/worker.mjs",
                      "manifest.webmanifest", "icons/icon-192.png"):
            assert server.url + asset in cached_urls, asset
        # once the page is idle it asks the service worker for HiGHS's WebAssembly (sw.js LATER)
        page.wait_for_function("v => caches.open(v).then(c => c.match('highs/highs.wasm')).then(r => !!r)",
                               arg=f"peg-lab-{version}", timeout=60_000)

        served = len(server.hits)
        cached = _load_time(page, server.url, reload=True)
        assert cached["offline_mode"] == "cached"
        assert [p for p in server.hits[served:] if p not in ("/sw.js",)] == []  # everything came from the cache

        server.stop()
        context.set_offline(True)
        offline = _load_time(page, server.url, reload=True)
        assert [e for e in page.locator("#status").all_text_contents() if "could not" in e] == []
        page.get_by_role("button", name="Solve").click()
        page.wait_for_function("window.pegLab.solves.length > 0", timeout=300_000)
        solve = page.evaluate("window.pegLab.solves.at(-1)")
        assert solve["status"] == "solved" and solve["jumps"] == 31, solve
        assert "d4" in page.eval_on_selector_all("[data-hole]", "els => els.map(e => e.dataset.hole)")
        report = {"cold": cold, "cached": cached, "offline": offline, "offline_solve": solve}
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "start-times.json").write_text(json.dumps(report, indent=1))
        print("\nstart times:", json.dumps(report))
    finally:
        context.close()
        server.stop()


def test_a_new_build_replaces_the_old_cache(chromium, dist_dir, tmp_path):
    """A changed file gives a new version; the new service worker caches it and deletes the old cache."""
    import shutil

    site = tmp_path / "site"
    shutil.copytree(dist_dir, site)
    server = Server(site)
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(server.url)
        wait_ready(page)
        old = page.evaluate("caches.keys()")
        # a new deploy: one changed asset, sw.js rewritten with the new hashes
        import build

        (site / "static" / "style.css").write_text((site / "static" / "style.css").read_text() + "\n/* v2 */\n")
        build.write_service_worker(site)
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        page.wait_for_function("navigator.serviceWorker.getRegistration().then(r => !!r.waiting)", timeout=60_000)
        # the new worker waits (the open page keeps its version); the page offers to update, and reloads
        update = page.get_by_role("button", name="A new version is ready: update")
        update.wait_for(state="visible", timeout=30_000)
        update.click()
        new_version = (site / "sw.js").read_text().split('const VERSION = "')[1].split('"')[0]
        page.wait_for_function("""v => new Promise(resolve => {
            const c = navigator.serviceWorker.controller;
            if (!c) return resolve(false);
            const ch = new MessageChannel();
            ch.port1.onmessage = e => resolve(e.data.version === v);
            c.postMessage({type: "version"}, [ch.port2]);
            setTimeout(() => resolve(false), 500);
        })""", arg=new_version, timeout=LOAD_TIMEOUT_MS)
        page.wait_for_function("v => caches.keys().then(k => k.length === 1 && k[0] === v)",
                               arg=f"peg-lab-{new_version}", timeout=LOAD_TIMEOUT_MS)
        assert old != [f"peg-lab-{new_version}"]
        wait_ready(page)
        cached = page.evaluate("v => caches.open(v).then(c => c.match('static/style.css')).then(r => r.text())",
                               f"peg-lab-{new_version}")
        assert cached.endswith("/* v2 */\n")
        # the page may still be reloading under the old worker for a moment: poll until it is served the new file
        page.wait_for_function(
            "() => fetch('static/style.css').then(r => r.text()).then(t => t.endsWith('/* v2 */\\n'))",
            timeout=30_000)
    finally:
        context.close()
        server.stop()


def test_a_broken_deploy_says_so_plainly(chromium, dist_dir, tmp_path):
    """Without the WebAssembly runtime the service worker refuses the install, the page still
    starts the engine from the network, and the failure is reported in words, not a blank page."""
    import shutil

    site = tmp_path / "broken"
    shutil.copytree(dist_dir, site)
    (site / "pyodide" / "pyodide.asm.wasm").unlink()
    server = Server(site)
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_function("document.getElementById('status').classList.contains('error')", timeout=60_000)
        assert "The Python engine could not start" in page.get_by_role("status").text_content()
        assert page.evaluate("window.pegLab.offline") == "failed"
        assert page.evaluate("caches.keys()") == []  # nothing half-cached
        assert page.get_by_role("button", name="Solve").is_disabled()
    finally:
        context.close()
        server.stop()
