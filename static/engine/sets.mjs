// Shipped winnable sets in the engine worker (pyapp/web/sets.py; the files are dist/sets/*.bin,
// listed in dist/sets/index.json).  The first time never-lose or Hint asks about a game whose set
// ships, its set and the solutions left from each of its positions are fetched (not precached: the
// service worker downloads them on this first use, checks them and keeps them in its "peg-sets"
// cache, so that game works offline from then on) and handed to Python, which checks their key
// version, game and SHA-256 before keeping them; from then on those answers, and the survival
// funnel, are lookups.  A refused file (stale, truncated, damaged) is deleted from every cache and
// fetched once more from the server; if that fails too, the search answers as before: a bad file
// is never trusted.

import { turn } from "./turn.mjs";

const USES = new Set(["never_lose", "hint"]);
/** The service worker's cache of set files (sw.js): "peg-sets" at a host's root, "peg-sets@/PATH/" under a sub-path. */
const setsCache = (root) => (new URL(root).pathname === "/" ? "peg-sets" : `peg-sets@${new URL(root).pathname}`);
const HASH_HEADER = "x-peg-sha256";

/** root: the site's URL; start(bytes) -> the loading job (pyapp.web.api.load_set_steps), stepped here with a turn of
 *  the event loop between steps, so that a message (a cancel) gets through while a big table decodes. */
export function createSets(root, start) {
  async function load(bytes) {
    const job = start(bytes);
    try {
      for (;;) {
        const out = JSON.parse(job.step());
        if (out.done) return out.error !== undefined ? { error: out.error } : { ok: out.result };
        await turn();
      }
    } finally {
      job.destroy();
    }
  }

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

  // the game itself or one of its symmetric images (the set answers those too: pyapp.analysis.neverlose_exact);
  // a start or goal left out is the board's default one
  const matches = (e, args) => {
    if (e.kind === "endgame" || e.kind === "book") return false; // matched by towardGoal
    if (e.board !== args.board || args.position) return false;
    const start = args.start ?? e.board_start;
    const goal = args.goal ?? e.board_goal;
    return [[e.start, e.goal], ...(e.images ?? [])].some(([s, g]) => s === start && g === goal);
  };

  async function bytesOf(url, fresh) {
    const names = fresh && self.caches ? await caches.keys() : [];
    for (const name of names) await (await caches.open(name)).delete(url);
    const r = await fetch(url, fresh ? { cache: "reload" } : undefined);
    if (!r.ok) throw new Error(`${url} answered ${r.status}`);
    return new Uint8Array(await r.arrayBuffer());
  }

  /** A copy that Python accepted is kept for offline use (where the service worker did not already keep it:
   *  a fetch it did not see), marked with its SHA-256 as the service worker marks its copies. */
  async function keep(url, bytes, sha256) {
    if (!self.caches || !sha256) return;
    const cache = await caches.open(setsCache(root));
    if ((await cache.match(url))?.headers.get(HASH_HEADER) === sha256) return;
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    if (Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("") !== sha256) return;
    await cache.put(url, new Response(bytes, { headers: { [HASH_HEADER]: sha256 } }));
  }

  async function fetchAndLoad(file, sha256) {
    const url = new URL(`sets/${file}`, root).href;
    const t0 = performance.now();
    let out;
    for (const fresh of [false, true]) {
      try {
        const bytes = await bytesOf(url, fresh);
        out = await load(bytes);
        if (out.ok) await keep(url, bytes, sha256);
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
    const set = await fetchAndLoad(entry.file, entry.sha256);
    return set.ok && entry.ways ? { set, ways: await fetchAndLoad(entry.ways, entry.ways_sha256) } : { set };
  }

  // the goal's endgame table (pyapp.exact.endgame_files; Python checks it against the class of ends it was swept
  // for) and a game's opening book (pyapp.exact.book_files): both answer any start or posed position toward the goal
  const towardGoal = (kind) => (e, args) => e.kind === kind && e.board === args.board && (args.goal ?? e.board_goal) === e.goal;
  const endgameOf = towardGoal("endgame");
  const bookOf = towardGoal("book");
  // the book answers positions above its deepest level: a game from a start (every start has the same pegs) is
  // there while its jumps are few; a posed position may be anywhere, so it waits for the book too
  const jumpsOf = (moves = []) => moves.reduce((n, m) => n + m.split("-").length - 1, 0);
  const inBook = (e, args) => Boolean(args.position) || e.start_pegs - jumpsOf(args.moves) > e.deepest;
  // the table answers positions of up to `reach` pegs (a lookup, or a search down to it). Below `reach`, a check run
  // before the table is in spends its budget searching what the table answers at once (French, a link 21 pegs in,
  // pool of 2: 7-9 s and no jump unknown when it waits, 10-12 s and 1-7 unknown when not); at `reach` the table's own
  // searches are the longer ones, so the check does not wait there
  const PEG = /[oOxX*1]/g; // a peg in a position's text (pyapp.core.position.PEG_CHARS)
  const pegsOf = (e, args) =>
    (typeof args.position === "string" ? (args.position.match(PEG) ?? []).length : e.start_pegs) - jumpsOf(args.moves);
  const nearTable = (e, args) => pegsOf(e, args) < e.reach;

  /** Make sure the set of the request's game is loaded (or refused) before the request runs; a bench
   *  run gets the English one, which its never-lose row decodes and answers from.  The goal's endgame table,
   *  bigger and only needed once the game is down to about 24 pegs, is fetched beside the first request of its
   *  game, and waited for once the position is below the table's reach (a link or a posed position there, or a
   *  game played down faster than the table loads); the opening book (tens of KB, answering the first moves)
   *  beside it too, and waited for while the position is one the book answers; the table is waited for at any
   *  position of a game whose set is held over it. */
  async function ensure(fn, args) {
    const bench = fn === "bench";
    if (!bench && (!USES.has(fn) || !args || typeof args.board !== "string")) return;
    index ??= await readIndex();
    const entry = index.find((e) => (bench ? e.board === "english" && e.default : matches(e, args)));
    // a set held over its goal's table (pyapp.exact.overtable) answers nothing without it (its lines end there), for
    // the game and its symmetric images alike (those are asked as the set's own game)
    const ownTable = (e) => e.kind === "endgame" && e.board === entry.board && e.goal === entry.goal;
    const under = entry?.over_table ? index.find(ownTable) : null;
    const table = bench ? null : under ?? index.find((e) => endgameOf(e, args));
    if (table && !done.has(table.file)) done.set(table.file, loadGame(table));
    if (table && (under || nearTable(table, args))) await done.get(table.file);
    const book = bench ? null : index.find((e) => bookOf(e, args));
    if (book && !done.has(book.file)) done.set(book.file, loadGame(book));
    if (book && inBook(book, args)) await done.get(book.file);
    if (!entry) return;
    if (!done.has(entry.file)) done.set(entry.file, loadGame(entry)); // two requests share one download
    await done.get(entry.file);
  }

  return { ensure, log };
}
