"""Build the deployable web app into ``dist/`` and optionally serve it.

``python build.py`` writes ``dist/``: the page, ``static/`` (ES modules, CSS, the worker),
``pyapp.zip`` (the pure-Python library the worker unpacks into Pyodide), ``boards.json`` (every
catalogue board's holes, jumps and drawing, from :mod:`pyapp.web.boarddata`, so the page plays at once
while Python starts; the default board's drawing is also put into ``index.html`` for the first
paint), ``sets/`` (the classic games' winnable sets, so never-lose answers by lookup: see
:func:`write_sets`; the service worker fetches them on first use, not in its precache),
``opening.json`` (the never-lose answer at the start of every default game, see :func:`write_opening`),
``benchmarks/`` (the committed results bench.html draws its charts from: see
:func:`write_benchmarks`), ``snapshot.bin`` (a Pyodide memory snapshot with pyapp imported, see
:func:`write_snapshot`), the five Pyodide
runtime files the app needs (from the pinned npm package; ``npm ci`` runs first when
``node_modules`` is missing), ``highs/`` (HiGHS as WebAssembly from the pinned npm ``highs``, loaded by
the workers when a proof first needs a linear programme), the web manifest with icons (PNGs drawn here, no image
library needed), and ``sw.js``: the service worker, given the list of every asset and a
version derived from the content hash of all of them, so a new deploy gets a new cache.

``python build.py serve [--port 8000]`` builds when a source is newer than ``dist/`` and
serves ``dist/`` on 127.0.0.1 with correct MIME types.  ``dist/`` also works from any
plain static server (it only needs ``.mjs`` served as JavaScript and ``.wasm`` as
``application/wasm``).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import http.server
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from pyapp.exact.store import sets_cache  # the library beside this file (sys.path[0] when run)
from pyapp.web.appmanifest import draw_icon, icon_svg, manifest

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
HIGHS_FILES = ("highs.mjs", "highs.wasm")
"""HiGHS as WebAssembly (npm ``highs``, pinned in package.json), copied to ``dist/highs/``: the workers load it
the first time a proof needs a linear programme (``static/engine/lp.mjs``), and the service worker caches it."""
PAGES = ("index.html", "bench.html")
BENCHMARKS = "benchmarks"
"""The folder of committed benchmark results (JSON) shipped for bench.html's charts."""
MIME_TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".webmanifest": "application/manifest+json",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".zip": "application/zip",
    ".cnf": "text/plain",
}
ZIP_DATE = (2020, 1, 1, 0, 0, 0)
BOARD_MARK = ("<!--@BOARD@-->", "<!--/@BOARD@-->")
FIRST_BOARD = "english"


# ---------------------------------------------------------------- pieces
def ensure_pyodide() -> Path:
    """The npm package folder, running ``npm ci`` first when it is missing."""
    pkg = ROOT / "node_modules" / "pyodide"
    if not pkg.is_dir() or not (ROOT / "node_modules" / "highs").is_dir():
        print("node_modules/pyodide missing: running npm ci", file=sys.stderr)
        try:
            subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True)
        except FileNotFoundError:
            raise SystemExit("npm is needed once to fetch the pinned Pyodide runtime (package.json): "
                             "install Node.js 18+ and run 'python build.py' again") from None
        except subprocess.CalledProcessError as err:
            raise SystemExit(f"'npm ci' failed (exit code {err.returncode}): see its output above") from None
    missing = [f for f in PYODIDE_FILES if not (pkg / f).is_file()]
    highs = ROOT / "node_modules" / "highs" / "build"
    missing += [f"highs/build/{f}" for f in HIGHS_FILES if not (highs / f).is_file()]
    if missing:
        raise SystemExit(f"node_modules lacks {', '.join(missing)}: run 'npm ci'")
    return pkg


def write_pyapp_zip(target: Path) -> None:
    """``pyapp/*.py`` as a zip with fixed timestamps, so equal sources give equal bytes."""
    sources = sorted(p for p in (ROOT / "pyapp").rglob("*.py") if "__pycache__" not in p.parts)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sources:
            info = zipfile.ZipInfo(path.relative_to(ROOT).as_posix(), ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, path.read_bytes())


def write_snapshot(dist: Path) -> bool:
    """A Pyodide memory snapshot with pyapp imported and warmed (``snapshot.bin``, gzipped, and
    ``snapshot.json``: Pyodide version and hashes), made by ``scripts/make_snapshot.mjs`` under
    Node from the files already in ``dist``.  The worker restores it instead of booting Python and
    falls back to a normal boot when it is missing or does not match; so a failure here only
    costs start-up time, and is reported, not fatal."""
    try:
        run = subprocess.run(["node", str(ROOT / "scripts" / "make_snapshot.mjs"), str(dist)],
                             capture_output=True, text=True, timeout=600)
    except (FileNotFoundError, subprocess.TimeoutExpired) as err:
        print(f"no Pyodide snapshot (node: {err}); the page boots Python normally", file=sys.stderr)
        return False
    if run.returncode != 0:
        tail = (run.stderr or run.stdout).strip().splitlines()[-3:]
        print(f"no Pyodide snapshot ({' / '.join(tail)[-300:]}); the page boots Python normally", file=sys.stderr)
        for name in ("snapshot.bin", "snapshot.json"):
            (dist / name).unlink(missing_ok=True)
        return False
    return True


SETS_CACHE = sets_cache()
"""Winnable set files kept between builds and clones (outside the checkout), named by game and key version
(computing English takes ~1 CPU min)."""
SETS_ARTEFACTS = ROOT / "sets"
"""The committed set files of the games too slow to compute in a build (``scripts/make_sets.py``)."""


def write_sets(dist: Path) -> None:
    """``sets/*.bin``: the winnable sets of the classic games and the solutions left from each of their
    positions (:mod:`pyapp.web.setfiles`: cached in :func:`pyapp.exact.store.sets_cache`, or read from a
    committed artefact, every file decoded and checked before it is shipped; games side by side on every core), and
    ``sets/index.json`` listing them."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from pyapp.web.setfiles import write_all

    write_all(dist / "sets", SETS_CACHE, SETS_ARTEFACTS)


def write_opening(dist: Path) -> None:
    """``opening.json``: the never-lose answer at the start of every catalogue board's default game
    (:mod:`pyapp.web.opening`), after loading the shipped sets so their games are answered by lookup; the
    page shows it before the engine is ready.  It takes most of a build on a warm set cache (about a CPU minute),
    and it follows from the library (``pyapp.zip``, the same bytes from the same sources), the shipped sets
    (``sets/index.json`` names each file's SHA-256) and this file (which loads them) alone, so it is kept in the
    set cache under a hash of the three."""
    from pyapp.web.opening import opening_book
    from pyapp.web.setfiles import cached_text
    from pyapp.web.sets import load
    from pyapp.web.wire import dumps

    def compute() -> str:
        index = json.loads((dist / "sets" / "index.json").read_text(encoding="utf-8"))
        under = {(e["board"], e["goal"]) for e in index if e.get("over_table")}
        for entry in index:
            # the engine asks the opening book itself; the starts are above any endgame table, but a set held over
            # one ends its lines there
            kind = entry.get("kind")
            if kind == "book" or (kind == "endgame" and (entry["board"], entry["goal"]) not in under):
                continue
            for key in ("file", "ways"):
                if key in entry:
                    load((dist / "sets" / entry[key]).read_bytes())
        return dumps(opening_book())

    inputs = [sys.version.encode(), (dist / "pyapp.zip").read_bytes(), (dist / "sets" / "index.json").read_bytes(),
              Path(__file__).read_bytes()]  # and this function, which loads the files
    (dist / "opening.json").write_text(cached_text(SETS_CACHE, "opening", inputs, compute), encoding="utf-8")


def write_benchmarks(dist: Path) -> None:
    """``benchmarks/*.json``: the committed benchmark results, from which ``bench.html`` draws its charts (the
    page draws its own, so the SVG figures are not shipped), and ``benchmarks/index.json`` naming them, so the
    page asks only for files that exist (``parallel.json`` may not yet) and works offline from the precache."""
    target = dist / "benchmarks"
    target.mkdir()
    names = []
    for path in sorted((ROOT / BENCHMARKS).glob("*.json")):
        if path.name != "index.json":
            shutil.copy2(path, target / path.name)
            names.append(path.stem)
    (target / "index.json").write_text(json.dumps({"results": names}, indent=1) + "\n", encoding="utf-8")


VERSION_MARK = "@APP_VERSION@"
"""Where :func:`write_version` puts the version in ``index.html``."""


def write_board_data(dist: Path) -> None:
    """``boards.json`` from pyapp itself, and the default board drawn into ``index.html``
    (replacing the skeleton between the ``@BOARD@`` marks) so the first paint shows it."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from pyapp.web.boarddata import catalogue_data

    data = catalogue_data()
    (dist / "boards.json").write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
    page = dist / "index.html"
    html = page.read_text(encoding="utf-8")
    start, end = BOARD_MARK
    if start not in html or end not in html:
        raise SystemExit(f"index.html lacks the {start} ... {end} marks around the board")
    svg = next(b["svg"] for b in data["boards"] if b["id"] == FIRST_BOARD)
    head, rest = html.split(start, 1)
    html = head + svg + rest.split(end, 1)[1]
    page.write_text(html, encoding="utf-8")


def write_version(dist: Path) -> None:
    """The package's version (``pyapp.__version__``, its one home) into the page's footer."""
    from pyapp import __version__

    page = dist / "index.html"
    html = page.read_text(encoding="utf-8")
    if VERSION_MARK not in html:
        raise SystemExit(f"index.html lacks the {VERSION_MARK} mark in its footer")
    page.write_text(html.replace(VERSION_MARK, __version__), encoding="utf-8")


def write_service_worker(dist: Path) -> str:
    """Fill ``sw.js`` with every asset (path and hash), the set files it fetches lazily and the build version;
    returns the version.  The set files (``sets/*.bin``) are left out of the precache: a visitor downloads only
    the sets of the games they use never-lose on, and the service worker keeps each one (``LAZY``)."""
    assets = sorted(p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file() and p.name != "sw.js")
    digest = hashlib.sha256()
    entries: dict[str, dict[str, object]] = {}
    lazy: dict[str, dict[str, object]] = {}
    for name in assets:
        data = (dist / name).read_bytes()
        entry = {"hash": hashlib.sha256(data).hexdigest(), "size": len(data)}
        (lazy if name.startswith("sets/") and name.endswith(".bin") else entries)[name] = entry
        digest.update(name.encode() + b"\0" + data + b"\0")
    version = digest.hexdigest()[:16]
    template = (ROOT / "sw.js").read_text(encoding="utf-8")
    if any(mark not in template for mark in ("/*@ASSETS@*/", "/*@LAZY@*/", "@VERSION@")):
        raise SystemExit("sw.js template lacks the /*@ASSETS@*/, /*@LAZY@*/ or @VERSION@ placeholder")
    listing = json.dumps({"./": entries["index.html"], **entries}, indent=1)
    text = template.replace("/*@ASSETS@*/", listing).replace("/*@LAZY@*/", json.dumps(lazy, indent=1))
    (dist / "sw.js").write_text(text.replace("@VERSION@", version), encoding="utf-8")
    return version


def build(dist: Path = DIST) -> str:
    """Write the whole site into ``dist`` (replacing it); returns the build version."""
    pkg = ensure_pyodide()
    if dist.exists():
        shutil.rmtree(dist)
    (dist / "pyodide").mkdir(parents=True)
    (dist / "icons").mkdir()
    for page in PAGES:
        if (ROOT / page).is_file():
            shutil.copy2(ROOT / page, dist / page)
    shutil.copytree(ROOT / "static", dist / "static", ignore=shutil.ignore_patterns("*.map", ".*"))
    for name in PYODIDE_FILES:
        shutil.copy2(pkg / name, dist / "pyodide" / name)
    (dist / "highs").mkdir()
    for name in HIGHS_FILES:
        shutil.copy2(ROOT / "node_modules" / "highs" / "build" / name, dist / "highs" / name)
    write_pyapp_zip(dist / "pyapp.zip")
    write_board_data(dist)
    write_version(dist)
    write_benchmarks(dist)
    write_sets(dist)
    write_opening(dist)
    write_snapshot(dist)
    (dist / "manifest.webmanifest").write_text(json.dumps(manifest(), indent=2) + "\n", encoding="utf-8")
    (dist / "icons" / "icon.svg").write_text(icon_svg(), encoding="utf-8")
    for size in (192, 512):
        (dist / "icons" / f"icon-{size}.png").write_bytes(draw_icon(size))
    return write_service_worker(dist)


def _sources() -> list[Path]:
    files = [ROOT / p for p in (*PAGES, "sw.js", "build.py", "package-lock.json") if (ROOT / p).is_file()]
    for folder in ("static", "pyapp", BENCHMARKS, "sets"):
        files += [p for p in (ROOT / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    return files


def needs_build(dist: Path = DIST) -> bool:
    stamp = dist / "sw.js"
    if not stamp.is_file():
        return True
    built = stamp.stat().st_mtime
    return any(p.stat().st_mtime > built for p in _sources())


# ---------------------------------------------------------------- serving
def page_csp(page: Path = ROOT / "index.html") -> str:
    """The Content-Security-Policy of the app, as ``index.html`` declares it in its ``<meta>`` tag."""
    found = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', page.read_text("utf-8"))
    if not found:
        raise SystemExit(f"{page.name} lacks its Content-Security-Policy meta tag")
    return found.group(1)


def security_headers() -> dict[str, str]:
    """What ``serve`` adds to every response: the page's CSP (which then covers the engine worker
    too) with a frame policy (``frame-ancestors`` only works as a header), no MIME sniffing."""
    return {
        "Content-Security-Policy": page_csp() + "; frame-ancestors 'none'",
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
    }


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the MIME types the app needs, the security headers of :func:`security_headers`,
    and ``no-cache`` so edits show up at once."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    headers_to_add = security_headers()

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        for name, value in self.headers_to_add.items():
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        if getattr(self.server, "verbose", True):
            super().log_message(format, *args)


def make_server(directory: Path = DIST, port: int = 8000, *, verbose: bool = True) -> http.server.ThreadingHTTPServer:
    """A threading HTTP server for ``directory`` on 127.0.0.1 (port 0 picks a free port)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=str(directory)))
    server.verbose = verbose  # type: ignore[attr-defined]
    return server


def missing_dependencies() -> list[str]:
    """The engine's dependencies (``pyproject.toml``'s ``[project] dependencies``) this Python lacks: the build
    decides proofs (the opening's never-lose answers) with HiGHS, and without it would ship fewer of them."""
    import importlib.metadata
    import tomllib

    wanted = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    missing = []
    for requirement in wanted:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement)
        try:
            importlib.metadata.distribution(name.group(0) if name else requirement)
        except importlib.metadata.PackageNotFoundError:
            missing.append(requirement)
    return missing


def ensure_dependencies(argv: list[str]) -> None:
    """Run in the project's virtual environment (``.venv/``, created if missing, never the system Python) with
    the engine's dependencies installed, when this Python lacks them; the build goes on without them, saying
    so, only when they cannot be installed (no package index)."""
    missing = missing_dependencies()
    if not missing:
        return
    python = ROOT / ".venv" / "bin" / "python"
    try:
        if not python.exists():
            subprocess.run([sys.executable, "-m", "venv", str(ROOT / ".venv")], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *missing],
                       check=True)
    except (OSError, subprocess.CalledProcessError) as err:
        print(f"warning: cannot install {', '.join(missing)} ({err}); building without them: proofs that need "
              "a linear programme are left out of the opening's answers", file=sys.stderr)
        return
    if Path(sys.executable).absolute() == python.absolute():
        importlib.invalidate_caches()  # installed into this very Python: importable from now on
    else:
        os.execv(str(python), [str(python), str(Path(__file__).resolve()), *argv])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ensure_dependencies(argv)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", help="build if needed, then serve dist/ on 127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    make = sub.add_parser("build", help="write dist/ (the default)")
    make.add_argument("--out", type=Path, default=DIST, help="the folder to write (default: dist/)")
    args = parser.parse_args(argv)
    if args.command == "serve":
        if needs_build():
            print(f"built dist/ (version {build()})")
        server = make_server(DIST, args.port)
        print(f"serving dist/ on http://127.0.0.1:{server.server_address[1]}/  (Ctrl+C stops)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
        return 0
    out = getattr(args, "out", DIST)
    version = build(out)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"built {out} (version {version}, {size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
