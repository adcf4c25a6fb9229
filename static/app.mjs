// Peg Solitaire Lab: the page controller.  The engine (pyapp in Pyodide, in a module worker)
// answers every question about the rules; this module keeps the game (board, start, goal,
// jumps played), shows it, and keeps the URL fragment in step with it.

import { BoardView } from "./board.mjs";
import { Engine } from "./client.mjs";
import { Editor } from "./editor.mjs";
import { attachInput } from "./input.mjs";
import { Playback, showMoves } from "./playback.mjs";
import { formatFragment, parseFragment } from "./share.mjs";

const $ = (id) => document.getElementById(id);
const T0 = performance.now(); // ms since navigation start
const SW_WAIT_MS = 120_000;
const DEFAULT_GAME = { board: "english", start: null, position: null, goal: null };
const lab = (window.pegLab = { timings: { script: T0 }, solves: [], progressEvents: 0, cancels: [], states: 0 });

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
  customUse: $("custom-use"),
};

const view = new BoardView(ui.holder);
const editor = new Editor(ui.holder, $("editor-tools"));
let engine = null;
let game = { ...DEFAULT_GAME, jumps: [], redo: [] };
let st = null; // the engine's last state for `game`
let selected = null;
let busy = false; // a jump is animating / syncing
let task = null; // a long engine request: {kind, id, t0, cancelAt}
let writtenHash = null;
let syncSeq = 0;
let stickyStatus = false;

// ------------------------------------------------------------------ small helpers
function setStatus(text, kind = "", { sticky = false } = {}) {
  ui.status.textContent = text;
  ui.status.className = `status ${kind}`.trim();
  stickyStatus = sticky;
}

const fmt = (n) => Number(n).toLocaleString("en-US");

/** Consecutive jumps by one peg form one move: [[a,b,c],[c,d,e]] -> ["a-c-e"]. */
export function groupMoves(jumps) {
  const moves = [];
  let lastTo = null;
  for (const [from, , to] of jumps) {
    if (moves.length && lastTo === from) moves[moves.length - 1] += `-${to}`;
    else moves.push(`${from}-${to}`);
    lastTo = to;
  }
  return moves;
}

function gameArgs(moves = groupMoves(game.jumps)) {
  const args = { board: game.board, moves };
  if (game.position) args.position = game.position;
  else if (game.start) args.start = game.start;
  if (game.goal) args.goal = game.goal;
  return args;
}

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

// ------------------------------------------------------------------ showing a state
function applyState(state) {
  lab.states++;
  st = state;
  game.board = state.board.spec;
  game.jumps = state.played.map((j) => j.slice());
  const key = `${state.board.spec}|${state.board.lattice}|${state.board.holes}`;
  if (!editor.open) {
    view.setSvg(state.svg, key);
    view.setPegs(state.pegs);
    view.setLast(state.played.at(-1) || null);
    view.setGoal(state.goal.hole);
    view.mark("hint", []);
    if (view.focusName) view.setFocus(view.focusName);
  }
  select(null);
  ui.pegs.textContent = String(state.peg_count);
  ui.jumps.textContent = String(state.jump_count);
  ui.moves.textContent = String(state.move_count);
  ui.goalText.textContent = state.goal.kind === "hole" ? state.goal.hole
    : state.goal.kind === "any" ? "any" : state.goal.kind === "min" ? "fewest" : "target";
  if (state.moves.length) showMoves(ui.movesText, state.moves);
  else ui.movesText.textContent = "(none yet)";
  updateBoardSelect(state);
  updateGoalSelect(state);
  writeFragment(state);
  if (state.over) setStatus(state.message, state.won ? "won" : "");
  else if (!stickyStatus && !task) {
    setStatus(state.jump_count ? `${state.legal.length} jump${state.legal.length === 1 ? "" : "s"} possible.`
      : `${state.board.title}: pick a peg to jump, or press Solve.`);
  }
  playback.track(game.jumps);
  refreshButtons();
}

function updateBoardSelect(state) {
  const sel = ui.boardSelect;
  let custom = sel.querySelector("option[value='__custom']");
  if (state.board.catalogue) {
    custom?.remove();
    sel.value = state.board.id;
  } else {
    if (!custom) {
      custom = new Option("Custom board", "__custom");
      sel.append(custom);
    }
    custom.textContent = `Custom board (${state.board.holes} holes)`;
    sel.value = "__custom";
  }
}

function updateGoalSelect(state) {
  const sel = ui.goalSelect;
  sel.querySelector("option[value='']").textContent = `Board default (${state.board.default_goal})`;
  for (const opt of [...sel.options]) if (opt.dataset.goalOption) opt.remove();
  if (state.goal.kind === "hole") {
    const opt = new Option(`One peg on ${state.goal.hole}`, state.goal.hole);
    opt.dataset.goalOption = "1";
    sel.append(opt);
  }
  sel.value = game.goal ? (state.goal.kind === "hole" ? state.goal.hole : state.goal.kind) : "";
}

function writeFragment(state) {
  const frag = formatFragment({
    board: state.board.spec,
    position: game.position ? state.start_text : null,
    start: game.position ? null : game.start || (state.board.catalogue ? state.start_hole : null),
    goal: state.goal.text,
    moves: state.moves,
  });
  writtenHash = `#${frag}`;
  if (location.hash !== writtenHash) history.replaceState(null, "", writtenHash);
}

function refreshButtons() {
  const ready = !!st && !!engine && engine.state === "idle";
  const free = ready && !task && !editor.open;
  buttons.undo.disabled = !free || game.jumps.length === 0;
  buttons.redo.disabled = !free || game.redo.length === 0;
  buttons.restart.disabled = !free || game.jumps.length === 0;
  buttons.solve.disabled = !free || !st || st.over;
  buttons.cancel.disabled = !task || !task.cancellable;
  for (const b of [buttons.hint, buttons.finishes, buttons.cnf, buttons.edit, buttons.customUse]) b.disabled = !free;
  buttons.copyLink.disabled = !ready;
  ui.boardSelect.disabled = ui.goalSelect.disabled = !free;
  ui.holder.classList.toggle("solving", !!task);
}

// ------------------------------------------------------------------ syncing with the engine
async function sync(args = gameArgs()) {
  const seq = ++syncSeq;
  const state = await engine.call("state", args);
  if (seq === syncSeq) applyState(state);
  return state;
}

async function loadGame(next, moves = []) {
  game = { ...DEFAULT_GAME, ...next, jumps: [], redo: [] };
  view.focusName = null; // a new game: the focus ring starts again on a peg that can jump
  view.mark("focus", []);
  playback.hide();
  ui.analysis.textContent = "";
  await sync(gameArgs(moves));
}

async function fallback(message) {
  setStatus(`${message} Showing the English board instead.`, "error", { sticky: true });
  await loadGame(DEFAULT_GAME);
}

async function loadFromLink(hash) {
  const parsed = parseFragment(hash);
  if (!parsed.ok) return fallback(`This link could not be opened: ${parsed.error}.`);
  if (!parsed.game) return loadGame(DEFAULT_GAME);
  const { moves, ...rest } = parsed.game;
  try {
    await loadGame(rest, moves);
    setStatus("Opened the shared game.", "", { sticky: false });
    if (st?.over) setStatus(st.message, st.won ? "won" : "");
  } catch (err) {
    await fallback(`This link could not be opened: ${err.message}.`);
  }
}

// ------------------------------------------------------------------ playing
function sourcesOf(name) { return st ? st.legal.filter((j) => j[0] === name) : []; }

function select(name) {
  selected = name && sourcesOf(name).length ? name : null;
  view.mark("selected", selected ? [selected] : []);
  view.mark("target", selected ? sourcesOf(selected).map((j) => j[2]) : []);
}

function blocked() {
  if (task) {
    setStatus("The engine is busy: press Cancel to play on.");
    return true;
  }
  return busy || !st || editor.open;
}

async function playJump(jump, { animate = true } = {}) {
  busy = true;
  stickyStatus = false;
  const top = game.redo.at(-1);
  if (top && top.join() === jump.join()) game.redo.pop();
  else game.redo = [];
  select(null);
  try {
    if (animate) await view.animateJump(jump, { duration: 260 });
    else view.animateJump(jump, { duration: 0 });
    await sync(gameArgs(groupMoves([...game.jumps, jump])));
  } catch (err) {
    setStatus(err.message, "error");
    await sync();
  } finally {
    busy = false;
    refreshButtons();
  }
}

const controller = {
  editing: () => editor.open,
  canDrag: (name) => !task && !busy && !!st && sourcesOf(name).length > 0,
  preferredFocus: () => (st ? (st.legal[0]?.[0] ?? st.pegs[0]) : null),
  select(name) { if (!blocked()) select(name); },
  announceFocus(name) {
    const peg = view.isPeg(name) ? "peg" : "empty hole";
    const n = sourcesOf(name).length;
    $("focus-announce").textContent = `${name}: ${peg}${n ? `, ${n} jump${n > 1 ? "s" : ""}` : ""}`;
  },
  activate(name) {
    if (blocked()) return;
    if (selected) {
      const jump = sourcesOf(selected).find((j) => j[2] === name);
      if (jump) {
        playJump(jump);
        return;
      }
    }
    if (name === selected) {
      select(null);
      return;
    }
    select(name);
    if (!selected && view.isPeg(name)) setStatus(`No jump from ${name}.`);
  },
  drop(from, to) {
    if (blocked()) return;
    const jump = sourcesOf(from).find((j) => j[2] === to);
    if (jump) playJump(jump, { animate: false });
    else select(from);
  },
  async undo() {
    if (blocked() || !game.jumps.length) return;
    busy = true;
    const jump = game.jumps.at(-1);
    try {
      select(null);
      await view.animateJump(jump, { duration: 180, reverse: true });
      const redo = [...game.redo, jump];
      await sync(gameArgs(groupMoves(game.jumps.slice(0, -1))));
      game.redo = redo;
      stickyStatus = false;
      setStatus(`Undid ${jump[0]}-${jump[2]}.`);
    } finally {
      busy = false;
      refreshButtons();
    }
  },
  async redo() {
    if (blocked() || !game.redo.length) return;
    await playJump(game.redo.at(-1), { animate: true });
  },
};

// ------------------------------------------------------------------ solving and analyses
function showProgress(p) {
  lab.progressEvents++;
  const elapsed = (performance.now() - task.t0) / 1000;
  ui.progress.textContent = `Searching: ${fmt(p.nodes)} nodes · ${elapsed.toFixed(1)} s · ${fmt(p.rate)} nodes/s`;
  ui.progress.dataset.nodes = String(p.nodes);
}

async function solve() {
  if (blocked() || !st) return;
  select(null);
  const base = game.jumps.map((j) => j.slice());
  const seconds = Number(ui.budget.value) || 60;
  const { id, promise } = engine.request("solve", { ...gameArgs(), max_seconds: seconds }, { onProgress: (p) => showProgress(p) });
  task = { kind: "solve", id, t0: performance.now(), cancelAt: null, cancellable: true };
  ui.progress.textContent = "Searching…";
  setStatus(`Solving from the current position (budget ${seconds} s)…`);
  refreshButtons();
  try {
    const r = await promise;
    const wall = (performance.now() - task.t0) / 1000;
    lab.solves.push({ status: r.status, reason: r.reason, jumps: r.jumps, nodes: r.nodes, engineSeconds: r.seconds, wallSeconds: wall });
    if (task.cancelAt !== null) lab.cancels.push(performance.now() - task.cancelAt);
    ui.progress.textContent = `${fmt(r.nodes)} nodes in ${r.seconds.toFixed(2)} s (${wall.toFixed(2)} s from click to answer)`;
    showResult(r, base);
  } catch (err) {
    setStatus(`The search failed: ${err.message}`, "error");
  } finally {
    task = null;
    refreshButtons();
  }
}

function showResult(r, base) {
  if (r.status === "solved") {
    if (!r.jumps) {
      setStatus("Already solved: the goal is reached.", "won");
      return;
    }
    const what = st.goal.kind === "min" ? `Best found: ${r.pegs_left} peg${r.pegs_left === 1 ? "" : "s"} left` : "Solved";
    setStatus(`${what}: ${r.move_count} moves (${r.jumps} jumps), found in ${r.seconds.toFixed(2)} s. Use the player below to watch it.`, "won");
    playback.load(base, r.jump_list, r.moves.join(" "));
  } else if (r.status === "impossible") {
    setStatus(`Impossible from here: ${r.reason}.`, "error");
    playback.hide();
  } else if (r.reason === "cancelled") {
    setStatus(`Search cancelled after ${fmt(r.nodes)} nodes: no answer (unknown).`);
  } else {
    setStatus(`Unknown: ${r.reason || "budget spent"} after ${fmt(r.nodes)} nodes. Try a larger budget.`);
  }
}

function cancel() {
  if (!task || !task.cancellable) return;
  task.cancelAt = performance.now();
  engine.cancel(task.id);
  setStatus("Cancelling…");
}

async function oneShot(kind, fn, args, render, cancellable = false) {
  if (blocked()) return;
  const { id, promise } = engine.request(fn, args);
  task = { kind, id, t0: performance.now(), cancelAt: null, cancellable };
  refreshButtons();
  ui.analysis.textContent = "Working…";
  try {
    const value = await promise;
    render(value);
    if (task.cancelAt !== null) {
      lab.cancels.push(performance.now() - task.cancelAt);
      setStatus(`${kind === "hint" ? "Hint" : "Finishes"} cancelled: below is what was settled before the cancel.`);
    }
  } catch (err) {
    ui.analysis.textContent = err.message;
  } finally {
    task = null;
    refreshButtons();
  }
}

function hint() {
  oneShot("hint", "hint", { ...gameArgs(), max_seconds: 10 }, (h) => {
    view.mark("hint", h.good.map((j) => j[0]));
    const lines = [];
    if (h.good.length) lines.push(`Good jumps (the goal stays reachable): ${h.good.map((j) => `${j[0]}-${j[2]}`).join(", ")}.`);
    else if (h.legal) lines.push("No jump is known to keep the goal reachable.");
    else lines.push("No jump is possible.");
    for (const b of h.bad) lines.push(`${b.jump[0]}-${b.jump[2]}: ${b.reason}`);
    if (h.unknown.length) lines.push(`Not decided ${h.cancelled ? "(cancelled)" : "in time"}: ${h.unknown.map((j) => `${j[0]}-${j[2]}`).join(", ")}.`);
    ui.analysis.textContent = lines.join("\n");
  }, true);
}

function finishes() {
  oneShot("finishes", "finishes", { ...gameArgs(), max_seconds: 20 }, (f) => {
    const lines = [];
    const ok = Object.keys(f.possible);
    lines.push(ok.length ? `One peg can finish on: ${ok.join(", ")}.` : "One peg cannot finish anywhere from here.");
    for (const [hole, why] of Object.entries(f.impossible)) lines.push(`${hole}: impossible (${why})`);
    for (const [hole, why] of Object.entries(f.unknown || {})) lines.push(`${hole}: unknown (${why})`);
    ui.analysis.textContent = lines.join("\n");
  }, true);
}

function downloadCnf() {
  oneShot("cnf", "cnf", gameArgs(), ({ dimacs, filename }) => {
    const url = URL.createObjectURL(new Blob([dimacs], { type: "text/plain" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = filename;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    const header = dimacs.split("\n").find((l) => l.startsWith("p cnf")) || "";
    ui.analysis.textContent = `Downloaded ${filename} (${header}).`;
  });
}

// ------------------------------------------------------------------ the editor
function openEditor() {
  if (blocked()) return;
  playback.hide();
  editor.start(st);
  view.key = null; // the board drawing is replaced; redraw it afterwards
  setStatus("Editing the board: click cells, then press “Use this board”.");
  refreshButtons();
}

async function closeEditor(apply) {
  const request = editor.result();
  if (apply) {
    try {
      const made = await engine.call("custom_board", request);
      editor.close();
      await loadGame({ board: made.board, position: made.position || null, goal: made.goal || null });
      setStatus(st.board.catalogue ? `Edited position on the ${st.board.title} board.` : "Custom board ready.");
    } catch (err) {
      setStatus(`That board cannot be used: ${err.message}`, "error");
      return;
    }
  } else {
    editor.close();
    await sync();
  }
  refreshButtons();
}

// ------------------------------------------------------------------ playback
const playback = (lab.playback = new Playback({
  panel: $("playback"), start: $("pb-start"), back: $("pb-back"), play: $("pb-play"), forward: $("pb-forward"),
  end: $("pb-end"), scrubber: $("pb-scrubber"), index: $("pb-index"), total: $("pb-total"), speed: $("pb-speed"),
  text: $("solution-text"),
}, {
  view,
  commit: async (jumps) => {
    game.redo = [];
    await sync(gameArgs(groupMoves(jumps)));
  },
  announce: (text) => setStatus(text),
}));

// ------------------------------------------------------------------ start-up
let loadingLabel = "";
// The runtime stage gives no progress of its own: fill the bar along the time it took last time.
let stageGuess = null; // {from, to, t0, seconds}
const STARTUP_KEY = "peg-lab-runtime-seconds";
function storage(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(key);
    localStorage.setItem(key, value);
  } catch {
    return null; // storage may be disabled: the estimate is only cosmetic
  }
  return value;
}
const loadingTicker = setInterval(() => {
  if (ui.loading.hidden) {
    clearInterval(loadingTicker);
    return;
  }
  ui.loadingText.textContent = `${loadingLabel} ${(performance.now() / 1000).toFixed(1)} s`;
  if (stageGuess) {
    const f = Math.min(0.95, (performance.now() - stageGuess.t0) / 1000 / stageGuess.seconds);
    ui.loadingBar.value = Math.round(100 * (stageGuess.from + f * (stageGuess.to - stageGuess.from)));
  }
}, 100);

function showLoading(fraction, text) {
  ui.loading.hidden = false;
  ui.loadingBar.value = Math.round(fraction * 100);
  ui.loadingBar.textContent = `${Math.round(fraction * 100)}%`;
  loadingLabel = text;
  ui.loadingText.textContent = text;
}

/** Register the service worker; on a first visit wait until it has cached everything (the
 *  runtime included), so the engine's own requests are served from that cache and the
 *  runtime is downloaded once, not twice. */
async function prepareOffline() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return "unsupported";
  const onMessage = (event) => {
    const m = event.data;
    if (m && m.type === "precache" && m.total) {
      showLoading(0.6 * (m.loaded / m.total), `Downloading the app for offline use: ${(m.loaded / 1e6).toFixed(1)} of ${(m.total / 1e6).toFixed(1)} MB`);
    }
  };
  navigator.serviceWorker.addEventListener("message", onMessage);
  try {
    const reg = await navigator.serviceWorker.register("sw.js");
    if (navigator.serviceWorker.controller) return "cached";
    if (reg.active && !reg.installing && !reg.waiting) return "uncontrolled";
    const worker = reg.installing || reg.waiting;
    return await new Promise((resolve) => {
      // a very slow first download must not hold the app back for ever: start without the cache
      setTimeout(() => resolve("timeout"), SW_WAIT_MS);
      navigator.serviceWorker.addEventListener("controllerchange", () => resolve("installed"), { once: true });
      worker?.addEventListener("statechange", () => {
        if (worker.state === "redundant") resolve("failed");
      });
    });
  } catch (err) {
    console.warn("service worker:", err);
    return "failed";
  } finally {
    navigator.serviceWorker.removeEventListener("message", onMessage);
  }
}

/** A new deploy installs in the background and waits (the open page keeps its own version);
 *  offer to switch now: the new worker takes over and the page reloads once. */
async function watchForUpdates() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const reg = await navigator.serviceWorker.getRegistration();
  if (!reg) return;
  const offer = () => {
    const waiting = reg.waiting;
    if (!waiting || !navigator.serviceWorker.controller) return;
    const button = $("update-button");
    button.hidden = false;
    button.onclick = () => {
      navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), { once: true });
      waiting.postMessage({ type: "skipWaiting" });
    };
  };
  const follow = (worker) => worker?.addEventListener("statechange", () => {
    if (worker.state === "installed") offer();
  });
  reg.addEventListener("updatefound", () => follow(reg.installing));
  follow(reg.installing); // an update already under way
  offer(); // or already waiting
}

async function start() {
  showLoading(0, "Preparing…");
  const offline = await prepareOffline();
  lab.timings.serviceWorker = performance.now();
  lab.offline = offline;
  ui.offline.textContent = offline === "failed" || offline === "unsupported" ? "Offline use is not available here."
    : offline === "timeout" ? "Still saving the app for offline use…" : "Works offline.";
  const base = offline === "installed" ? 0.6 : 0;
  const labels = {
    runtime: "Loading the Python runtime (WebAssembly)…",
    pyapp: "Loading the peg solitaire engine…",
    import: "Starting the engine…",
  };
  engine = new Engine();
  engine.addEventListener("loading", (event) => {
    const { stage, loaded, total } = event.detail;
    lab.timings[`stage_${stage}`] = performance.now();
    // where each stage starts on the bar: the runtime takes nearly all of the time
    const at = { runtime: 0, pyapp: 0.9, import: 0.95 }[stage] ?? loaded / total;
    showLoading(base + (1 - base) * at, labels[stage] || stage);
    if (stage === "runtime") {
      const seconds = Number(storage(STARTUP_KEY)) || 6;
      stageGuess = { from: base, to: base + (1 - base) * 0.9, t0: performance.now(), seconds };
    } else if (stageGuess) {
      storage(STARTUP_KEY, ((performance.now() - stageGuess.t0) / 1000).toFixed(2));
      stageGuess = null;
    }
  });
  try {
    const info = await engine.ready;
    lab.timings.engineReady = performance.now();
    lab.python = info.python;
  } catch (err) {
    clearInterval(loadingTicker);
    ui.loadingText.textContent = err.message;
    setStatus(err.message, "error");
    return;
  }
  const boards = await engine.call("boards");
  ui.boardSelect.replaceChildren(...boards.map((b) => new Option(b.title, b.id)));
  await loadFromLink(location.hash);
  lab.timings.firstBoard = performance.now();
  ui.loading.hidden = true;
  watchForUpdates().catch(() => {});
  engine.call("warm").then((w) => { lab.timings.warm = w.seconds; }).catch(() => {});
  ui.timing.textContent = `Engine ready in ${((lab.timings.engineReady) / 1000).toFixed(1)} s (Python ${lab.python} in WebAssembly).`;
  refreshButtons();
}

// ------------------------------------------------------------------ wiring
attachInput(ui.holder, view, controller);
buttons.undo.addEventListener("click", () => controller.undo());
buttons.redo.addEventListener("click", () => controller.redo());
buttons.restart.addEventListener("click", async () => {
  if (blocked()) return;
  game.redo = [];
  stickyStatus = false;
  await sync(gameArgs([]));
});
buttons.solve.addEventListener("click", solve);
buttons.cancel.addEventListener("click", cancel);
buttons.hint.addEventListener("click", hint);
buttons.finishes.addEventListener("click", finishes);
buttons.cnf.addEventListener("click", downloadCnf);
buttons.edit.addEventListener("click", openEditor);
$("editor-done").addEventListener("click", () => closeEditor(true));
$("editor-cancel").addEventListener("click", () => closeEditor(false));
$("editor-fill").addEventListener("click", () => editor.fill());
buttons.copyLink.addEventListener("click", async () => {
  const ok = await copyText(location.href);
  setStatus(ok ? "Link copied: it opens this exact game." : `Copy this link: ${location.href}`);
});
$("copy-solution").addEventListener("click", async () => {
  const ok = await copyText($("solution-text").textContent);
  setStatus(ok ? "Solution copied as text." : "Select the solution text to copy it.");
});
ui.boardSelect.addEventListener("change", async () => {
  if (ui.boardSelect.value === "__custom" || blocked()) return;
  stickyStatus = false;
  await loadGame({ board: ui.boardSelect.value });
});
ui.goalSelect.addEventListener("change", async () => {
  if (blocked()) return;
  game.goal = ui.goalSelect.value || null;
  playback.hide();
  await sync();
});
buttons.customUse.addEventListener("click", async () => {
  if (blocked()) return;
  const rows = ui.customText.value.replace(/\r/g, "").split("\n").map((r) => r.replace(/\s+$/, ""));
  const spec = `${ui.customLattice.value}:${rows.join("/")}`;
  try {
    stickyStatus = false;
    await loadGame({ board: spec });
    setStatus("Custom board ready.");
  } catch (err) {
    setStatus(`That board cannot be used: ${err.message}`, "error");
  }
});
window.addEventListener("hashchange", () => {
  if (location.hash === writtenHash || engine?.state !== "idle") return;
  if (task || editor.open || busy) {
    // keep the address in step with what is shown; the new link can be opened when the engine is free
    history.replaceState(null, "", writtenHash);
    setStatus("Finish or cancel the current task before opening another link.");
    return;
  }
  loadFromLink(location.hash);
});

start();
