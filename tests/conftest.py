"""Fixtures and ordering shared by the whole suite.

``built_site``: the deployable site, built once per test run.  ``scripts/test.sh`` starts that build in
the background before the lint and type checks and names it in ``PEG_TEST_SITE`` (the build writes
``<folder>.status`` with its exit code when done); the fixture waits for it.  Run without the script, under
pytest-xdist the workers share one folder: the first to ask builds it (under a file lock), the others wait
and reuse it.  It is read-only by convention: a test that edits files copies it first (:func:`site_copy`).

Test files run longest first (:func:`pytest_collection_modifyitems`, from :data:`EXPECTED_SECONDS`), so that
the two workers finish together instead of one running a long file alone at the end; the files that need the
site (or the shipped sets the build computes, ``sets_ready``) start only after :data:`SITE_LEAD_SECONDS` of other work,
so the workers are busy while it is built.
``scripts/test.sh`` passes ``--no-loadscope-reorder``: pytest-xdist would otherwise hand out the files by
their number of tests, ignoring this order.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PYCACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "peg-solitaire-lab" / "pycache"
"""Where the run's Python processes (the test workers and every command line, pool or Dask worker a test starts)
keep their compiled modules: outside the checkout, shared by runs.  Set here, before pytest-xdist starts its
workers, and in force even where ``PYTHONDONTWRITEBYTECODE`` is set (as on the 2-core test machine), under which
each process a test started compiled pyapp's modules again (about 0.35 s of a command line's 0.6 s of CPU)."""
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ.setdefault("PYTHONPYCACHEPREFIX", str(PYCACHE))
sys.dont_write_bytecode = False
sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]


SITE_WAIT_SECONDS = 1800
"""The longest wait for the background build (a fresh machine computes the shipped sets first)."""


EXPECTED_SECONDS = {
    # wall seconds per file on the 2-core machine (a full run with the set cache warm, pytest 538 s, 2026-12-06;
    # the files added since, and test_lp_page.py, from their time alone in one process on 2026-12-07, scaled as the
    # others' times compare; test_overbits, test_shipped_sets, test_ilp and test_dask scaled by their times alone
    # before and after their samples were cut, 2026-12-07); only their order matters. A file not listed counts as
    # short (a few seconds) and runs among the last: a long file left out runs alone at the end while the other worker
    # has nothing left.
    "test_overbits.py": 37, "browser/test_neverlose_asymmetric.py": 24,
    "browser/test_neverlose_pool.py": 64, "browser/test_analysis_board.py": 63,
    "browser/test_endgame_chromium.py": 48, "browser/test_instant_neverlose.py": 45, "test_endgame.py": 42,
    "test_shipped_sets.py": 31, "test_table_pagodas.py": 16, "test_overtable.py": 12,
    "test_fewest_dp.py": 31, "test_package.py": 31, "browser/test_exact_pool.py": 31,
    "browser/test_app.py": 27, "test_ilp.py": 17, "browser/test_exact_page.py": 25, "browser/test_lp_page.py": 19,
    "browser/test_deploy.py": 19, "test_shards.py": 19, "browser/test_partial_sets_page.py": 19,
    "test_formulations.py": 17, "browser/test_bench_page.py": 17, "browser/test_neverlose_french.py": 17,
    "browser/test_table_page.py": 17, "browser/test_offline.py": 16, "browser/test_phone.py": 15,
    "browser/test_snapshot.py": 14, "test_levels.py": 14, "test_dask.py": 12, "browser/test_csp.py": 14,
    "test_lp_pyodide.py": 13, "browser/test_rules.py": 13, "test_separation.py": 13, "test_endgame_tables.py": 12,
    "browser/test_subpath.py": 12, "browser/test_table_pool.py": 11, "test_spread.py": 11, "test_ilp_split.py": 11,
    "test_fuzz.py": 11, "test_pyodide.py": 10, "test_openingbook.py": 10, "test_opening_book_script.py": 10,
    "test_ilp_cuts.py": 10, "browser/test_finishes_pool.py": 10, "test_relay.py": 10, "test_scaling.py": 9,
    "browser/test_cancel_setup.py": 9, "browser/test_input.py": 9, "test_ways.py": 8, "test_twosided.py": 8,
    "test_proven.py": 8, "test_caches.py": 8, "browser/test_lazy_sets.py": 7, "test_sharedlevels.py": 7,
    "test_neverlose.py": 7, "test_endgame_files.py": 7, "test_repair.py": 7, "browser/test_opening_book.py": 6,
    "browser/test_cancel_analyses.py": 6, "test_published.py": 6, "test_exact.py": 6, "test_fewest_meet.py": 5,
    "test_partial_sets.py": 5, "test_turns.py": 5, "test_sat.py": 5, "test_cli.py": 5, "test_store.py": 5,
    "test_webtable.py": 4, "test_webneverpool.py": 4, "test_count.py": 4, "test_fewest_all.py": 4,
    "test_cli_robust.py": 3, "test_jumpcounts.py": 3, "test_cuts.py": 3, "test_webapi_robust.py": 3,
    "test_partial_low_sets.py": 7, "test_finishes.py": 5, "test_table.py": 5, "test_make_overtable.py": 5,
    "test_solver.py": 4, "test_build.py": 4, "test_retrieval.py": 4, "test_report.py": 4, "test_wire.py": 3,
    "test_limits.py": 3, "test_lp.py": 3,
}
"""Expected wall seconds of the longer test files (paths under ``tests/``), for the longest-first order."""

SITE_LEAD_SECONDS = 300
"""Expected seconds of other files (both workers together) run before the first file that needs the built
site, so that both workers stay busy while it is built: with the set cache warm the build takes under a minute
beside them; a fresh machine computes the sets' counts and endgame tables first (minutes), and its first site
test waits for the rest of the build."""


def _expected(path: Path) -> float:
    try:
        return EXPECTED_SECONDS.get(path.relative_to(ROOT / "tests").as_posix(), 0)
    except ValueError:  # the doctests under pyapp/: short
        return 0


def pytest_collection_modifyitems(config, items) -> None:
    """Whole files (pytest-xdist's ``--dist loadfile`` hands out whole files, in this order when not told to
    reorder them), longest first; the files with a test that needs the built site only after
    :data:`SITE_LEAD_SECONDS` of the others. Stable: files of equal expected time (the short, unlisted ones) keep
    the collection order, and so do the tests within each file."""
    late = {item.path for item in items if {"built_site", "sets_ready"} & set(getattr(item, "fixturenames", ()))}
    files = list(dict.fromkeys(item.path for item in items))
    early = sorted((f for f in files if f not in late), key=lambda f: -_expected(f))
    lead, order = 0.0, []
    while early and lead < SITE_LEAD_SECONDS:
        lead += _expected(early[0])
        order.append(early.pop(0))
    # the rest, site or not, longest first (a stable sort keeps the site files after the others at equal time)
    order += sorted(early + [f for f in files if f in late], key=lambda f: -_expected(f))
    rank = {f: i for i, f in enumerate(order)}
    items.sort(key=lambda item: rank[item.path])


def _background_site(target: Path) -> Path:
    status = target.with_name(target.name + ".status")
    deadline = time.monotonic() + SITE_WAIT_SECONDS
    while not status.exists():
        if time.monotonic() > deadline:
            pytest.fail(f"the site build into {target} did not finish in {SITE_WAIT_SECONDS} s")
        time.sleep(0.5)
    code = status.read_text().strip()
    if code != "0":
        log = target.with_name(target.name + ".log")
        tail = log.read_text(errors="replace")[-3000:] if log.exists() else "(no log)"
        pytest.fail(f"the site build exited {code}:\n{tail}")
    return target


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """``dist/`` as ``build.py`` writes it, in a temporary folder (the working dist/ is left alone)."""
    if os.environ.get("PEG_TEST_SITE"):
        return _background_site(Path(os.environ["PEG_TEST_SITE"]))
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import build

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # each worker's basetemp is a child of the run's
        shared = shared.parent
    target = shared / "built-site" / "dist"
    with open(shared / "built-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = target.parent / "complete"
        if not done.exists():
            shutil.rmtree(target.parent, ignore_errors=True)
            build.build(target)
            done.write_text("built\n")
    return target


@pytest.fixture(scope="session")
def sets_ready() -> None:
    """The shipped games' files in the machine's set cache: under ``scripts/test.sh``, once its background build (which
    computes them on a fresh machine) is done, so a test that reads them neither computes them beside the build nor
    waits on a game's lock while its worker could run other files (and, asking for this, it runs among the site's
    files, after :data:`SITE_LEAD_SECONDS` of others).  Run without the script: nothing to wait for (the test reads or
    computes each game's files itself)."""
    if os.environ.get("PEG_TEST_SITE"):
        _background_site(Path(os.environ["PEG_TEST_SITE"]))


@pytest.fixture
def site_copy(built_site, tmp_path) -> Path:
    """A private copy of the built site, for a test that edits or deletes files in it."""
    target = tmp_path / "site"
    shutil.copytree(built_site, target)
    return target
