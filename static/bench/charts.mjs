// Chart primitives for bench.html: scales, axes with ticks, a legend, point series, lines and bars,
// drawn as inline SVG with DOM calls only (no innerHTML, no library), so the page's CSP holds and the
// tests can find every series by its data attributes (data-series, data-board, data-fit, class "pt").
//
// A chart is built in three steps: `frame(spec)` makes the <svg role="img" aria-label=...> with its
// scales and axes; the caller adds series with `points`, `fitLine`, `bar`; `legend` adds the key below
// the plot.  Sizes are in viewBox units: the SVG scales with its box (CSS width: 100%).

const NS = "http://www.w3.org/2000/svg";
export const COLOURS = { ours: "#1f77b4", baseline: "#d62728" };
export const STATUS_COLOURS = { solved: "#2ca02c", impossible: "#9467bd", unknown: "#bbbbbb" };
export const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"];

/** An SVG element with attributes, appended to `parent` when given. */
export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  if (parent) parent.append(node);
  return node;
}

/** A <text> node (its content set as text, never parsed). */
export function label(parent, x, y, content, attrs = {}) {
  const node = el("text", { x: round(x), y: round(y), ...attrs }, parent);
  node.textContent = content;
  return node;
}

const round = (v) => Math.round(v * 10) / 10;

/** A number in three significant figures, exponent form when very small or large ("3.28e-4"). */
export function sig(v) {
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a >= 1e-3 && a < 1e5) return String(Number(v.toPrecision(3)));
  return v.toExponential(2).replace(/\.?0+e/, "e").replace("e+", "e");
}

/** Seconds as a short label: 1 µs, 10 ms, 1 s. */
export function secondsLabel(s) {
  if (s >= 1) return `${sig(s)} s`;
  if (s >= 1e-3) return `${sig(s * 1e3)} ms`;
  return `${sig(s * 1e6)} µs`;
}

/** A count as a short label: 1, 10, 1k, 10k, 1M. */
export function countLabel(n) {
  if (n >= 1e6) return `${sig(n / 1e6)}M`;
  if (n >= 1e3) return `${sig(n / 1e3)}k`;
  return sig(n);
}

/** A scale from the domain [d0, d1] to the range [r0, r1]; `kind` "linear" or "log".  Ticks are nice
 *  numbers (1, 2, 5 times a power of ten) or, on a log scale, powers of ten (and 2, 5 within a decade). */
export function scale(kind, d0, d1, r0, r1) {
  const f = kind === "log" ? Math.log10 : (v) => v;
  const a = f(d0);
  const b = f(d1) === a ? a + 1 : f(d1);
  const map = (v) => r0 + ((f(v) - a) / (b - a)) * (r1 - r0);
  map.kind = kind;
  map.domain = [d0, d1];
  map.ticks = () => (kind === "log" ? logTicks(d0, d1) : linearTicks(d0, d1));
  return map;
}

function linearTicks(lo, hi, n = 5) {
  const raw = (hi - lo) / n || 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

function logTicks(lo, hi) {
  const out = [];
  const e0 = Math.floor(Math.log10(lo));
  const e1 = Math.ceil(Math.log10(hi));
  const within = e1 - e0 <= 2 ? [1, 2, 5] : [1];
  const every = Math.max(1, Math.ceil((e1 - e0) / 7)); // at most about 7 labelled decades
  for (let e = e0; e <= e1; e += every) {
    for (const m of within) {
      const v = m * 10 ** e;
      if (v >= lo * 0.999 && v <= hi * 1.001) out.push(Number(v.toPrecision(6)));
    }
  }
  return out;
}

/** A domain that holds `values`: padded to whole decades on a log scale, from 0 (or a nice lower
 *  bound) on a linear one.  Empty or non-positive data gives a default. */
export function domain(kind, values, { zero = true } = {}) {
  const vs = values.filter((v) => Number.isFinite(v) && (kind !== "log" || v > 0));
  if (!vs.length) return kind === "log" ? [1e-3, 1] : [0, 1];
  let lo = Math.min(...vs);
  let hi = Math.max(...vs);
  if (kind === "log") {
    // a point on the lowest decade would sit on the axis (a bar would vanish): pad a little below
    return [10 ** Math.floor(Math.log10(lo) - 0.1), 10 ** Math.ceil(Math.log10(hi) + (hi === lo ? 1 : 0))];
  }
  if (zero) lo = Math.min(0, lo);
  if (hi === lo) hi = lo + 1;
  const ticks = linearTicks(lo, hi);
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : 1;
  return [Math.floor(lo / step) * step, Math.ceil(hi / step) * step];
}

/** The chart frame: an <svg role="img"> with its aria-label, title, axes, ticks and axis labels.
 *  spec: {chart, summary, title, width, height, x: {kind, domain, label, format, ticks?},
 *  y: {...}, margin?}.  Returns {svg, plot, sx, sy, box} (box: the plot area in viewBox units). */
export function frame(spec) {
  const m = { top: 26, right: 12, bottom: 40, left: 58, ...(spec.margin || {}) };
  const width = spec.width ?? 340;
  const height = spec.height ?? 230;
  const box = { left: m.left, right: width - m.right, top: m.top, bottom: height - m.bottom };
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": spec.summary,
    class: "chart", "data-chart": spec.chart, preserveAspectRatio: "xMidYMid meet" });
  el("title", {}, svg).textContent = spec.summary;
  if (spec.title) label(svg, width / 2, 16, spec.title, { class: "chart-title", "text-anchor": "middle" });
  const sx = scale(spec.x.kind, ...spec.x.domain, box.left, box.right);
  const sy = scale(spec.y.kind, ...spec.y.domain, box.bottom, box.top);
  const axes = el("g", { class: "axes" }, svg);
  el("rect", { x: box.left, y: box.top, width: box.right - box.left, height: box.bottom - box.top,
    class: "plot-area" }, axes);
  for (const t of spec.x.ticks ?? sx.ticks()) {
    const x = round(sx(t));
    el("line", { x1: x, x2: x, y1: box.bottom, y2: box.bottom + 4, class: "tick" }, axes);
    el("line", { x1: x, x2: x, y1: box.top, y2: box.bottom, class: "grid" }, axes);
    label(axes, x, box.bottom + 15, (spec.x.format ?? sig)(t), { class: "tick-label", "text-anchor": "middle" });
  }
  for (const t of spec.y.ticks ?? sy.ticks()) {
    const y = round(sy(t));
    el("line", { x1: box.left - 4, x2: box.left, y1: y, y2: y, class: "tick" }, axes);
    el("line", { x1: box.left, x2: box.right, y1: y, y2: y, class: "grid" }, axes);
    label(axes, box.left - 6, y + 3.5, (spec.y.format ?? sig)(t), { class: "tick-label", "text-anchor": "end" });
  }
  label(axes, (box.left + box.right) / 2, box.bottom + 32, spec.x.label, { class: "axis-label", "text-anchor": "middle" });
  label(axes, 0, 0, spec.y.label, { class: "axis-label", "text-anchor": "middle",
    transform: `translate(12 ${round((box.top + box.bottom) / 2)}) rotate(-90)` });
  const plot = el("g", { class: "plot" }, svg);
  return { svg, plot, sx, sy, box, width, height };
}

/** One marker: circle, square or cross, centred on (x, y). */
function marker(parent, shape, x, y, colour, r = 3.2) {
  if (shape === "square") {
    return el("rect", { x: round(x - r), y: round(y - r), width: 2 * r, height: 2 * r, fill: colour }, parent);
  }
  if (shape === "cross") {
    return el("path", { d: `M${round(x - r)} ${round(y - r)}L${round(x + r)} ${round(y + r)}` +
      `M${round(x - r)} ${round(y + r)}L${round(x + r)} ${round(y - r)}`, stroke: colour, "stroke-width": 1.6, fill: "none" }, parent);
  }
  return el("circle", { cx: round(x), cy: round(y), r, fill: colour }, parent);
}

/** A point series: one <g> (with `attrs`, e.g. data-series, data-board) of markers of class "pt";
 *  pts: [{x, y, shape?, title?, status?}]. */
export function points(ctx, pts, { colour, shape = "circle", attrs = {} }) {
  const g = el("g", { class: "series", ...attrs }, ctx.plot);
  for (const p of pts) {
    const y = Math.min(Math.max(ctx.sy(p.y), ctx.box.top), ctx.box.bottom);
    const node = marker(g, p.shape ?? shape, ctx.sx(p.x), y, colour);
    node.setAttribute("class", "pt");
    if (p.status) node.dataset.status = p.status;
    if (p.title) el("title", {}, node).textContent = p.title;
  }
  return g;
}

/** A curve y = f(x) from x0 to x1 (sampled evenly on the x scale), a <path> with `attrs` (data-fit...). */
export function fitLine(ctx, f, x0, x1, { colour, dash = null, attrs = {} }) {
  const parts = [];
  for (let i = 0; i <= 40; i++) {
    const t = i / 40;
    const x = ctx.sx.kind === "log" ? x0 * (x1 / x0) ** t : x0 + (x1 - x0) * t;
    const y = f(x);
    if (!Number.isFinite(y) || (y <= 0 && ctx.sy.kind === "log")) continue;
    const py = ctx.sy(y);
    if (py < ctx.box.top - 1 || py > ctx.box.bottom + 1) continue; // clipped at the plot's edge
    parts.push(`${parts.length ? "L" : "M"}${round(ctx.sx(x))} ${round(py)}`);
  }
  return el("path", { d: parts.join(""), stroke: colour, "stroke-width": 1.5, fill: "none",
    "stroke-dasharray": dash, class: "fit", ...attrs }, ctx.plot);
}

/** A rectangle in data units, from (x0, y0) to (x1, y1). */
export function bar(ctx, parent, x0, x1, y0, y1, attrs) {
  const [a, b] = [ctx.sx(x0), ctx.sx(x1)].sort((p, q) => p - q);
  const [c, d] = [ctx.sy(y0), ctx.sy(y1)].sort((p, q) => p - q);
  return el("rect", { x: round(a), y: round(c), width: round(Math.max(b - a, 0.5)), height: round(Math.max(d - c, 0.5)),
    ...attrs }, parent);
}

/** The key, below the plot, one entry a line: [{text, colour, shape: circle|square|cross|line|dash|pale}].
 *  Grows the SVG's height to hold it. */
export function legend(ctx, entries) {
  const g = el("g", { class: "legend" }, ctx.svg);
  let y = ctx.height + 2;
  for (const e of entries) {
    const x = ctx.box.left;
    if (e.shape === "line" || e.shape === "dash") {
      el("line", { x1: x - 4, x2: x + 10, y1: y, y2: y, stroke: e.colour, "stroke-width": 2,
        "stroke-dasharray": e.shape === "dash" ? "4 3" : null }, g);
    } else if (e.shape === "pale") {
      el("rect", { x: x - 2, y: y - 5, width: 10, height: 10, fill: e.colour, "fill-opacity": 0.35 }, g);
    } else {
      marker(g, e.shape ?? "circle", x + 3, y, e.colour);
    }
    label(g, x + 16, y + 4, e.text, { class: "legend-text" });
    y += 15;
  }
  ctx.height = y + 2;
  ctx.svg.setAttribute("viewBox", `0 0 ${ctx.width} ${ctx.height}`);
  return g;
}

/** A <figure> holding charts side by side (CSS grid) and a caption. */
export function figure(caption, charts, attrs = {}) {
  const fig = document.createElement("figure");
  fig.className = "bench-figure";
  for (const [key, value] of Object.entries(attrs)) fig.dataset[key] = value;
  const panels = document.createElement("div");
  panels.className = "panels";
  panels.append(...charts.map((c) => c.svg ?? c));
  const cap = document.createElement("figcaption");
  cap.textContent = caption;
  fig.append(cap, panels);
  return fig;
}
