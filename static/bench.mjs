// bench.html: runs the benchmark suite (pyapp.bench.suite.iter_suite) in the app's Pyodide module worker
// and shows one table row per finished benchmark.
//
// The worker protocol and its client are protocol.mjs's (the same Engine as the app): a "bench"
// request with {quick, repeat} answers one progress message per row, then the rows.
// For scripts (scripts/bench_chromium.py): <html data-bench="loading|ready|running|done|failed">, and
// window.benchResult = {environment, cold_start_s, rows, wrong, error} once done.  With ?table=BOARD it
// computes that board's whole single-vacancy table instead (scripts/table_chromium.py).
// The page's state is one Store (static/store.mjs): slice "suite" here, "study" in bench/study.mjs
// (the "How cost grows" section: the committed charts and the study run in this page).

import { initStudy } from "./bench/study.mjs";
import { Engine } from "./engine/protocol.mjs";
import { formatCount } from "./numbers.mjs";
import { Store } from "./store.mjs";

const $ = (id) => document.getElementById(id);
const root = document.documentElement;
const params = new URLSearchParams(location.search);
const setState = (state) => (root.dataset.bench = state);

function status(text, isError = false) {
  $("status").textContent = text;
  $("status").classList.toggle("error", isError);
}

function seconds(s) {
  if (s === null || s === undefined) return "-";
  if (s >= 1) return `${s.toFixed(2)} s`;
  if (s >= 0.001) return `${(s * 1000).toFixed(1)} ms`;
  return `${Math.round(s * 1e6)} us`;
}

const count = formatCount;

function addRow(row) {
  const tr = document.createElement("tr");
  const check = String(row.check ?? "");
  if (check.startsWith("WRONG")) tr.className = "wrong";
  else if (check.startsWith("unanswered")) tr.className = "unanswered";
  const peak = row.peak_mb === null || row.peak_mb === undefined ? "-" : row.peak_mb.toFixed(row.peak_mb >= 1 ? 1 : 2);
  const heap = row.wasm_heap_mb ? ` (${Math.round(row.wasm_heap_mb)})` : "";
  const met = { true: "yes", false: "NO" }[row.met] ?? "-";
  const cells = [
    [row.name, ""], [row.answer || row.status, ""], [check, ""], [count(row.nodes), "num"], [count(row.entries), "num"],
    [String(row.runs), "num"], [seconds(row.median_s), "num"], [seconds(row.worst_s), "num"], [peak + heap, "num"],
    [row.target || "-", ""], [met, ""],
  ];
  for (const [text, cls] of cells) {
    const td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    tr.append(td);
  }
  tr.title = row.title;
  $("rows").tBodies[0].append(tr);
}

async function main() {
  setState("loading");
  const quickParam = params.get("quick");
  $("quick").checked = quickParam === "1" || quickParam === "true";
  if (params.get("repeat")) $("repeat").value = params.get("repeat");
  else if ($("quick").checked) $("repeat").value = "1";
  const engine = new Engine();
  const store = new Store();
  store.define("suite", { running: false }, { set(s, running) { s.suite = { running }; } });
  store.subscribe((state) => {
    $("start").disabled = state.suite.running || state.study?.status === "running";
  });
  initStudy(engine, store, params);
  engine.addEventListener("loading", (event) => status(`Loading the Python engine: ${event.detail.stage}...`));
  let info;
  try {
    info = { ...(await engine.ready), cold_start_s: 0 };
    info.cold_start_s = engine.readySeconds;
  } catch (err) {
    setState("failed");
    window.benchResult = { error: err.message, rows: [], wrong: [] };
    status(err.message, true);
    return;
  }
  setState("ready");
  status(`Python ${info.python} ready in ${info.cold_start_s.toFixed(2)} s (worker start to ready).`);
  const run = async () => {
    const args = { quick: $("quick").checked, repeat: Math.max(1, Number($("repeat").value) || 1) };
    const only = (params.get("only") || "").split(",").filter(Boolean); // ?only=row,row: just those rows
    if (only.length) args.only = only;
    store.do("suite/set", true);
    $("rows").tBodies[0].replaceChildren();
    setState("running");
    const t0 = performance.now();
    const seen = [];
    window.benchProgress = seen; // rows so far, for scripts that report progress
    status(`Running the ${args.quick ? "quick" : "full"} suite, ${args.repeat} run(s) per row...`);
    const result = {
      environment: { runtime: `Pyodide (Python ${info.python}) in a module worker`, browser: navigator.userAgent,
        date: new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC", ...args },
      cold_start_s: info.cold_start_s, rows: seen, wrong: [], error: null,
    };
    try {
      const rows = await engine.request("bench", args, { onProgress: (row) => {
        seen.push(row);
        addRow(row);
        status(`${seen.length} rows done (last: ${row.name}, ${seconds(row.median_s)})...`);
      } }).promise;
      result.rows = Array.isArray(rows) ? rows : seen;
      result.wrong = result.rows.filter((r) => String(r.check).startsWith("WRONG")).map((r) => r.name);
      const total = ((performance.now() - t0) / 1000).toFixed(1);
      status(result.wrong.length ? `WRONG ANSWERS in ${result.wrong.join(", ")} (suite took ${total} s)`
        : `Done: ${result.rows.length} rows in ${total} s; every answer checked.`, result.wrong.length > 0);
      setState("done");
    } catch (err) {
      result.error = err.message;
      status(`The suite failed: ${err.message}`, true);
      setState("failed");
    }
    window.benchResult = result;
    $("json").textContent = JSON.stringify(result, null, 1);
    store.do("suite/set", false);
  };
  $("controls").addEventListener("submit", (event) => {
    event.preventDefault();
    run();
  });
  if (params.get("table")) runTable(engine, info, params.get("table"), Number(params.get("problem_seconds")) || 10);
  else if (params.get("run") !== "0") run();
}

/** ?table=BOARD[&problem_seconds=N]: the whole single-vacancy table of one board (the page's "table"
 *  request) instead of the suite, for scripts/table_chromium.py: window.benchProgress holds the last
 *  progress, window.benchResult = {environment, table} the answer (every cell, without the by-start view). */
async function runTable(engine, info, board, problemSeconds) {
  setState("running");
  $("start").disabled = true;
  const environment = { runtime: `Pyodide (Python ${info.python}) in a module worker`, browser: navigator.userAgent,
    date: new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC", board, problem_seconds: problemSeconds };
  status(`Whole single-vacancy table of ${board}, ${problemSeconds} s a problem...`);
  try {
    const { starts, ...table } = await engine.request("table", { board, problem_seconds: problemSeconds }, {
      onProgress: (p) => {
        window.benchProgress = p;
        status(`Table of ${board}: problem ${p.done} of ${p.total} done (${p.problem}), ${p.seconds.toFixed(0)} s`);
      },
    }).promise;
    window.benchResult = { environment, cold_start_s: info.cold_start_s, table, error: null };
    status(`Table of ${board}: ${table.counts.solved} solved, ${table.counts.impossible} impossible, ` +
      `${table.counts.unknown} unknown in ${table.seconds.toFixed(1)} s.`);
    setState("done");
  } catch (err) {
    window.benchResult = { environment, table: null, error: err.message };
    status(`The table failed: ${err.message}`, true);
    setState("failed");
  }
}

main();
