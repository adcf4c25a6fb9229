"""bench.html's "How cost grows" section: the charts drawn in the page from the shipped benchmark JSON hold
the series and points of ``benchmarks/scaling.json`` (one group per solver and board, one mark per run);
the parallel chart appears only when ``parallel.json`` exists; and the in-page quick study (the plan of
``bench --scaling --quick``, about 7 s in Pyodide here) reports progress, can be cancelled, produces JSON that
:func:`pyapp.bench.scaling.validate` accepts, and draws its own runs beside the committed ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser_support import ARTIFACTS, LOAD_TIMEOUT_MS, ROOT

from pyapp.bench import scaling

COMMITTED = json.loads((ROOT / "benchmarks" / "scaling.json").read_text())
READY = "() => document.documentElement.dataset.study === 'idle'"


@pytest.fixture(scope="module")
def bench(chromium, server):
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    page.goto(server.url + "bench.html?run=0")
    page.wait_for_function("() => document.querySelectorAll('#growth-figures svg.chart').length > 10",
                           timeout=LOAD_TIMEOUT_MS)
    yield page
    context.close()


def marks(page, selector: str) -> int:
    return page.evaluate("s => document.querySelectorAll(s).length", selector)


COMMITTED_FIG = '#growth-figures figure[data-chart="{}"][data-source^="committed"]'


def test_every_committed_chart_is_an_svg_image_with_a_label(bench):
    charts = bench.evaluate("""() => [...document.querySelectorAll('#growth-figures svg.chart')].map(s => ({
        chart: s.dataset.chart, role: s.getAttribute('role'), label: s.getAttribute('aria-label'),
        ticks: s.querySelectorAll('.tick-label').length, legend: s.querySelectorAll('.legend-text').length}))""")
    kinds = {c["chart"] for c in charts}
    assert {"time-vs-pegs", "time-vs-nodes", "outcomes", "startup", "latency"} <= kinds
    assert "parallel" in kinds  # benchmarks/parallel.json is committed, so the build ships it
    parallel = json.loads((ROOT / "benchmarks" / "parallel.json").read_text())["parallel"]
    for row in parallel:  # one measured series per committed row, a point per worker count
        assert marks(bench, f'svg[data-chart="parallel"] g[data-series="{row["name"]}"]:not([data-model]) .pt') \
            == len(row["speedup"])
    for c in charts:
        assert c["role"] == "img" and len(c["label"]) > 30 and c["legend"] >= 1, c
        assert c["ticks"] >= 2 or c["chart"] == "startup", c
    assert bench.errors == []


def test_time_vs_pegs_has_one_series_per_solver_and_board_and_a_mark_per_run(bench):
    fig = COMMITTED_FIG.format("time-vs-pegs")
    for board in COMMITTED["study"]["boards"]:
        for solver in scaling.SOLVERS:
            runs = [r for r in COMMITTED["runs"] if r["board"] == board and r["solver"] == solver]
            series = f'{fig} g[data-series="{solver}"][data-board="{board}"]'
            assert marks(bench, series) == 1
            assert marks(bench, series + " .pt") == len(runs), (board, solver)
            unknown = sum(r["status"] == "unknown" for r in runs)
            assert marks(bench, series + ' .pt[data-status="unknown"]') == unknown
            if COMMITTED["fits"][board][solver]["time_vs_pegs"]:
                assert marks(bench, f'{fig} path[data-fit="{solver}"][data-board="{board}"]') == 1
    text = bench.inner_text(fig)
    fit = COMMITTED["fits"]["english"]["ours"]["time_vs_pegs"]
    assert f"{fit['base']:.3f}^x, R² {fit['r2']:.2f}" in text


def test_time_vs_nodes_and_outcomes_match_the_runs(bench):
    fig = COMMITTED_FIG.format("time-vs-nodes")
    for solver in scaling.SOLVERS:
        solved = [r for r in COMMITTED["runs"] if r["solver"] == solver and r["status"] == "solved"
                  and r["nodes"] > 0 and r["seconds"] > 0]
        assert marks(bench, f'{fig} g[data-series="{solver}"] .pt') == len(solved)
        assert marks(bench, f'{fig} path[data-fit="{solver}"]') == 1
        fit = COMMITTED["fits"]["all"][solver]["time_vs_nodes"]
        assert f"x^{fit['b']:.2f}, R² {fit['r2']:.2f}" in bench.inner_text(fig)
    fig = COMMITTED_FIG.format("outcomes")
    for board in COMMITTED["study"]["boards"]:
        for solver in scaling.SOLVERS:
            runs = [r for r in COMMITTED["runs"] if r["board"] == board and r["solver"] == solver]
            bars = f'{fig} g[data-series="{solver}"][data-board="{board}"] rect'
            for status in ("solved", "unknown"):
                at = {r["pegs"] for r in runs if r["status"] == status}
                assert marks(bench, bars + f'[data-status="{status}"]') == len(at), (board, solver, status)


def test_startup_and_latency_charts_hold_the_committed_rows(bench):
    startup = json.loads((ROOT / "benchmarks" / "startup.json").read_text())
    phases = [r for r in startup["phases"] if all(isinstance(r.get(c), (int, float)) for c in startup["plot_columns"])]
    for column in startup["plot_columns"]:
        assert marks(bench, f'svg[data-chart="startup"] g[data-series="{column}"] .pt') == len(phases)
    latency = json.loads((ROOT / "benchmarks" / "neverlose.json").read_text())["latency"]
    for runtime in ("cpython", "chromium"):
        rows = [r for r in latency if runtime in r]
        medians = f'svg[data-chart="latency"] g[data-series="{runtime}"] .pt[data-stat="median"]'
        assert marks(bench, medians) == len(rows)


def test_the_parallel_chart_is_drawn_when_parallel_json_exists(chromium, server, dist_dir):
    """The build ships parallel.json once it is committed; here it is served in its documented shape."""
    fake = {"environment": {}, "parallel": [{"name": "sweep-english", "title": "English sweep", "runs": [
        {"workers": 1, "wall": 10.0, "cpu": 10.0, "load": 1.0}, {"workers": 2, "wall": 7.5, "cpu": 14.0, "load": 1.0}],
        "speedup": {"1": 1.0, "2": 1.33}, "cpu_ratio": {"1": 1.0, "2": 1.4},
        "model": {"8": {"seconds": 4.0, "speedup": 2.5}, "64": {"seconds": 3.0, "speedup": 3.3}, "best_workers": 64}}]}
    context = chromium.new_context()
    page = context.new_page()
    index = json.loads((dist_dir / "benchmarks" / "index.json").read_text())
    page.route("**/benchmarks/index.json", lambda route: route.fulfill(
        json={"results": [*index["results"], "parallel"]}))
    page.route("**/benchmarks/parallel.json", lambda route: route.fulfill(json=fake))
    try:
        page.goto(server.url + "bench.html?run=0")
        page.wait_for_selector('svg[data-chart="parallel"]', timeout=LOAD_TIMEOUT_MS)
        assert marks(page, 'svg[data-chart="parallel"] g[data-series="sweep-english"]:not([data-model]) .pt') == 2
        assert marks(page, 'svg[data-chart="parallel"] g[data-series="sweep-english"][data-model] .pt') == 2
        assert marks(page, 'svg[data-chart="parallel"] path[data-fit="ideal"]') == 1
    finally:
        context.close()


def test_the_study_runs_in_the_page_with_progress_cancel_and_a_valid_download(bench):
    bench.wait_for_function(READY, timeout=LOAD_TIMEOUT_MS)
    # Cancel: stops between two runs and draws nothing
    bench.click("#study-run")
    bench.wait_for_function("() => window.benchStudy.status === 'running' && window.benchStudy.done >= 1")
    bench.click("#study-cancel")
    bench.wait_for_function("() => document.documentElement.dataset.study === 'cancelled'", timeout=10_000)
    assert marks(bench, '#growth-figures figure[data-source="your browser"]') == 0
    # a whole run: progress climbs to the plan, then the runs are drawn and offered as JSON
    bench.evaluate("""() => { window.seenProgress = [];
        new MutationObserver(() => window.seenProgress.push(document.getElementById('study-progress').value))
          .observe(document.getElementById('study-progress'), {attributes: true}); }""")
    bench.click("#study-run")
    bench.wait_for_function("() => document.documentElement.dataset.study === 'done'", timeout=120_000)
    st = bench.evaluate("() => ({done: window.benchStudy.done, planned: window.benchStudy.planned})")
    assert st["done"] == st["planned"] > 0
    assert len(set(bench.evaluate("window.seenProgress"))) > 3  # progress showed as it went
    with bench.expect_download() as info:
        bench.click("#study-download")
    data = json.loads(Path(info.value.path()).read_text())
    assert scaling.validate(data) == []
    assert data["study"]["boards"] == list(scaling.BOARDS) and data["study"]["quick"] is True
    assert data["study"]["budget_cpu_seconds"] == scaling.QUICK["budget"] and "max_pegs" not in data["study"]
    mine = '#growth-figures figure[data-chart="time-vs-pegs"][data-source="your browser"]'
    for board in data["study"]["boards"]:
        for solver in scaling.SOLVERS:
            runs = [r for r in data["runs"] if r["board"] == board and r["solver"] == solver]
            assert runs and marks(bench, f'{mine} g[data-series="{solver}"][data-board="{board}"] .pt') == len(runs)
    solved = [r for r in data["runs"] if r["status"] == "solved" and r["nodes"] > 0 and r["seconds"] > 0]
    nodes = '#growth-figures figure[data-chart="time-vs-nodes"][data-source="your browser"] .pt'
    assert marks(bench, nodes) == len(solved)
    assert bench.errors == []
    ARTIFACTS.mkdir(exist_ok=True)
    bench.screenshot(path=str(ARTIFACTS / "bench-study-desktop.png"), full_page=True)
