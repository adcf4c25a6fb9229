// Never-lose mode (after G. Bell's "Never Lose" player), switched by the "Never lose" toggle
// button.  After every change of position the engine checks, with Hint's budget, whether the goal
// can still be reached (pyapp.analysis.neverlose through the streaming "never_lose" request) and
// files every legal jump as good, bad (with why) or unknown.  So:
//   * a move that makes the goal unreachable is flagged at once (the previous check already knew
//     the jump was bad), in the status region, with the reason and an Undo button;
//   * before moving, pegs whose every jump loses are marked `loses-from`, and once a peg is
//     selected the targets of its losing jumps are marked `loses-to`;
//   * when the budget runs out the note says "unknown", with how far the search got; while the position stays
//     shown, the check then goes on once, on FURTHER_SECONDS, for what it left undecided (what it decided is
//     kept in the engine's tables, so the second check starts where the first stopped), and its answer
//     replaces the first.
// The check runs beside the game, not as a task: the board stays playable, a newer position
// cancels the older check.  When the page's pool of workers is up (or ?workers=N), the position's own
// verdict and its jumps are decided side by side there (neverpool.mjs).  Store slice "neverlose":
// {on, key, checking, result, early, pool (the pool's progress: {done, total, nodes, workers}), further (the
// seconds of the check that goes on after an answer with undecided jumps, or null)}.

import { positionKey } from "./finishmap.mjs";
import { gameArgs } from "../play/game.mjs";
import { renderFunnel, shortCount } from "./funnel.mjs";
import { checkOnPool, poolWanted } from "./neverpool.mjs";
import { bookAnswer } from "./opening.mjs";

export const NEVER_LOSE_SECONDS = 10; // Hint's budget (pyapp.analysis.hint.DEFAULT_HINT_SECONDS)
// the budget of the check that goes on while an answer with undecided jumps stays shown (once a position)
export const FURTHER_SECONDS = 30;
const jumpText = (j) => `${j[0]}-${j[2]}`;
const sameJump = (a, b) => a.join() === b.join();

export function defineNeverLose(store) {
  const idle = { on: false, key: null, checking: false, result: null, early: null, pool: null, further: null };
  store.define("neverlose", idle, {
    toggle(s, on) { s.neverlose = { ...idle, on }; },
    checking(s, key) { s.neverlose = { ...s.neverlose, key, checking: true, result: null, early: null, pool: null, further: null }; },
    early(s, key, status, ms) { if (s.neverlose.key === key) s.neverlose = { ...s.neverlose, early: { status, ms } }; },
    pool(s, key, progress) { if (s.neverlose.key === key && s.neverlose.checking) s.neverlose = { ...s.neverlose, pool: progress }; },
    result(s, key, result) { if (s.neverlose.on) s.neverlose = { ...s.neverlose, key, checking: false, result, pool: null, further: null }; },
    further(s, key, seconds) { if (s.neverlose.key === key && s.neverlose.result) s.neverlose = { ...s.neverlose, further: seconds }; },
    furtherEnded(s, key) { if (s.neverlose.key === key) s.neverlose = { ...s.neverlose, further: null }; },
  });
}

/** The result for the position shown now, or null. */
const current = (state) => (state.neverlose.on && state.neverlose.key === positionKey(state) ? state.neverlose.result : null);

/** Board marks and the note under the toggle.  ui = {button, note, undo}. */
export function neverLoseView(view, ui) {
  let last = {};
  return (state) => {
    const nl = state.neverlose;
    const key = positionKey(state);
    if (nl === last.nl && key === last.key && state.selection === last.selection && view.svg === last.svg) return;
    last = { nl, key, selection: state.selection, svg: view.svg };
    ui.button.setAttribute("aria-pressed", String(nl.on));
    const r = current(state);
    const bad = r ? r.bad.map((b) => b.jump) : [];
    const legal = state.board ? state.board.legal : [];
    const sources = [...new Set(legal.map((j) => j[0]))];
    view.mark("loses-from", r ? sources.filter((p) => legal.filter((j) => j[0] === p).every((j) => bad.some((b) => sameJump(b, j)))) : []);
    const sel = state.selection.selected;
    view.mark("loses-to", r && sel ? bad.filter((j) => j[0] === sel).map((j) => j[2]) : []);
    view.mark("wins-to", r && sel ? r.good.filter((j) => j[0] === sel).map((j) => j[2]) : []);
    // the survival funnel: solutions through each target of the selected peg, on the board
    const through = r?.through && sel ? r.through.filter((t) => t.jump[0] === sel) : [];
    view.setLabels(Object.fromEntries(through.map((t) => [t.jump[2], shortCount(t.solutions)])));
    if (ui.funnel) renderFunnel(ui.funnel, nl.on ? r : null, (state.game?.jumps ?? []).map((j) => `${j[0]}-${j[2]}`));
    ui.undo.hidden = !(r && r.status === "lost" && state.game.jumps.length);
    ui.note.hidden = !nl.on;
    // stable hooks for tests and assistive technology: the verdict for the position shown, its pegs,
    // and the milliseconds from the position's change to that verdict
    const early = nl.checking && nl.key === key ? nl.early : null;
    const verdict = !nl.on ? null : r ? verdictOf(r, state.board) : early ? verdictOf(early, state.board)
      : nl.checking && nl.key === key ? "checking" : null;
    const further = r && nl.further ? nl.further : null;
    setData(ui.note, { verdict, pegs: verdict ? state.board?.pegs.length : null, ms: (r ?? early)?.ms, further });
    if (!nl.on) return;
    const pooled = nl.checking && nl.key === key && nl.pool ? ` ${poolText(nl.pool)}` : "";
    if (early) ui.note.textContent = (EARLY[early.status] ?? "Never lose: checking each jump…") + pooled;
    else if (nl.checking && nl.key === key) ui.note.textContent = `Never lose: checking this position…${pooled}`;
    else if (!r) ui.note.textContent = "Never lose: on.";
    else ui.note.textContent = noteText(r) + (further ? ` Checking what is undecided further (up to ${further} s more)…` : "");
  };
}

const VERDICTS = { winnable: "win", lost: "lose", unknown: "unknown" };
const EARLY = {
  winnable: "Never lose: the goal can still be reached; checking each jump…",
  lost: "Never lose: the goal can no longer be reached; finding why…",
};
const BOOK = {
  exact: "(From the opening book computed when the site was built, by lookup in this game's exact winnable set.)",
  search: "(From the opening book computed when the site was built: each verdict solved or proved by the engine.)",
};
/** data-verdict of a check: win, lose or unknown (a finished game: won or not). */
const verdictOf = (r, board) => (r.status === "over" ? (board?.won ? "win" : "lose") : VERDICTS[r.status] ?? "unknown");

function setData(el, values) {
  for (const [name, value] of Object.entries(values)) {
    if (value === null || value === undefined) delete el.dataset[name];
    else el.dataset[name] = String(value);
  }
}

/** What proved a jump losing, named from its reason (pyapp's proofs start with their kind). */
const PROOFS = [["pagoda", "pagoda function"], ["position class", "position class"], ["exhaustive", "exhaustive search"],
  ["exact analysis", "exact winnable set"], ["endgame table", "endgame table"], ["opening book", "opening book"], ["sat solver", "SAT solver"], ["leaves at best", "search"],
  ["jump counts", "jump counts (integer programme)"], ["integer programme", "integer programme"],
  ["it follows a position proved lost", "after a lost position"]];
const proofOf = (reason = "") => PROOFS.find(([p]) => reason.toLowerCase().startsWith(p))?.[1] ?? "proved";

/** The pool's progress, as the note shows it while the check runs. */
const poolText = (p) => `(on ${p.workers} workers: ${p.done} of ${p.total} questions decided, `
  + `${p.nodes.toLocaleString("en")} positions searched)`;

function noteText(r) {
  if (r.status === "lost") return `Never lose: the goal can no longer be reached (${r.reason}).`;
  if (r.status === "over") return "Never lose: no jump is left.";
  const parts = [];
  if (r.status === "unknown") parts.push(`Never lose: unknown — not decided within the ${r.budget} s budget (${r.reason}).`);
  else parts.push(r.method === "search" ? "Never lose: the goal can still be reached (a solution found by search)."
    : "Never lose: the goal can still be reached.");
  if (r.method === "exact") parts.push(`(Answered from ${r.answered ?? "the exact winnable set of this game, no search"}.)`);
  if (r.method === "book") parts.push(BOOK[r.proof] ?? "(From the opening book computed when the site was built.)");
  if (r.bad.length) parts.push(`Losing jumps (red): ${r.bad.map((b) => `${jumpText(b.jump)} (${proofOf(b.reason)})`).join(", ")}.`);
  else if (r.status === "winnable" && !r.unknown.length) parts.push("No jump loses here.");
  if (r.unknown.length) parts.push(`Not decided in time: ${r.unknown.map((u) => jumpText(u.jump)).join(", ")}.`);
  if (r.workers > 1) parts.push(`(Decided on ${r.workers} workers side by side.)`);
  return parts.join(" ");
}

/** The check of `args` on the page's pool when it is wanted (neverpool.mjs), else in the engine worker alone:
 *  {promise, cancel}.  onVerdict(status) gets the position's own status before its jumps are filed, onPool the
 *  pool's progress. */
function startCheck(ctx, args, { onVerdict = () => {}, onPool = () => {} } = {}) {
  if (poolWanted(ctx)) return checkOnPool(ctx, args, { onVerdict, onPool });
  const { engine } = ctx;
  const { id, promise } = engine.request("never_lose", args, { onProgress: (p) => { if (p.verdict) onVerdict(p.verdict); } });
  return { promise, cancel: () => engine.cancel(id) };
}

/** ctx = {store, engine, game, pool}.  Returns {toggle}. */
export function createNeverLose(ctx) {
  const { store } = ctx;
  const s = store.state;
  let running = null; // {key, cancel}
  let seenKey = null;
  let changedAt = performance.now(); // when the position shown last changed (data-ms counts from it)
  let lastDone = null; // {key, jumps, result}: the last finished check, to flag the next move at once

  const status = (text, kind = "", sticky = false) => store.do("status/set", text, kind, sticky);

  /** Whether the check `mine` just answered is still the running one (then no longer running).  One cancelled or
   *  replaced meanwhile (never-lose switched, a task, a newer position) is not: its answer is not this position's,
   *  even when never-lose is on again at the same position before the cancelled check answered. */
  function ended(mine) {
    if (running?.cancel !== mine.cancel) return false;
    running = null;
    return true;
  }

  function flagNow() {
    // the move just played was filed "bad" by the check of the position before it: say so at once
    const jumps = s.game.jumps;
    if (!lastDone || jumps.length !== lastDone.jumps.length + 1) return false;
    if (!lastDone.jumps.every((j, i) => sameJump(j, jumps[i]))) return false;
    const bad = lastDone.result.bad.find((b) => sameJump(b.jump, jumps.at(-1)));
    if (!bad) return false;
    status(`The move ${jumpText(bad.jump)} loses: ${bad.reason}. Undo it to play on.`, "error", true);
    return true;
  }

  async function check() {
    const key = positionKey(s);
    const t0 = changedAt;
    if (!s.neverlose.on || !key || s.task || key === running?.key) return;
    const jumps = s.game.jumps.map((j) => j.slice());
    const booked = await bookAnswer(s.game); // the start of a default game: decided when the site was built
    if (positionKey(s) !== key || !s.neverlose.on || s.task || key === running?.key) return;
    if (booked) {
      running?.cancel();
      running = null;
      store.do("neverlose/result", key, { ...booked, ms: Math.round(performance.now() - t0) });
      lastDone = { key, jumps, result: booked };
      return;
    }
    if (!ctx.engine) { // the engine starts after the offline copy is saved: checked once it is ready
      store.do("neverlose/checking", key);
      return;
    }
    running?.cancel();
    const flagged = flagNow();
    const early = (verdict) => { // the position's own status arrives before each jump is filed
      if (!EARLY[verdict] || positionKey(s) !== key || !s.neverlose.checking) return; // "unknown" only at the end
      store.do("neverlose/early", key, verdict, Math.round(performance.now() - t0));
    };
    // no line asked: the panel shows the verdicts only, and some sets' lines cost searches (pyapp.web.play)
    const args = { ...gameArgs(s.game), max_seconds: NEVER_LOSE_SECONDS, line: false };
    const mine = startCheck(ctx, args, { onVerdict: early, onPool: (p) => store.do("neverlose/pool", key, p) });
    const { promise } = mine;
    running = { key, cancel: mine.cancel };
    store.do("neverlose/checking", key);
    let r;
    try {
      r = await promise;
    } catch (err) {
      r = { status: "unknown", reason: err.message, good: [], bad: [], unknown: [], line: [], budget: NEVER_LOSE_SECONDS };
    }
    if (!ended(mine) || positionKey(s) !== key || !s.neverlose.on || s.task) return; // a newer check follows
    store.do("neverlose/result", key, { ...r, ms: Math.round(performance.now() - t0) });
    lastDone = { key, jumps, result: r };
    if (r.status === "lost" && !flagged) {
      const move = s.board.moves.at(-1);
      status(move ? `The move ${move} loses: ${r.reason}. Undo it to play on.`
        : `This position is lost: ${r.reason}.`, "error", true);
    }
    if (r.status === "unknown" || (r.status === "winnable" && r.unknown?.length)) await further(key, jumps, t0);
  }

  /** The check again on FURTHER_SECONDS while the position it left undecided stays shown (module comment). */
  async function further(key, jumps, t0) {
    const args = { ...gameArgs(s.game), max_seconds: FURTHER_SECONDS, line: false };
    const mine = startCheck(ctx, args);
    running = { key, cancel: mine.cancel };
    store.do("neverlose/further", key, FURTHER_SECONDS);
    let r = null;
    try {
      r = await mine.promise;
    } catch {
      // the first answer stays
    }
    if (ended(mine) && r && !r.cancelled && positionKey(s) === key && s.neverlose.on && !s.task) {
      store.do("neverlose/result", key, { ...r, ms: Math.round(performance.now() - t0) });
      lastDone = { key, jumps, result: r };
    } else {
      store.do("neverlose/furtherEnded", key); // cancelled (a newer position, never-lose off, a task) or failed
    }
  }

  let engineStatus = null;
  store.subscribe((state) => {
    const key = positionKey(state);
    if (state.engine.status !== engineStatus) { // ready now: check what waited for it
      engineStatus = state.engine.status;
      if (engineStatus === "idle" && state.neverlose.on && !current(state) && !running) seenKey = null;
    }
    if (state.task) {
      // a Solve or an analysis gets the engine to itself; the check runs again once it is over
      running?.cancel();
      running = null; // its answer, when it comes, is stale; the check runs again once the task is over
      seenKey = null;
      return;
    }
    if (!state.neverlose.on || key === seenKey) return;
    seenKey = key;
    changedAt = performance.now();
    setTimeout(check, 0); // after this action: subscribers never change the state themselves
  });

  function toggle() {
    const on = !s.neverlose.on;
    if (!on) running?.cancel();
    running = null;
    seenKey = null;
    lastDone = null;
    store.do("neverlose/toggle", on);
    status(on ? "Never lose is on: every move that makes the goal unreachable is flagged." : "Never lose is off.");
  }

  return { toggle, check };
}
