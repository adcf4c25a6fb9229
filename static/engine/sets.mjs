// Shipped winnable sets in the engine worker (pyapp/web/sets.py; the files are dist/sets/*.bin,
// listed in dist/sets/index.json).  The first time never-lose or Hint asks about a classic game
// (the English central game, triangles 5 and 6), its set is fetched (precached by the service
// worker, so it works offline) and handed to Python, which checks its engine version, game and
// SHA-256 before keeping it; from then on those answers are lookups.  A refused file (stale,
// truncated, damaged) is deleted from every cache and fetched once more from the server; if that
// fails too, the search answers as before: a bad file is never trusted.

const USES = new Set(["never_lose", "hint"]);

/** root: the site's URL; load(bytes) -> {ok} | {error} (pyapp.web.api.load_set, parsed). */
export function createSets(root, load) {
  let index = null;
  const done = new Map(); // file -> promise of {ok} | {error}: decided once per worker
  const log = [];

  async function readIndex() {
    try {
      const r = await fetch(new URL("sets/index.json", root));
      return r.ok ? await r.json() : [];
    } catch {
      return [];
    }
  }

  const matches = (e, args) => e.board === args.board && !args.position
    && (args.start === e.start || (args.start === undefined && e.default))
    && (args.goal === e.goal || (args.goal === undefined && e.default));

  async function bytesOf(url, fresh) {
    const names = fresh && self.caches ? await caches.keys() : [];
    for (const name of names) await (await caches.open(name)).delete(url);
    const r = await fetch(url, fresh ? { cache: "reload" } : undefined);
    if (!r.ok) throw new Error(`${url} answered ${r.status}`);
    return new Uint8Array(await r.arrayBuffer());
  }

  /** A fresh copy that Python accepted goes back into the offline caches it was dropped from. */
  async function keep(url, bytes, names) {
    for (const name of names) await (await caches.open(name)).put(url, new Response(bytes));
  }

  async function fetchAndLoad(entry) {
    const url = new URL(`sets/${entry.file}`, root).href;
    const t0 = performance.now();
    let out;
    for (const fresh of [false, true]) {
      try {
        const names = fresh && self.caches ? (await caches.keys()).filter((n) => n.startsWith("peg-lab-")) : [];
        const bytes = await bytesOf(url, fresh);
        out = load(bytes);
        if (out.ok && fresh) await keep(url, bytes, names);
      } catch (err) {
        out = { error: err.message };
      }
      if (out.ok) break;
    }
    log.push({ file: entry.file, ms: Math.round(performance.now() - t0), ...out });
    return out;
  }

  /** Make sure the set of the request's game is loaded (or refused) before the request runs. */
  async function ensure(fn, args) {
    if (!USES.has(fn) || !args || typeof args.board !== "string") return;
    index ??= await readIndex();
    const entry = index.find((e) => matches(e, args));
    if (!entry) return;
    if (!done.has(entry.file)) done.set(entry.file, fetchAndLoad(entry)); // two requests share one download
    await done.get(entry.file);
  }

  return { ensure, log };
}
