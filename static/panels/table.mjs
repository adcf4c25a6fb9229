// The whole-board table: every single-vacancy start of the board times every finishing hole,
// computed in the worker (pyapp's "table" request: one start per symmetry class, the others
// mapped by symmetry in pyapp.web.table) with progress and Cancel, kept in this browser once
// computed (tablecache.mjs).  A big table runs on the page's pool of workers (pooluse.mjs), its
// starts side by side, with one progress bar and one Cancel.  "Whole-board table" opens the panel with the size and the longest it
// can take, or the stored table; a start picked on the grid (tablegrid.mjs draws it) is set up on
// the board with its finishes drawn by the finishes map (finishmap.mjs): a green hole plays its
// solution, the reasons are listed once each.
//
// Store slice "table": {open, spec, info (pyapp.web.table.info), key (cache key), result (the
// table as stored: starts, counts, seconds, workers), source ("cache" | "computed" | null), selected (the
// start shown), progress ({done, total, problem, nodes, seconds, and on a pool current (the starts
// running) and workers} while it runs), partial (the starts
// finished so far, class by class, while it runs), note (cache note)}.

import { positionKey } from "./finishmap.mjs";
import { cacheKey, readTable, writeTable } from "./tablecache.mjs";
import { formatCount as fmt } from "../numbers.mjs";
import { spreadRequests } from "../engine/pool.mjs";
import { taskRequest } from "./tasks.mjs";

export const PROBLEM_SECONDS = 25; // per start/finish problem: about pyapp's 10 s CPython budget in Pyodide
// boards from this size on take 5 s to 4 min in one worker (BENCHMARKS.md, whole tables): worth the pool
const POOL_HOLES = 36;
// Cancel waits this long for the pool's requests to answer with what they did, then terminates the pool
const CANCEL_GRACE_MS = 120;
const CLOSED = { open: false, spec: null, info: null, key: null, result: null, source: null, selected: null,
  progress: null, partial: {}, note: "" };

export function defineTable(store) {
  store.define("table", CLOSED, {
    open(s, spec, info, key, cached) {
      s.table = { ...CLOSED, open: true, spec, info, key, result: cached, source: cached ? "cache" : null };
    },
    close(s) { s.table = CLOSED; },
    /** A computation starts: the grid empties, then fills in class by class (`partial`). */
    start(s, progress) {
      s.table = { ...s.table, result: null, source: null, selected: null, note: "", progress, partial: {} };
    },
    progress(s, progress, starts) {
      s.table = { ...s.table, progress, partial: starts ? { ...s.table.partial, ...starts } : s.table.partial };
    },
    result(s, result, note) {
      s.table = { ...s.table, result, source: "computed", progress: null, partial: {}, note };
    },
    stopped(s) { s.table = { ...s.table, progress: null }; },
    select(s, hole) { s.table = { ...s.table, selected: hole }; },
  });
}

/** True when the panel belongs to the board shown now. */
export const tableShown = (state) => state.table.open && !!state.board && state.table.spec === state.board.board.spec;

export function duration(seconds) {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** What the table will be, said before it starts. */
export function estimateText(info, title) {
  return `${title}: ${fmt(info.problems)} start/finish problems (${info.starts} start${info.starts === 1 ? "" : "s"} up to ` +
    `symmetry × ${info.holes} finishing holes). The position class settles ${fmt(info.problems - info.searched)} ` +
    `at once; ${fmt(info.searched)} need a search of up to ${info.problem_seconds} s each: at most ` +
    `${duration(info.worst_seconds)}, usually much less (a solvable one takes well under a second). ` +
    "Cancel keeps what is done.";
}

/** The counts of a table, in words. */
export function countsText(r) {
  const c = r.counts;
  return `${fmt(c.solved)} solved, ${fmt(c.impossible)} impossible, ${fmt(c.unknown)} unknown in ${duration(r.seconds)}`;
}

/** ctx = {store, engine, game, view, lab, call, pool (pooluse.mjs)}.  Returns {open, compute, close, pick}. */
export function createTable(ctx) {
  const { store } = ctx;
  const s = store.state;
  const status = (text, kind = "") => store.do("status/set", text, kind);
  ctx.lab.tableRequests = 0;

  /** Open the panel for the shown board: its size, and the stored table when there is one. */
  async function open() {
    if (ctx.game.blocked()) return;
    const spec = s.board.board.spec;
    let info;
    try {
      info = await ctx.call("table_info", { board: spec, problem_seconds: PROBLEM_SECONDS });
    } catch (err) {
      status(`The whole-board table cannot be made: ${err.message}`, "error");
      return;
    }
    const key = cacheKey(spec, info.version, PROBLEM_SECONDS);
    const cached = readTable(key, s.board.cells.map((c) => c.name));
    store.do("table/open", spec, info, key, cached);
    status(cached ? `Whole-board table of ${s.board.board.title}, from this browser's copy: ${countsText(cached)}. ` +
      "Pick a start hole to see its finishes."
      : `Whole-board table: not computed yet. ${estimateText(info, s.board.board.title)}`);
  }

  /** The page's pool: one request per start, each pool worker taking the next start when it is
   *  free (spreadRequests), the progress summed over the workers; then the page's engine merges the
   *  cells (pyapp.web.table.merge_request replays every solution) into the one table's answer. */
  async function computePooled(pool, args, info, t0) {
    const done = new Array(info.start_holes.length).fill(0);
    const nodes = new Array(info.start_holes.length).fill(0);
    const running = new Map(); // start index -> its current problem
    const show = (starts) => store.do("table/progress", { done: done.reduce((a, b) => a + b, 0), total: info.problems,
      problem: [...running.values()].join(", "), current: [...running.keys()].map((i) => info.start_holes[i]),
      nodes: nodes.reduce((a, b) => a + b, 0), seconds: (performance.now() - t0) / 1000, workers: pool.size }, starts);
    const job = spreadRequests(pool, "table", info.start_holes, {
      argsOf: (start) => ({ ...args, starts: [start] }),
      onProgress: (i, p) => {
        ctx.lab.progressEvents++;
        done[i] = p.done;
        nodes[i] = p.nodes;
        running.set(i, p.problem);
        show(p.starts);
      },
      onResult: (i, r) => {
        done[i] = r.cells.length;
        running.delete(i);
        show(r.starts); // a share's answer maps its own class of starts, when it finished it
      },
    });
    const release = ctx.pool.run(["table"], () => job.cancel(CANCEL_GRACE_MS));
    let results;
    try {
      results = await job.promise;
    } finally {
      release();
    }
    const seconds = (performance.now() - t0) / 1000;
    const cancelled = s.task.cancelAt !== null || results.some((r) => !r || r.cancelled);
    const merged = await ctx.call("table_merge", { board: args.board, problem_seconds: args.problem_seconds,
      cells: results.flatMap((r) => r?.cells ?? []), cancelled, seconds });
    return { ...merged, workers: pool.size };
  }

  /** Compute the table (not holding the queue: Cancel must get through): on the page's pool when the
   *  device has the cores and the table is big (POOL_HOLES), or the pool is up already; else in the
   *  page's engine worker. */
  async function compute() {
    if (ctx.game.blocked() || !tableShown(s)) return;
    const { spec, key, info } = s.table;
    let t0 = performance.now();
    const onProgress = (p) => {
      ctx.lab.progressEvents++;
      store.do("table/progress", { done: p.done, total: p.total, problem: p.problem, nodes: p.nodes,
        seconds: (performance.now() - t0) / 1000 }, p.starts);
    };
    ctx.lab.tableRequests++;
    store.do("task/start", { kind: "table", t0, cancellable: true });
    store.do("table/start", { done: 0, total: info.problems, problem: "", nodes: 0, seconds: 0 });
    status("Computing the whole-board table…");
    try {
      const plan = await ctx.pool.acquire(info.starts > 1 && (info.holes >= POOL_HOLES || ctx.pool.running()));
      const args = { board: spec, problem_seconds: PROBLEM_SECONDS };
      let r;
      if (s.task.cancelAt !== null) {
        r = await ctx.call("table_merge", { ...args, cells: [], cancelled: true, seconds: 0 });
      } else if (plan.size > 1) {
        status(`Computing the whole-board table on ${plan.size} workers…`);
        t0 = performance.now(); // the pool's start-up is not the table's time
        r = await computePooled(plan.pool, args, info, t0);
      } else {
        r = await taskRequest(ctx, "table", args, onProgress); // one worker: every start in one request
      }
      if (s.task.cancelAt !== null) ctx.lab.cancels.push(performance.now() - s.task.cancelAt);
      const table = { board: r.board, version: r.version, problem_seconds: r.problem_seconds, counts: r.counts,
        seconds: r.seconds, cancelled: r.cancelled, starts: r.starts, workers: r.workers ?? 1 };
      const saved = r.cancelled ? "" : writeTable(key, spec, table);
      const note = saved === "saved" ? "Kept in this browser: it shows at once next time."
        : saved ? "This browser could not keep it (storage full or disabled): it is computed again next time." : "";
      store.do("table/result", table, note);
      const on = table.workers > 1 ? ` on ${table.workers} workers` : plan.why && plan.size === 1 && s.pool.size > 1
        ? ` on 1 worker (${plan.why})` : "";
      status(r.cancelled ? `Whole-board table cancelled: ${countsText(r)}${on} so far; the rest is marked not computed.`
        : `Whole-board table done: ${countsText(r)}${on}. Pick a start hole to see its finishes.`, r.cancelled ? "" : "won");
    } catch (err) {
      store.do("table/stopped");
      status(`The whole-board table failed: ${err.message}`, "error");
    } finally {
      store.do("task/end");
    }
  }

  /** Set the start `hole` up on the board and draw its finishes (green ones play their solution). */
  async function pick(hole) {
    if (ctx.game.blocked() || !tableShown(s) || !s.table.result) return;
    const entry = s.table.result.starts[hole];
    if (!entry) return;
    await ctx.game.loadGame({ board: s.table.spec, start: hole });
    store.do("table/select", hole);
    store.do("finishes/show", positionKey(s), entry.finishes);
    // on a phone the board is a screen away from the grid: bring it into view to show the finishes
    const box = ctx.view.holder.getBoundingClientRect();
    if (box.bottom < 40 || box.top > window.innerHeight - 40) ctx.view.holder.scrollIntoView({ block: "start" });
    const sum = entry.summary;
    const how = entry.computed === hole ? "computed" : `mapped by symmetry from ${entry.computed}`;
    const ok = entry.finishes.groups.find((g) => g.verdict === "yes")?.holes || [];
    status(`Start ${hole} (${how}): ${ok.length ? `one peg can finish on ${ok.join(", ")} (green): pick one to play its ` +
      "solution" : "no finish found"}; ${sum.impossible} impossible${sum.unknown ? `, ${sum.unknown} unknown` : ""}` +
      `${sum.missing ? `, ${sum.missing} not computed (cancelled)` : ""}.`,
    ok.length ? "won" : "");
  }

  return {
    open: () => store.queue(open),
    compute: () => store.queue(async () => { compute(); }),
    close: () => store.do("table/close"),
    pick: (hole) => store.queue(() => pick(hole)),
  };
}
