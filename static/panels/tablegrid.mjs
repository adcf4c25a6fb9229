// The whole-board table's panel (table.mjs holds its state and actions): a board-shaped grid
// with one button per start hole, coloured by what its finishes came to (every finish the
// position class allows solved, some, none, some undecided, not computed), the starts the engine
// computed outlined (the others are their images under a board symmetry), the progress while it
// runs, and a legend with counts.  Keyboard: Tab reaches the grid once (one button is tabbable),
// the arrow keys move between starts, Enter or Space picks one.  Text only (textContent), never HTML.

import { nearestInDirection, spacing } from "../board/board.mjs";
import { estimateText, tableShown } from "./table.mjs";
import { formatCount as fmt } from "../numbers.mjs";

export const VERDICTS = {
  all: "every finish the position class allows is solved",
  some: "some finishes solved, the others proved impossible",
  none: "no finish possible",
  unknown: "some finishes undecided (the search ran out of budget)",
  pending: "not computed yet",
};

/** The label of a start's button (what a screen reader says). */
function startLabel(name, entry) {
  if (!entry) return `Start ${name}: not computed yet`;
  const s = entry.summary;
  const what = s.verdict === "pending" && s.solved + s.impossible + s.unknown ? "cut short by a cancel" : VERDICTS[s.verdict];
  const parts = [`${s.solved} of ${s.allowed} allowed finishes solved`];
  if (s.unknown) parts.push(`${s.unknown} undecided`);
  const how = entry.computed === name ? "computed" : `mapped by symmetry from ${entry.computed}`;
  return `Start ${name}: ${what} (${parts.join(", ")}; ${how})`;
}

/** ui = {panel, summary, compute, cancel, bar, barText, grid, legend, note}. */
export function tableView(ui) {
  let last = {};
  let buttons = new Map(); // name -> button
  let builtFor = null;

  function build(cells) {
    const points = new Map(cells.map((c) => [c.name, { x: c.x, y: c.y }]));
    const unit = spacing(points.values());
    const xs = cells.map((c) => c.x);
    const ys = cells.map((c) => c.y);
    const [x0, y0] = [Math.min(...xs) - unit / 2, Math.min(...ys) - unit / 2];
    const width = Math.max(...xs) + unit / 2 - x0;
    const height = Math.max(...ys) + unit / 2 - y0;
    ui.grid.style.aspectRatio = `${width} / ${height}`;
    ui.grid.style.setProperty("--cell", `${(100 * unit * 0.94) / width}%`);
    ui.grid.style.setProperty("--cell-h", `${(100 * unit * 0.94) / height}%`);
    buttons = new Map();
    ui.grid.replaceChildren(...cells.map((c) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "tv-start";
      b.dataset.start = c.name;
      b.textContent = c.name;
      b.tabIndex = -1;
      b.style.left = `${(100 * (c.x - x0)) / width}%`;
      b.style.top = `${(100 * (c.y - y0)) / height}%`;
      buttons.set(c.name, b);
      return b;
    }));
    ui.grid.onkeydown = (event) => {
      const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
      const from = event.target?.dataset?.start;
      if (!dir || !from) return;
      event.preventDefault();
      const to = nearestInDirection(points, from, dir[0], dir[1], unit);
      if (to) roving(to, true);
    };
  }

  function roving(name, focus = false) {
    for (const [n, b] of buttons) b.tabIndex = n === name ? 0 : -1;
    if (focus) buttons.get(name)?.focus();
  }

  return (state) => {
    const shown = tableShown(state);
    if (state.table === last.table && state.board === last.board && state.task === last.task
        && state.engine === last.engine) return;
    last = { table: state.table, board: state.board, task: state.task, engine: state.engine };
    ui.panel.hidden = !shown;
    if (!shown) return;
    const t = state.table;
    const running = !!state.task && state.task.kind === "table";
    const key = `${t.spec}|${state.board.cells.length}`;
    if (builtFor !== key) {
      build(state.board.cells);
      builtFor = key;
    }
    const starts = t.result?.starts || t.partial; // while it runs: the classes finished so far
    const tally = Object.fromEntries(Object.keys(VERDICTS).map((v) => [v, 0]));
    // the starts running now: one per pool worker, or the one problem's start in a single worker
    const current = new Set(t.progress?.current ?? [t.progress?.problem?.split(" -> ")[0]]);
    for (const [name, b] of buttons) {
      const entry = starts[name];
      const verdict = entry ? entry.summary.verdict : "pending";
      tally[verdict]++;
      b.className = `tv-start tv-${verdict}${entry && entry.computed === name ? " tv-computed" : ""}` +
        `${running && current.has(name) ? " tv-running" : ""}`;
      b.setAttribute("aria-label", startLabel(name, entry));
      b.title = startLabel(name, entry);
      b.setAttribute("aria-pressed", String(name === t.selected));
      b.disabled = !t.result || running;
    }
    if (![...buttons.values()].some((b) => b.tabIndex === 0)) roving(t.selected || buttons.keys().next().value);
    ui.summary.textContent = t.result
      ? `${t.source === "cache" ? "From this browser's copy" : "Computed"}: ${fmt(t.result.counts.solved)} solved, ` +
        `${fmt(t.result.counts.impossible)} impossible, ${fmt(t.result.counts.unknown)} unknown ` +
        `(${t.result.problem_seconds} s a problem${t.result.workers > 1 ? `, on ${t.result.workers} workers` : ""}` +
        `${t.result.cancelled ? "; cancelled before the end" : ""}).`
      : estimateText(t.info, state.board.board.title);
    ui.note.textContent = t.note;
    ui.compute.textContent = t.result ? "Compute again" : "Compute the table";
    ui.compute.disabled = !!state.task || state.engine.status !== "idle";
    ui.cancel.hidden = !running;
    ui.bar.hidden = ui.barText.hidden = !t.progress;
    if (t.progress) {
      const p = t.progress;
      ui.bar.max = p.total || 1;
      ui.bar.value = p.done;
      ui.barText.textContent = `Problem ${fmt(Math.min(p.done + 1, p.total))} of ${fmt(p.total)}` +
        `${p.problem ? `: ${p.problem}` : ""}${p.nodes ? ` · ${fmt(p.nodes)} nodes` : ""}` +
        `${p.workers ? ` · ${p.workers} workers` : ""} · ${p.seconds.toFixed(1)} s`;
    }
    ui.legend.replaceChildren(...Object.entries(VERDICTS).filter(([v]) => tally[v] || v !== "pending" || !t.result)
      .map(([v, text]) => {
        const li = document.createElement("li");
        const swatch = document.createElement("span");
        swatch.className = `tv-swatch tv-${v}`;
        swatch.setAttribute("aria-hidden", "true");
        li.append(swatch, ` ${text}: ${tally[v]} start${tally[v] === 1 ? "" : "s"}`);
        return li;
      }));
  };
}
