// Build-time Pyodide memory snapshot (build.py runs this): boot the pinned Pyodide under Node,
// unpack pyapp.zip, import pyapp.web.api and warm it (solver and analyses imported), then save the
// interpreter's memory, gzip-compressed.  The page's worker restores it instead of booting Python
// (static/engine/worker.mjs), after checking the Pyodide version and the file's SHA-256 recorded here,
// and boots normally when anything does not match or the restore fails.
//
//   node scripts/make_snapshot.mjs <dist>      writes <dist>/snapshot.bin and <dist>/snapshot.json

import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

const dist = resolve(process.argv[2] || "dist");
const { loadPyodide, version } = await import(join(dist, "pyodide", "pyodide.mjs"));
const t0 = performance.now();
const py = await loadPyodide({ indexURL: join(dist, "pyodide") + "/", _makeSnapshot: true });
const zip = readFileSync(join(dist, "pyapp.zip"));
py.unpackArchive(new Uint8Array(zip), "zip", { extractDir: "/home/pyodide/app" });
py.runPython(`
import sys
if '/home/pyodide/app' not in sys.path:
    sys.path.insert(0, '/home/pyodide/app')
import pyapp.web.api
pyapp.web.api.warm()
`);
const memory = py.makeMemorySnapshot();
const packed = gzipSync(memory, { level: 6 });
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
writeFileSync(join(dist, "snapshot.bin"), packed);
const meta = {
  pyodide: version,
  file: "snapshot.bin",
  sha256: sha256(packed),
  size: packed.length,
  memory: memory.length,
  wasm_sha256: sha256(readFileSync(join(dist, "pyodide", "pyodide.asm.wasm"))),
  pyapp_sha256: sha256(zip),
};
writeFileSync(join(dist, "snapshot.json"), JSON.stringify(meta, null, 1) + "\n");
console.log(`snapshot: ${(memory.length / 1e6).toFixed(1)} MB of memory, ${(packed.length / 1e6).toFixed(1)} MB gzipped, `
  + `made in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
