// The page's side of the worker protocol: one module worker, one ready promise,
// request ids matched to replies, progress callbacks, cancel by id.

export class Engine extends EventTarget {
  constructor(url = new URL("./worker.mjs", import.meta.url)) {
    super();
    this.state = "loading"; // loading -> idle | failed
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

  _fail(message) {
    this.state = "failed";
    this._failed(new Error(message));
    this.dispatchEvent(new CustomEvent("failed", { detail: message }));
    for (const { reject } of this.pending.values()) reject(new Error(message));
    this.pending.clear();
  }

  _receive(msg) {
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "loading") {
      this.dispatchEvent(new CustomEvent("loading", { detail: msg.value }));
      return;
    }
    if (msg.type === "ready") {
      this.state = "idle";
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
    } else if (msg.type === "result") {
      this.pending.delete(msg.id);
      entry.resolve(msg.value);
    } else if (msg.type === "error") {
      this.pending.delete(msg.id);
      entry.reject(new Error(msg.message));
    }
  }

  /** Start a request; returns {id, promise}. */
  request(fn, args = {}, { onProgress } = {}) {
    const id = this.nextId++;
    const promise = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
    });
    this.worker.postMessage({ id, type: "call", fn, args });
    return { id, promise };
  }

  /** A one-shot request: resolves with the value, rejects with the error message. */
  call(fn, args = {}) {
    return this.request(fn, args).promise;
  }

  cancel(id) {
    this.worker.postMessage({ type: "cancel", id });
  }

  destroy() {
    this.worker.terminate();
    this._fail("The engine was stopped.");
  }
}
