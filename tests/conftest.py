"""Fixtures shared by the whole suite.

``built_site``: the deployable site, built once per test run.  Under pytest-xdist the workers share one
folder: the first to ask builds it (under a file lock), the others wait and reuse it.  It is read-only
by convention: a test that edits files copies it first (:func:`site_copy`).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """``dist/`` as ``build.py`` writes it, in a temporary folder (the working dist/ is left alone)."""
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
