// The worker protocol, defined once: the message types (JSDoc below), the helpers the worker
// (static/engine/worker.mjs) uses to write them, and the one client (`Engine`) used by the app and by
// bench.html.  The Python side of every request is pyapp/web/api.py (`call` for one-shot
// requests, `start` + `Job.step`/`Job.cancel` for long ones).
//
// Page -> worker
/** @typedef {{id: number, type: "call", fn: string, args: object}} CallRequest
 *    A request: `fn` is a pyapp.web.api function ("state", "boards", "custom_board", "hint",
 *    "finishes", "cnf", "warm", ... one-shot; "solve", "bench" long). */
/** @typedef {{type: "cancel", id: number}} CancelRequest
 *    Stop a long request: it answers at once with its "cancelled" result. */
/** @typedef {{type: "tell", id: number, value: object}} TellRequest
 *    News for a running long request that takes some (pyapp.web.job.Job.tell): ignored otherwise. */
/** @typedef {{id: number, type: "step", task: {spec: string, keys: ArrayBuffer[], weights?: ArrayBuffer[],
 *    expand_it: boolean, keep: boolean}}} StepRequest
 *    To a pool worker: one shard step of a sweep (pyapp.web.api.shard_step), buffers transferred.  Its
 *    "result" value is {info: string (JSON), kept_keys?, kept_weights?: ArrayBuffer,
 *    buckets: {keys: ArrayBuffer, weights?: ArrayBuffer}[]}, also transferred. */
/** @typedef {{id: number, type: "stepped", task: number, info: string, kept_keys?: ArrayBuffer,
 *    kept_weights?: ArrayBuffer}} SteppedRequest
 *    To the driver: the answer of step `task` of request `id` (its buckets stay in the page). */
//
// Worker -> page, start-up (exactly one "ready" or "failed", after any number of "loading")
/** @typedef {{stage: Stage, loaded: number, total: number, at: number, stages: Record<string, number>}} LoadingValue
 *    `stage` has just started; `at` is ms since the worker started; `stages` holds the ms each
 *    finished stage took. */
/** @typedef {{type: "loading", value: LoadingValue}} LoadingMessage */
/** @typedef {{python: string, seconds: number, stages: Record<string, number>, snapshot: string,
 *    files: Record<string, number|null>}} ReadyValue
 *    `stages`: ms per stage; `files`: when each runtime file's last byte arrived (ms since the worker
 *    started); `snapshot`: "restored", or why Python booted without the build's memory snapshot. */
/** @typedef {{type: "ready", value: ReadyValue}} ReadyMessage */
/** @typedef {{type: "failed", message: string}} FailedMessage */
//
// Worker -> page, per request (any number of "progress", then one "result" or one "error")
/** @typedef {{nodes: number, entries: number, seconds: number, depth: number|null, rate: number}} SolveProgress
 *    A solve's progress (~every 50 ms); a bench's progress is one finished row. */
/** @typedef {{id: number, type: "progress", value: SolveProgress|object}} ProgressMessage */
/** @typedef {{status: "solved"|"impossible"|"unknown", reason: string, moves: string[], jumps: number,
 *    jump_list: string[][], move_count: number, pegs_left: number, final: string, nodes: number,
 *    entries: number, seconds: number}} SolveResult
 *    pyapp.core.request's one result format (`jumps` is a count everywhere; `jump_list` the jumps by hole name). */
/** @typedef {{id: number, type: "result", value: any}} ResultMessage */
/** @typedef {{id: number, type: "error", message: string}} ErrorMessage
 *    A message meant for the user (bad input, or an internal error said in words). */
/** @typedef {{id: number, type: "tasks", value: object[]}} TasksMessage
 *    From the driver of a request run on the page's pool: shard steps to run, each {id, shard, spec,
 *    incoming: ({task, bucket} | {keys: ArrayBuffer, weights?: ArrayBuffer})[], expand_it, keep}. */
/** @typedef {LoadingMessage|ReadyMessage|FailedMessage|ProgressMessage|ResultMessage|ErrorMessage|TasksMessage} WorkerMessage */

/** The worker's start-up stages, in order. */
export const STAGES = /** @type {const} */ (["download", "snapshot", "compile", "runtime", "pyapp", "import", "warm"]);
/** @typedef {typeof STAGES[number]} Stage */

/** What each stage is, for people. */
export const STAGE_LABELS = {
  download: "Loading the Python runtime…",
  snapshot: "Loading the ready-made engine (memory snapshot)…",
  compile: "Compiling the Python runtime (WebAssembly)…",
  runtime: "Starting Python and its standard library…",
  pyapp: "Loading the peg solitaire engine…",
  import: "Starting the engine…",
  warm: "Preparing the solver…",
};

// ---------------------------------------------------------------- the worker's side
export const message = {
  /** @returns {LoadingMessage} */
  loading: (stage, at, stages) => ({ type: "loading", value: { stage, loaded: STAGES.indexOf(stage), total: STAGES.length, at, stages } }),
  /** @returns {ReadyMessage} */
  ready: (value) => ({ type: "ready", value }),
  /** @returns {FailedMessage} */
  failed: (text) => ({ type: "failed", message: text }),
  /** @returns {ProgressMessage} */
  progress: (id, value) => ({ id, type: "progress", value }),
  /** @returns {ResultMessage} */
  result: (id, value) => ({ id, type: "result", value }),
  /** @returns {ErrorMessage} */
  error: (id, text) => ({ id, type: "error", message: text }),
  /** @returns {TasksMessage} */
  tasks: (id, value) => ({ id, type: "tasks", value }),
};

// ---------------------------------------------------------------- the page's side
/** The client: one module worker, one ready promise, request ids matched to replies,
 *  progress callbacks, cancel by id.  Events: "loading" (detail: LoadingValue), "ready"
 *  (detail: ReadyValue), "failed" (detail: message).  `state`: loading -> idle | failed. */
export class Engine extends EventTarget {
  constructor(url = new URL("./worker.mjs", import.meta.url)) {
    super();
    this.state = "loading";
    this.t0 = performance.now();
    this.pending = new Map(); // id -> {resolve, reject, onProgress}
    this.nextId = 1;
    this.ready = new Promise((resolve, reject) => {
      this._ready = resolve;
      this._failed = reject;
    });
    this.ready.catch(() => {});
    this.worker = new Worker(url, { type: "module" });
    this.worker.onmessage = (event) => this._receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault?.();
      this._fail(`The engine worker failed to load (${event.message || "script error"}).`);
    };
  }

  _fail(text) {
    this.state = "failed";
    this._failed(new Error(text));
    this.dispatchEvent(new CustomEvent("failed", { detail: text }));
    for (const { reject } of this.pending.values()) reject(new Error(text));
    this.pending.clear();
  }

  /** @param {WorkerMessage} msg */
  _receive(msg) {
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "loading") {
      this.dispatchEvent(new CustomEvent("loading", { detail: msg.value }));
      return;
    }
    if (msg.type === "ready") {
      this.state = "idle";
      this.readySeconds = (performance.now() - this.t0) / 1000;
      this._ready(msg.value);
      this.dispatchEvent(new CustomEvent("ready", { detail: msg.value }));
      return;
    }
    if (msg.type === "failed") {
      this._fail(msg.message);
      return;
    }
    const entry = this.pending.get(msg.id);
    if (!entry) return;
    if (msg.type === "progress") {
      entry.onProgress?.(msg.value);
    } else if (msg.type === "tasks") {
      entry.onTasks?.(msg.value);
    } else if (msg.type === "result") {
      this.pending.delete(msg.id);
      entry.resolve(msg.value);
    } else if (msg.type === "error") {
      this.pending.delete(msg.id);
      entry.reject(new Error(msg.message));
    }
  }

  /** Start a request; returns {id, promise}.  Sent at once: the worker holds it until Python is up. */
  request(fn, args = {}, { onProgress, onTasks } = {}) {
    const id = this.nextId++;
    const promise = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress, onTasks });
    });
    /** @type {CallRequest} */
    const call = { id, type: "call", fn, args };
    this.worker.postMessage(call);
    return { id, promise };
  }

  /** A one-shot request: resolves with the value, rejects with the error message. */
  call(fn, args = {}) {
    return this.request(fn, args).promise;
  }

  /** A shard step on this (pool) worker; `transfer` lists the buffers it hands over.  Returns {id, promise}. */
  step(task, transfer = []) {
    const id = this.nextId++;
    const promise = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
    });
    /** @type {StepRequest} */
    const msg = { id, type: "step", task };
    this.worker.postMessage(msg, transfer);
    return { id, promise };
  }

  /** Hand a pool worker's answer to step `answer.task` to this (driver) worker's request `id`. */
  deliver(id, answer, transfer = []) {
    /** @type {SteppedRequest} */
    const msg = { id, type: "stepped", ...answer };
    this.worker.postMessage(msg, transfer);
  }

  tell(id, value) {
    /** @type {TellRequest} */
    const msg = { type: "tell", id, value };
    this.worker.postMessage(msg);
  }

  cancel(id) {
    /** @type {CancelRequest} */
    const msg = { type: "cancel", id };
    this.worker.postMessage(msg);
  }

  destroy() {
    this.worker.terminate();
    this._fail("The engine was stopped.");
  }
}
