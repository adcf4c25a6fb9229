"""build.py: the deployable site, its service-worker asset list, icons, and the server's MIME types."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import struct
import sys
import threading
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402


@pytest.fixture(scope="module")
def site(built_site, tmp_path_factory) -> Path:
    """A copy of the suite's one build (some tests here edit files in it)."""
    target = tmp_path_factory.mktemp("build") / "dist"
    shutil.copytree(built_site, target)
    return target


def _sw_assets(site: Path, which: str = "ASSETS") -> tuple[str, dict]:
    """The build version and the service worker's precache list (``ASSETS``) or lazy list (``LAZY``)."""
    text = (site / "sw.js").read_text()
    version = text.split('const VERSION = "')[1].split('"')[0]
    listing = text.split(f"const {which} = ")[1].split(";\n", 1)[0]
    return version, json.loads(listing)


def test_site_has_the_page_modules_worker_and_only_the_needed_runtime_files(site):
    for name in ("index.html", "sw.js", "manifest.webmanifest", "pyapp.zip", "static/app.mjs",
                 "static/engine/worker.mjs", "static/style.css", "icons/icon.svg", "icons/icon-192.png",
                 "icons/icon-512.png"):
        assert (site / name).is_file(), name
    assert sorted(p.name for p in (site / "pyodide").iterdir()) == sorted(build.PYODIDE_FILES)


def test_site_vendors_the_pinned_highs_webassembly_and_precaches_it(site):
    """HiGHS for the page's linear programmes: copied from node_modules (no CDN), the version package.json
    pins, and in the service worker's list (so it works offline after one visit)."""
    assert sorted(p.name for p in (site / "highs").iterdir()) == sorted(build.HIGHS_FILES)
    assert json.loads((ROOT / "package.json").read_text())["dependencies"]["highs"] == "1.15.3"
    wasm = (site / "highs" / "highs.wasm").read_bytes()
    assert wasm[:4] == b"\0asm" and wasm == (ROOT / "node_modules" / "highs" / "build" / "highs.wasm").read_bytes()
    _, assets = _sw_assets(site)
    assert assets["highs/highs.wasm"]["hash"] == hashlib.sha256(wasm).hexdigest()
    assert "highs/highs.mjs" in assets


def test_pyapp_zip_holds_the_library_and_is_reproducible(site, tmp_path):
    with zipfile.ZipFile(site / "pyapp.zip") as zf:
        names = zf.namelist()
    assert "pyapp/__init__.py" in names and "pyapp/web/api.py" in names and "pyapp/search/solver.py" in names
    assert not [n for n in names if "__pycache__" in n or not n.endswith(".py")]
    again = tmp_path / "again.zip"
    build.write_pyapp_zip(again)
    assert again.read_bytes() == (site / "pyapp.zip").read_bytes()


def test_service_worker_lists_every_asset_with_its_hash_and_the_sets_apart(site):
    version, assets = _sw_assets(site)
    lazy = _sw_assets(site, "LAZY")[1]
    files = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file() and p.name != "sw.js")
    assert sorted([*(k for k in assets if k != "./"), *lazy]) == files
    # the winnable sets are fetched on first use only; their index is precached
    assert lazy and all(k.startswith("sets/") and k.endswith(".bin") for k in lazy)
    assert "sets/index.json" in assets and not any(k.endswith(".bin") and k.startswith("sets/") for k in assets)
    for name, entry in {**assets, **lazy}.items():
        data = (site / ("index.html" if name == "./" else name)).read_bytes()
        assert entry == {"hash": hashlib.sha256(data).hexdigest(), "size": len(data)}
    assert len(version) == 16 and "@VERSION@" not in (site / "sw.js").read_text()


def test_version_follows_content(site):
    version, before = _sw_assets(site)
    assert build.write_service_worker(site) == version  # same files, same version
    (site / "static" / "style.css").write_text((site / "static" / "style.css").read_text() + "/* changed */")
    assert build.write_service_worker(site) != version
    after = _sw_assets(site)[1]
    assert after["static/style.css"]["hash"] != before["static/style.css"]["hash"]
    assert after["static/app.mjs"] == before["static/app.mjs"]


def test_icons_are_valid_pngs_of_the_declared_sizes(site):
    manifest = json.loads((site / "manifest.webmanifest").read_text())
    assert manifest["start_url"] == "./" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        data = (site / icon["src"]).read_bytes()
        if icon["type"] == "image/png":
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", data[16:24])
            assert f"{width}x{height}" == icon["sizes"]
        else:
            assert data.startswith(b"<svg")


def test_index_links_favicon_manifest_and_has_the_stable_buttons():
    html = (ROOT / "index.html").read_text()
    assert 'rel="icon"' in html and 'rel="manifest"' in html
    for label in ("Solve", "Cancel", "Undo", "Redo", "Restart", "Copy link"):
        assert f">{label}</button>" in html
    assert 'role="status"' in html


def test_server_sends_the_mime_types_the_app_needs(site):
    server = build.make_server(site, 0, verbose=False)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        expected = {"static/app.mjs": "text/javascript", "pyodide/pyodide.asm.wasm": "application/wasm",
                    "manifest.webmanifest": "application/manifest+json", "index.html": "text/html",
                    "icons/icon.svg": "image/svg+xml"}
        for path, mime in expected.items():
            with urllib.request.urlopen(base + path) as response:
                assert response.headers["Content-Type"].split(";")[0] == mime, path
    finally:
        server.shutdown()
        server.server_close()


def test_needs_build_sees_a_newer_source(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "_sources", lambda: [tmp_path / "src.txt"])
    (tmp_path / "src.txt").write_text("x")
    assert build.needs_build(tmp_path / "missing")
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "sw.js").write_text("built")
    import os
    os.utime(tmp_path / "src.txt", (1, 1))
    assert not build.needs_build(dist)
    os.utime(tmp_path / "src.txt", None)
    os.utime(dist / "sw.js", (2, 2))
    assert build.needs_build(dist)


def test_server_sends_nosniff_a_frame_policy_and_the_pages_csp(site):
    server = build.make_server(site, 0, verbose=False)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        for path in ("", "static/engine/worker.mjs", "pyodide/pyodide.asm.wasm", "sw.js"):
            with urllib.request.urlopen(base + path) as response:
                headers = response.headers
                assert headers["X-Content-Type-Options"] == "nosniff", path
                assert headers["X-Frame-Options"] == "DENY", path
                csp = headers["Content-Security-Policy"]
                assert "frame-ancestors 'none'" in csp and csp.startswith(build.page_csp()), path
    finally:
        server.shutdown()
        server.server_close()


def test_every_page_declares_the_same_strict_csp():
    csp = build.page_csp()
    for part in ("default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", "object-src 'none'",
                 "base-uri 'none'"):
        assert part in csp
    assert "unsafe-inline" not in csp and "'unsafe-eval'" not in csp
    for page in build.PAGES:
        html = (ROOT / page).read_text()
        assert build.page_csp(ROOT / page) == csp, page
        # nothing inline that the policy would block
        assert "<style" not in html and " style=" not in html and not re.search(r"\son[a-z]+=", html), page
        assert all('src="' in tag for tag in html.split("<script")[1:]), page


def test_the_workers_runtime_file_list_matches_the_build():
    text = (ROOT / "static" / "engine" / "runtime_files.mjs").read_text()
    listed = text.split("RUNTIME_FILES = [")[1].split("]")[0]
    names = [part.strip().strip('"') for part in listed.replace("\n", " ").split(",") if part.strip()]
    assert names == [f"pyodide/{n}" for n in build.PYODIDE_FILES] + ["pyapp.zip"]


def test_site_ships_the_committed_benchmark_results_for_the_bench_page(site):
    """bench.html draws its charts from benchmarks/*.json: every committed result is shipped, named in
    benchmarks/index.json and precached (so the charts work offline); the SVG figures are not (the page
    draws its own)."""
    committed = sorted(p.stem for p in (ROOT / "benchmarks").glob("*.json"))
    assert "scaling" in committed
    assert json.loads((site / "benchmarks" / "index.json").read_text())["results"] == committed
    _, assets = _sw_assets(site)
    for name in committed:
        shipped = site / "benchmarks" / f"{name}.json"
        assert shipped.read_bytes() == (ROOT / "benchmarks" / f"{name}.json").read_bytes()
        assert f"benchmarks/{name}.json" in assets
    assert "benchmarks/index.json" in assets
    assert not list((site / "benchmarks").glob("*.svg"))


def test_site_has_the_board_data_and_the_first_board_drawn_into_the_page(site):
    """boards.json is pyapp.web.boarddata's, and index.html's first paint is the English board
    (the skeleton is replaced), so a game can be played before Python starts."""
    from pyapp.web.boarddata import catalogue_data

    assert json.loads((site / "boards.json").read_text()) == catalogue_data()
    html = (site / "index.html").read_text()
    assert "skeleton" not in html and html.count("data-hole=") == 33 and "@BOARD@" not in html
    assert 'rel="preload" href="boards.json"' in html


def STALE(data: bytes) -> bytes:
    """The same file with keys of another key version (same header length: only the version differs)."""
    from pyapp.core.problem import default_problem
    from pyapp.exact.store import key_version

    version = key_version(default_problem("triangle5"))
    return data.replace(f'"keys":"{version}"'.encode(), b'"keys":"' + b"0" * 16 + b'"', 1)


@pytest.mark.parametrize("damage", [lambda b: b[:-7], lambda b: b[:-40] + bytes(40 * [0x5A]), STALE],
                         ids=["truncated", "corrupted", "stale"])
def test_a_damaged_cached_set_is_dropped_and_rebuilt_never_shipped(tmp_path, monkeypatch, damage, capsys):
    from pyapp.core.problem import default_problem
    from pyapp.exact.store import decode
    from pyapp.web import sets

    game = sets.game_of("triangle5")
    monkeypatch.setattr(sets, "SHIPPED", (game,))
    monkeypatch.setattr(build, "SETS_CACHE", tmp_path / "cache")
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir(), second.mkdir()
    build.write_sets(first)
    good = (first / "sets" / sets.file_name(game)).read_bytes()
    cached = tmp_path / "cache" / sets.file_name(game)
    cached.write_bytes(damage(good))
    build.write_sets(second)
    why = capsys.readouterr().err
    assert "dropping the cached set of triangle5" in why and ("stale" in why) == (damage is STALE)
    shipped = (second / "sets" / sets.file_name(game)).read_bytes()
    assert shipped == cached.read_bytes() == good  # rebuilt, cached again, identical
    assert len(decode(shipped, default_problem("triangle5"))) == 390


def test_a_game_being_computed_elsewhere_is_waited_for_and_read_not_computed_twice(tmp_path, monkeypatch):
    """The build beside the suite on a fresh machine: the second process to want a game's files waits on its lock
    and reads what the first wrote (pyapp.web.setfiles._computing)."""
    import fcntl
    import threading

    from pyapp.web import setfiles, sets

    game = sets.game_of("triangle5")
    made = setfiles.game_files(game, tmp_path / "elsewhere", build.SETS_ARTEFACTS)
    assert made is not None
    cache = tmp_path / "cache"
    cache.mkdir()
    got: list[object] = []
    with open(cache / f"{game.stem}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process computing the game
        waiting = threading.Thread(target=lambda: got.append(setfiles.game_files(game, cache, build.SETS_ARTEFACTS)))
        waiting.start()
        waiting.join(0.5)
        assert waiting.is_alive() and not got  # waits on the lock
        monkeypatch.setattr(setfiles, "winnable", lambda problem: pytest.fail("computed a second time"))
        for name, data in made.values():
            (cache / name).write_bytes(data)
        fcntl.flock(lock, fcntl.LOCK_UN)
    waiting.join(30)
    assert got == [made]


def test_the_page_footer_shows_the_package_version(site):
    import pyapp

    html = (site / "index.html").read_text()
    assert f'<span id="app-version">Peg Solitaire Lab {pyapp.__version__}</span>' in html
    assert build.VERSION_MARK not in html


def test_the_build_knows_which_engine_dependencies_this_python_lacks(tmp_path, monkeypatch):
    """build.py runs in the project's .venv (installing pyproject.toml's dependencies) when the Python that
    started it lacks them: the test environment has them all; a project naming an absent one is told so."""
    assert build.missing_dependencies() == []
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["highspy==1.15.1", '
                                             '"no-such-package-peg==1.0"]\n')
    monkeypatch.setattr(build, "ROOT", tmp_path)
    assert build.missing_dependencies() == ["no-such-package-peg==1.0"]


def test_the_opening_is_computed_once_per_library_and_sets_then_read_from_the_cache(site, tmp_path, monkeypatch):
    """build.write_opening keeps opening.json in the set cache under a key of pyapp.zip and sets/index.json: a build
    of the same library and sets copies it, a changed library computes it again, and a set cache pruned by the next
    build's sets keeps it."""
    from pyapp.web import opening, setfiles

    dist = tmp_path / "dist"
    (dist / "sets").mkdir(parents=True)
    shutil.copyfile(site / "pyapp.zip", dist / "pyapp.zip")
    (dist / "sets" / "index.json").write_text("[]\n")  # no set files to load
    computed = (site / "opening.json").read_text()
    cache = tmp_path / "cache"
    monkeypatch.setattr(build, "SETS_CACHE", cache)
    calls: list[int] = []
    monkeypatch.setattr(opening, "opening_book", lambda: calls.append(1) or json.loads(computed))
    build.write_opening(dist)
    build.write_opening(dist)
    assert len(calls) == 1 and (dist / "opening.json").read_text() == computed
    setfiles.prune(cache, set())
    build.write_opening(dist)
    assert len(calls) == 1 and [p.suffix for p in cache.iterdir()] == [".json"]
    with zipfile.ZipFile(dist / "pyapp.zip", "a") as zf:  # another library
        zf.writestr("pyapp/extra.py", "")
    build.write_opening(dist)
    assert len(calls) == 2 and len(list(cache.glob("opening-*.json"))) == 1


def test_the_engine_worker_counts_a_positions_pegs_as_pyapp_reads_them():
    """static/engine/sets.mjs waits for a game's endgame table when a posed position is within its reach: it counts
    the pegs of the position's text with the characters pyapp.core.position reads as pegs."""
    from pyapp.core.position import PEG_CHARS

    text = (ROOT / "static" / "engine" / "sets.mjs").read_text()
    found = re.search(r"const PEG = /\[([^\]]+)\]/g", text)
    assert found and set(found.group(1)) == set(PEG_CHARS)
