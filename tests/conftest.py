"""Fixtures and ordering shared by the whole suite.

``built_site``: the deployable site, built once per test run.  ``scripts/test.sh`` starts that build in
the background before the lint and type checks and names it in ``PEG_TEST_SITE`` (the build writes
``<folder>.status`` with its exit code when done); the fixture waits for it.  Run without the script, under
pytest-xdist the workers share one folder: the first to ask builds it (under a file lock), the others wait
and reuse it.  It is read-only by convention: a test that edits files copies it first (:func:`site_copy`).

The tests that need the site run last (:func:`pytest_collection_modifyitems`), so the workers are busy with
the others while it is built.
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


SITE_WAIT_SECONDS = 1800
"""The longest wait for the background build (a fresh machine computes the shipped sets first)."""


def pytest_collection_modifyitems(config, items) -> None:
    """The files with a test that needs the built site after all the others (whole files: pytest-xdist hands
    out whole files; a stable sort keeps the order within each group)."""
    late = {item.path for item in items if "built_site" in getattr(item, "fixturenames", ())}
    items.sort(key=lambda item: item.path in late)


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


@pytest.fixture
def site_copy(built_site, tmp_path) -> Path:
    """A private copy of the built site, for a test that edits or deletes files in it."""
    target = tmp_path / "site"
    shutil.copytree(built_site, target)
    return target
