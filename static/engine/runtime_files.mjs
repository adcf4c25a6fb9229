// Which runtime file is missing or damaged, asked only after the engine failed to start, so that
// the message names the file (Pyodide itself says "Program terminated with exit(1)" for a missing
// python_stdlib.zip, or "Unexpected token ... not valid JSON" for pyodide-lock.json).

/** The files the engine needs, relative to the site's root (build.py PYODIDE_FILES and pyapp.zip). */
export const RUNTIME_FILES = [
  "pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip",
  "pyodide/pyodide-lock.json", "pyapp.zip",
];

/** A sentence naming the first missing or unreadable runtime file, or null when all look fine. */
export async function missingRuntimeFile(root) {
  for (const path of RUNTIME_FILES) {
    let response;
    try {
      response = await fetch(new URL(path, root), { cache: "no-store" });
    } catch {
      return `the file ${path} could not be downloaded (offline, or the server is unreachable)`;
    }
    if (!response.ok) {
      return `the file ${path} is missing from the site (HTTP ${response.status}): deploy the whole dist/ folder again`;
    }
    if (path.endsWith(".json")) {
      try {
        JSON.parse(await response.text());
      } catch {
        return `the file ${path} is damaged (not valid JSON): deploy the whole dist/ folder again`;
      }
    } else {
      const size = (await response.arrayBuffer()).byteLength;
      if (size === 0) return `the file ${path} is empty: deploy the whole dist/ folder again`;
    }
  }
  return null;
}
