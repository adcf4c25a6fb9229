// Shipped winnable sets in the engine worker (pyapp/web/sets.py; the files are dist/sets/*.bin,
// listed in dist/sets/index.json).  The first time never-lose or Hint asks about a classic game
// (the English central game, triangles 5 and 6), its set and the solutions left from each of its
// positions are fetched (precached by the service worker, so they work offline) and handed to
// Python, which checks their engine version, game and SHA-256 before keeping them; from then on
// those answers, and the survival funnel, are lookups.  A refused file (stale,
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

  async function fetchAndLoad(file) {
    const url = new URL(`sets/${file}`, root).href;
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
    log.push({ file, ms: Math.round(performance.now() - t0), ...out });
    return out;
  }

  /** The set, then the solutions left per position (the survival funnel), which need the set first. */
  async function loadGame(entry) {
    const set = await fetchAndLoad(entry.file);
    return set.ok && entry.ways ? { set, ways: await fetchAndLoad(entry.ways) } : { set };
  }

  /** Make sure the set of the request's game is loaded (or refused) before the request runs; a bench
   *  run gets the English one, which its never-lose row decodes and answers from. */
  async function ensure(fn, args) {
    const bench = fn === "bench";
    if (!bench && (!USES.has(fn) || !args || typeof args.board !== "string")) return;
    index ??= await readIndex();
    const entry = index.find((e) => (bench ? e.board === "english" && e.default : matches(e, args)));
    if (!entry) return;
    if (!done.has(entry.file)) done.set(entry.file, loadGame(entry)); // two requests share one download
    await done.get(entry.file);
  }

  return { ensure, log };
}
