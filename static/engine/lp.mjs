// HiGHS compiled to WebAssembly (the npm `highs`, vendored into dist/highs/ by build.py) for pyapp's
// linear and integer programmes.  A worker registers `lpModule(...)` in Pyodide as the JavaScript
// module `peg_lp`; pyapp/proofs/lp_backends.py (Wasm) calls it:
//   state()     "absent" | "loading" | "ready" | "failed: why"
//   load()      starts fetching and compiling the module (once); Python cannot await, so it asks,
//               then pauses between job steps until state() is "ready"
//   solve(json) the model as pyapp.proofs.lp.Model.as_json, the answer as JSON text:
//               {status (HiGHS's model status code), x, objective, iterations, nodes, gap, seconds}
//               or {error}
// Nothing is fetched until a programme is asked for: a game answered from an exact set never loads it.

const LOAD_MS = 60000; // a load that has not finished by then has failed (Python stops waiting too)

/** The `peg_lp` module over `loadHighs` (an async function returning the highs-js instance). */
export function lpModule(loadHighs) {
  let state = "absent";
  let highs = null;
  let loading = null;
  function load() {
    if (loading) return loading;
    state = "loading";
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`not loaded within ${LOAD_MS / 1000} s`)), LOAD_MS);
    });
    loading = Promise.race([loadHighs(), late]).then(
      (instance) => {
        highs = instance;
        state = "ready";
      },
      (err) => {
        state = `failed: the HiGHS WebAssembly module could not be loaded (${String(err?.message ?? err).slice(0, 200)})`;
      },
    ).finally(() => clearTimeout(timer));
    return loading;
  }
  return {
    state: () => state,
    load: () => {
      load();
    },
    /** Load now and wait (for runners that can await before Python runs). */
    ready: load,
    solve: (text) => JSON.stringify(solveWith(highs, JSON.parse(text))),
  };
}

/** Solve one model (pyapp.proofs.lp.Model.as_json) with a loaded highs-js instance. */
export function solveWith(highs, m) {
  if (!highs) return { error: "the HiGHS WebAssembly module is not loaded" };
  const inf = highs.infinity;
  const bound = (xs, sign) => Float64Array.from(xs, (v) => (v === null ? sign * inf : v));
  const n = m.cost.length;
  const rows = m.row_lower.length;
  const data = {
    numCols: n, numRows: rows, sense: m.sense === "max" ? -1 : 1, offset: 0,
    colCost: Float64Array.from(m.cost), colLower: bound(m.lower, -1), colUpper: bound(m.upper, 1),
    rowLower: bound(m.row_lower, -1), rowUpper: bound(m.row_upper, 1),
    matrix: { format: "csr", numCols: n, numRows: rows, starts: Int32Array.from(m.starts),
      indices: Int32Array.from(m.index), values: Float64Array.from(m.value) },
  };
  if (m.integer) data.integrality = Int32Array.from(m.integer);
  const t0 = performance.now();
  let model = null;
  try {
    model = highs.createModel(data);
    model.options.set({ ...(m.options ?? {}), output_flag: false, time_limit: m.time_limit });
    model.run();
    const info = (name) => Number(model.info.get(name));
    const feasible = info("primal_solution_status") === 2;
    return {
      status: model.getModelStatus(),
      x: feasible ? Array.from(model.getSolution().colValue) : null,
      objective: feasible ? model.getObjectiveValue() : null,
      iterations: info("simplex_iteration_count"),
      nodes: m.integer ? info("mip_node_count") : 0,
      gap: m.integer ? info("mip_gap") : null,
      seconds: (performance.now() - t0) / 1000,
    };
  } catch (err) {
    return { error: String(err?.message ?? err).slice(0, 300) };
  } finally {
    model?.dispose();
  }
}
