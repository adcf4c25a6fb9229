// The survival funnel (after Machshevet's): how many complete solutions are left after each move of
// the game, and how many go through each legal jump.  The numbers come with never-lose's answer on
// the games whose exact sets ship (pyapp/exact/ways.py: computed by the build, looked up here); they
// may be far above 2^53, so they stay decimal strings and BigInts, never Numbers.  Drawn as an SVG
// chart (log scale, the losing move marked) with role="img" and an aria-label that names the
// numbers, and a list of the legal jumps with their counts.

import { formatCount } from "../numbers.mjs";

const SVG = "http://www.w3.org/2000/svg";
const W = 320;
const H = 120;
const PAD = { left: 8, right: 8, top: 10, bottom: 18 };

/** log10 of a non-negative integer given as a string, number or BigInt (0 for 0). */
export function log10(n) {
  const text = String(n);
  if (!/^\d+$/.test(text) || text === "0") return 0;
  return text.length - 1 + Math.log10(Number(`0.${text.slice(0, 15)}`) * 10);
}

const el = (name, attrs = {}, text = null) => {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
};

/** A count in a few characters for the board ("1,234", "4.1e16"), exact in the list beside it. */
export function shortCount(n) {
  const text = String(n);
  if (text.length <= 6) return formatCount(text);
  return `${text[0]}.${text[1]}e${text.length - 1}`;
}

/** The chart of `history` (solutions left after 0, 1, 2 ... jumps; null where not known). */
export function funnelChart(history, moves) {
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "funnel-chart" });
  const known = history.map((n, i) => [i, n]).filter(([, n]) => n !== null && n !== undefined);
  const top = Math.max(1, ...known.map(([, n]) => log10(n)));
  const plies = Math.max(1, history.length - 1);
  const x = (i) => PAD.left + (i / plies) * (W - PAD.left - PAD.right);
  const y = (n) => H - PAD.bottom - (log10(n) / top) * (H - PAD.top - PAD.bottom);
  svg.append(el("line", { x1: PAD.left, x2: W - PAD.right, y1: H - PAD.bottom, y2: H - PAD.bottom, class: "axis" }));
  svg.append(el("polyline", { points: known.map(([i, n]) => `${x(i)},${y(n)}`).join(" "), class: "funnel-line" }));
  for (const [i, n] of known) {
    const lost = String(n) === "0";
    const dot = el("circle", { cx: x(i), cy: y(n), r: lost ? 4 : 2.5, class: lost ? "funnel-lost" : "funnel-dot" });
    dot.append(el("title", {}, `after ${i} jump${i === 1 ? "" : "s"}: ${formatCount(n)} solution${String(n) === "1" ? "" : "s"} left`));
    svg.append(dot);
  }
  svg.append(el("text", { x: PAD.left, y: H - 4, class: "funnel-label" }, "start"));
  svg.append(el("text", { x: W - PAD.right, y: H - 4, class: "funnel-label", "text-anchor": "end" }, `${plies} jumps`));
  const lostAt = known.find(([, n]) => String(n) === "0");
  const words = known.map(([i, n]) => `${i}: ${formatCount(n)}`).join("; ");
  const lostText = lostAt ? ` The move ${moves[lostAt[0] - 1] ?? ""} lost the game.` : "";
  svg.setAttribute("aria-label", `Solutions left after each jump (log scale) — ${words}.${lostText}`);
  return svg;
}

/** The funnel panel: ui = {box, chart, list}.  result: the never-lose answer for the position shown. */
export function renderFunnel(ui, result, jumpsPlayed) {
  const has = result && result.solutions !== null && result.solutions !== undefined;
  ui.box.hidden = !has;
  if (!has) return;
  ui.total.textContent = `${formatCount(result.solutions)} solution${String(result.solutions) === "1" ? "" : "s"} left`;
  ui.chart.replaceChildren(funnelChart(result.history, jumpsPlayed));
  const rows = [...result.through].sort((a, b) => (BigInt(b.solutions) > BigInt(a.solutions) ? 1 : -1));
  ui.list.replaceChildren(...rows.map((t) => {
    const li = document.createElement("li");
    li.dataset.jump = `${t.jump[0]}-${t.jump[2]}`;
    li.textContent = `${t.jump[0]}-${t.jump[2]}: ${formatCount(t.solutions)}`;
    if (String(t.solutions) === "0") li.className = "funnel-zero";
    return li;
  }));
}
