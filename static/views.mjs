// Views: each renders part of the page from the store's state, after every action.  A view
// only writes the DOM (and the address bar); it never changes the state.  Each keeps the slice
// objects it rendered last and skips work when they are the same objects.

import { showMoves } from "./board/playback.mjs";
import { activePuzzle } from "./panels/puzzle.mjs";
import { formatFragment } from "./play/share.mjs";

/** Did any of `keys` change since `last`?  Records the new slices in `last`. */
function changed(last, state, keys) {
  let any = false;
  for (const k of keys) {
    if (last[k] !== state[k]) any = true;
    last[k] = state[k];
  }
  return any;
}

/** The board: the drawing, pegs, last jump, goal, selection, targets, hints. */
export function boardView(view) {
  const last = {};
  return (state) => {
    if (state.editor.open) {
      last.editor = state.editor;
      view.key = null; // the editor replaced the drawing: redraw it when the editor closes
      return;
    }
    const boardChanged = changed(last, state, ["board", "editor"]);
    const st = state.board;
    if (!st) return;
    if (boardChanged) {
      view.setSvg(st.svg, `${st.board.spec}|${st.board.lattice}|${st.board.holes}`);
      view.setPegs(st.pegs);
      view.setLast(st.played.at(-1) || null);
      view.setGoal(st.goal.hole);
      if (view.focusName) view.setFocus(view.focusName);
    }
    if (boardChanged || changed(last, state, ["selection"])) {
      const { selected, hints } = state.selection;
      view.mark("selected", selected ? [selected] : []);
      view.mark("target", selected ? st.legal.filter((j) => j[0] === selected).map((j) => j[2]) : []);
      view.mark("hint", hints);
    }
  };
}

/** Counters, moves, pickers, status, progress, analysis, and which buttons can be pressed. */
export function panelView(ui, buttons) {
  const last = {};
  return (state) => {
    const st = state.board;
    if (changed(last, state, ["board"]) && st) {
      ui.pegs.textContent = String(st.peg_count);
      ui.jumps.textContent = String(st.jump_count);
      ui.moves.textContent = String(st.move_count);
      ui.goalText.textContent = st.goal.word;
      if (st.moves.length) showMoves(ui.movesText, st.moves);
      else ui.movesText.textContent = "(none yet)";
      boardSelect(ui.boardSelect, st);
      goalSelect(ui.goalSelect, st, state.game);
    }
    if (changed(last, state, ["status"])) {
      ui.status.textContent = state.status.text;
      ui.status.className = `status ${state.status.kind}`.trim();
    }
    if (changed(last, state, ["progress"])) {
      ui.progress.textContent = state.progress.text;
      if (state.progress.nodes !== null) ui.progress.dataset.nodes = String(state.progress.nodes);
    }
    if (changed(last, state, ["analysis"])) ui.analysis.textContent = state.analysis.text;
    // which controls can be used (not redone for progress lines: a search reports 20 times a second)
    if (!changed(last.controls ??= {}, state, ["board", "task", "game", "engine", "editor", "queue"])) return;
    const { task, game } = state;
    const ready = !!st && state.engine.status === "idle";
    const free = ready && !task && !state.editor.open;
    const playable = !!st && !task && !state.editor.open;
    // while earlier input is still being applied, a press is queued (it may find something to undo)
    const queued = state.queue.pending > 0;
    buttons.undo.disabled = !playable || (game.jumps.length === 0 && !queued);
    buttons.redo.disabled = !playable || (game.redo.length === 0 && !queued);
    buttons.restart.disabled = !playable || (game.jumps.length === 0 && !queued);
    // while the engine starts, Solve waits for it; an engine that could not start cannot solve
    buttons.solve.disabled = !playable || st.over || state.engine.status === "failed";
    buttons.cancel.disabled = !task || !task.cancellable;
    for (const b of [buttons.hint, buttons.finishes, buttons.cnf, buttons.edit, buttons.customUse, buttons.table]) {
      b.disabled = !free;
    }
    buttons.copyLink.disabled = !st;
    ui.boardSelect.disabled = ui.goalSelect.disabled = !playable;
    ui.holder.classList.toggle("solving", !!task);
  };
}

function boardSelect(sel, st) {
  let custom = sel.querySelector("option[value='__custom']");
  if (st.board.catalogue) {
    custom?.remove();
    sel.value = st.board.id;
  } else {
    if (!custom) {
      custom = new Option("Custom board", "__custom");
      sel.append(custom);
    }
    custom.textContent = `Custom board (${st.board.holes} holes)`;
    sel.value = "__custom";
  }
}

function goalSelect(sel, st, game) {
  sel.querySelector("option[value='']").textContent = `Board default (${st.board.default_goal})`;
  for (const opt of [...sel.options]) if (opt.dataset.goalOption) opt.remove();
  if (st.goal.hole || st.goal.kind === "target") {
    // a hole set on the board, or an exact final position from a link: each gets an option of its own
    const label = st.goal.hole ? `One peg on ${st.goal.hole}` : `To ${st.goal.description} (from the link)`;
    const opt = new Option(label, st.goal.text);
    opt.dataset.goalOption = "1";
    sel.append(opt);
  }
  sel.value = game.goal ? st.goal.text : ""; // a hole's name, "any", "min" or "target:..."
}

/** The address bar: always a link to the shown game.  `written` remembers the last fragment
 *  written, so the app can tell its own changes from the user's. */
export function fragmentView(written) {
  let lastBoard = null;
  let kept = null; // the link that could not be opened, left in the address bar for the user to fix
  return (state) => {
    const st = state.board;
    if (!st || st === lastBoard) return;
    lastBoard = st;
    if (state.link.kept !== kept) {
      kept = state.link.kept;
      written.hash = kept; // the fallback board shown for it does not overwrite it
      return;
    }
    const puzzle = activePuzzle(state);
    const frag = formatFragment({
      board: st.board.spec,
      puzzle: puzzle ? { pegs: puzzle.pegs, seed: puzzle.seed } : null,
      position: state.game.position ? st.start_text : null,
      // the engine's spelling of the start hole (a link's "D4" is written back as "d4")
      start: state.game.position ? null : (state.game.start ? st.start_hole || state.game.start
        : st.board.catalogue ? st.start_hole : null),
      goal: st.goal.text,
      moves: st.moves,
    });
    written.hash = `#${frag}`;
    rememberOwnLink(written.hash);
    if (location.hash !== written.hash) history.replaceState(null, "", written.hash);
  };
}

const OWN_LINK = "peg-lab-last-link";

/** The page remembers the last address it wrote, so a reload of one's own game is not
 *  greeted as "the shared game". */
function rememberOwnLink(hash) {
  try {
    sessionStorage.setItem(OWN_LINK, hash);
  } catch {
    // storage disabled: every link counts as shared
  }
}

/** True when `hash` is the address this tab wrote last (a reload), not a link from elsewhere. */
export function isOwnLink(hash) {
  try {
    return !!hash && sessionStorage.getItem(OWN_LINK) === hash;
  } catch {
    return false;
  }
}
