// Long engine requests started from the page: Solve (with progress and Cancel), Hint and
// Download CNF ("Where can one peg finish?" is finishmap.mjs).  Store slices: task (the running request, or
// null), progress (the line under Solve) and analysis (the analysis panel's text).
// A Solve pressed while the engine is still starting waits for it ("engine starting") and
// runs as soon as it can; the board stays locked meanwhile, as during any search.

import { gameArgs } from "../play/game.mjs";
import { formatCount as fmt } from "../numbers.mjs";


/** A request to the page's engine worker as the running task's request (its id is what Cancel cancels,
 *  until the request answers).  Resolves with the answer. */
export async function taskRequest(ctx, fn, args, onProgress) {
  const { id, promise } = ctx.engine.request(fn, args, { onProgress });
  ctx.store.do("task/update", { id });
  try {
    return await promise;
  } finally {
    ctx.store.do("task/update", { id: null });
  }
}

export function defineTasks(store) {
  store.define("task", null, {
    /** {kind, id, t0, cancelAt, cancellable, waiting} */
    start(s, task) { s.task = { id: null, cancelAt: null, waiting: false, ...task }; },
    update(s, fields) { s.task = { ...s.task, ...fields }; },
    end(s) { s.task = null; },
  });
  store.define("progress", { text: "", nodes: null }, {
    set(s, text, nodes = null) { s.progress = { text, nodes }; },
  });
  store.define("analysis", { text: "" }, {
    set(s, text) { s.analysis = { text }; },
  });
}

/** ctx = {store, engine, playback, game (controller), lab, budget: () => seconds}. */
export function createTasks(ctx) {
  const { store } = ctx;
  const s = store.state;
  const status = (text, kind = "") => store.do("status/set", text, kind);

  function showProgress(p) {
    ctx.lab.progressEvents++;
    const elapsed = (performance.now() - s.task.t0) / 1000;
    store.do("progress/set", `Searching: ${fmt(p.nodes)} nodes · ${elapsed.toFixed(1)} s · ${fmt(p.rate)} nodes/s`, p.nodes);
  }

  function showResult(r, base) {
    if (r.status === "solved") {
      if (!r.jumps) {
        status("Already solved: the goal is reached.", "won");
        return;
      }
      const what = !s.board.goal.definite ? `Best found: ${r.pegs_left} peg${r.pegs_left === 1 ? "" : "s"} left` : "Solved";
      status(`${what}: ${r.move_count} moves (${r.jumps} jumps), found in ${r.seconds.toFixed(2)} s. The move list continues with it; the player below plays it.`, "won");
      ctx.playback.load(base, r.jump_list, r.moves.join(" "));
      // the solution continues the game from where Solve was pressed: it is the line ahead (Redo)
      store.do("game/setRedo", r.jump_list.slice().reverse());
    } else if (r.status === "impossible") {
      status(`Impossible from here: ${r.reason}.`, "error");
      ctx.playback.hide();
    } else if (r.reason === "cancelled") {
      status(`Search cancelled after ${fmt(r.nodes)} nodes: no answer (unknown).`);
    } else {
      status(`Unknown: ${r.reason || "budget spent"} after ${fmt(r.nodes)} nodes. Try a larger budget.`);
    }
  }

  /** Solve from the current position (queued behind earlier intentions; not holding the queue). */
  async function solve() {
    if (ctx.game.blocked() || !s.board) return;
    store.do("selection/select", null);
    const base = s.game.jumps.map((j) => j.slice());
    const seconds = ctx.budget();
    const args = { ...gameArgs(s.game), max_seconds: seconds };
    const waiting = !ctx.engine || ctx.engine.state !== "idle";
    store.do("task/start", { kind: "solve", t0: performance.now(), cancellable: true, waiting });
    if (waiting) {
      status("Solve: the engine is starting; the search begins as soon as it is ready…");
      store.do("progress/set", "Engine starting…");
      try {
        await (await ctx.engineCreated).ready;
      } catch (err) {
        store.do("task/end");
        store.do("progress/set", "");
        status(`The search cannot run: ${err.message}`, "error");
        return;
      }
      if (s.task.cancelAt !== null) { // cancelled before it started
        ctx.lab.cancels.push(performance.now() - s.task.cancelAt);
        store.do("task/end");
        store.do("progress/set", "");
        status("Search cancelled before it started: no answer (unknown).");
        return;
      }
    }
    const { id, promise } = ctx.engine.request("solve", args, { onProgress: showProgress });
    store.do("task/update", { id, waiting: false });
    store.do("progress/set", "Searching…");
    status(`Solving from the current position (budget ${seconds} s)…`);
    try {
      const r = await promise;
      const wall = (performance.now() - s.task.t0) / 1000;
      ctx.lab.solves.push({ status: r.status, reason: r.reason, jumps: r.jumps, nodes: r.nodes,
        engineSeconds: r.seconds, wallSeconds: wall, at: performance.now() });
      if (s.task.cancelAt !== null) ctx.lab.cancels.push(performance.now() - s.task.cancelAt);
      store.do("progress/set", `${fmt(r.nodes)} nodes in ${r.seconds.toFixed(2)} s (${wall.toFixed(2)} s from click to answer)`);
      store.do("task/end");
      showResult(r, base);
    } catch (err) {
      store.do("task/end");
      status(`The search failed: ${err.message}`, "error");
    }
  }

  function cancel() {
    if (!s.task || !s.task.cancellable) return;
    store.do("task/update", { cancelAt: performance.now() });
    if (s.task.id !== null) ctx.engine.cancel(s.task.id);
    ctx.onCancel?.(s.task); // a pooled analysis stops its pool too (exact.mjs)
    status("Cancelling…");
  }

  /** An analysis: the board is locked until it answers.  A cancellable one (hint, finishes) stops
   *  on Cancel and answers with what it has settled (its result says `cancelled: true`). */
  async function oneShot(kind, fn, args, render, cancellable = false) {
    if (ctx.game.blocked()) return;
    store.do("task/start", { kind, t0: performance.now(), cancellable });
    store.do("analysis/set", "Working…");
    try {
      const { id, promise } = (await ctx.engineCreated).request(fn, args);
      store.do("task/update", { id });
      const value = await promise;
      render(value);
      if (s.task.cancelAt !== null) {
        ctx.lab.cancels.push(performance.now() - s.task.cancelAt);
        status(`${kind === "hint" ? "Hint" : "Finishes"} cancelled: below is what was settled before the cancel.`);
      }
    } catch (err) {
      store.do("analysis/set", err.message);
    } finally {
      store.do("task/end");
    }
  }

  const jumpText = (j) => `${j[0]}-${j[2]}`;

  function hint() {
    return oneShot("hint", "hint", { ...gameArgs(s.game), max_seconds: 10 }, (h) => {
      store.do("selection/hints", h.good.map((j) => j[0]));
      const lines = [];
      if (h.good.length) lines.push(`Good jumps (the goal stays reachable): ${h.good.map(jumpText).join(", ")}.`);
      else if (h.legal) lines.push("No jump is known to keep the goal reachable.");
      else lines.push("No jump is possible.");
      for (const b of h.bad) lines.push(`${jumpText(b.jump)}: ${b.reason}`);
      if (h.unknown.length) lines.push(`Not decided ${h.cancelled ? "(cancelled)" : "in time"}: ${h.unknown.map(jumpText).join(", ")}.`);
      store.do("analysis/set", lines.join("\n"));
    }, true);
  }

  function downloadCnf() {
    return oneShot("cnf", "cnf", gameArgs(s.game), ({ dimacs, filename }) => {
      const url = URL.createObjectURL(new Blob([dimacs], { type: "text/plain" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = filename;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      const header = dimacs.split("\n").find((l) => l.startsWith("p cnf")) || "";
      store.do("analysis/set", `Downloaded ${filename} (${header}).`);
    });
  }

  const q = (fn) => () => store.queue(fn);
  return {
    // Solve only waits for its turn; the search itself runs outside the queue (Cancel must get through)
    solve: () => store.queue(async () => { solve(); }),
    cancel,
    hint: q(hint), cnf: q(downloadCnf),
  };
}
