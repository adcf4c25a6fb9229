"""Run the integer programme (``solve --engine ilp``, :mod:`pyapp.search.ilp`) in Pyodide inside headless Chromium,
on HiGHS compiled to WebAssembly (the site's ``highs/``), and compare with CPython's highspy on the same cells.

The page offers no integer-programme engine (a call of minutes cannot be cancelled there), so this script loads the
site's own runtime the way the engine worker does: Pyodide from ``pyodide/``, pyapp from ``pyapp.zip``, and the
``peg_lp`` module of ``static/engine/lp.mjs`` over ``highs/highs.mjs``, in a blank page of the served site, and runs
:func:`pyapp.search.ilp.solve_ilp` there.  Every ``solved`` answer was replayed by pyapp before it is reported (in
both runtimes), and the answers of both runtimes must agree (exit code 1 if not).

    python scripts/ilp_chromium.py [--dist DIR] [--cells triangle5:default diamond41:e1:e9] [--max-seconds 600]

Prints JSON: per cell and runtime the answer, HiGHS's nodes and the seconds (wall; the load average is printed
with them).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_chromium import CHROMIUM, CHROMIUM_ARGS, served_site  # noqa: E402

DEFAULT_CELLS = ("triangle5:default", "diamond41:e1:e9")
"""Cells the programme settles in seconds: a solution (replayed) and a proof of infeasibility."""

BOOT = """async (helper) => {
  const { loadPyodide } = await import("/pyodide/pyodide.mjs");
  const t0 = performance.now();
  const py = await loadPyodide({ indexURL: "/pyodide/" });
  const zip = await (await fetch("/pyapp.zip")).arrayBuffer();
  py.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/app" });
  py.runPython("import sys\\nif '/home/pyodide/app' not in sys.path: sys.path.insert(0, '/home/pyodide/app')");
  const { lpModule } = await import("/static/engine/lp.mjs");
  const lp = lpModule(async () => {
    const { default: loadHighs } = await import("/highs/highs.mjs");
    return loadHighs({ locateFile: (file) => `/highs/${file}` });
  });
  py.registerJsModule("peg_lp", lp);
  py.FS.writeFile("/home/pyodide/app/pyapp_cell.py", helper);
  await lp.ready();
  window.py = py;
  return { python: py.runPython("import sys; sys.version.split()[0]"), pyodide: py.version, highs: lp.state(),
           seconds: (performance.now() - t0) / 1000 };
}"""

SOLVE = """(args) => {
  const t0 = performance.now();
  const out = window.py.runPython(`
import json
from pyapp.core.request import result_json
from pyapp.search.ilp import solve_ilp
from pyapp_cell import problem_of
args = json.loads(${JSON.stringify(JSON.stringify(args))})
problem = problem_of(args)
json.dumps(result_json(problem.board, solve_ilp(problem, max_seconds=args["seconds"])))
`);
  return { result: JSON.parse(out), wall: (performance.now() - t0) / 1000 };
}"""


def parse_cell(text: str) -> dict:
    parts = text.split(":")
    if len(parts) not in (2, 3):
        raise SystemExit(f"a cell is BOARD:START[:GOAL], not {text!r}")
    return {"board": parts[0], "start": parts[1], "goal": parts[2] if len(parts) == 3 else None}


PROBLEM_OF = """
from pyapp.core.catalogue import get_board
from pyapp.core.problem import default_problem, make_problem


def problem_of(cell):
    if cell["start"] is None:
        return default_problem(cell["board"])
    return make_problem(get_board(cell["board"]), start=cell["start"], goal=cell["goal"])
"""
"""The one helper both runtimes build a cell's problem with (written into Pyodide's file system as a module)."""


def cpython(cell: dict, seconds: float) -> dict:
    from pyapp.core.request import result_json
    from pyapp.search.ilp import solve_ilp

    scope: dict = {}
    exec(PROBLEM_OF, scope)
    problem = scope["problem_of"](cell)
    t0, c0 = time.perf_counter(), time.process_time()
    result = result_json(problem.board, solve_ilp(problem, max_seconds=seconds))
    return {"result": result, "wall": time.perf_counter() - t0, "cpu": time.process_time() - c0}


def summary(run: dict) -> dict:
    r = run["result"]
    out = {"status": r["status"], "nodes": r.get("nodes"), "wall_s": round(run["wall"], 2),
           "reason": r.get("reason"), "method": r.get("method")}
    if "cpu" in run:
        out["cpu_s"] = round(run["cpu"], 2)
    if r["status"] == "solved":
        out["moves"] = len(r.get("moves") or [])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dist", help="an existing build (default: build into a temporary folder)")
    ap.add_argument("--cells", nargs="+", default=list(DEFAULT_CELLS), help="BOARD:START[:GOAL] (START 'default')")
    ap.add_argument("--max-seconds", type=float, default=600.0, help="the programme's time limit per cell")
    args = ap.parse_args(argv)
    cells = [parse_cell(c) for c in args.cells]
    for c in cells:
        if c["start"] == "default":
            c["start"] = None
    from playwright.sync_api import sync_playwright

    rows = []
    with served_site(args.dist, "ilp") as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context(service_workers="block").new_page()
        blank = "<!doctype html><title>ilp</title><link rel=icon href='data:,'>"
        page.route(f"{base}/__ilp.html", lambda route: route.fulfill(status=200, content_type="text/html", body=blank))
        page.goto(f"{base}/__ilp.html")
        boot = page.evaluate(BOOT, PROBLEM_OF)
        print(f"ilp: Pyodide {boot['pyodide']} (Python {boot['python']}) and HiGHS ({boot['highs']}) loaded in "
              f"{boot['seconds']:.1f} s",
              file=sys.stderr, flush=True)
        for c in cells:
            name = f"{c['board']} {c['start'] or 'default'}" + (f" -> {c['goal']}" if c["goal"] else "")
            load0 = os.getloadavg()[0]
            wasm = summary(page.evaluate(SOLVE, {**c, "seconds": args.max_seconds}))
            load1 = os.getloadavg()[0]
            native = summary(cpython(c, args.max_seconds))
            load2 = os.getloadavg()[0]
            agree = wasm["status"] == native["status"]
            rows.append({"cell": name, "chromium": wasm, "cpython": native, "agree": agree,
                         "load": [round(load0, 1), round(load1, 1), round(load2, 1)]})
            print(f"ilp {name}: Chromium {wasm['status']} {wasm['wall_s']} s ({wasm['nodes']} nodes), "
                  f"CPython {native['status']} {native['wall_s']} s", file=sys.stderr, flush=True)
        version = browser.version
        browser.close()
    print(json.dumps({"runtime": f"Pyodide {boot['pyodide']} (Python {boot['python']}) in Chromium {version}; "
                                 f"CPython {sys.version.split()[0]}",
                      "pyodide_and_highs_load_s": round(boot["seconds"], 2), "rows": rows}, indent=1))
    return 0 if all(r["agree"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
