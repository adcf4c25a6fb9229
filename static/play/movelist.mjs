// The move list, as on the lichess analysis board: one numbered entry per move (a chain of
// jumps by one peg is one move), the current one highlighted, every entry clickable, arrow keys
// stepping back and forward when the list has focus.
//
// It keeps no state of its own: the line it shows is the game's, read from the store --
// the jumps played followed by the jumps ahead (the Redo stack: moves undone, a Restart, or a
// solution found by Solve, which continues the game from where Solve was pressed).  Showing
// another move plays or takes back jumps along that line and keeps the rest as Redo, so
// nothing of the line is lost.  Stable hooks: `[data-ply="N"]` (N from 1) on each entry, the
// current one with `aria-current="step"`.

import { gameArgs, groupMoves } from "./game.mjs";

/** The whole line: the jumps played, then those ahead (the Redo stack's top is the next one). */
export const lineOf = (game) => game.jumps.concat([...game.redo].reverse());

/** The moves of a line of jumps: [{ply, from, to, text}], `from`/`to` jump indices (to exclusive). */
export function movesOf(line) {
  const moves = [];
  line.forEach((jump, i) => {
    const last = moves.at(-1);
    if (last && line[i - 1][2] === jump[0]) {
      last.to = i + 1;
      last.text += `-${jump[2]}`;
    } else {
      moves.push({ ply: moves.length + 1, from: i, to: i + 1, text: `${jump[0]}-${jump[2]}` });
    }
  });
  return moves;
}

/** The ply shown after `k` jumps: the move holding jump k-1 (0 at the start). */
export const plyAt = (moves, k) => (k === 0 ? 0 : moves.find((m) => m.from < k && k <= m.to)?.ply ?? 0);

/** Where the solution found by Solve starts in the line (-1 when the line does not hold it). */
function solutionStart(state, line) {
  const sol = state.solution;
  if (!sol || !sol.jumps.length) return -1;
  const whole = sol.base.concat(sol.jumps);
  if (line.length < whole.length) return -1;
  return whole.every((j, i) => j.join() === line[i].join()) ? sol.base.length : -1;
}

/** The status line for the position shown: which move of how many, and whether it is the solution's. */
export function describe(state) {
  const line = lineOf(state.game);
  const moves = movesOf(line);
  const k = state.game.jumps.length;
  const ply = plyAt(moves, k);
  if (!moves.length) return "";
  if (ply === 0) return `Start position (${moves.length} move${moves.length === 1 ? "" : "s"} ahead).`;
  const move = moves[ply - 1];
  const part = k < move.to ? ` (jump ${k - move.from} of ${move.to - move.from})` : "";
  const sol = solutionStart(state, line);
  const tag = sol >= 0 && move.from >= sol ? " of the solution" : "";
  return `Move ${ply} of ${moves.length}${tag}: ${move.text}${part}.`;
}

/** Render the list into `el` (an <ol>); skips work when the game and solution are unchanged. */
export function moveListView(el) {
  let last = { game: null, solution: null };
  return (state) => {
    if (state.game === last.game && state.solution === last.solution) return;
    last = { game: state.game, solution: state.solution };
    const line = lineOf(state.game);
    const moves = movesOf(line);
    const ply = plyAt(moves, state.game.jumps.length);
    const sol = solutionStart(state, line);
    el.replaceChildren(...moves.map((m) => {
      const li = document.createElement("li");
      li.dataset.ply = String(m.ply);
      li.className = "mv-entry";
      if (m.ply > ply) li.classList.add("ahead");
      if (sol >= 0 && m.from >= sol) li.classList.add("from-solution");
      if (m.ply === ply) li.setAttribute("aria-current", "step");
      const n = document.createElement("span");
      n.className = "ply";
      n.textContent = `${m.ply}.`;
      li.append(n, ` ${m.text}`);
      return li;
    }));
    el.dataset.empty = moves.length ? "" : "true";
    const current = el.querySelector("[aria-current]");
    if (current) {
      // keep the current move in view inside the list only (never scroll the page)
      const top = current.offsetTop - el.offsetTop;
      if (top < el.scrollTop) el.scrollTop = top;
      else if (top + current.offsetHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + current.offsetHeight - el.clientHeight;
    }
  };
}

/** ctx = {store, view, game (controller), playback}.  Wires clicks and keys on `el`. */
export function createMoveList(ctx, el) {
  const { store, view } = ctx;
  const s = store.state;

  /** Show the position after `k` jumps of `line`, keeping the rest of the line as Redo. */
  async function showLine(line, k, { animate = false } = {}) {
    const now = s.game.jumps.length;
    if (animate && Math.abs(k - now) <= 4) {
      const forward = k > now;
      const steps = forward ? line.slice(now, k) : line.slice(k, now).reverse();
      for (const jump of steps) await view.animateJump(jump, { duration: 160, reverse: !forward });
    }
    await ctx.game.sync(gameArgs(s.game, groupMoves(line.slice(0, k))));
    store.do("game/setRedo", line.slice(k).reverse());
    const text = describe(s);
    if (text) store.do("status/set", s.board.over ? `${text} ${s.board.message}` : text, s.board.won ? "won" : "");
  }

  async function goTo(ply, { animate = true } = {}) {
    if (ctx.game.blocked()) return;
    const line = lineOf(s.game);
    const moves = movesOf(line);
    const target = Math.max(0, Math.min(moves.length, ply));
    const k = target === 0 ? 0 : moves[target - 1].to;
    if (k === s.game.jumps.length) return;
    store.do("selection/select", null);
    await showLine(line, k, { animate });
  }

  function step(delta) {
    const moves = movesOf(lineOf(s.game));
    return goTo(plyAt(moves, s.game.jumps.length) + delta);
  }

  el.addEventListener("click", (event) => {
    const li = event.target.closest?.("[data-ply]");
    if (!li) return;
    el.focus({ preventScroll: true });
    const ply = Number(li.dataset.ply);
    store.queue(() => goTo(ply));
  });
  el.addEventListener("keydown", (event) => {
    const keys = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
    if (event.key in keys) {
      event.preventDefault();
      store.queue(() => step(keys[event.key]));
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      store.queue(() => goTo(event.key === "Home" ? 0 : Infinity, { animate: false }));
    }
  });

  return { showLine, goTo, step };
}
