// The engine worker: loads Pyodide from this site (no CDN), unpacks pyapp.zip, then answers
// requests by id.  The messages are defined once, in protocol.mjs (JSDoc types and the helpers
// used here); the Python side is pyapp/web/api.py.
// Long requests (solve, bench) run slice by slice (pyapp.web.api.Job.step, ~50 ms each); between
// slices the worker yields to its event loop, so a cancel is seen within one slice.

import { lpModule } from "./lp.mjs";
import { message } from "./protocol.mjs";
import { missingRuntimeFile } from "./runtime_files.mjs";
import { createSets } from "./sets.mjs";
import { deliverStep, runShardStep, takeSteps } from "./shardwork.mjs";
import { turn } from "./turn.mjs";

const jobs = new Map(); // id -> {cancelled, relay, wake, job}: every call from its arrival to its answer
let lp = null; // the peg_lp module (lp.mjs), registered once Python has started
// requests whose rows run whole searches inside one step (no event-loop turn for HiGHS to load): load it first
const LP_FIRST = new Set(["bench", "study"]);
const WAIT_MS = 250; // a job waiting on the page's pool reports progress this often
let webapi = null;

const T0 = performance.now();
const stageTimes = {}; // stage -> ms it took
let current = null; // [stage, started at]
const post = (msg) => self.postMessage(msg);
function stage(name) {
  const now = performance.now();
  if (current) stageTimes[current[0]] = Math.round(now - current[1]);
  current = name ? [name, now] : null;
  if (name) post(message.loading(name, Math.round(now - T0), { ...stageTimes }));
}

function pythonMessage(err) {
  // A PythonError's message is a whole traceback: keep its last line, without the class name.
  const text = String(err && err.message ? err.message : err).trim();
  const last = text.split("\n").filter(Boolean).pop() || text;
  return last.replace(/^[\w.]*(Error|Exception|Missing): /, "");
}

/** Pyodide only logs a warning (and never settles) when its WebAssembly file cannot be loaded:
 *  turn that warning, or an overlong start, into an error the page can show. */
function withWatchdog(loading, seconds = 180) {
  const warn = console.warn;
  let timer;
  const failed = new Promise((_, reject) => {
    console.warn = (...parts) => {
      warn.apply(console, parts);
      const text = parts.map(String).join(" ");
      if (/wasm instantiation failed|Failed to execute 'compile'|HTTP status code is not ok/i.test(text)) {
        reject(new Error(`the WebAssembly runtime could not be loaded (${text.slice(0, 200)})`));
      }
    };
    timer = setTimeout(() => reject(new Error(`the runtime did not start within ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([loading, failed]).finally(() => {
    console.warn = warn;
    clearTimeout(timer);
  });
}

/** Resource timing of a runtime file: ms from the worker's start to its last byte. */
function arrived(file) {
  const entry = performance.getEntriesByType("resource").filter((e) => e.name.endsWith(file)).pop();
  return entry ? Math.round(entry.responseEnd) : null;
}

const CHECKED_HEADER = "x-peg-sha256"; // set by sw.js on every file whose hash it checked

async function sha256hex(bytes) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The build's memory snapshot (scripts/make_snapshot.mjs: Python with pyapp imported and warmed),
 *  when it was made for this Pyodide version and its bytes hash as recorded: {bytes}; else
 *  {skipped: why}.  `early` holds the fetches of snapshot.json and snapshot.bin, started at once. */
async function snapshotBytes(version, early) {
  const metaResponse = await early.meta;
  if (!metaResponse.ok) return { skipped: `snapshot.json answered ${metaResponse.status}` };
  const meta = await metaResponse.json();
  if (meta.pyodide !== version || meta.file !== "snapshot.bin") {
    return { skipped: `made for Pyodide ${meta.pyodide}, this is ${version}` };
  }
  const response = await early.bin;
  if (!response.ok) return { skipped: `${meta.file} answered ${response.status}` };
  let packed;
  if (response.headers.get(CHECKED_HEADER) === meta.sha256) {
    packed = response.body; // the service worker checked this hash when it cached the file
  } else {
    const bytes = new Uint8Array(await response.arrayBuffer());
    if ((await sha256hex(bytes)) !== meta.sha256) return { skipped: `${meta.file} does not match its hash` };
    packed = new Blob([bytes]).stream();
  }
  const memory = await new Response(packed.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  return { bytes: new Uint8Array(memory) };
}

/** Start-up, in measured stages (protocol.mjs STAGES): download (the runtime's JavaScript),
 *  snapshot (the build's memory snapshot: fetched, checked, unpacked), compile (the WebAssembly,
 *  streamed: its download and compilation overlap), runtime (the interpreter: restored from the
 *  snapshot, or booted with its standard library), pyapp (unpack pyapp.zip: the files for later
 *  imports), import (pyapp.web.api), warm (the solver and the analyses, so the first Solve pays
 *  nothing; already done in a snapshot).  A snapshot that is missing, stale or fails to restore
 *  costs nothing but the attempt: Python then boots as without one. */
async function boot() {
  const t0 = performance.now();
  stage("download");
  // every file the start needs is requested at once, in parallel
  const url = (path) => new URL(`../../${path}`, import.meta.url);
  const zip = fetch(url("pyapp.zip"));
  const early = { meta: fetch(url("snapshot.json")), bin: fetch(url("snapshot.bin")) };
  const lock = fetch(url("pyodide/pyodide-lock.json"));
  // the runtime's 1.2 MB of JavaScript too (loadPyodide imports the same module: one download, one parse)
  const asm = import("../../pyodide/pyodide.asm.mjs");
  for (const p of [zip, early.meta, early.bin, asm, lock]) p.catch(() => {});
  // compile the WebAssembly while the snapshot is fetched and checked: Pyodide's own streaming
  // instantiation (below) then instantiates this module instead of fetching and compiling again
  // (Pyodide's own request for the file is answered with an empty placeholder: one download)
  const wasmUrl = new URL("../../pyodide/pyodide.asm.wasm", import.meta.url).href;
  const realFetch = self.fetch;
  const compiled = WebAssembly.compileStreaming(realFetch(wasmUrl));
  compiled.catch(() => {});
  // and the standard library, which Pyodide only asks for once the snapshot is ready: asked now
  const stdlibUrl = new URL("../../pyodide/python_stdlib.zip", import.meta.url).href;
  let stdlib = realFetch(stdlibUrl);
  stdlib.catch(() => {});
  self.fetch = (input, init) => {
    const asked = String(input?.url ?? input);
    if (asked === wasmUrl) return Promise.resolve(new Response(null, { headers: { "content-type": "application/wasm" } }));
    if (asked === stdlibUrl && stdlib) {
      const early = stdlib;
      stdlib = null; // a second boot (after a failed restore) fetches it again
      return early;
    }
    return realFetch(input, init);
  };
  const streaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    stage("compile");
    let out;
    try {
      const module = await compiled;
      out = { module, instance: await WebAssembly.instantiate(module, imports) };
    } catch {
      out = await streaming.call(WebAssembly, realFetch(wasmUrl), imports); // the early compile failed: the usual way
    }
    stage("runtime");
    return out;
  };
  const indexURL = new URL("../../pyodide/", import.meta.url).href;
  let py = null;
  let snapshot = "not tried";
  try {
    // the lock file is read here: left to Pyodide, a missing or damaged one rejects promises nobody handles
    const lockResponse = await lock;
    if (!lockResponse.ok) {
      throw new Error(`the file pyodide/pyodide-lock.json is missing from the site (HTTP ${lockResponse.status})`);
    }
    const lockFileContents = await lockResponse.json().catch(() => {
      throw new Error("the file pyodide/pyodide-lock.json is damaged (not valid JSON): deploy the whole dist/ folder again");
    });
    const options = { indexURL, lockFileContents, packageBaseUrl: indexURL };
    const { loadPyodide, version } = await import("../../pyodide/pyodide.mjs");
    stage("snapshot");
    const snap = await snapshotBytes(version, early).catch((err) => ({ skipped: String(err.message || err) }));
    if (snap.bytes) {
      try {
        py = await withWatchdog(loadPyodide({ ...options, _loadSnapshot: snap.bytes }));
        snapshot = "restored";
      } catch (err) {
        snapshot = `restore failed (${pythonMessage(err)})`;
      }
    } else {
      snapshot = snap.skipped;
    }
    py ??= await withWatchdog(loadPyodide(options));
  } finally {
    WebAssembly.instantiateStreaming = streaming;
    self.fetch = realFetch;
  }
  stage("pyapp");
  const response = await zip;
  if (!response.ok) throw new Error(`pyapp.zip answered ${response.status}`);
  py.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/home/pyodide/app" });
  stage("import");
  py.runPython("import sys\nif '/home/pyodide/app' not in sys.path: sys.path.insert(0, '/home/pyodide/app')");
  webapi = py.pyimport("pyapp.web.api");
  stage("warm");
  webapi.call("warm", "{}");
  // HiGHS for the linear programmes: fetched only when a proof first asks for one (pyapp.proofs.lp)
  lp = lpModule(async () => {
    const { default: loadHighs } = await import("../../highs/highs.mjs");
    return loadHighs({ locateFile: (file) => new URL(`../../highs/${file}`, import.meta.url).href });
  });
  py.registerJsModule("peg_lp", lp);
  const version = py.runPython("import sys; sys.version.split()[0]");
  stage(null);
  const files = { wasm_arrived: arrived("pyodide.asm.wasm"), stdlib_arrived: arrived("python_stdlib.zip"),
    js_arrived: arrived("pyodide.asm.mjs"), snapshot_arrived: arrived("snapshot.bin") };
  post(message.ready({ python: version, seconds: (performance.now() - t0) / 1000, stages: { ...stageTimes }, files, snapshot }));
}

// A runtime file that is missing or damaged makes Pyodide reject promises nobody awaits: those are
// part of the start-up failure reported below, not separate uncaught errors.
const quietRejections = (event) => event.preventDefault();
self.addEventListener("unhandledrejection", quietRejections);
const ready = boot().catch(async (err) => {
  const missing = await missingRuntimeFile(new URL("../../", import.meta.url)).catch(() => null);
  const text = `The Python engine could not start: ${missing || pythonMessage(err)}`;
  post(message.failed(text));
  throw new Error(text);
});
// after a good start, a rejection nobody handles is a bug again and is reported as usual; after a
// failed start the runtime may still reject its leftover promises, which add nothing to the message
ready.then(() => self.removeEventListener("unhandledrejection", quietRejections), () => {});
ready.catch(() => {}); // reported above; requests that await `ready` still see the rejection

// the classic games' winnable sets, loaded on first use (static/engine/sets.mjs)
const sets = createSets(new URL("../../", import.meta.url),
  (bytes) => webapi.load_set_steps(bytes));

/** Until a pool worker's answer or a cancel wakes the job, or WAIT_MS pass. */
function waitForPool(entry) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, WAIT_MS);
    entry.wake = () => {
      clearTimeout(timer);
      entry.wake = null;
      resolve();
    };
  });
}

async function runJob(id, fn, args, entry) {
  let job = null;
  try {
    if (LP_FIRST.has(fn)) await lp?.ready();
    job = webapi.start(fn, JSON.stringify(args));
    entry.job = job;
    entry.relay = job.relay ?? null; // set when the job's sweeps run on the page's pool
    for (;;) {
      if (entry.cancelled) {
        const out = JSON.parse(job.cancel());
        post(message.result(id, out.result));
        return;
      }
      const out = JSON.parse(job.step());
      if (out.done) {
        if (out.error !== undefined) post(message.error(id, out.error));
        else post(message.result(id, out.result));
        return;
      }
      if (entry.relay) {
        const { tasks, transfer } = takeSteps(entry.relay);
        if (tasks.length) self.postMessage(message.tasks(id, tasks), transfer);
        if (entry.relay.waiting()) {
          post(message.progress(id, out.progress));
          await waitForPool(entry); // an answer from the pool, or a cancel, wakes it
          continue;
        }
      }
      post(message.progress(id, out.progress));
      await turn(); // let a cancel message in
    }
  } catch (err) {
    post(message.error(id, pythonMessage(err)));
  } finally {
    entry.relay?.destroy();
    if (job) job.destroy();
  }
}

/** A pool worker's step: answered with its buffers transferred, not copied. */
function runStep(id, task) {
  try {
    const { value, transfer } = runShardStep(webapi, task);
    self.postMessage(message.result(id, value), transfer);
  } catch (err) {
    post(message.error(id, pythonMessage(err)));
  }
}

self.onmessage = async (event) => {
  const msg = event.data || {};
  if (msg.type === "cancel") {
    const entry = jobs.get(msg.id);
    if (entry) entry.cancelled = true;
    entry?.wake?.();
    return;
  }
  if (msg.type === "tell") { // news for a running request, between two of its steps (a late one is ignored)
    jobs.get(msg.id)?.job?.tell(JSON.stringify(msg.value));
    return;
  }
  if (msg.type === "stepped") { // a pool worker's answer for a job of this (driver) worker
    const entry = jobs.get(msg.id);
    if (!entry?.relay) return;
    deliverStep(entry.relay, msg);
    entry.wake?.();
    return;
  }
  if (msg.type === "step") {
    try {
      await ready;
    } catch (err) {
      post(message.error(msg.id, err.message));
      return;
    }
    runStep(msg.id, msg.task);
    return;
  }
  if (msg.type !== "call") return;
  const { id, fn } = msg;
  // known by its id from the start: a cancel sent while the runtime or the sets load is kept (answered, not lost)
  const entry = { cancelled: false, relay: null, wake: null, job: null };
  jobs.set(id, entry);
  try {
    await answer(id, fn, msg.args ?? {}, entry);
  } finally {
    jobs.delete(id);
  }
};

async function answer(id, fn, args, entry) {
  try {
    await ready;
  } catch (err) {
    post(message.error(id, err.message));
    return;
  }
  if (typeof fn !== "string") {
    post(message.error(id, "request without a function name"));
    return;
  }
  // a cancel (now or while the runtime started) stops the wait for the sets; their loading goes on, for the next request
  const loading = sets.ensure(fn, args);
  if (!entry.cancelled) await Promise.race([loading, new Promise((resolve) => { entry.wake = resolve; })]);
  entry.wake = null;
  if (webapi.is_streaming(fn)) {
    await runJob(id, fn, args, entry);
    return;
  }
  try {
    const out = JSON.parse(webapi.call(fn, JSON.stringify(args)));
    if (out.error !== undefined) post(message.error(id, out.error));
    else post(message.result(id, out.ok));
  } catch (err) {
    post(message.error(id, pythonMessage(err)));
  }
}
