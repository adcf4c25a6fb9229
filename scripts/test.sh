#!/usr/bin/env bash
# Installs everything the tests need into the project's virtual environment (.venv/, created if missing,
# never the system Python), then runs lint (ruff), type checks (mypy) and the whole suite with the doctests.
# Usage (from the project root): bash scripts/test.sh [extra pytest args]
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
"$PY" -m ruff check pyapp tests build.py
"$PY" -m mypy
"$PY" -m pytest -q "$@"
