// The browser's copy of finished whole-board tables (localStorage), so a table computed once is
// shown again at once, even after a reload.  A table is stored under its board, the engine's code
// version (pyapp.web.table.code_version: a build that changes the engine never shows an old
// table) and the per-problem budget.  Storage is a convenience, never a requirement: storage
// that is disabled, full or holds something broken only means the table is computed again.
//   cacheKey(spec, version, seconds) -> key;  readTable(key, names) -> table | null;
//   writeTable(key, spec, table) -> "saved" | "full" | "failed".

const PREFIX = "peg-lab-table:1:";
const VERDICTS = new Set(["all", "some", "none", "unknown", "pending"]);

export const cacheKey = (spec, version, seconds) => `${PREFIX}${version}:${seconds}:${spec}`;

function storage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // access itself refused (privacy settings, sandboxed frames)
  }
}

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v) => Array.isArray(v) && v.every((x) => typeof x === "string");
const values = (o, test) => isObject(o) && Object.values(o).every(test);

/** A start's entry as pyapp.web.table.by_start writes it (what the view and the finishes map read). */
function validStart(e) {
  if (!isObject(e) || typeof e.computed !== "string" || !isObject(e.summary) || !VERDICTS.has(e.summary.verdict)) return false;
  const f = e.finishes;
  return isObject(f) && values(f.possible, strings) && values(f.impossible, (r) => typeof r === "string")
    && values(f.unknown, (r) => typeof r === "string") && Array.isArray(f.groups)
    && f.groups.every((g) => isObject(g) && typeof g.reason === "string" && strings(g.holes));
}

/** The stored table for `key` when it is whole and well-formed for a board with holes `names`;
 *  anything else is removed and answers null. */
export function readTable(key, names) {
  const store = storage();
  if (!store) return null;
  let text;
  try {
    text = store.getItem(key);
  } catch {
    return null;
  }
  if (text === null) return null;
  try {
    const t = JSON.parse(text);
    if (isObject(t) && isObject(t.starts) && isObject(t.counts) && typeof t.seconds === "number"
        && names.every((n) => validStart(t.starts[n]))) return t;
  } catch {
    // not JSON: dropped below
  }
  try {
    store.removeItem(key);
  } catch {
    // nothing more to do
  }
  return null;
}

/** Store a finished table; older tables of the same board go first, and when storage is full
 *  every other stored table is dropped before one more try. */
export function writeTable(key, spec, table) {
  const store = storage();
  if (!store) return "failed";
  const text = JSON.stringify(table);
  const others = (sameBoard) => {
    const keys = [];
    try {
      for (let i = 0; i < store.length; i++) {
        const k = store.key(i);
        if (k && k.startsWith(PREFIX) && k !== key && (!sameBoard || k.endsWith(`:${spec}`))) keys.push(k);
      }
    } catch {
      // a storage that cannot be listed keeps its entries
    }
    return keys;
  };
  const drop = (keys) => keys.forEach((k) => {
    try {
      store.removeItem(k);
    } catch {
      // ignored: only space is lost
    }
  });
  drop(others(true));
  const quota = (err) => /quota/i.test(`${err?.name} ${err?.message}`);
  try {
    store.setItem(key, text);
    return "saved";
  } catch (err) {
    if (!quota(err)) return "failed";
  }
  drop(others(false));
  try {
    store.setItem(key, text);
    return "saved";
  } catch (err) {
    return quota(err) ? "full" : "failed";
  }
}
