// The page's pool of engine workers for the heavy analyses, and the two ways an analysis runs on it:
// a sharded sweep (count, levels, fewest moves: runPooled, below) and independent requests side by
// side (the whole-board table's starts, the finishes' hole shares: spreadRequests, at the end).
//
// Why the level loop is not here: Python in a worker is synchronous, so the sweep cannot block on
// its shards.  The analysis runs as usual in the page's engine worker (the *driver*), on a Python
// Relay pool (pyapp/exact/relay.py): pyapp.exact.sharded.sharded_sweep, the one sweep, records one
// shard step per shard per level and pauses; the driver posts the steps here ("tasks"); this module
// only moves bytes: it sends each step to the worker of its shard, keeps the buckets each step
// makes as ArrayBuffers, hands bucket j to shard j's next step (transfer lists, never JSON lists,
// never SharedArrayBuffer) and passes each step's small answer back to the driver.  No rule of the
// sweep is written in JavaScript.
//
// Each pool worker is an ordinary engine worker (worker.mjs through protocol.mjs's Engine: its own
// Pyodide and pyapp, the same start-up code), started when a heavy analysis first needs the pool,
// then kept.  Cancel terminates them (measured: the time until every worker is stopped) and the
// pool starts again, lazily, for the next analysis.

import { Engine } from "./protocol.mjs";

export const MAX_WORKERS = 16;
export const PER_WORKER_MB = 512;

/** How many pool workers: `?workers=N` (forced, 1..MAX_WORKERS) when given; else one per core
 *  (navigator.hardwareConcurrency), capped by memory where the browser says how much it has
 *  (navigator.deviceMemory, GB, itself capped at 8 by browsers): half of it for the pool, at
 *  PER_WORKER_MB per worker (a Pyodide runtime with pyapp is about 60 MB; the rest is its share of
 *  the largest level and its buckets), and at MAX_WORKERS.  One worker means no pool: the analysis
 *  runs in the page's engine worker as it always did.  Returns {size, reason}. */
export function poolSize({ cores = navigator.hardwareConcurrency, memoryGB = navigator.deviceMemory, forced = null } = {}) {
  if (forced !== null && forced !== undefined) {
    const n = Math.max(1, Math.min(MAX_WORKERS, Math.floor(Number(forced)) || 1));
    return { size: n, reason: `set by ?workers=${n}` };
  }
  const c = Math.max(1, Math.floor(cores || 1));
  if (c === 1) return { size: 1, reason: "this device reports one core" };
  const byMemory = memoryGB ? Math.max(1, Math.floor((memoryGB * 1024) / 2 / PER_WORKER_MB)) : MAX_WORKERS;
  const size = Math.min(c, byMemory, MAX_WORKERS);
  if (size === 1) return { size, reason: `the device's ${memoryGB} GB of memory holds one worker` };
  return { size, reason: size < c ? `${c} cores, ${memoryGB} GB of memory` : `${c} cores` };
}

export class EnginePool {
  /** `size` workers made by `makeEngine` (an Engine: protocol.mjs). */
  constructor(size, makeEngine = () => new Engine()) {
    this.size = size;
    this.makeEngine = makeEngine;
    this.engines = null;
    this.starting = null;
  }

  /** Start the workers if they are not running (all at once); resolves when every one is ready,
   *  rejects (and stops them) when one fails to start. */
  start() {
    if (this.starting) return this.starting;
    const engines = [];
    try {
      while (engines.length < this.size) engines.push(this.makeEngine());
    } catch (err) { // a worker could not even be created: stop the ones that were
      for (const e of engines) e.destroy();
      return Promise.reject(err);
    }
    this.engines = engines;
    this.starting = Promise.all(engines.map((e) => e.ready)).then(() => this, (err) => {
      this.stop();
      throw err;
    });
    return this.starting;
  }

  /** Run a step on the worker of its shard: resolves with the step's answer. */
  run(shard, task, transfer) {
    if (!this.engines) return Promise.reject(new Error("the pool is stopped"));
    return this.engines[shard % this.size].step(task, transfer).promise;
  }

  /** A whole request on pool worker `i` (one item of spreadRequests): {id, promise, cancel}. */
  request(i, fn, args, options) {
    if (!this.engines) {
      return { id: null, promise: Promise.reject(new Error("the pool is stopped")), cancel() {}, tell() {} };
    }
    const engine = this.engines[i % this.size];
    const { id, promise } = engine.request(fn, args, options);
    return { id, promise, cancel: () => engine.cancel(id), tell: (value) => engine.tell(id, value) };
  }

  /** Stop every worker now (terminate); the next start() makes new ones.  Returns the ms it took. */
  stop() {
    const t0 = performance.now();
    for (const e of this.engines || []) e.destroy();
    this.engines = null;
    this.starting = null;
    return performance.now() - t0;
  }
}

/** Run the exact request `fn` on `driver` (the page's engine) with its shard steps on `pool` (started).
 *  Returns {id, promise, stop}: the promise rejects if a pool worker fails; stop() (Cancel) stops
 *  every pool worker and returns the ms it took (the caller cancels the driver's request). */
export function runPooled(driver, pool, fn, args, { onProgress } = {}) {
  const buckets = new Map(); // "task:j" -> {keys, weights}: the buckets waiting for their owner's step
  let failure = null;
  let over = false;
  let stopped = false;
  const onTasks = (tasks) => {
    for (const t of tasks) {
      const keys = [];
      const weights = [];
      for (const ref of t.incoming) {
        const b = ref.task === undefined ? ref : buckets.get(`${ref.task}:${ref.bucket}`);
        buckets.delete(`${ref.task}:${ref.bucket}`);
        if (!b) throw new Error(`bucket ${ref.bucket} of step ${ref.task} is missing`);
        keys.push(b.keys);
        weights.push(b.weights);
      }
      const weighted = JSON.parse(t.spec).weights;
      const task = { spec: t.spec, keys, weights: weighted ? weights : undefined, expand_it: t.expand_it, keep: t.keep,
        pairs_out: t.pairs_out, pairs_in: t.pairs_in };
      const transfer = [...keys, ...(weighted ? weights : [])].filter(Boolean);
      pool.run(t.shard, task, transfer).then((out) => {
        if (over) return;
        out.buckets.forEach((b, j) => buckets.set(`${t.id}:${j}`, b));
        const answer = { task: t.id, info: out.info, kept_keys: out.kept_keys, kept_weights: out.kept_weights };
        driver.deliver(id, answer, [out.kept_keys, out.kept_weights].filter(Boolean));
      }, (err) => {
        if (over || stopped || failure) return;
        failure = err;
        driver.cancel(id);
        pool.stop(); // a broken pool is started afresh next time
      });
    }
  };
  const { id, promise } = driver.request(fn, { ...args, workers: pool.size }, { onProgress, onTasks });
  const done = promise.finally(() => {
    over = true;
    buckets.clear();
  }).then((value) => {
    if (failure && !stopped) throw new Error(`a pool worker failed (${failure.message})`);
    return value;
  });
  const stop = () => {
    stopped = true;
    return pool.stop();
  };
  return { id, promise: done, stop };
}

/** Independent requests side by side, as pyapp.analysis.spread does on the command line: `fn` with
 *  `argsOf(item)` for each item, each pool worker taking the next item as soon as it is free (items
 *  differ a lot in cost, so a fixed split would leave workers idle).  `onProgress(index, value)`
 *  gets every request's progress, `onResult(index, value)` each answer as it comes.  Returns
 *  {promise, cancel}: the promise resolves with the answers in the items' order (null for an item
 *  not answered); one failed request cancels the others and rejects.
 *
 *  cancel(graceMs) starts no more items and asks every running request to stop: each answers with
 *  what it has done, within a slice or two.  A worker that has not answered after `graceMs` (busy in
 *  a step that does not pause, or starved of CPU) is not waited for: the whole pool is terminated
 *  (its item answers null, "not computed") and starts afresh next time.  The returned promise
 *  settles when every worker has stopped, with {terminated}.  skip(i) leaves item i out: not started,
 *  or asked to stop (it then answers with what it has done) when it runs; tell(i, value) hands a running
 *  item's request news (Engine.tell). */
export function spreadRequests(pool, fn, items, { argsOf = (item) => item, onProgress, onResult } = {}) {
  const results = new Array(items.length).fill(null);
  const running = new Map(); // item index -> {cancel, promise}
  const skipped = new Set();
  let next = 0;
  let stopped = false;
  const skip = (i) => {
    skipped.add(i);
    running.get(i)?.cancel();
  };
  const cancel = (graceMs = Infinity) => {
    stopped = true;
    const pending = [...running.values()];
    for (const r of pending) r.cancel();
    const answered = Promise.all(pending.map((r) => r.promise.catch(() => {}))).then(() => ({ terminated: false }));
    if (!Number.isFinite(graceMs)) return answered;
    let timer;
    const late = new Promise((resolve) => {
      timer = setTimeout(() => {
        pool.stop();
        resolve({ terminated: true });
      }, graceMs);
    });
    return Promise.race([answered, late]).finally(() => clearTimeout(timer));
  };
  const lane = async (w) => {
    while (!stopped && next < items.length) {
      const i = next++;
      if (skipped.has(i)) continue;
      const req = pool.request(w, fn, argsOf(items[i]), { onProgress: (p) => onProgress?.(i, p) });
      running.set(i, req);
      try {
        results[i] = await req.promise;
        onResult?.(i, results[i]);
      } catch (err) {
        if (!stopped) throw err; // after a cancel, a terminated worker's item is just not answered
      } finally {
        running.delete(i);
      }
    }
  };
  const lanes = Array.from({ length: pool.size }, (_, w) => lane(w));
  const promise = Promise.all(lanes).then(() => results, (err) => {
    cancel();
    throw err;
  });
  // news for item i's request while it runs (nothing once it has answered)
  const tell = (i, value) => running.get(i)?.tell?.(value);
  return { promise, cancel, skip, tell };
}
