// Start-up: the service worker (offline cache, updates), the engine worker and the loading
// indicator.  Store slices: engine {status, python, error, stage, stages} and loading
// {hidden, fraction, text}.

import { Engine, STAGES, STAGE_LABELS } from "./protocol.mjs";

const SW_WAIT_MS = 120_000;
const STARTUP_KEY = "peg-lab-start-stages";

export function defineStartup(store) {
  store.define("engine", { status: "loading", python: null, error: null, stage: null, stages: {} }, {
    stage(s, stage, stages) { s.engine = { ...s.engine, stage, stages }; },
    ready(s, info) { s.engine = { ...s.engine, status: "idle", stage: null, python: info.python, stages: info.stages || {} }; },
    failed(s, error) { s.engine = { ...s.engine, status: "failed", error }; },
  });
  store.define("loading", { hidden: false, fraction: 0, text: "Starting…" }, {
    /** `guess`: {from, to, t0, seconds} fills the bar along an expected duration. */
    show(s, fraction, text, guess = null) { s.loading = { hidden: false, fraction, text, guess }; },
    hide(s) { s.loading = { ...s.loading, hidden: true }; },
  });
}

function storage(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(key);
    localStorage.setItem(key, value);
  } catch {
    return null; // storage may be disabled: the estimate is only cosmetic
  }
  return value;
}

/** The loading box: the label, the seconds since navigation and the bar.  The runtime stage
 *  gives no progress of its own: the bar fills along the time it took last time. */
export function loadingView(ui) {
  let guess = null; // {from, to, t0, seconds}
  let last = null;
  const ticker = setInterval(() => {
    if (ui.loading.hidden) {
      clearInterval(ticker);
      return;
    }
    ui.loadingText.textContent = `${last?.text ?? ""} ${(performance.now() / 1000).toFixed(1)} s`;
    if (guess) {
      const f = Math.min(0.95, (performance.now() - guess.t0) / 1000 / guess.seconds);
      ui.loadingBar.value = Math.round(100 * (guess.from + f * (guess.to - guess.from)));
    }
  }, 100);
  const render = (state) => {
    const l = state.loading;
    if (l === last) return;
    const guessing = l.guess;
    last = l;
    ui.loading.hidden = l.hidden;
    if (l.hidden) {
      clearInterval(ticker);
      return;
    }
    ui.loadingBar.value = Math.round(l.fraction * 100);
    ui.loadingBar.textContent = `${Math.round(l.fraction * 100)}%`;
    ui.loadingText.textContent = l.text;
    guess = guessing ?? null;
  };
  render.stop = () => clearInterval(ticker);
  return render;
}

/** Register the service worker; on a first visit wait until it has cached everything (the
 *  runtime included), so the engine's own requests are served from that cache and the
 *  runtime is downloaded once, not twice. */
export async function prepareOffline(store) {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return "unsupported";
  const onMessage = (event) => {
    const m = event.data;
    if (m && m.type === "precache" && m.total) {
      store.do("loading/show", 0.6 * (m.loaded / m.total),
        `Downloading the app for offline use: ${(m.loaded / 1e6).toFixed(1)} of ${(m.total / 1e6).toFixed(1)} MB`);
    }
  };
  navigator.serviceWorker.addEventListener("message", onMessage);
  try {
    const reg = await navigator.serviceWorker.register("sw.js");
    if (navigator.serviceWorker.controller) return "cached";
    if (reg.active && !reg.installing && !reg.waiting) return "uncontrolled";
    const worker = reg.installing || reg.waiting;
    return await new Promise((resolve) => {
      // a very slow first download must not hold the app back for ever: start without the cache
      setTimeout(() => resolve("timeout"), SW_WAIT_MS);
      navigator.serviceWorker.addEventListener("controllerchange", () => resolve("installed"), { once: true });
      worker?.addEventListener("statechange", () => {
        if (worker.state === "redundant") resolve("failed");
      });
    });
  } catch (err) {
    console.warn("service worker:", err);
    return "failed";
  } finally {
    navigator.serviceWorker.removeEventListener("message", onMessage);
  }
}

/** Once the page is idle, ask the service worker to cache the files a first visit does not wait for (sw.js
 *  LATER: HiGHS's WebAssembly), so they work offline after one visit too. */
export function precacheWhenIdle(delayMs = 2000) {
  const controller = navigator.serviceWorker?.controller;
  if (!controller) return; // not controlled yet (a slow first install): the next visit asks
  const ask = () => controller.postMessage({ type: "precacheLater" });
  setTimeout(() => (self.requestIdleCallback ? self.requestIdleCallback(ask, { timeout: 10000 }) : ask()), delayMs);
}

/** A new deploy installs in the background and waits (the open page keeps its own version);
 *  offer to switch now: the new worker takes over and the page reloads once. */
export async function watchForUpdates(button) {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const reg = await navigator.serviceWorker.getRegistration();
  if (!reg) return;
  const offer = () => {
    const waiting = reg.waiting;
    if (!waiting || !navigator.serviceWorker.controller) return;
    button.hidden = false;
    button.onclick = () => {
      navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), { once: true });
      waiting.postMessage({ type: "skipWaiting" });
    };
  };
  const follow = (worker) => worker?.addEventListener("statechange", () => {
    if (worker.state === "installed") offer();
  });
  reg.addEventListener("updatefound", () => follow(reg.installing));
  follow(reg.installing); // an update already under way
  offer(); // or already waiting
}

// ms each stage took on the last start (kept in localStorage); a first start uses these guesses
const GUESS_MS = { download: 300, snapshot: 300, compile: 500, runtime: 1500, pyapp: 100, import: 300, warm: 300 };

/** Start the engine worker; the loading box follows its real stages (protocol.mjs STAGES), the
 *  bar's segments sized by how long each stage took last time.  `base`: the part of the bar
 *  already used by the offline download.  Returns the Engine (its `ready` settles once Python
 *  has started, or failed to). */
export function startEngine(store, lab, base = 0) {
  const engine = new Engine();
  let last = null;
  try {
    last = JSON.parse(storage(STARTUP_KEY) || "null");
  } catch {
    last = null;
  }
  const expected = STAGES.map((name) => Math.max(50, Number(last?.[name]) || GUESS_MS[name]));
  const total = expected.reduce((a, b) => a + b, 0);
  engine.addEventListener("loading", (event) => {
    const { stage, stages } = event.detail;
    lab.timings[`stage_${stage}`] = performance.now();
    store.do("engine/stage", stage, stages);
    const k = STAGES.indexOf(stage);
    const before = expected.slice(0, Math.max(k, 0)).reduce((a, b) => a + b, 0);
    const from = base + (1 - base) * (before / total);
    const to = base + (1 - base) * ((before + (expected[k] ?? 0)) / total);
    const guess = { from, to, t0: performance.now(), seconds: (expected[k] ?? 100) / 1000 };
    store.do("loading/show", from, STAGE_LABELS[stage] || stage, guess);
  });
  engine.ready.then((info) => {
    lab.timings.engineReady = performance.now();
    lab.python = info.python;
    lab.stages = info.stages;
    lab.files = info.files;
    lab.snapshot = info.snapshot;
    lab.timings.warm = (info.stages.warm ?? 0) / 1000;
    storage(STARTUP_KEY, JSON.stringify(info.stages));
    store.do("engine/ready", info);
  }, (err) => store.do("engine/failed", err.message));
  return engine;
}
