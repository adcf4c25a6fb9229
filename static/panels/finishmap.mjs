// "Where can one peg finish?" drawn on the board: every hole gets the class `finish-yes`,
// `finish-no` or `finish-unknown`; the reasons are listed once each with their holes (the engine
// groups them: the rule of three rules out 28 holes of the English board in one line); a
// possible finish, clicked on the board or in the list, becomes the goal and its solution plays.  The search shows
// progress and can be cancelled like Solve.  On a device with a pool of workers, the solver method's
// holes run on it, side by side (finishpool.mjs); the answer is drawn the same way.  Marks belong to the position they were computed
// for: once the position changes they are no longer drawn (and Hint rings are cleared by the
// game's own board/set action).
//
// Store slice "finishes": {shown, key, holes: {name: "yes"|"no"|"unknown"}, solutions: {name: moves},
// groups: [{verdict, reason, holes}]}.

import { gameArgs } from "../play/game.mjs";
import { formatCount as fmt } from "../numbers.mjs";
import { finishesOnPool } from "./finishpool.mjs";
import { taskRequest } from "./tasks.mjs";

const BUDGET_SECONDS = 20;
const POOL_HOLES = 36; // boards from this size on start the pool for the solver method (as the table does)
const CLASSES = { yes: "finish-yes", no: "finish-no", unknown: "finish-unknown" };
const EMPTY = { shown: false, key: null, holes: {}, solutions: {}, groups: [] };

/** The position a result belongs to: board, position and goal. */
export const positionKey = (state) => (state.board
  ? `${state.board.board.spec}|${state.board.position}|${state.board.goal.text}` : null);

export function defineFinishes(store) {
  store.define("finishes", EMPTY, {
    show(s, key, result) {
      const holes = {};
      for (const name of Object.keys(result.possible)) holes[name] = "yes";
      for (const name of Object.keys(result.impossible)) holes[name] = "no";
      for (const name of Object.keys(result.unknown || {})) holes[name] = "unknown";
      s.finishes = { shown: true, key, holes, solutions: result.possible, groups: result.groups || [] };
    },
    hide(s) { s.finishes = EMPTY; },
  });
}

/** True when the map is drawn for the position shown now. */
export const mapShown = (state) => state.finishes.shown && state.finishes.key === positionKey(state);

/** The marks on the board and the grouped reasons in `ui.list` (a <ul>); `ui.hide`: the "Hide the map" button. */
export function finishesView(view, ui) {
  let last = { finishes: null, key: null, svg: null };
  return (state) => {
    const key = positionKey(state);
    const svg = view.svg;
    if (state.finishes === last.finishes && key === last.key && svg === last.svg) return;
    last = { finishes: state.finishes, key, svg };
    const shown = mapShown(state);
    const holes = shown ? state.finishes.holes : {};
    for (const [verdict, cls] of Object.entries(CLASSES)) {
      view.mark(cls, Object.keys(holes).filter((name) => holes[name] === verdict));
    }
    ui.hide.hidden = !shown;
    ui.list.hidden = !shown;
    if (!shown) {
      ui.list.replaceChildren();
      return;
    }
    ui.list.replaceChildren(...state.finishes.groups.map((g) => {
      const li = document.createElement("li");
      li.className = `finish-group ${CLASSES[g.verdict] || ""}`;
      const head = document.createElement("span");
      head.className = "finish-verdict";
      head.textContent = g.verdict === "yes" ? "Possible" : g.verdict === "no" ? "Impossible" : "Unknown";
      li.append(head, " ");
      if (g.verdict === "yes") {
        // each possible finish is a button too: the keyboard's way to play its solution
        for (const name of g.holes) {
          const b = document.createElement("button");
          b.type = "button";
          b.className = "finish-pick";
          b.dataset.finish = name;
          b.textContent = name;
          b.setAttribute("aria-label", `Play a solution ending on ${name}`);
          li.append(b, " ");
        }
        li.append("— pick one (on the board too) to play its solution.");
      } else {
        li.append(`${g.holes.join(", ")} (${g.holes.length} hole${g.holes.length === 1 ? "" : "s"}): ${g.reason}.`);
      }
      return li;
    }));
  };
}

/** ctx = {store, engine, game, playback, lab}. */
export function createFinishes(ctx) {
  const { store } = ctx;
  const s = store.state;
  const status = (text, kind = "") => store.do("status/set", text, kind);

  async function run() {
    if (ctx.game.blocked() || !s.board) return;
    store.do("selection/select", null);
    const key = positionKey(s);
    const args = { ...gameArgs(s.game), max_seconds: BUDGET_SECONDS };
    const t0 = performance.now();
    const elapsed = () => ((performance.now() - t0) / 1000).toFixed(1);
    const onProgress = (p) => {
      ctx.lab.progressEvents++;
      store.do("progress/set", `Finishes: ${fmt(p.nodes ?? 0)} nodes · ${elapsed()} s${p.note ? ` · ${p.note}` : ""}`, p.nodes ?? null);
    };
    const onPool = (p) => {
      ctx.lab.progressEvents++;
      store.do("progress/set", `Finishes: ${fmt(p.nodes)} nodes · ${elapsed()} s · ${p.done} of ${p.total} hole ` +
        `shares done on ${p.workers} workers`, p.nodes);
    };
    store.do("task/start", { kind: "finishes", t0, cancellable: true });
    store.do("pool/set", { ran: null, why: "", cancelMs: null, answerMs: null });
    store.do("progress/set", "Finishes: searching…");
    status(`Looking for every hole where one peg can finish (budget ${BUDGET_SECONDS} s)…`);
    try {
      // the plan first and the solver's shares on the pool (finishpool.mjs) where the pool pays for itself:
      // it is up already, or the board is big (a few s of start-up against a finishes of seconds elsewhere)
      const pooled = ctx.pool.wants(ctx.pool.running() || s.board.cells.length >= POOL_HOLES);
      const f = pooled ? await finishesOnPool(ctx, args, { onProgress, onPool })
        : await taskRequest(ctx, "finishes", args, onProgress);
      const wall = (performance.now() - t0) / 1000;
      if (s.task.cancelAt !== null) ctx.lab.cancels.push(performance.now() - s.task.cancelAt);
      store.do("task/end");
      const on = f.workers > 1 ? ` on ${f.workers} workers` : f.why ? ` on 1 worker (${f.why})` : "";
      store.do("progress/set", `Finishes ${f.cancelled ? "cancelled" : "answered"} after ${wall.toFixed(2)} s${on}.`);
      store.do("finishes/show", key, f);
      const ok = (f.groups || []).find((g) => g.verdict === "yes")?.holes || Object.keys(f.possible);
      const unknown = Object.keys(f.unknown || {}).length;
      const text = ok.length ? `One peg can finish on ${ok.join(", ")} (green${on ? `, found${on}` : ""}). ` +
        "Pick one to play its solution."
        : unknown ? `No finish found yet${on}.` : `One peg cannot finish anywhere from here${on ? ` (searched${on})` : ""}.`;
      const why = f.cancelled ? "the search was cancelled" : "the budget ran out";
      status(unknown ? `${text} ${unknown} hole${unknown === 1 ? "" : "s"} undecided (${why}): dotted rings.` : text,
        ok.length ? "won" : "");
      store.do("analysis/set", ok.length ? `One peg can finish on ${ok.join(", ")}: green rings; every reason below.`
        : "One peg can finish nowhere known: every reason below.");
      store.do("pool/set", { ran: f.workers ?? 1, why: f.why || "" });
    } catch (err) {
      store.do("task/end");
      store.do("progress/set", "");
      status(`The finishes search failed: ${err.message}`, "error");
    }
  }

  /** Play the solution that ends with one peg on `name` (a possible finish). */
  async function pick(name) {
    if (!mapShown(s) || ctx.game.blocked()) return false;
    const moves = s.finishes.solutions[name];
    if (!moves) {
      const group = s.finishes.groups.find((g) => g.holes.includes(name));
      status(group ? `No single peg can finish on ${name}: ${group.reason}.` : `${name} is not a hole of this board.`);
      return true;
    }
    const base = s.game.jumps.map((j) => j.slice());
    // the picked hole becomes the goal, so the game ends "solved" there
    if (s.board.goal.hole !== name) {
      store.do("game/setGoal", name);
      await ctx.game.sync();
    }
    const after = await ctx.call("state", gameArgs(s.game, [...s.board.moves, ...moves]));
    const jumps = after.played.slice(base.length);
    ctx.playback.load(base, jumps, moves.join(" "));
    store.do("game/setRedo", jumps.slice().reverse());
    store.do("finishes/hide");
    status(`Playing a solution that leaves one peg on ${name}: ${moves.length} moves.`, "won");
    ctx.playback.play(); // not awaited: its steps queue behind this intention
    return true;
  }

  return {
    run: () => store.queue(async () => { run(); }), // the search runs outside the queue (Cancel must get through)
    pick,
    hide: () => store.do("finishes/hide"),
  };
}
