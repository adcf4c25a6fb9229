// Never-lose on the page's pool of workers (pooluse.mjs), as the whole-board table and the finishes run
// there.  pyapp.web.neverpool describes the three requests:
//   1. the plan, in the page's engine worker ("never_lose" with `workers`): a held winnable set, or the
//      engine's game-long table of proved positions, answers at once, as the one-worker request does;
//      otherwise the questions left: the position's own verdict, "jumps" where the one-worker check runs
//      its shared level search of every class at once (up to 24 pegs), and the first jump of each class of
//      symmetric jumps; `decided` names the classes the engine's table answered;
//   2. the plan's `items` on the pool, one per pool worker, all from the start on what is left of the check's
//      budget (pyapp.web.neverpool.pool_items, pyapp.web.neverpool_shares): "jumps" on a worker of its own
//      when listed, and the questions in groups, each decided in turns as the one-worker check decides them
//      all, a group's two portfolios (the wide beams, the prover) on a worker each where there are workers
//      for both.  Each worker names the questions it answers as it goes; the others are told (Engine.tell)
//      and drop them: a class decided anywhere, the position once a jump is proved good (it is then
//      winnable).  A worker with nothing left to decide is asked to stop; once the position is proved lost,
//      all of them are;
//   3. the merge, in the engine worker ("never_lose_merge"): every solution replayed, every proof kept,
//      all of it recorded in the engine's table (an undo or a revisit then answers at once), the jumps
//      filed into the one-worker answer, with `workers`.
// A newer position, never-lose switched off or a task stops the check: its running questions are asked to
// stop (each answers with what it did within a slice, and what they proved is still merged into the
// engine's table); a pool worker that has not answered after CANCEL_GRACE_MS is terminated (the pool then
// starts afresh when next needed), unless a task has taken the pool meanwhile (it is then left to answer).
//
// The pool is used when it is up already or the page was opened with ?workers=N; never-lose alone does not
// start it, and a game whose winnable set ships never needs it (the plan answers by lookup).  A check that
// finds the pool not yet up never waits for it: it runs in the engine worker while the pool starts.

import { spreadRequests } from "../engine/pool.mjs";

// a pool worker answers a cancel within a slice of its question (~50 ms of CPython's work: 0.1-0.3 s in Pyodide,
// more on a loaded machine or while its runtime is new); one that has not after this is stuck in something long.
// Terminating it costs more than the wait: the pool starts afresh (two runtimes, the game's table decoded again)
const CANCEL_GRACE_MS = 2500;
const SHOW_MS = 250;
const POSITION = "position";
const JUMPS = "jumps";
const DECIDED = "decided:"; // the jumps question's progress note: the classes it has decided so far
const ANSWERED = "answered:"; // a group's progress note: the questions it has answered so far, name=status

/** `args` on what is left of its budget (`max_seconds`) since `t0` (performance.now()). */
const leftOf = (args, t0) => ({ ...args, max_seconds: Math.max(0.1, args.max_seconds - (performance.now() - t0) / 1000) });

/** Whether a check should go to the pool: the device has the cores and the pool is up, or ?workers=N. */
export const poolWanted = (ctx) => !!ctx.pool && ctx.store.state.pool.size > 1 && (ctx.pool.running() || ctx.pool.wants(false));

/** The never-lose check of `args` (the game's arguments with max_seconds) with its questions on the pool.
 *  onVerdict(status) gets the position's own status (winnable or lost) as soon as it is proved, onPool(p)
 *  the pool's progress ({done, total, nodes, workers}).  Returns {promise, cancel}: the promise resolves
 *  with the one-worker answer (plus `workers`, and `why` when the pool could not start). */
export function checkOnPool(ctx, args, { onVerdict, onPool }) {
  const { engine, store } = ctx;
  let stopped = false;
  let stop = () => {};
  const onProgress = (p) => { if (p.verdict) onVerdict(p.verdict); };
  const stage = (req) => {
    stop = () => engine.cancel(req.id);
    return req.promise;
  };
  const t0 = performance.now();
  // the check in the engine worker alone, as one worker runs it, saying why the pool did not take it: on what the
  // plan left of the check's budget (the plan may have spent it settling the goal's table), as the pool's items
  const alone = async (why) => ({ ...(await stage(engine.request("never_lose", leftOf(args, t0), { onProgress }))), why });
  const run = async () => {
    const plan = await stage(engine.request("never_lose", { ...args, workers: store.state.pool.size }, { onProgress }));
    if (!plan.shares || stopped) return plan;
    if (!ctx.pool.running()) {
      // the pool is not up: this position is checked in the engine worker, as one worker checks it, rather than
      // after the seconds the pool takes to start; the pool starts meanwhile, for the positions that follow
      ctx.pool.acquire(true);
      return alone("the pool was starting");
    }
    const got = await ctx.pool.acquire(true);
    if (stopped) return plan;
    if (got.size < 2) return alone(got.why);
    // measured for tests and the bench: every question asked, with the classes the jumps question was told of
    const onAsk = (asked) => ctx.lab?.neverloseAsked.push(asked);
    const job = spread(got.pool, args, plan, t0, { onVerdict, onPool, onAsk });
    stop = () => {
      const t = performance.now();
      let timer;
      const late = new Promise((resolve) => { timer = setTimeout(() => resolve("late"), CANCEL_GRACE_MS); });
      Promise.race([job.cancel(), late]).then((how) => {
        clearTimeout(timer);
        // a worker that has not answered in time is terminated, unless an analysis (a task) now uses the pool
        const terminated = how === "late" && !store.state.task;
        if (terminated) {
          got.pool.stop();
          store.do("pool/set", { status: "off" });
        }
        // measured for tests and the bench: from the stop until every pool worker answered or was terminated
        ctx.lab?.neverloseStops.push({ ms: Math.round(performance.now() - t), terminated });
      });
    };
    const answers = await job.promise;
    const parts = answers.map((a) => (a && a.decide ? a : null)); // a share closed without its answer: not answered
    return ctx.call("never_lose_merge", { ...args, parts, cancelled: stopped, workers: got.size,
      seconds: (performance.now() - t0) / 1000 });
  };
  return { promise: run(), cancel: () => { stopped = true; stop(); } };
}

/** Step 2: the plan's items on `pool` ("jumps", groups of questions), each told what the others decide.
 *  Returns {promise, cancel}. */
function spread(pool, args, { shares, items }, t0, { onVerdict, onPool, onAsk }) {
  const names = shares.filter((name) => name !== JUMPS);
  const classes = names.filter((name) => name !== POSITION);
  const status = new Map(); // question -> solved, impossible, unknown, or decided (named by the jumps question)
  const by = new Map(); // question -> the item that answered it
  const moot = new Set(); // the position once a jump is proved good
  const told = items.map(() => new Set());
  const ended = new Array(items.length).fill(false);
  const nodes = new Array(items.length).fill(0);
  let shown = { at: -Infinity, done: -1 };
  // the note follows every answer, and the nodes at most every SHOW_MS (each pool worker reports every slice)
  const show = () => {
    const done = names.filter((name) => status.has(name) || moot.has(name)).length;
    const now = performance.now();
    if (done === shown.done && now - shown.at < SHOW_MS) return;
    shown = { at: now, done };
    onPool({ done, total: names.length, nodes: nodes.reduce((a, b) => a + b, 0), workers: pool.size });
  };
  const decided = (name) => (status.has(name) && status.get(name) !== "unknown") || moot.has(name);
  let job = null;
  const stopItem = (k) => {
    if (ended[k]) return;
    ended[k] = true;
    job.skip(k);
  };
  const settle = () => {
    if (status.get(POSITION) === "impossible") {
      onVerdict("lost");
      items.forEach((_, k) => stopItem(k));
      return;
    }
    const good = classes.some((name) => status.get(name) === "solved");
    if (good) moot.add(POSITION);
    if (good || status.get(POSITION) === "solved") onVerdict("winnable");
    items.forEach((item, k) => {
      if (ended[k]) return;
      // what the others decided since it started: it drops them (as the one-worker check's turns do), and ends of
      // itself, with its answers, once nothing is left for it (a cancel could cut its answers off)
      const mine = item.decide === JUMPS ? classes : item.group;
      const news = mine.filter((name) => decided(name) && by.get(name) !== k && !told[k].has(name));
      news.forEach((name) => told[k].add(name));
      if (news.length) job.tell(k, { decided: news });
    });
  };
  const took = (k, name, got) => {
    if (got === "unknown" && status.has(name)) return;
    status.set(name, got);
    by.set(name, k);
  };
  // every item at once (one per pool worker), on all that is left of the check's budget
  const argsOf = (item) => {
    onAsk(item);
    return { ...leftOf(args, t0), ...item };
  };
  show();
  job = spreadRequests(pool, "never_lose", items, {
    argsOf,
    onProgress: (k, p) => {
      nodes[k] = p.nodes ?? nodes[k];
      const note = p.note ?? "";
      if (note.startsWith(DECIDED)) {
        note.slice(DECIDED.length).split(" ").forEach((name) => { if (!status.has(name)) took(k, name, "decided"); });
      }
      if (note.startsWith(ANSWERED)) {
        for (const pair of note.slice(ANSWERED.length).split(" ")) {
          const [name, got] = pair.split("=");
          if (!decided(name)) took(k, name, got);
        }
      }
      if (note) settle();
      show();
    },
    onResult: (k, value) => {
      ended[k] = true;
      nodes[k] = value?.nodes ?? nodes[k];
      for (const a of value?.answers ?? []) took(k, a.decide, a.status);
      settle();
      show();
    },
  });
  return job;
}
