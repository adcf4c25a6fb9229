// The engine worker: loads Pyodide from this site (no CDN), unpacks pyapp.zip, then answers
// requests by id.  The messages are defined once, in protocol.mjs (JSDoc types and the helpers
// used here); the Python side is pyapp/webapi.py.
// Long requests (solve, bench) run slice by slice (pyapp.webapi.Job.step, ~50 ms each); between
// slices the worker yields to its event loop, so a cancel is seen within one slice.

import { message } from "./protocol.mjs";
import { missingRuntimeFile } from "./runtime_files.mjs";

const jobs = new Map(); // id -> {cancelled}
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
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

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

async function boot() {
  const t0 = performance.now();
  stage("runtime");
  const { loadPyodide } = await import("../pyodide/pyodide.mjs");
  const indexURL = new URL("../pyodide/", import.meta.url).href;
  // read the lock file here: left to Pyodide, a missing one rejects promises nobody handles
  const lock = await fetch(new URL("pyodide-lock.json", indexURL));
  if (!lock.ok) throw new Error(`the file pyodide/pyodide-lock.json is missing from the site (HTTP ${lock.status})`);
  const lockFileContents = await lock.json().catch(() => {
    throw new Error("the file pyodide/pyodide-lock.json is damaged (not valid JSON): deploy the whole dist/ folder again");
  });
  const py = await withWatchdog(loadPyodide({ indexURL, lockFileContents, packageBaseUrl: indexURL }));
  stage("pyapp");
  const response = await fetch(new URL("../pyapp.zip", import.meta.url));
  if (!response.ok) throw new Error(`pyapp.zip answered ${response.status}`);
  py.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/home/pyodide/app" });
  stage("import");
  py.runPython("import sys\nif '/home/pyodide/app' not in sys.path: sys.path.insert(0, '/home/pyodide/app')");
  webapi = py.pyimport("pyapp.webapi");
  const version = py.runPython("import sys; sys.version.split()[0]");
  stage(null);
  post(message.ready({ python: version, seconds: (performance.now() - t0) / 1000, stages: stageTimes }));
}

// A runtime file that is missing or damaged makes Pyodide reject promises nobody awaits: those are
// part of the start-up failure reported below, not separate uncaught errors.
const quietRejections = (event) => event.preventDefault();
self.addEventListener("unhandledrejection", quietRejections);
const ready = boot().catch(async (err) => {
  const missing = await missingRuntimeFile(new URL("../", import.meta.url)).catch(() => null);
  const text = `The Python engine could not start: ${missing || pythonMessage(err)}`;
  post(message.failed(text));
  throw new Error(text);
});
// after a good start, a rejection nobody handles is a bug again and is reported as usual; after a
// failed start the runtime may still reject its leftover promises, which add nothing to the message
ready.then(() => self.removeEventListener("unhandledrejection", quietRejections), () => {});
ready.catch(() => {}); // reported above; requests that await `ready` still see the rejection

async function runJob(id, fn, args) {
  const entry = { cancelled: false };
  jobs.set(id, entry);
  let job = null;
  try {
    job = webapi.start(fn, JSON.stringify(args));
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
      post(message.progress(id, out.progress));
      await turn(); // let a cancel message in
    }
  } catch (err) {
    post(message.error(id, pythonMessage(err)));
  } finally {
    jobs.delete(id);
    if (job) job.destroy();
  }
}

self.onmessage = async (event) => {
  const msg = event.data || {};
  if (msg.type === "cancel") {
    const entry = jobs.get(msg.id);
    if (entry) entry.cancelled = true;
    return;
  }
  if (msg.type !== "call") return;
  const { id, fn } = msg;
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
  const args = msg.args ?? {};
  if (webapi.is_streaming(fn)) {
    await runJob(id, fn, args);
    return;
  }
  try {
    const out = JSON.parse(webapi.call(fn, JSON.stringify(args)));
    if (out.error !== undefined) post(message.error(id, out.error));
    else post(message.result(id, out.ok));
  } catch (err) {
    post(message.error(id, pythonMessage(err)));
  }
};
