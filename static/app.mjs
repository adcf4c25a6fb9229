// Peg Solitaire Lab: the page.  This module only wires things together: the store (store.mjs:
// all page state, changed through named actions), its views (views.mjs, playback.mjs,
// startup.mjs), the controllers (game.mjs: playing; tasks.mjs: solve and analyses; editor.mjs)
// and the engine (protocol.mjs: pyapp in Pyodide, in a module worker).

import { BoardView } from "./board/board.mjs";
import { attachCoordinates } from "./board/coords.mjs";
import { Editor } from "./board/editor.mjs";
import { createExact } from "./panels/exact.mjs";
import { createPoolUse } from "./panels/pooluse.mjs";
import { createFinishes, defineFinishes, finishesView, mapShown } from "./panels/finishmap.mjs";
import { createGameController, defineGame } from "./play/game.mjs";
import { attachInput } from "./board/input.mjs";
import { createMoveList, moveListView } from "./play/movelist.mjs";
import { createNeverLose, defineNeverLose, neverLoseView } from "./panels/neverlose.mjs";
import { Playback, definePlayback } from "./board/playback.mjs";
import { createPuzzles, definePuzzle } from "./panels/puzzle.mjs";
import { Catalogue } from "./play/rules.mjs";
import { defineStartup, loadingView, precacheWhenIdle, prepareOffline, startEngine, watchForUpdates } from "./engine/startup.mjs";
import { Store } from "./store.mjs";
import { createTable, defineTable } from "./panels/table.mjs";
import { tableView } from "./panels/tablegrid.mjs";
import { createTasks, defineTasks } from "./panels/tasks.mjs";
import { boardView, fragmentView, isOwnLink, panelView } from "./views.mjs";

const $ = (id) => document.getElementById(id);
const T0 = performance.now(); // ms since navigation start
const lab = (window.pegLab = { timings: { script: T0 }, solves: [], progressEvents: 0, cancels: [], states: 0,
  neverloseStops: [], neverloseAsked: [] });

const ui = {
  holder: $("board"), status: $("status"), progress: $("progress"), loading: $("loading"),
  loadingText: $("loading-text"), loadingBar: $("loading-progress"), boardSelect: $("board-select"),
  goalSelect: $("goal-select"), pegs: $("count-pegs"), jumps: $("count-jumps"), moves: $("count-moves"),
  goalText: $("goal-text"), movesText: $("moves-text"), analysis: $("analysis"), timing: $("timing"),
  offline: $("offline-note"), budget: $("budget"), customText: $("custom-text"), customLattice: $("custom-lattice"),
};
const buttons = {
  undo: $("undo"), redo: $("redo"), restart: $("restart"), copyLink: $("copy-link"), solve: $("solve"),
  cancel: $("cancel"), hint: $("hint"), finishes: $("finishes"), cnf: $("download-cnf"), edit: $("edit-button"),
  customUse: $("custom-use"), neverLose: $("never-lose"), newPuzzle: $("new-puzzle"), table: $("table-open"),
};

// the data for playing catalogue boards without Python (build.py writes it from pyapp): fetched first
const catalogue = Catalogue.load(new URL("../boards.json", import.meta.url)).catch((err) => {
  console.warn("boards.json:", err);
  return null; // every state then comes from the engine
});

const store = (lab.store = new Store());
defineGame(store);
defineTasks(store);
definePlayback(store);
defineStartup(store);
defineFinishes(store);
defineNeverLose(store);
definePuzzle(store);
defineTable(store);
const s = store.state;

const view = new BoardView(ui.holder);
const editor = new Editor(ui.holder, $("editor-tools"));
let engineCreated;
const ctx = {
  store, view, editor, lab, rules: catalogue, engine: null, playback: null, game: null,
  engineCreated: new Promise((resolve) => { engineCreated = resolve; }),
  /** An engine request that waits for the engine to exist (it then waits for Python itself). */
  call: async (fn, args) => (await ctx.engineCreated).call(fn, args),
  budget: () => Number(ui.budget.value) || 60,
};
const game = (ctx.game = createGameController(ctx));
const status = game.status;
ctx.playback = lab.playback = new Playback(store, {
  panel: $("playback"), start: $("pb-start"), back: $("pb-back"), play: $("pb-play"), forward: $("pb-forward"),
  end: $("pb-end"), scrubber: $("pb-scrubber"), index: $("pb-index"), total: $("pb-total"), speed: $("pb-speed"),
  text: $("solution-text"),
}, {
  view,
  // each step shows base + solution[0:k]; the rest of the solution stays ahead in the move list
  commit: (jumps) => moveList.showLine(s.solution.base.concat(s.solution.jumps), jumps.length),
  announce: (text) => status(text),
});
const tasks = createTasks(ctx);
const moveList = createMoveList(ctx, $("move-list"));
const finishes = createFinishes(ctx);
const neverLose = createNeverLose(ctx);
ctx.puzzles = createPuzzles(ctx, { level: $("puzzle-level") });
ctx.onActivate = (name) => (mapShown(s) ? finishes.pick(name) : null); // already inside the queue
ctx.pool = createPoolUse(ctx);
const exact = createExact(ctx, { count: $("count-all"), fewest: $("fewest-moves") });
const table = createTable(ctx);
const written = { hash: null };
store.subscribe(boardView(view));
store.subscribe(panelView(ui, buttons));
store.subscribe(fragmentView(written));
store.subscribe(loadingView(ui));
store.subscribe(moveListView($("move-list")));
store.subscribe(finishesView(view, { list: $("finish-reasons"), hide: $("finish-hide") }));
store.subscribe(tableView({
  panel: $("table-panel"), summary: $("table-summary"), compute: $("table-compute"), cancel: $("table-cancel"),
  bar: $("table-progress"), barText: $("table-progress-text"), grid: $("table-grid"), legend: $("table-legend"),
  note: $("table-note"),
}));
store.subscribe(neverLoseView(view, {
  button: buttons.neverLose, note: $("neverlose-note"), undo: $("neverlose-undo"),
  funnel: { box: $("funnel"), total: $("funnel-total"), chart: $("funnel-chart"), list: $("funnel-moves") },
}));
store.subscribe((state) => {
  const free = !!state.board && state.engine.status === "idle" && !state.task && !state.editor.open;
  buttons.newPuzzle.disabled = !free;
  // on before the engine is ready: the start of a default game is answered from the opening book
  buttons.neverLose.disabled = !state.board || state.editor.open || state.engine.status === "failed";
});

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

// ------------------------------------------------------------------ the editor
function openEditor() {
  if (game.blocked()) return;
  ctx.playback.hide();
  editor.start(s.board);
  store.do("editor/open");
  status("Editing the board: click cells, then press “Use this board”.");
}

async function closeEditor(apply) {
  if (!s.editor.open) return;
  if (apply) {
    try {
      const made = await ctx.call("custom_board", editor.result());
      editor.close();
      store.do("editor/close");
      await game.loadGame({ board: made.board, position: made.position || null, goal: made.goal || null });
      status(s.board.board.catalogue ? `Edited position on the ${s.board.board.title} board.` : "Custom board ready.");
    } catch (err) {
      status(`That board cannot be used: ${err.message}`, "error");
    }
  } else {
    editor.close();
    store.do("editor/close");
    await game.sync();
  }
}

// ------------------------------------------------------------------ start-up
function launchEngine(base) {
  const engine = (ctx.engine = startEngine(store, lab, base));
  engineCreated(engine);
  return engine;
}

async function start() {
  store.do("loading/show", 0, "Preparing…");
  // a returning visitor has the runtime in the service worker's cache: start Python at once
  let engine = navigator.serviceWorker?.controller ? launchEngine(0) : null;
  // the board is played in the page from the first paint (catalogue boards need no engine)
  const known = await catalogue;
  if (known) ui.boardSelect.replaceChildren(...known.boards.map((b) => new Option(b.d.title, b.d.id)));
  const hash = location.hash;
  const first = store.queue(() => game.loadFromLink(hash, { fromElsewhere: !isOwnLink(hash) })).then(() => {
    lab.timings.firstPlayable = performance.now();
  });
  // a first visit waits for the offline copy, so the runtime is downloaded once, not twice
  const offline = await prepareOffline(store);
  lab.timings.serviceWorker = performance.now();
  lab.offline = offline;
  ui.offline.textContent = offline === "failed" || offline === "unsupported" ? "Offline use is not available here."
    : offline === "timeout" ? "Still saving the app for offline use…" : "Works offline.";
  engine ??= launchEngine(offline === "installed" ? 0.6 : 0);
  try {
    await engine.ready;
  } catch (err) {
    ui.loadingText.textContent = err.message;
    status(err.message, "error", true);
    return;
  }
  if (!known) {
    const boards = await engine.call("boards");
    ui.boardSelect.replaceChildren(...boards.map((b) => new Option(b.title, b.id)));
    if (s.board) boardSelectValue();
  }
  await first;
  lab.timings.firstBoard = performance.now();
  store.do("loading/hide");
  watchForUpdates($("update-button")).catch(() => {});
  precacheWhenIdle();
  ui.timing.textContent = `Engine ready in ${((lab.timings.engineReady) / 1000).toFixed(1)} s (Python ${lab.python} in WebAssembly).`;
}

function boardSelectValue() {
  if (s.board.board.catalogue) ui.boardSelect.value = s.board.board.id;
}

// ------------------------------------------------------------------ wiring
attachInput(ui.holder, view, game.input);
const queued = (fn) => () => store.queue(fn);
buttons.undo.addEventListener("click", () => game.input.undo());
buttons.redo.addEventListener("click", () => game.input.redo());
buttons.restart.addEventListener("click", () => game.restart());
buttons.solve.addEventListener("click", tasks.solve);
buttons.cancel.addEventListener("click", tasks.cancel);
buttons.hint.addEventListener("click", tasks.hint);
buttons.finishes.addEventListener("click", finishes.run);
$("finish-hide").addEventListener("click", finishes.hide);
$("finish-reasons").addEventListener("click", (event) => {
  const name = event.target.closest?.("[data-finish]")?.dataset.finish;
  if (name) store.queue(() => finishes.pick(name));
});
buttons.neverLose.addEventListener("click", () => neverLose.toggle());
buttons.table.addEventListener("click", table.open);
$("table-compute").addEventListener("click", table.compute);
$("table-cancel").addEventListener("click", tasks.cancel);
$("table-close").addEventListener("click", table.close);
$("table-grid").addEventListener("click", (event) => {
  const name = event.target.closest?.("[data-start]")?.dataset.start;
  if (name) table.pick(name);
});
$("neverlose-undo").addEventListener("click", () => game.input.undo());
buttons.newPuzzle.addEventListener("click", ctx.puzzles.newPuzzle);
attachCoordinates($("coords-toggle"), ui.holder);
buttons.cnf.addEventListener("click", tasks.cnf);
$("count-all").addEventListener("click", exact.count);
$("fewest-moves").addEventListener("click", exact.fewest);
buttons.edit.addEventListener("click", queued(openEditor));
$("editor-done").addEventListener("click", queued(() => closeEditor(true)));
$("editor-cancel").addEventListener("click", queued(() => closeEditor(false)));
$("editor-fill").addEventListener("click", () => editor.fill());
buttons.copyLink.addEventListener("click", async () => {
  const ok = await copyText(location.href);
  status(ok ? "Link copied: it opens this exact game." : `Copy this link: ${location.href}`);
});
$("copy-solution").addEventListener("click", async () => {
  const ok = await copyText($("solution-text").textContent);
  status(ok ? "Solution copied as text." : "Select the solution text to copy it.");
});
ui.boardSelect.addEventListener("change", queued(async () => {
  if (ui.boardSelect.value === "__custom" || game.blocked()) return;
  store.do("status/unstick");
  await game.loadGame({ board: ui.boardSelect.value });
}));
ui.goalSelect.addEventListener("change", queued(async () => {
  if (game.blocked()) return;
  store.do("game/setGoal", ui.goalSelect.value || null);
  ctx.playback.hide();
  await game.sync();
}));
buttons.customUse.addEventListener("click", queued(async () => {
  if (game.blocked()) return;
  const rows = ui.customText.value.replace(/\r/g, "").split("\n").map((r) => r.replace(/\s+$/, ""));
  const spec = `${ui.customLattice.value}:${rows.join("/")}`;
  try {
    store.do("status/unstick");
    await game.loadGame({ board: spec });
    status("Custom board ready.");
  } catch (err) {
    status(`That board cannot be used: ${err.message}`, "error");
  }
}));
window.addEventListener("hashchange", () => {
  if (location.hash === written.hash) return;
  if (s.task || s.editor.open) {
    // keep the address in step with what is shown; the new link can be opened when the engine is free
    history.replaceState(null, "", written.hash);
    status("Finish or cancel the current task before opening another link.");
    return;
  }
  const hash = location.hash;
  store.queue(() => game.loadFromLink(hash));
});

start();
