// bench.html's "How cost grows" section: the committed results (benchmarks/*.json, shipped by build.py
// with benchmarks/index.json naming them) drawn as charts (figures.mjs), and "Run the quick study here":
// the scaling study of pyapp.bench.scaling run in this page's Pyodide worker (the "study" request,
// pyapp.web.jobs_bench.study_job: one run per step, so progress shows and Cancel stops it between two runs),
// whose runs and fits are drawn with the same code beside the committed ones and offered as JSON.
//
// State lives in the page's one store (static/store.mjs), slice "study"; the view below renders it.
// For scripts and tests: <html data-study="idle|running|done|cancelled|failed"> and window.benchStudy
// (the store's study slice: status, done, planned, result...).  ?study=tiny runs a smaller plan
// (two boards up to 15 pegs, the same code), for tests.

import * as figures from "./figures.mjs";

const $ = (id) => document.getElementById(id);
const SCALING_CHARTS = [["time-vs-pegs", figures.timeVsPegs], ["time-vs-nodes", figures.timeVsNodes],
  ["outcomes", figures.outcomes]];
/** What each ?study= value asks the worker for (pyapp.web.jobs_bench.study_job's arguments). */
export const PLANS = {
  quick: { quick: true },
  tiny: { quick: true, boards: ["triangle7", "english"], max_pegs: 15, warm_solves: 10 },
};

/** The committed results the build shipped: {name: parsed JSON}; files that fail to load are left out
 *  (and named in `missing`), so one bad file costs its charts only. */
export async function loadResults(base = new URL("../../benchmarks/", import.meta.url)) {
  const index = await (await fetch(new URL("index.json", base))).json();
  const out = { missing: [] };
  await Promise.all(index.results.map(async (name) => {
    try {
      const response = await fetch(new URL(`${name}.json`, base));
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      out[name] = await response.json();
    } catch (err) {
      out.missing.push(`${name}.json (${err.message})`);
    }
  }));
  return out;
}

/** The committed charts: one slot per scaling chart (the visitor's run joins it later), then start-up,
 *  latency and, when parallel.json exists, the parallel speedup. */
export function drawCommitted(results) {
  const root = $("growth-figures");
  root.replaceChildren();
  const scaling = results.scaling;
  if (scaling) {
    const env = scaling.study.environment || {};
    const source = `committed: ${env.runtime || "CPython"}, ${scaling.study.quick ? "quick" : "full"} study`;
    for (const [name, draw] of SCALING_CHARTS) {
      const slot = document.createElement("div");
      slot.className = "chart-pair";
      slot.dataset.chart = name;
      slot.append(draw(scaling, source));
      root.append(slot);
    }
  }
  for (const fig of [results.startup && figures.startup(results.startup),
    results.neverlose && figures.latency(results.neverlose), results.parallel && figures.parallel(results.parallel)]) {
    if (fig) root.append(fig);
  }
}

/** The visitor's study drawn into the slots beside the committed charts (replacing an earlier run's). */
function drawVisitor(data) {
  const source = "your browser";
  for (const [name, draw] of SCALING_CHARTS) {
    let slot = document.querySelector(`#growth-figures .chart-pair[data-chart="${name}"]`);
    if (!slot) {
      slot = document.createElement("div");
      slot.className = "chart-pair";
      slot.dataset.chart = name;
      $("growth-figures").prepend(slot);
    }
    slot.querySelector('[data-source="your browser"]')?.remove();
    const fig = draw(data, source);
    fig.querySelector("figcaption").append(` Runtime: ${data.study.environment?.runtime ?? "this browser"}, ` +
      `${data.study.quick ? "quick" : "full"} study, ${data.study.wall_seconds} s.`);
    slot.append(fig);
  }
}

const seconds = (s) => `${s.toFixed(1)} s`;

/** The study slice of the store and its actions. */
function defineSlice(store) {
  store.define("study", { status: "loading", phase: "", done: 0, planned: 0, message: "Loading the Python engine...",
    result: null, url: null, plan: "quick", id: null, started: 0 }, {
    ready(s) { s.study = { ...s.study, status: "idle", message: "" }; },
    failed(s, message) { s.study = { ...s.study, status: "failed", message, id: null }; },
    start(s, id, plan) {
      s.study = { ...s.study, status: "running", id, plan, phase: "runs", done: 0, planned: 0, result: null,
        started: performance.now(), message: "Starting the study..." };
    },
    progress(s, p) { s.study = { ...s.study, phase: p.phase, done: p.done, planned: p.planned }; },
    finish(s, result, url) {
      const wall = (performance.now() - s.study.started) / 1000;
      s.study = { ...s.study, status: "done", result, url, id: null, wall,
        message: `Done: ${result.runs.length} runs in ${seconds(wall)} in this page ` +
          `(${result.runs.filter((r) => r.status === "unknown").length} spent the budget); drawn beside the committed charts.` };
    },
    cancelled(s, runs) {
      s.study = { ...s.study, status: "cancelled", id: null,
        message: `Cancelled after ${runs} runs; nothing drawn (a partial study has no fits to compare).` };
    },
  });
}

/** Render the slice: buttons, progress bar, status line, download link; mirror it for scripts. */
function view(state) {
  const st = state.study;
  const suiteBusy = state.suite?.running;
  document.documentElement.dataset.study = st.status;
  window.benchStudy = st;
  $("study-run").disabled = st.status === "loading" || st.status === "running" || suiteBusy;
  $("study-cancel").hidden = st.status !== "running";
  $("study-progress").hidden = st.status !== "running";
  if (st.status === "running") {
    $("study-progress").max = Math.max(st.planned, 1);
    $("study-progress").value = st.done;
    const what = st.phase === "runs" ? "runs" : "English solves timed for the fixed cost";
    $("study-status").textContent = st.planned ? `${st.done} / ${st.planned} ${what} (${st.phase})...` : st.message;
  } else {
    $("study-status").textContent = suiteBusy && st.status !== "loading" ? "The suite is running; the study waits for it." : st.message;
  }
  $("study-status").classList.toggle("error", st.status === "failed");
  $("study-download").hidden = !st.url;
  if (st.url) $("study-download").href = st.url;
}

/** Start the section: draw the committed charts at once (no engine needed), then enable the study
 *  button when the engine is ready.  `engine` is the page's protocol.mjs Engine, `store` its Store. */
export function initStudy(engine, store, params = new URLSearchParams(location.search)) {
  defineSlice(store);
  store.subscribe(view);
  view(store.state);
  const plan = PLANS[params.get("study")] ? params.get("study") : "quick";
  loadResults().then(drawCommitted).catch((err) => {
    $("growth-figures").textContent = `The committed results could not be loaded: ${err.message}`;
  });
  engine.ready.then(() => store.do("study/ready"), (err) => store.do("study/failed", err.message));
  $("study-cancel").addEventListener("click", () => {
    if (store.state.study.id !== null) engine.cancel(store.state.study.id);
  });
  $("study-run").addEventListener("click", async () => {
    if (store.state.study.url) URL.revokeObjectURL(store.state.study.url);
    const args = { ...PLANS[plan], browser: navigator.userAgent };
    const { id, promise } = engine.request("study", args, { onProgress: (p) => store.do("study/progress", p) });
    store.do("study/start", id, plan);
    try {
      const result = await promise;
      if (result.cancelled) {
        store.do("study/cancelled", result.runs.length);
        return;
      }
      const blob = new Blob([JSON.stringify(result, null, 1) + "\n"], { type: "application/json" });
      drawVisitor(result);
      store.do("study/finish", result, URL.createObjectURL(blob));
    } catch (err) {
      store.do("study/failed", `The study failed: ${err.message}`);
    }
  });
}
