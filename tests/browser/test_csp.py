"""The strict Content-Security-Policy (index.html's meta tag, and the same policy as a header from
``build.py serve``, which then covers the engine worker too): the whole app works under it, online
and offline, with no CSP violation and no console error; and the policy really is in force."""

from __future__ import annotations

import pytest
from browser_support import Server, go, wait_ready, wait_state

pytestmark = pytest.mark.browser

COLLECT = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(
    `${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`));
"""


def _collect_problems(page) -> list[str]:
    """Console errors and uncaught page errors, as they happen."""
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    return problems


def _solve(page, fragment: str) -> dict:
    go(page, fragment)
    before = page.evaluate("window.pegLab.solves.length")
    page.get_by_role("button", name="Solve").click()
    page.wait_for_function("n => window.pegLab.solves.length > n", arg=before, timeout=300_000)
    return page.evaluate("window.pegLab.solves.at(-1)")


def test_the_whole_app_works_under_the_csp_online_and_offline(chromium, dist_dir, tmp_path):
    server = Server(dist_dir, plain=False)
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=False)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    context.add_init_script(COLLECT)
    try:
        page = context.new_page()
        problems = _collect_problems(page)
        page.goto(server.url)
        wait_ready(page)
        assert page.evaluate("window.pegLab.offline") == "installed"

        # play, undo, solve, hint, finishes, CNF, the editor, a typed board, copy link
        go(page, "#board=english&start=d4")
        page.click("[data-hole='f4']")
        page.click("[data-hole='d4']")
        wait_state(page, 1)
        page.get_by_role("button", name="Undo").click()
        wait_state(page, 0)
        solved = _solve(page, "#board=triangle5&start=1")
        assert solved["status"] == "solved", solved
        page.locator("summary", has_text="Analyse and export").click()
        page.get_by_role("button", name="Hint").click()
        page.wait_for_function("() => document.getElementById('analysis').textContent.startsWith('Good jumps')")
        page.get_by_role("button", name="Where can one peg finish?").click()
        page.wait_for_function("() => document.getElementById('analysis').textContent.includes('finish')",
                               timeout=120_000)
        with page.expect_download() as info:
            page.get_by_role("button", name="Download CNF").click()
        info.value.save_as(tmp_path / "t.cnf")
        assert "p cnf" in (tmp_path / "t.cnf").read_text()
        page.get_by_role("button", name="Edit board").click()
        page.check("input[name=tool][value=hole]")
        page.click("[data-cell='4,4']")
        page.get_by_role("button", name="Use this board").click()
        page.wait_for_function("() => location.hash.includes('board=triangle:')")
        page.locator("summary", has_text="Custom board from text").click()
        page.fill("#custom-text", "ooo\no.o\nooo")
        page.get_by_role("button", name="Use this board", exact=True).last.click()
        page.wait_for_function("() => location.hash.includes('square:ooo/o.o/ooo')")
        page.get_by_role("button", name="Copy link").click()

        # offline: the server gone, the network off, a reload and a solve
        server.stop()
        context.set_offline(True)
        page.reload()
        wait_ready(page)
        assert page.evaluate("window.pegLab.offline") == "cached"
        solved = _solve(page, "#board=triangle5&start=1")
        assert solved["status"] == "solved", solved

        violations = page.evaluate("window.__csp")
        assert violations == [] and problems == [], (violations, problems)

        # and the policy is really there: an inline script is refused (and reported)
        page.evaluate("""() => { const s = document.createElement("script"); s.textContent = "window.__ran = 1";
                                 document.body.appendChild(s); }""")
        page.wait_for_function("() => window.__csp.length > 0")
        assert page.evaluate("window.__ran") is None
        assert "script-src" in page.evaluate("window.__csp[0]")
    finally:
        context.close()
        server.stop()


def test_the_benchmark_page_loads_under_the_csp(chromium, dist_dir):
    server = Server(dist_dir, plain=False)
    context = chromium.new_context(service_workers="block", bypass_csp=False)
    context.add_init_script(COLLECT)
    try:
        page = context.new_page()
        problems = _collect_problems(page)
        page.goto(server.url + "bench.html?run=0")
        page.wait_for_function("() => document.getElementById('status').textContent.includes('ready in')",
                               timeout=120_000)
        assert page.evaluate("getComputedStyle(document.querySelector('main.bench')).display") == "block"
        # the charts are built with DOM calls and attributes only: nothing the policy refuses
        page.wait_for_function("() => document.querySelectorAll('#growth-figures svg.chart').length > 10")
        assert page.evaluate("window.__csp") == [] and problems == []
    finally:
        context.close()
        server.stop()
