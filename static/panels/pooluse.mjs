// The page's one pool of engine workers (engine/pool.mjs), shared by the analyses that can use
// every core: the exact count and fewest moves (sharded sweeps, exact.mjs), the whole-board
// table (its starts side by side, table.mjs), the finishes' solver method (its hole shares side
// by side, finishpool.mjs) and never-lose's questions (a position's verdict and its jumps side by side,
// neverpool.mjs: only when the pool is up already or ?workers=N).  This module owns the pool's store slice, starts the
// pool when an analysis is heavy enough to pay for it (and keeps it), and routes the one Cancel to
// whichever analysis runs on it.
//
// Store slice "pool": {size, reason (why that size), status (off | starting | ready | failed),
// ran (workers of the last pooled analysis), why (why it ran on one), cancelMs (Cancel until every
// pool worker stopped), answerMs (Cancel until the answer showed)}.

import { EnginePool, poolSize } from "../engine/pool.mjs";

export function definePool(store, plan) {
  store.define("pool", { size: plan.size, reason: plan.reason, status: "off", ran: null, why: "",
    cancelMs: null, answerMs: null }, {
    set(s, fields) { s.pool = { ...s.pool, ...fields }; },
  });
}

/** ctx = {store}.  Returns {acquire, wants, running, run}: acquire(heavy) starts the pool when the
 *  analysis should use it; wants(heavy) says beforehand whether acquire would try; running() says whether it is up (no start-up to pay); run(kinds, stop) registers
 *  the pooled run Cancel stops.  `ctx.onCancel` (called by tasks.mjs's Cancel) is set here. */
export function createPoolUse(ctx) {
  const { store } = ctx;
  const s = store.state;
  const forced = new URLSearchParams(location.search).get("workers");
  definePool(store, poolSize({ forced }));
  let pool = null;
  let current = null; // {kinds, stop}: the pooled run under way

  // one Cancel for the whole pool: tasks.mjs cancels the page engine's request, this stops the pool's
  ctx.onCancel = (task) => {
    if (!current || !current.kinds.includes(task.kind)) return;
    const stopping = current.stop();
    if (stopping && typeof stopping.then === "function") { // requests asked to stop: the workers stay up
      stopping.then(({ terminated }) => store.do("pool/set", { cancelMs: performance.now() - task.cancelAt,
        ...(terminated ? { status: "off" } : {}) }));
    } else { // the workers were terminated
      store.do("pool/set", { status: "off", cancelMs: performance.now() - task.cancelAt });
    }
  };

  /** Resolves when the running task's Cancel is pressed; off() stops listening. */
  function whenCancelled() {
    let off = () => {};
    const promise = new Promise((resolve) => {
      if (s.task?.cancelAt != null) resolve();
      else off = store.subscribe((state) => { if (state.task?.cancelAt != null) resolve(); });
    });
    return { promise, off: () => off() };
  }

  /** The pool started for this analysis ({size, pool}), or {size: 1, why} when it runs on the page's
   *  engine worker alone: one core, a light analysis (`heavy` false and no ?workers=N), or a pool
   *  that could not start.  A Cancel while the pool starts answers at once ({size: 1, cancelled}):
   *  the pool goes on starting, for the next analysis. */
  async function acquire(heavy) {
    const p = s.pool;
    if (p.size < 2) return { size: 1, why: p.reason };
    if (pool && pool.size !== p.size) { // the size was changed (pool/set): a new pool of that size
      pool.stop();
      pool = null;
    }
    if (forced === null && !heavy) return { size: 1, why: "a small analysis" };
    pool ??= new EnginePool(p.size);
    const mine = pool;
    store.do("pool/set", { status: "starting" });
    const started = mine.start().then(() => {
      store.do("pool/set", { status: "ready" });
      return { size: p.size, pool: mine };
    }, (err) => {
      if (pool === mine) pool = null;
      store.do("pool/set", { status: "failed" });
      return { size: 1, why: `the pool of ${p.size} workers could not start: ${err.message}` };
    });
    const stop = whenCancelled();
    try {
      return await Promise.race([started, stop.promise.then(() => ({ size: 1, why: "cancelled", cancelled: true }))]);
    } finally {
      stop.off();
    }
  }

  /** True when the pool's workers are up and idle-ready: using them costs no start-up. */
  const running = () => !!pool?.engines && s.pool.status === "ready" && pool.size === s.pool.size;

  /** Register the pooled run of an analysis of these task kinds: Cancel calls `stop`, which
   *  terminates the workers (a sharded sweep) or returns a promise that settles with {terminated}
   *  once every worker has stopped (requests side by side).  Returns done(). */
  function run(kinds, stop) {
    const entry = { kinds, stop };
    current = entry;
    return () => {
      if (current === entry) current = null;
    };
  }

  /** Whether acquire(heavy) would use the pool (the device has the cores; heavy or ?workers=N). */
  const wants = (heavy) => s.pool.size > 1 && (forced !== null || heavy);

  return { acquire, wants, running, run };
}
