#!/usr/bin/env bash
# Installs everything the tests need into the project's virtual environment (.venv/, created if missing,
# never the system Python), then runs lint (ruff), type checks (mypy) and the whole suite with the doctests.
# Usage (from the project root): bash scripts/test.sh [extra pytest args]; PEG_TEST_WORKERS=N sets the
# number of pytest-xdist workers (default: one per core).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
PY=.venv/bin/python
"$PY" -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
if [ ! -d node_modules/pyodide ] || [ ! -d node_modules/highs ]; then npm ci --no-audit --no-fund; fi
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
  echo "note: no system Chromium found; browser tests use Playwright's own browser if installed, else skip" >&2
fi
# the site the browser and build tests use, built in the background while lint, type checks and the other
# tests run (tests/conftest.py waits for it and runs the tests that need it last)
SITE_TMP=$(mktemp -d)
export PEG_TEST_SITE="$SITE_TMP/dist"
( "$PY" build.py build --out "$PEG_TEST_SITE" >"$PEG_TEST_SITE.log" 2>&1; echo $? >"$PEG_TEST_SITE.status" ) &
BUILD_PID=$!
trap 'kill "$BUILD_PID" 2>/dev/null || true; rm -rf "$SITE_TMP"' EXIT
"$PY" -m ruff check pyapp tests build.py
"$PY" -m mypy
# every core: whole test files per worker (module fixtures such as a loaded page are set up once), in the
# order tests/conftest.py gives them (longest first), not re-sorted by their number of tests; the slowest 25
# tests are listed at the end (where the suite's time goes, for its EXPECTED_SECONDS and for cutting it)
"$PY" -m pytest -q -n "${PEG_TEST_WORKERS:-auto}" --dist loadfile --no-loadscope-reorder --durations=25 "$@"
