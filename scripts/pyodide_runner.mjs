// Runs pyapp inside real Pyodide (CPython compiled to WebAssembly) under Node, with no network.
//
// Loads the pinned npm `pyodide` from node_modules, copies the repository's `pyapp/` sources into
// Pyodide's in-memory file system, puts them on sys.path and runs Python there.  Used by the tests
// (tests/test_pyodide.py) and the Pyodide benchmark (scripts/bench_pyodide.mjs).
//
// Command line (from the repository root):
//   node scripts/pyodide_runner.mjs -c "import pyapp; print(pyapp.__version__)"
//   node scripts/pyodide_runner.mjs -m pyapp solve english --json     (like `python -m pyapp ...`)
//   node scripts/pyodide_runner.mjs --timing -c "pass"                 (start-up times on stderr as JSON)
// The exit code is Python's: 0, the CLI's own code, or 1 on an uncaught exception.
//
// As a module:
//   import { loadPyapp } from "./pyodide_runner.mjs";
//   const { pyodide, timing } = await loadPyapp();
//   pyodide.runPython("from pyapp.bench.suite import run_suite");

import { readdirSync, readFileSync, statSync, writeSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { lpModule } from "../static/engine/lp.mjs";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SITE = "/home/pyodide/peg"; // where pyapp/ lives inside Pyodide's file system

/** Refuse every network request: the runtime and pyapp must come from disk. */
export function forbidNetwork() {
  const refuse = (what) => async (input) => {
    const url = typeof input === "string" ? input : input?.url ?? String(input);
    if (/^(https?|wss?):/i.test(url)) throw new Error(`network access refused (${what} ${url}): runs offline`);
    return realFetch(input);
  };
  const realFetch = globalThis.fetch;
  globalThis.fetch = refuse("fetch");
}

/** Every .py file under `dir` as [path relative to root, bytes]. */
export function pythonFiles(dir, root = dirname(dir)) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === "__pycache__" || name.startsWith(".")) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...pythonFiles(full, root));
    else if (name.endsWith(".py")) out.push([relative(root, full), readFileSync(full)]);
  }
  return out;
}

/** Write `pyapp/` into Pyodide's file system and put it on sys.path. */
export function installPyapp(pyodide, root = ROOT) {
  const files = pythonFiles(join(root, "pyapp"), root);
  for (const [path, data] of files) {
    const target = `${SITE}/${path}`;
    pyodide.FS.mkdirTree(dirname(target));
    pyodide.FS.writeFile(target, data);
  }
  pyodide.runPython(`import sys\nif ${JSON.stringify(SITE)} not in sys.path: sys.path.insert(0, ${JSON.stringify(SITE)})`);
  return files.length;
}

/** Forward Python's stdout/stderr to the process's, byte for byte. */
function rawWriter(fd) {
  return { write: (buffer) => writeSync(fd, buffer), isatty: false };
}

/** Register the HiGHS WebAssembly module (node_modules/highs) as `peg_lp`, loaded before Python runs
 *  (Python here cannot give the event loop a turn while it waits).  `lp: false` leaves it out, as a
 *  page whose highs file is missing would: programmes then answer "unavailable". */
export async function installLp(pyodide, root = ROOT) {
  const lp = lpModule(async () => {
    const { default: loadHighs } = await import(pathToFileURL(join(root, "node_modules", "highs", "build", "highs.mjs")).href);
    return loadHighs();
  });
  pyodide.registerJsModule("peg_lp", lp);
  await lp.ready();
  return lp.state();
}

/**
 * Load Pyodide from node_modules and install pyapp.  Returns {pyodide, timing} where timing has
 * `load_s` (loadPyodide), `install_s` (writing pyapp into the FS and loading HiGHS), `import_s` (importing pyapp and
 * its solver) and `total_s`, all wall-clock seconds.
 */
export async function loadPyapp({ root = ROOT, offline = true, stdout = 1, stderr = 2, lp = true } = {}) {
  if (offline) forbidNetwork();
  const t0 = performance.now();
  const indexURL = join(root, "node_modules", "pyodide") + "/";
  let loadPyodide;
  try {
    ({ loadPyodide } = await import(pathToFileURL(join(indexURL, "pyodide.mjs")).href));
  } catch (err) {
    throw new Error(`cannot load node_modules/pyodide (run 'npm ci'): ${err.message}`);
  }
  const pyodide = await loadPyodide({ indexURL });
  const t1 = performance.now();
  pyodide.setStdout(rawWriter(stdout));
  pyodide.setStderr(rawWriter(stderr));
  installPyapp(pyodide, root);
  if (lp) await installLp(pyodide, root);
  const t2 = performance.now();
  pyodide.runPython("import pyapp, pyapp.search.solver, pyapp.core.catalogue");
  const t3 = performance.now();
  const s = (ms) => Math.round(ms) / 1000;
  return { pyodide, timing: { load_s: s(t1 - t0), install_s: s(t2 - t1), import_s: s(t3 - t2), total_s: s(t3 - t0) } };
}

/** Size of the WebAssembly heap in bytes (grows only: an upper bound of peak use so far). */
export function wasmHeapBytes(pyodide) {
  return pyodide._module?.HEAP8?.length ?? null;
}

/** Run `code`; return Python's exit status (SystemExit honoured, uncaught exception -> 1 with traceback). */
export async function runCode(pyodide, code) {
  pyodide.globals.set("__runner_code", code);
  const status = await pyodide.runPythonAsync(`
import sys, traceback
def __runner_main(code):
    try:
        exec(compile(code, "<runner>", "exec"), {"__name__": "__main__"})
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    except BaseException:
        traceback.print_exc()
        return 1
    finally:
        sys.stdout.flush(); sys.stderr.flush()
    return 0
__runner_main(__runner_code)
`);
  return status;
}

function usage() {
  return "usage: node scripts/pyodide_runner.mjs [--timing] [--no-offline] [--no-lp] (-c CODE | -m pyapp ARGS...)";
}

async function main(argv) {
  let timing = false;
  let offline = true;
  let lp = true;
  let code = null;
  while (argv.length) {
    const a = argv.shift();
    if (a === "--timing") timing = true;
    else if (a === "--no-offline") offline = false;
    else if (a === "--no-lp") lp = false;
    else if (a === "-c") code = argv.shift();
    else if (a === "-m") {
      const mod = argv.shift();
      if (mod !== "pyapp") throw new Error(`only '-m pyapp' is supported, not ${mod}`);
      code = `import sys\nfrom pyapp.cli.main import main\nsys.exit(main(${JSON.stringify(argv.splice(0))}))`;
    } else if (a === "-h" || a === "--help") {
      console.log(usage());
      return 0;
    } else throw new Error(`unknown argument ${JSON.stringify(a)}; ${usage()}`);
  }
  if (code === null) throw new Error(usage());
  const { pyodide, timing: t } = await loadPyapp({ offline, lp });
  const status = await runCode(pyodide, code);
  if (timing) {
    writeSync(2, JSON.stringify({ timing: { ...t, wasm_heap_mb: Math.round(wasmHeapBytes(pyodide) / 2 ** 20) } }) + "\n");
  }
  return status;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (status) => process.exit(status),
    (err) => {
      writeSync(2, `pyodide_runner: ${err.message}\n`);
      process.exit(3);
    },
  );
}
