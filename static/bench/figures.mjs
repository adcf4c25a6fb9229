// The benchmark's figures, drawn in the page from its JSON with charts.mjs: the same figures as
// pyapp/bench/plots.py draws for BENCHMARKS.md (time vs pegs, time vs nodes, outcomes vs pegs,
// start-up phases, never-lose latency, parallel speedup), from the same files.
//
// Every builder takes parsed JSON and returns a <figure> (or null when the data has nothing to draw).
// Series carry data attributes for tests and scripts: data-series (ours, baseline, a parallel run's
// name, a runtime), data-board, data-status, data-fit; each point is an element of class "pt".

import { COLOURS, PALETTE, STATUS_COLOURS, bar, countLabel, domain, el, figure, fitLine, frame, label, legend,
  points, secondsLabel, sig } from "./charts.mjs";

const SOLVERS = ["ours", "baseline"];
const SHAPES = { ours: "circle", baseline: "square" };

/** "ours: 0.000328·1.131^x, R² 0.44" (exponential) or "ours: 0.000209·x^0.524, R² 0.76" (power). */
export function formula(solver, fit, kind) {
  if (!fit) return `${solver}: no fit (too few solved runs)`;
  const body = kind === "power" ? `${sig(fit.a)}·x^${fit.b.toFixed(2)}` : `${sig(fit.a)}·${fit.base.toFixed(3)}^x`;
  return `${solver}: ${body}, R² ${fit.r2.toFixed(2)}`;
}

const runsOf = (data, board, solver) => data.runs.filter((r) => r.board === board && r.solver === solver);
const count = (runs, status) => runs.filter((r) => r.status === status).length;

/** Time against pegs: one panel per board, log time, ours and the baseline, the budget as a dotted
 *  line, unknown runs (budget spent) as crosses, and each solver's exponential fit in pegs. */
export function timeVsPegs(data, source) {
  const budget = data.study.budget_cpu_seconds;
  const seconds = data.runs.map((r) => Math.max(r.seconds, 1e-6));
  const yDomain = domain("log", [...seconds, budget]);
  const panels = data.study.boards.map((board) => {
    const full = Math.max(...data.runs.filter((r) => r.board === board).map((r) => r.pegs), 3);
    const fits = data.fits[board] || {};
    const summary = `Time against pegs on ${board} (${source}): ` + SOLVERS.map((s) => {
      const runs = runsOf(data, board, s);
      return `${s} ${runs.length} runs, ${count(runs, "solved")} solved, ${count(runs, "unknown")} unknown; ` +
        formula(s, fits[s]?.time_vs_pegs, "exp");
    }).join("; ");
    const ctx = frame({ chart: "time-vs-pegs", summary, title: board,
      x: { kind: "linear", domain: domain("linear", [0, full]), label: "pegs" },
      y: { kind: "log", domain: yDomain, label: "CPU time", format: secondsLabel } });
    ctx.svg.dataset.board = board;
    fitLine(ctx, () => budget, ctx.sx.domain[0], ctx.sx.domain[1], { colour: "#888", dash: "2 3", attrs: { "data-budget": budget } });
    for (const solver of SOLVERS) {
      const pts = runsOf(data, board, solver).map((r) => ({ x: r.pegs, y: Math.max(r.seconds, 1e-6), status: r.status,
        shape: r.status === "unknown" ? "cross" : SHAPES[solver],
        title: `${solver}, ${r.pegs} pegs, seed ${r.seed}: ${r.status}, ${r.nodes} nodes, ${secondsLabel(r.seconds)}` }));
      points(ctx, pts, { colour: COLOURS[solver], attrs: { "data-series": solver, "data-board": board } });
      const fit = fits[solver]?.time_vs_pegs;
      if (fit) {
        fitLine(ctx, (x) => fit.a * fit.base ** x, ctx.sx.domain[0], ctx.sx.domain[1],
          { colour: COLOURS[solver], attrs: { "data-fit": solver, "data-board": board } });
      }
    }
    legend(ctx, [...SOLVERS.map((s) => ({ text: formula(s, fits[s]?.time_vs_pegs, "exp"), colour: COLOURS[s], shape: SHAPES[s] })),
      { text: `budget spent (${budget} CPU s)`, colour: "#555", shape: "cross" }]);
    return ctx;
  });
  return figure(`Time against pegs, one panel per board (${source}; log scale; the dotted line is the budget; ` +
    "the lines are the exponential fits in pegs).", panels, { chart: "time-vs-pegs", source });
}

/** Time against nodes, log-log, every solved run, with each solver's power fit over all boards. */
export function timeVsNodes(data, source) {
  const solved = data.runs.filter((r) => r.status === "solved" && r.nodes > 0 && r.seconds > 0);
  const fits = data.fits.all || {};
  const summary = `Time against nodes, all boards (${source}): ` + SOLVERS.map((s) =>
    `${s} ${solved.filter((r) => r.solver === s).length} solved runs, ${formula(s, fits[s]?.time_vs_nodes, "power")}`).join("; ");
  const ctx = frame({ chart: "time-vs-nodes", summary, title: "all boards", width: 420, height: 300,
    x: { kind: "log", domain: domain("log", solved.map((r) => r.nodes)), label: "nodes (positions searched)", format: countLabel },
    y: { kind: "log", domain: domain("log", solved.map((r) => r.seconds)), label: "CPU time", format: secondsLabel } });
  for (const solver of SOLVERS) {
    const mine = solved.filter((r) => r.solver === solver);
    points(ctx, mine.map((r) => ({ x: r.nodes, y: r.seconds, title: `${solver}, ${r.board} ${r.pegs} pegs: ${r.nodes} nodes` })),
      { colour: COLOURS[solver], shape: SHAPES[solver], attrs: { "data-series": solver } });
    const fit = fits[solver]?.time_vs_nodes;
    if (fit && mine.length) {
      const xs = mine.map((r) => r.nodes);
      fitLine(ctx, (x) => fit.a * x ** fit.b, Math.min(...xs), Math.max(...xs), { colour: COLOURS[solver], attrs: { "data-fit": solver } });
    }
  }
  legend(ctx, SOLVERS.map((s) => ({ text: formula(s, fits[s]?.time_vs_nodes, "power"), colour: COLOURS[s], shape: SHAPES[s] })));
  return figure(`Time against nodes (${source}; log-log; the lines are the power fits over every board).`, [ctx],
    { chart: "time-vs-nodes", source });
}

/** The share of runs solved, proved impossible or unknown at each peg count: one panel per solver
 *  and board, a stacked bar per peg count. */
export function outcomes(data, source) {
  const panels = [];
  for (const solver of SOLVERS) {
    for (const board of data.study.boards) {
      const runs = runsOf(data, board, solver);
      const pegs = [...new Set(runs.map((r) => r.pegs))].sort((a, b) => a - b);
      const full = Math.max(...pegs, 3);
      const summary = `Outcomes of ${solver} on ${board} (${source}): ${runs.length} runs, ` +
        Object.keys(STATUS_COLOURS).map((s) => `${count(runs, s)} ${s}`).join(", ");
      const ctx = frame({ chart: "outcomes", summary, title: `${board}: ${solver}`, height: 200,
        x: { kind: "linear", domain: domain("linear", [0, full]), label: "pegs" },
        y: { kind: "linear", domain: [0, 1], label: "share of runs", format: (v) => `${Math.round(v * 100)}%` } });
      ctx.svg.dataset.board = board;
      ctx.svg.dataset.series = solver;
      const g = points(ctx, [], { colour: "#000", attrs: { "data-series": solver, "data-board": board } });
      const width = Math.max(0.6, Math.min(4, full / Math.max(pegs.length, 1) * 0.7));
      for (const p of pegs) {
        const here = runs.filter((r) => r.pegs === p);
        let y = 0;
        for (const [status, colour] of Object.entries(STATUS_COLOURS)) {
          const share = count(here, status) / here.length;
          if (share > 0) bar(ctx, g, p - width / 2, p + width / 2, y, y + share, { fill: colour, "data-status": status, "data-pegs": p });
          y += share;
        }
      }
      legend(ctx, Object.entries(STATUS_COLOURS).map(([s, c]) => ({ text: s, colour: c, shape: "square" })));
      panels.push(ctx);
    }
  }
  return figure(`Solved, proved impossible or unknown against pegs (${source}; ` +
    `${data.study.budget_cpu_seconds} CPU s a solve).`, panels, { chart: "outcomes", source });
}

/** Start-up time by phase (startup.json): one group of horizontal bars per phase, one bar per column
 *  of `plot_columns` (cold, cached, offline). */
export function startup(data) {
  const columns = data.plot_columns || [];
  const phases = (data.phases || []).filter((r) => columns.every((c) => typeof r[c] === "number"));
  if (!phases.length) return null;
  const rowH = 14 + 9 * columns.length;
  const max = Math.max(...phases.flatMap((r) => columns.map((c) => r[c])));
  const summary = `Start-up by phase, ms, median of runs in Chromium: ` +
    phases.map((r) => `${r.phase}: ${columns.map((c) => `${c} ${r[c]}`).join(", ")}`).join("; ");
  const ctx = frame({ chart: "startup", summary, title: "start-up phases", width: 400, height: 50 + rowH * phases.length,
    margin: { left: 12, top: 26 }, x: { kind: "linear", domain: domain("linear", [0, max]), label: "ms" },
    y: { kind: "linear", domain: [phases.length, 0], label: "", ticks: [] } });
  columns.forEach((column, k) => {
    const g = points(ctx, [], { colour: PALETTE[k], attrs: { "data-series": column } });
    phases.forEach((r, i) => {
      const top = i + (14 + 9 * k) / rowH;
      bar(ctx, g, 0, r[column], top, top + 8 / rowH, { fill: PALETTE[k], class: "pt", "data-phase": r.phase });
    });
  });
  phases.forEach((r, i) => label(ctx.plot, ctx.box.left + 4, ctx.sy(i + 11 / rowH), r.phase, { class: "bar-label" }));
  legend(ctx, columns.map((c, k) => ({ text: c, colour: PALETTE[k], shape: "square" })));
  return figure(`Start-up time by phase (${data.runtime || "Chromium"}; ${data.cell || "ms"}).`, [ctx], { chart: "startup" });
}

/** Never-lose latency (neverlose.json `latency`): per case, CPython and Chromium, the median as a solid
 *  bar over the 95th percentile as a pale one, log scale. */
export function latency(data) {
  const rows = data.latency || [];
  if (!rows.length) return null;
  const runtimes = [["cpython", PALETTE[0]], ["chromium", PALETTE[1]]];
  const values = rows.flatMap((r) => runtimes.flatMap(([k]) => (r[k] ? [r[k].median_ms, r[k].p95_ms] : [])));
  const summary = "Never-lose latency, ms per verdict: " + rows.map((r) => `${r.short}: ` +
    runtimes.filter(([k]) => r[k]).map(([k]) => `${k} median ${r[k].median_ms}, p95 ${r[k].p95_ms}`).join(", ")).join("; ");
  const ctx = frame({ chart: "latency", summary, title: "never-lose latency", width: 420, height: 250,
    x: { kind: "linear", domain: [-0.5, rows.length * 3 - 1.5], label: "case", ticks: [] },
    y: { kind: "log", domain: domain("log", values), label: "ms per verdict", format: sig } });
  const floor = ctx.sy.domain[0];
  for (const [k, colour] of runtimes) {
    const g = points(ctx, [], { colour, attrs: { "data-series": k } });
    rows.forEach((r, i) => {
      if (!r[k]) return;
      const x = i * 3 + (k === "cpython" ? 0 : 1);
      bar(ctx, g, x - 0.4, x + 0.4, floor, r[k].p95_ms, { fill: colour, "fill-opacity": 0.35, class: "pt", "data-stat": "p95", "data-case": r.id });
      bar(ctx, g, x - 0.4, x + 0.4, floor, r[k].median_ms, { fill: colour, class: "pt", "data-stat": "median", "data-case": r.id });
    });
  }
  rows.forEach((r, i) => label(ctx.plot, ctx.sx(i * 3 + 0.5), ctx.box.bottom + 15, r.short,
    { class: "tick-label", "text-anchor": "middle" }));
  legend(ctx, [...runtimes.map(([k, c]) => ({ text: `${k}: median (solid)`, colour: c, shape: "square" })),
    ...runtimes.map(([k, c]) => ({ text: `${k}: 95th percentile (pale)`, colour: c, shape: "pale" }))]);
  return figure(`Never-lose latency (${data.runtime || ""}).`, [ctx], { chart: "latency" });
}

/** Parallel speedup against workers (parallel.json, from bench --parallel --json): one measured line
 *  per run, the ideal speedup dashed, and the model's predictions (8, 64, 512 workers) as hollow
 *  points.  Null when there is no such file or no runs. */
export function parallel(data) {
  const entries = (data?.parallel || []).filter((p) => p.speedup && Object.keys(p.speedup).length);
  if (!entries.length) return null;
  const measured = entries.map((p) => Object.entries(p.speedup).map(([w, s]) => ({ x: Number(w), y: s })));
  const modelled = entries.map((p) => Object.entries(p.model || {}).filter(([w, m]) => /^\d+$/.test(w) && m && m.speedup)
    .map(([w, m]) => ({ x: Number(w), y: m.speedup })));
  const xs = [...measured.flat(), ...modelled.flat()].map((p) => p.x);
  const ys = [...measured.flat(), ...modelled.flat()].map((p) => p.y);
  const summary = "Parallel speedup against workers: " + entries.map((p, i) => `${p.title || p.name}: ` +
    measured[i].map((q) => `${q.x} workers ${sig(q.y)}x`).join(", ")).join("; ");
  const maxX = Math.max(...xs, 2);
  const yDomain = domain("linear", [...ys, 1]);
  const ctx = frame({ chart: "parallel", summary, title: "parallel speedup", width: 420, height: 300,
    x: { kind: "log", domain: [1, 2 ** Math.ceil(Math.log2(maxX))], label: "workers", format: (v) => String(v),
      ticks: Array.from({ length: Math.ceil(Math.log2(maxX)) + 1 }, (_, i) => 2 ** i) },
    y: { kind: "linear", domain: yDomain, label: "speedup (× one worker)" } });
  fitLine(ctx, (x) => x, 1, maxX, { colour: "#888", dash: "4 3", attrs: { "data-fit": "ideal" } });
  entries.forEach((p, i) => {
    const colour = PALETTE[i % PALETTE.length];
    const pts = measured[i].sort((a, b) => a.x - b.x);
    const d = pts.map((q, k) => `${k ? "L" : "M"}${ctx.sx(q.x).toFixed(1)} ${ctx.sy(q.y).toFixed(1)}`).join("");
    const g = points(ctx, pts.map((q) => ({ ...q, title: `${p.name}: ${q.x} workers, ${sig(q.y)}x` })),
      { colour, attrs: { "data-series": p.name } });
    g.prepend(el("path", { d, stroke: colour, fill: "none", "stroke-width": 1.5 }));
    const model = points(ctx, modelled[i].map((q) => ({ ...q, title: `${p.name}, model: ${q.x} workers, ${sig(q.y)}x` })),
      { colour: "none", attrs: { "data-series": p.name, "data-model": "true" } });
    for (const c of model.children) c.setAttribute("stroke", colour);
    const curve = Object.entries(p.model?.curve || {}).map(([w, v]) => ({ x: Number(w), y: v }))
      .filter((q) => q.y >= yDomain[0] && q.y <= yDomain[1]).sort((a, b) => a.x - b.x);
    if (curve.length > 1) {  // the model between its points, dashed
      const dm = curve.map((q, k) => `${k ? "L" : "M"}${ctx.sx(q.x).toFixed(1)} ${ctx.sy(q.y).toFixed(1)}`).join("");
      model.prepend(el("path", { d: dm, stroke: colour, fill: "none", "stroke-width": 1, "stroke-dasharray": "3 3" }));
    }
  });
  legend(ctx, [...entries.map((p, i) => ({ text: `${(p.title || p.name).split(":")[0]}: ${p.name.split("-")[1] || ""}`
    + (p.model?.best_workers ? ` (model: best at ${p.model.best_workers})` : ""),
    colour: PALETTE[i % PALETTE.length], shape: "circle" })), { text: "ideal (speedup = workers)", colour: "#888", shape: "dash" }]);
  return figure("Parallel speedup of the sharded sweep against workers (hollow points: the model's predictions).", [ctx],
    { chart: "parallel" });
}
