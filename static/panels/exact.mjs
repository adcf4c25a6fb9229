// "Count all solutions" and "Fewest moves": the exact analyses of pyapp.exact (every position
// swept level by level, no cap), run in the worker with per-level progress and Cancel.  Before
// a big board the page asks the engine for an estimate of the time and says it before starting.
// Store slices used: task (the running request), analysis (the panel's text), status.

import { gameArgs } from "../play/game.mjs";
import { formatCount as fmt } from "../numbers.mjs";

const MAX_SECONDS = 3600; // the budget of one exact analysis in the page (Cancel stops it sooner)
const TITLES = { count: "Count all solutions", fewest: "Fewest moves" };

function duration(seconds) {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  return `${Math.round(seconds / 60)} min`;
}

/** The line shown while a sweep runs: stage, level, positions, memory, time. */
export function progressText(kind, p, seconds) {
  const level = `${p.stage}, ${p.level} pegs: ${fmt(p.positions)} positions`;
  const done = p.parents ? ` (${fmt(p.done)} of ${fmt(p.parents)} expanded)` : "";
  const memory = p.memory ? ` · ${fmt(Math.round(p.memory / 1e6))} MB` : "";
  return `${TITLES[kind]}: ${level}${done}${memory} · ${seconds.toFixed(1)} s`;
}

/** The answer in words. */
export function resultText(kind, r) {
  if (r.status === "unknown") return `${TITLES[kind]}: no answer (${r.reason || "stopped"}).`;
  if (kind === "count") {
    const why = r.reason ? ` (${r.reason})` : "";
    return `${fmt(r.solutions)} jump sequences solve it (goal ${r.goal})${why}.\n` +
      `${fmt(r.positions)} positions up to symmetry, sweeps met at ${r.meet} pegs, ${r.seconds.toFixed(1)} s.`;
  }
  if (r.status === "impossible") return `Impossible, proven: ${r.reason}.`;
  return `${r.moves} moves (${r.jumps} jumps), proven minimal: a search by moves over all ${fmt(r.winnable)} ` +
    `positions that can still win (${r.seconds.toFixed(1)} s). Use the player to watch it.\n${r.solution.join(" ")}`;
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

/** ctx = {store, engine, game, playback}; buttons = {count, fewest}. */
export function createExact(ctx, buttons) {
  const { store } = ctx;
  const s = store.state;

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
    const t0 = performance.now();
    store.do("task/start", { kind, t0, cancellable: true });
    store.do("analysis/set", `${TITLES[kind]}: starting. ${guess}`);
    const onProgress = (p) => store.do("analysis/set", progressText(kind, p, (performance.now() - t0) / 1000));
    try {
      const { id, promise } = ctx.engine.request(fn, { ...args, max_seconds: MAX_SECONDS }, { onProgress });
      store.do("task/update", { id });
      const r = await promise;
      store.do("analysis/set", resultText(kind, r));
      if (kind === "fewest" && r.status === "solved" && r.jump_list.length) {
        ctx.playback.load(base, r.jump_list, r.solution.join(" "));
      }
    } catch (err) {
      store.do("analysis/set", `${TITLES[kind]}: ${err.message}`);
    } finally {
      store.do("task/end");
    }
  }

  return { count: () => store.queue(() => run("count")), fewest: () => store.queue(() => run("fewest")) };
}
