// Runs the benchmark suite (pyapp/bench/suite.py, the same definition as `python -m pyapp bench`)
// inside real Pyodide under Node, offline, and prints the same table (or JSON).
//
// Usage (from the repository root):
//   node scripts/bench_pyodide.mjs [--json] [--repeat N] [--quick] [--only NAME...] [--no-memory]
//                                  [--budget SECONDS] [--cold-starts N]
// --cold-starts N also measures Pyodide's cold start N times, each in a fresh Node process
// (loadPyodide + writing pyapp into the FS + importing it), and reports the median.
// Progress (one line per finished row) goes to stderr; the table or JSON to stdout.
// Exit code: 0, or 1 when a row's answer failed its check (WRONG).

import { spawnSync } from "node:child_process";
import { writeSync } from "node:fs";
import { join } from "node:path";
import { loadPyapp, ROOT, wasmHeapBytes } from "./pyodide_runner.mjs";

function parseArgs(argv) {
  const opts = { json: false, repeat: null, quick: false, only: null, memory: null, budget: null, coldStarts: 0 };
  const num = (flag, v) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} expects a positive number, got ${JSON.stringify(v)}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--json") opts.json = true;
    else if (a === "--quick") opts.quick = true;
    else if (a === "--no-memory") opts.memory = false;
    else if (a === "--repeat") opts.repeat = Math.floor(num(a, argv[++i]));
    else if (a === "--budget") opts.budget = num(a, argv[++i]);
    else if (a === "--cold-starts") opts.coldStarts = Math.floor(num(a, argv[++i]));
    else if (a === "--only") {
      opts.only = [];
      while (i + 1 < argv.length && !argv[i + 1].startsWith("--")) opts.only.push(argv[++i]);
      if (!opts.only.length) throw new Error("--only expects at least one row name");
    } else throw new Error(`unknown argument ${JSON.stringify(a)}`);
  }
  return opts;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Cold starts, each in a new Node process: [{load_s, install_s, import_s, total_s, wasm_heap_mb}]. */
export function coldStarts(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const r = spawnSync(process.execPath, [join(ROOT, "scripts", "pyodide_runner.mjs"), "--timing", "-c", "pass"], {
      encoding: "utf8",
    });
    const line = (r.stderr || "").split("\n").find((l) => l.startsWith('{"timing"'));
    if (r.status !== 0 || !line) throw new Error(`cold start ${i + 1} failed: ${r.stderr}`);
    out.push(JSON.parse(line).timing);
  }
  return out;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { pyodide, timing } = await loadPyapp();
  writeSync(2, `bench: Pyodide loaded in ${timing.total_s} s (loadPyodide ${timing.load_s} s)\n`);
  const kwargs = { quick: opts.quick, repeat: opts.repeat, only: opts.only, memory: opts.memory, budget: opts.budget };
  pyodide.globals.set("__bench_kwargs", JSON.stringify(kwargs));
  const result = JSON.parse(
    await pyodide.runPythonAsync(`
import json, sys
from pyapp.bench import suite as bench
__kw = json.loads(__bench_kwargs)
__rows = []
for __row in bench.iter_suite(**__kw):
    print("bench: " + bench.format_row_line(__row), file=sys.stderr, flush=True)
    __rows.append(__row)
json.dumps({"environment": bench.environment(), "rows": __rows,
            "wrong": [r["name"] for r in bench.wrong_rows(__rows)], "table": bench.format_table(__rows)})
`),
  );
  result.environment.host = `Node ${process.version}`;
  result.cold_start = { in_process: timing };
  result.wasm_heap_mb_end = Math.round(wasmHeapBytes(pyodide) / 2 ** 20);
  if (opts.coldStarts) {
    const runs = coldStarts(opts.coldStarts);
    result.cold_start.runs = runs;
    const r3 = (x) => Math.round(x * 1000) / 1000;
    result.cold_start.median_total_s = r3(median(runs.map((r) => r.total_s)));
    result.cold_start.median_load_s = r3(median(runs.map((r) => r.load_s)));
  }
  if (opts.json) {
    delete result.table;
    writeSync(1, JSON.stringify(result) + "\n");
  } else {
    const env = result.environment;
    const cs = result.cold_start;
    const lines = [
      `Runtime: ${env.runtime} (${env.platform}) under ${env.host}, ${env.date}`,
      `Cold start (this process): loadPyodide ${timing.load_s} s, pyapp install ${timing.install_s} s, ` +
        `import ${timing.import_s} s, total ${timing.total_s} s`,
    ];
    if (cs.runs) {
      lines.push(`Cold start, median of ${cs.runs.length} fresh processes: total ${cs.median_total_s} s ` +
        `(loadPyodide ${cs.median_load_s} s)`);
    }
    lines.push(`WebAssembly heap at the end: ${result.wasm_heap_mb_end} MB`, "", result.table);
    if (result.wrong.length) lines.push("", `WRONG ANSWERS: ${result.wrong.join(", ")}`);
    writeSync(1, lines.join("\n") + "\n");
  }
  return result.wrong.length ? 1 : 0;
}

main().then(
  (status) => process.exit(status),
  (err) => {
    writeSync(2, `bench_pyodide: ${err.message}\n`);
    process.exit(3);
  },
);
