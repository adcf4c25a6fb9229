/* Peg Solitaire Lab service worker: precache every asset (the Pyodide runtime included)
 * under a cache named after the build's content hash, answer cache-first, delete older
 * caches on activate.  build.py fills in VERSION, ASSETS (path -> {hash, size}) and LAZY.
 * Each download is checked against its SHA-256 from the build, so a half-updated server
 * can never leave a cache that mixes files of two deploys; unchanged files are copied
 * from the previous cache instead of being downloaded again.
 * LAZY lists the winnable set files (sets/*.bin, path -> {hash, size}): they are not
 * precached; the first request for one (never-lose or Hint on that game) downloads it,
 * checks its SHA-256 and keeps it in SETS_CACHE, so a game used once works offline.  Set
 * files are named by their game and key version, not by the build, so SETS_CACHE outlives
 * deploys; activate drops the files the new build no longer lists. */
const VERSION = "@VERSION@";
const ASSETS = /*@ASSETS@*/;
const LAZY = /*@LAZY@*/;
// A deploy at the host's root names its caches peg-lab-VERSION and peg-sets; one under a sub-path,
// peg-lab@/PATH/-VERSION and peg-sets@/PATH/: two deploys on one origin (/peg/ and /peg-beta/) then never
// delete each other's caches on activate.
const SCOPE_PATH = new URL(self.registration.scope).pathname;
const PREFIX = SCOPE_PATH === "/" ? "peg-lab-" : `peg-lab@${SCOPE_PATH}-`;
const CACHE = PREFIX + VERSION;
const SETS_CACHE = SCOPE_PATH === "/" ? "peg-sets" : `peg-sets@${SCOPE_PATH}`;
const HASH_HEADER = "x-peg-sha256";
const PARALLEL = 4;
// Cached once the page is idle (it posts "precacheLater"), not by the install a first visit waits for:
// HiGHS's WebAssembly, which a worker fetches only when a proof first needs a linear programme.
const LATER = ["highs/"];
const isLater = (path) => LATER.some((prefix) => path.startsWith(prefix));

const scopeUrl = (path) => new URL(path, self.registration.scope).href;

async function sha256hex(buffer) {
  const digest = await crypto.subtle.digest("SHA-256", buffer);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function broadcast(message) {
  const clients = await self.clients.matchAll({ includeUncontrolled: true, type: "window" });
  for (const client of clients) client.postMessage(message);
}

/** The network's copy of `path`, checked against `hash`, marked with it. */
async function download(path, hash) {
  const url = scopeUrl(path);
  // "reload": straight from the server, never a revalidated copy from the HTTP cache, which could be
  // the bytes of a failed half-deploy that the server now answers 304 for (same modification time)
  const response = await fetch(url, { cache: "reload" });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  const body = await response.arrayBuffer();
  const got = await sha256hex(body);
  if (got !== hash) throw new Error(`${path} does not match this build (the server holds another deploy)`);
  const headers = new Headers(response.headers);
  headers.set(HASH_HEADER, hash);
  return new Response(body, { status: 200, statusText: "OK", headers });
}

/** `path`'s response from an older cache when its bytes are unchanged (hash), else null. */
async function unchanged(path, hash) {
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const old = await (await caches.open(name)).match(scopeUrl(path));
    if (old && old.headers.get(HASH_HEADER) === hash) return old;
  }
  return null;
}

/** A response for `path` whose bytes hash to `hash`: from an older cache when unchanged, else the network. */
async function obtain(path, { hash }) {
  return (await unchanged(path, hash)) ?? download(path, hash);
}

/** A set file: the kept copy when it is this build's, else downloaded, checked and kept. */
async function lazy(path) {
  const url = scopeUrl(path);
  const { hash } = LAZY[path];
  const cache = await caches.open(SETS_CACHE);
  const hit = await cache.match(url);
  if (hit && hit.headers.get(HASH_HEADER) === hash) return hit;
  const response = await download(path, hash);
  await cache.put(url, response.clone());
  return response;
}

/** Forget the kept set files this build does not list (older key versions, games no longer shipped). */
async function pruneSets() {
  if (!(await caches.has(SETS_CACHE))) return;
  const cache = await caches.open(SETS_CACHE);
  for (const request of await cache.keys()) {
    const path = request.url.slice(scopeUrl("./").length);
    const kept = await cache.match(request);
    if (!LAZY[path] || kept?.headers.get(HASH_HEADER) !== LAZY[path].hash) await cache.delete(request);
  }
}

async function precache() {
  const cache = await caches.open(CACHE);
  for (const path of Object.keys(ASSETS).filter(isLater)) { // kept from the last version when unchanged
    const old = await unchanged(path, ASSETS[path].hash);
    if (old) await cache.put(scopeUrl(path), old);
  }
  const paths = Object.keys(ASSETS).filter((path) => !isLater(path));
  const total = paths.reduce((sum, p) => sum + ASSETS[p].size, 0);
  let loaded = 0;
  let next = 0;
  let lastNote = 0;
  async function lane() {
    while (next < paths.length) {
      const path = paths[next++];
      if (!(await cache.match(scopeUrl(path)))) await cache.put(scopeUrl(path), await obtain(path, ASSETS[path]));
      loaded += ASSETS[path].size;
      const now = Date.now();
      if (now - lastNote > 100 || loaded === total) {
        lastNote = now;
        broadcast({ type: "precache", version: VERSION, loaded, total });
      }
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, lane));
}

async function precacheLater() {
  const cache = await caches.open(CACHE);
  for (const path of Object.keys(ASSETS).filter(isLater)) {
    if (!(await cache.match(scopeUrl(path)))) await cache.put(scopeUrl(path), await obtain(path, ASSETS[path]));
  }
}

self.addEventListener("install", (event) => {
  // all or nothing: a failed install leaves no half-filled cache behind
  event.waitUntil(precache().catch(async (err) => {
    await caches.delete(CACHE);
    throw err;
  }));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await pruneSets();
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skipWaiting") self.skipWaiting(); // the user asked to update now
  if (event.data && event.data.type === "precacheLater") event.waitUntil(precacheLater().catch(() => {})); // offline: next time
  if (event.data && event.data.type === "version") {
    const reply = { type: "version", version: VERSION };
    if (event.ports[0]) event.ports[0].postMessage(reply);
    else event.source?.postMessage(reply);
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  event.respondWith((async () => {
    const key = request.mode === "navigate" && url.pathname === new URL(self.registration.scope).pathname
      ? scopeUrl("./") : url.origin + url.pathname;
    const path = key.slice(scopeUrl("./").length);
    if (Object.hasOwn(LAZY, path)) {
      try {
        return await lazy(path);
      } catch {
        return Response.error(); // offline and never used, or the server holds another deploy
      }
    }
    // caches.match with cacheName never re-creates a cache that a newer worker has deleted
    const hit = await caches.match(key, { cacheName: CACHE });
    if (hit) return hit;
    return fetch(request);
  })());
});
