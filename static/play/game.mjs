// The game: its store slices (game, board, selection, status, editor) and the controller that
// turns the player's intentions (select, jump, drag, undo, redo, restart, open a link) into
// actions.  Every intention goes through the store's queue, so none is dropped while a jump
// animates or the engine answers.  The shown state ("board" slice) has the shape of
// pyapp.web.api.state: board, svg, cells, pegs, legal, played, moves, counters, goal, over, won, message.

import { groupMoves } from "./rules.mjs";
import { parseFragment } from "./share.mjs";

export { groupMoves };

export const DEFAULT_GAME = { board: "english", start: null, position: null, goal: null };

/** The request arguments for a game (pyapp.web.api's board/start/position/goal/moves). */
export function gameArgs(game, moves = groupMoves(game.jumps)) {
  const args = { board: game.board, moves };
  if (game.position) args.position = game.position;
  else if (game.start) args.start = game.start;
  if (game.goal) args.goal = game.goal;
  return args;
}

export function defineGame(store) {
  store.define("game", { ...DEFAULT_GAME, jumps: [], redo: [] }, {
    /** A new game: nothing played, nothing to redo. */
    load(s, next) { s.game = { ...DEFAULT_GAME, ...next, jumps: [], redo: [] }; },
    setGoal(s, goal) { s.game = { ...s.game, goal }; },
    setRedo(s, redo) { s.game = { ...s.game, redo }; },
  });
  store.define("board", null, {
    /** Show a state computed for the game (by the engine or the page's rules). */
    set(s, state) {
      s.board = state;
      s.game = { ...s.game, board: state.board.spec, jumps: state.played.map((j) => j.slice()) };
      s.selection = { selected: null, hints: [] };
      if (state.over) s.status = { text: state.message, kind: state.won ? "won" : "", sticky: false };
      else if (!s.status.sticky && !s.task) {
        const n = state.legal.length;
        s.status = { kind: "", sticky: false, text: state.jump_count ? `${n} jump${n === 1 ? "" : "s"} possible.`
          : `${state.board.title}: pick a peg to jump, or press Solve.` };
      }
    },
  });
  store.define("selection", { selected: null, hints: [] }, {
    /** Select the peg `name` when it can jump (else nothing is selected). */
    select(s, name) {
      const can = !!name && !!s.board && s.board.legal.some((j) => j[0] === name);
      s.selection = { ...s.selection, selected: can ? name : null };
    },
    hints(s, names) { s.selection = { ...s.selection, hints: names }; },
  });
  store.define("status", { text: "Loading the Python engine…", kind: "", sticky: false }, {
    set(s, text, kind = "", sticky = false) { s.status = { text, kind, sticky }; },
    unstick(s) { s.status = { ...s.status, sticky: false }; },
  });
  store.define("link", { kept: null }, {
    /** A link that could not be opened: kept in the address bar until the game changes. */
    keep(s, hash) { s.link = { kept: hash }; },
  });
  store.define("editor", { open: false }, {
    open(s) { s.editor = { open: true }; },
    close(s) { s.editor = { open: false }; },
  });
}

/** The jumps of the shown state that start at `name`. */
export const sourcesOf = (state, name) => (state.board ? state.board.legal.filter((j) => j[0] === name) : []);

/** The controller: ctx = {store, view, rules (a promise of the Catalogue), call (an engine
 *  request that waits for the engine), playback, lab}. */
export function createGameController(ctx) {
  const { store, view } = ctx;
  const s = store.state;
  const status = (text, kind = "", sticky = false) => store.do("status/set", text, kind, sticky);

  /** The state for `args`: computed here for catalogue boards (rules.mjs, from pyapp's data),
   *  else by the engine (pyapp.web.api.state), waiting for it to start if need be. */
  async function resolveState(args) {
    const rules = await ctx.rules;
    const local = rules?.state(args);
    if (local) return local;
    return ctx.call("state", args);
  }

  async function sync(args = gameArgs(s.game)) {
    const state = await resolveState(args);
    ctx.lab.states++;
    store.do("board/set", state);
    ctx.playback?.track(s.game.jumps);
    return state;
  }

  async function loadGame(next, moves = [], extra = {}) {
    store.do("game/load", next);
    view.focusName = null; // a new game: the focus ring starts again on a peg that can jump
    view.mark("focus", []);
    ctx.playback?.hide();
    store.do("analysis/set", "");
    store.do("progress/set", ""); // the last search's line belongs to the last game
    return sync({ ...gameArgs(s.game, moves), ...extra });
  }

  /** A link that cannot be opened: say why, quoting what was typed, and keep it in the address
   *  bar (the English board is shown meanwhile) so a typo can be fixed there. */
  async function fallback(text, hash) {
    const typed = hash.length > 120 ? `${hash.slice(0, 120)}…` : hash;
    store.do("link/keep", hash);
    status(`${text} The link was “${typed}”. Showing the English board instead.`, "error", true);
    await loadGame(DEFAULT_GAME);
  }

  /** Open the game in a link; `fromElsewhere` is false when the address is the page's own
   *  (a reload), which then opens silently. */
  async function loadFromLink(hash, { fromElsewhere = true } = {}) {
    const parsed = parseFragment(hash);
    if (!parsed.ok) return fallback(`This link could not be opened: ${parsed.error}.`, hash);
    if (!parsed.game) return loadGame(DEFAULT_GAME);
    let { moves, puzzle, ...rest } = parsed.game;
    try {
      if (puzzle) rest = await ctx.puzzles.fromLink({ ...rest, puzzle });
      // the moves up to the first one that cannot be played are kept; that one is named
      const state = await loadGame(rest, moves, { legal_prefix: true });
      const refused = state.refused;
      if (refused) {
        const kept = refused.index - 1;
        const upTo = kept ? `up to move ${kept}` : "without its moves";
        status(`Opened the shared game ${upTo}: move ${refused.index} (“${refused.move}”) was refused: ${refused.reason}.`, "error", true);
      } else if (s.board?.over) status(s.board.message, s.board.won ? "won" : "");
      else if (puzzle) ctx.puzzles.announce(s.puzzle);
      else if (fromElsewhere) status("Opened the shared game.");
    } catch (err) {
      await fallback(`This link could not be opened: ${err.message}.`, hash);
    }
  }

  /** True (and says why when useful) when the board cannot be played now. */
  function blocked() {
    if (s.task) {
      status("The engine is busy: press Cancel to play on.");
      return true;
    }
    return !s.board || s.editor.open;
  }

  async function playJump(jump, { animate = true } = {}) {
    store.do("status/unstick");
    const top = s.game.redo.at(-1);
    const redo = top && top.join() === jump.join() ? s.game.redo.slice(0, -1) : [];
    store.do("selection/select", null);
    try {
      await view.animateJump(jump, { duration: animate ? 260 : 0 });
      await sync(gameArgs(s.game, groupMoves([...s.game.jumps, jump])));
      store.do("game/setRedo", redo);
    } catch (err) {
      status(err.message, "error");
      await sync();
    }
  }

  async function undo() {
    if (blocked() || !s.game.jumps.length) return;
    const jump = s.game.jumps.at(-1);
    store.do("selection/select", null);
    await view.animateJump(jump, { duration: 180, reverse: true });
    const redo = [...s.game.redo, jump];
    await sync(gameArgs(s.game, groupMoves(s.game.jumps.slice(0, -1))));
    store.do("game/setRedo", redo);
    store.do("status/set", `Undid ${jump[0]}-${jump[2]}.`);
  }

  async function redo() {
    if (blocked() || !s.game.redo.length) return;
    await playJump(s.game.redo.at(-1));
  }

  /** Back to the start, keeping every jump as Redo (and in the move list): Restart can be undone. */
  async function restart() {
    if (blocked()) return;
    const redo = [...s.game.redo, ...s.game.jumps.slice().reverse()];
    store.do("status/unstick");
    await sync(gameArgs(s.game, []));
    store.do("game/setRedo", redo);
    if (redo.length) status("Back at the start: Redo (or the move list) plays the moves again.");
  }

  function activate(name) {
    if (blocked()) return null;
    const taken = ctx.onActivate?.(name); // e.g. the finishes map: a click picks a finish
    if (taken) return taken;
    const selected = s.selection.selected;
    if (selected) {
      const jump = sourcesOf(s, selected).find((j) => j[2] === name);
      if (jump) return playJump(jump);
    }
    if (name === selected) {
      store.do("selection/select", null);
      return null;
    }
    store.do("selection/select", name);
    if (!s.selection.selected && view.isPeg(name)) status(`No jump from ${name}.`);
    return null;
  }

  function drop(from, to) {
    if (blocked()) return null;
    const jump = sourcesOf(s, from).find((j) => j[2] === to);
    if (jump) return playJump(jump, { animate: false });
    store.do("selection/select", from);
    return null;
  }

  const q = (fn) => (...args) => store.queue(() => fn(...args));
  /** What input.mjs calls: every intention is queued, in order. */
  const input = {
    editing: () => s.editor.open,
    canDrag: (name) => !s.task && !!s.board && sourcesOf(s, name).length > 0,
    preferredFocus: () => (s.board ? (s.board.legal[0]?.[0] ?? s.board.pegs[0]) : null),
    announceFocus(name) {
      const peg = view.isPeg(name) ? "peg" : "empty hole";
      const n = sourcesOf(s, name).length;
      document.getElementById("focus-announce").textContent = `${name}: ${peg}${n ? `, ${n} jump${n > 1 ? "s" : ""}` : ""}`;
    },
    select: q((name) => { if (!blocked()) store.do("selection/select", name); }),
    activate: q(activate),
    drop: q(drop),
    undo: q(undo),
    redo: q(redo),
  };

  return { input, sync, loadGame, loadFromLink, blocked, restart: q(restart), status };
}
