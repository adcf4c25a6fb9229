// "Count all solutions" and "Fewest moves": the exact analyses of pyapp.exact (every position
// swept level by level, no cap), run in the worker with per-level progress and Cancel.  Before
// a big board the page asks the engine for an estimate of the time and says it before starting.
// A heavy analysis (estimated at POOL_SECONDS or more, or any with ?workers=N) runs sharded on the
// page's pool of engine workers (pooluse.mjs: started then and kept); the answer says how many
// workers ran it.  Store slices used: task (the running request), analysis (the panel's text),
// status, pool (pooluse.mjs).

import { gameArgs } from "../play/game.mjs";
import { formatCount as fmt } from "../numbers.mjs";
import { runPooled } from "../engine/pool.mjs";

const MAX_SECONDS = 3600; // the budget of one exact analysis in the page (Cancel stops it sooner)
const POOL_SECONDS = 5; // estimated seconds in one worker from which the pool is worth its start-up
const TITLES = { count: "Count all solutions", fewest: "Fewest moves" };

function duration(seconds) {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  return `${Math.round(seconds / 60)} min`;
}

/** The line shown while a sweep runs: stage, level, positions, memory, time. */
export function progressText(kind, p, seconds) {
  const level = `${p.stage}, ${p.level} pegs: ${fmt(p.positions)} positions`;
  const unit = p.unit === "shards" ? "shards done" : "expanded"; // a pooled sweep counts its shards
  const done = p.parents ? ` (${fmt(p.done)} of ${fmt(p.parents)} ${unit})` : "";
  const memory = p.memory ? ` · ${fmt(Math.round(p.memory / 1e6))} MB` : "";
  return `${TITLES[kind]}: ${level}${done}${memory} · ${seconds.toFixed(1)} s`;
}

/** The answer in words; `on` says where it ran ("on 2 workers"). */
export function resultText(kind, r, on = "") {
  const where = on ? ` ${on}` : "";
  if (r.status === "unknown") return `${TITLES[kind]}: no answer (${r.reason || "stopped"})${where}.`;
  if (kind === "count") {
    const why = r.reason ? ` (${r.reason})` : "";
    return `${fmt(r.solutions)} jump sequences solve it (goal ${r.goal})${why}.\n` +
      `${fmt(r.positions)} positions up to symmetry, sweeps met at ${r.meet} pegs, ${r.seconds.toFixed(1)} s${where}.`;
  }
  if (r.status === "impossible") return `Impossible, proven: ${r.reason}${where}.`;
  return `${r.moves} moves (${r.jumps} jumps), proven minimal: a search by moves over all ${fmt(r.winnable)} ` +
    `positions that can still win (${r.seconds.toFixed(1)} s${where}). Use the player to watch it.\n${r.solution.join(" ")}`;
}

/** The estimate in words: time and memory here, and whether the page's memory ceiling will stop it. */
export function guessText(e) {
  const over = e.over_ceiling
    ? ` That is over this page's ${fmt(e.ceiling_mb)} MB memory ceiling: it will likely stop with no answer ` +
      "(the command line has no ceiling)."
    : "";
  return `About ${duration(e.browser_seconds)} and ${fmt(e.browser_memory_mb)} MB here, estimated from the first ` +
    `levels: ${fmt(e.positions)} positions up to symmetry on ${e.holes} holes.${over}`;
}

/** "on 2 workers", or "on 1 worker (why)". */
export function workersText(ran, why) {
  return ran > 1 ? `on ${ran} workers` : `on 1 worker${why ? ` (${why})` : ""}`;
}

/** ctx = {store, engine, game, playback, pool (pooluse.mjs)}; buttons = {count, fewest}; el = the analysis text. */
export function createExact(ctx, buttons, el = document.getElementById("analysis")) {
  const { store } = ctx;
  const s = store.state;

  store.subscribe((state) => {
    const p = state.pool;
    el.dataset.workers = p.ran ?? "";
    el.dataset.poolStatus = p.status;
    el.dataset.cancelMs = p.cancelMs === null ? "" : p.cancelMs.toFixed(1);
    el.dataset.answerMs = p.answerMs === null ? "" : p.answerMs.toFixed(1);
  });

  store.subscribe((state) => {
    const free = !!state.board && state.engine.status === "idle" && !state.task && !state.editor.open;
    buttons.count.disabled = buttons.fewest.disabled = !free;
  });

  async function run(kind) {
    if (ctx.game.blocked() || !s.board) return;
    const args = gameArgs(s.game);
    const base = s.game.jumps.map((j) => j.slice());
    let estimate;
    try {
      estimate = await ctx.engine.call("exact_estimate", { ...args, analysis: kind });
    } catch (err) {
      store.do("analysis/set", `${TITLES[kind]}: ${err.message}`);
      return;
    }
    const guess = guessText(estimate);
    if (estimate.big && !window.confirm(`${TITLES[kind]} sweeps every position of this game. ${guess} ` +
      "You can cancel it at any time. Start?")) {
      store.do("analysis/set", `${TITLES[kind]}: not started. ${guess}`);
      return;
    }
    const fn = kind === "fewest" ? "fewest_exact" : "count_exact";
    let release = () => {};
    const t0 = performance.now();
    store.do("task/start", { kind, t0, cancellable: true });
    store.do("pool/set", { ran: null, why: "", cancelMs: null, answerMs: null });
    store.do("analysis/set", `${TITLES[kind]}: starting. ${guess}`);
    const onProgress = (p) => store.do("analysis/set", progressText(kind, p, (performance.now() - t0) / 1000));
    try {
      const plan = await ctx.pool.acquire(estimate.browser_seconds >= POOL_SECONDS);
      if (s.task.cancelAt !== null) {
        store.do("analysis/set", `${TITLES[kind]}: no answer (cancelled before it started).`);
        return;
      }
      const request = { ...args, max_seconds: MAX_SECONDS };
      let job;
      if (plan.size > 1) {
        store.do("analysis/set", `${TITLES[kind]}: starting ${workersText(plan.size)}. ${guess}`);
        job = runPooled(ctx.engine, plan.pool, fn, request, { onProgress });
        release = ctx.pool.run(Object.keys(TITLES), job.stop);
      } else {
        job = ctx.engine.request(fn, request, { onProgress });
      }
      store.do("task/update", { id: job.id });
      const r = await job.promise;
      if (s.task.cancelAt !== null) store.do("pool/set", { answerMs: performance.now() - s.task.cancelAt });
      store.do("pool/set", { ran: r.workers ?? 1, why: plan.why ?? "" });
      store.do("analysis/set", resultText(kind, r, workersText(r.workers ?? 1, plan.why)));
      ctx.lab.exact = r;
      if (kind === "fewest" && r.status === "solved" && r.jump_list.length) {
        ctx.playback.load(base, r.jump_list, r.solution.join(" "));
      }
    } catch (err) {
      store.do("analysis/set", `${TITLES[kind]}: ${err.message}`);
    } finally {
      release();
      store.do("task/end");
    }
  }

  return { count: () => store.queue(() => run("count")), fewest: () => store.queue(() => run("fewest")) };
}
