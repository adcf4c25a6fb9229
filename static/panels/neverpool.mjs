// Never-lose on the page's pool of workers (pooluse.mjs), as the whole-board table and the finishes run
// there.  pyapp.web.neverpool describes the three requests:
//   1. the plan, in the page's engine worker ("never_lose" with `workers`): a held winnable set, or the
//      engine's game-long table of proved positions, answers at once, as the one-worker request does;
//      otherwise the questions left: the position's own verdict, "jumps" where the one-worker check runs
//      its shared level search of every class at once (up to 24 pegs), and the first jump of each class of
//      symmetric jumps; `decided` names the classes the engine's table answered;
//   2. the questions side by side on the pool (spreadRequests: each pool worker takes the next one when
//      it is free).  "jumps" starts at once beside the position's question, on all that is left of the
//      check's budget (the one-worker check gives the shared search as much time as all the others from its
//      first round), told the classes known then (`decided`) and, while it runs, each class the others
//      decide (Engine.tell): the shared search drops them; it names the classes it decides as it goes.
//      Each other question gets its lane's share of the time left.  A question whose answer no longer
//      matters is left out (skip): the position's own once a jump is proved good (the position is then
//      winnable), every other once the position is proved lost, the jump that starts the position's
//      solution once that is found (the merge answers it from the engine's table), a class's once "jumps"
//      decided it, and "jumps" once every class is decided;
//   3. the merge, in the engine worker ("never_lose_merge"): every solution replayed, every proof kept,
//      all of it recorded in the engine's table (an undo or a revisit then answers at once), the jumps
//      filed into the one-worker answer, with `workers`.
// A newer position, never-lose switched off or a task stops the check: its running questions are asked to
// stop (each answers with what it did within a slice, and what they proved is still merged into the
// engine's table); a pool worker that has not answered after CANCEL_GRACE_MS is terminated (the pool then
// starts afresh when next needed), unless a task has taken the pool meanwhile (it is then left to answer).
//
// The pool is used when it is up already or the page was opened with ?workers=N; never-lose alone does not
// start it, and a game whose winnable set ships never needs it (the plan answers by lookup).

import { spreadRequests } from "../engine/pool.mjs";

const CANCEL_GRACE_MS = 1000;
const SHOW_MS = 250;
const POSITION = "position";
const JUMPS = "jumps";
const DECIDED = "decided:"; // the jumps question's progress note: the classes it has decided so far
const firstJump = (move) => move.split("-").slice(0, 2).join("-");

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
  const run = async () => {
    const t0 = performance.now();
    const plan = await stage(engine.request("never_lose", { ...args, workers: store.state.pool.size }, { onProgress }));
    if (!plan.shares || stopped) return plan;
    const got = await ctx.pool.acquire(true);
    if (stopped) return plan;
    if (got.size < 2) return { ...(await stage(engine.request("never_lose", args, { onProgress }))), why: got.why };
    // measured for tests and the bench: every question asked, with the classes the jumps question was told of
    const onAsk = (decide, decided) => ctx.lab?.neverloseAsked.push(decided ? { decide, decided } : { decide });
    const job = spread(got.pool, args, plan.shares, plan.decided ?? [], t0, { onVerdict, onPool, onAsk });
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

/** Step 2: the questions side by side on `pool`, those that stop mattering left out; `known`: the classes the
 *  plan's table answered.  Returns {promise, cancel}. */
function spread(pool, args, shares, known, t0, { onVerdict, onPool, onAsk }) {
  const n = shares.length;
  const answers = new Array(n).fill(null);
  const nodes = new Array(n).fill(0);
  const at = shares.indexOf(POSITION);
  const together = shares.indexOf(JUMPS);
  const isClass = (i) => i !== at && i !== together;
  const skipped = new Set(); // classes no longer searched: the position's solution starts with one
  const byTogether = new Set(); // classes the shared search (the jumps question) decided
  const skippedOut = new Set(); // the questions left out (each asked to stop once)
  let launched = 0;
  let shown = { at: -Infinity, done: -1 };
  // the note follows every answer, and the nodes at most every SHOW_MS (each pool worker reports every slice)
  const show = () => {
    const done = answers.filter(Boolean).length;
    const now = performance.now();
    if (done === shown.done && now - shown.at < SHOW_MS) return;
    shown = { at: now, done };
    onPool({ done, total: n, nodes: nodes.reduce((a, b) => a + b, 0), workers: pool.size });
  };
  const decidedOf = (i) => (answers[i] && answers[i].status !== "unknown") || skipped.has(i) || byTogether.has(shares[i]);
  // the classes known by now: the plan's, those answered, the one the position's solution starts with
  const decided = () => [...known, ...shares.filter((name, i) => isClass(i) && decidedOf(i))];
  let job = null;
  const leaveOut = (i) => {
    if (i < 0 || answers[i] || skippedOut.has(i)) return;
    skippedOut.add(i);
    job.skip(i);
  };
  // the jumps question (second) gets all that is left of the budget, as the one-worker check runs the shared
  // search beside all the others from its first round; every other question its lane's equal share of what is
  // left (as the one-worker check shares it out), counted when it starts
  let togetherAsked = false;
  const toldTogether = new Set(); // the classes the jumps question has been told of (it drops them)
  const argsOf = (decide) => {
    const left = Math.max(0.1, args.max_seconds - (performance.now() - t0) / 1000);
    if (decide === JUMPS) {
      launched++;
      togetherAsked = true;
      const told = decided();
      told.forEach((name) => toldTogether.add(name));
      onAsk(decide, told);
      return { ...args, decide, max_seconds: left, decided: told };
    }
    const waiting = Math.max(1, n - launched++ - (together >= 0 && !togetherAsked ? 1 : 0));
    onAsk(decide);
    return { ...args, decide, max_seconds: Math.min(left, (left * pool.size) / waiting) };
  };
  const settle = () => {
    const whole = at >= 0 ? answers[at] : null;
    if (whole?.status === "impossible") {
      onVerdict("lost");
      shares.forEach((_, i) => { if (i !== at) leaveOut(i); });
      return;
    }
    if (whole?.status === "solved") {
      onVerdict("winnable");
      const i = whole.moves.length ? shares.indexOf(firstJump(whole.moves[0])) : -1;
      if (i >= 0 && isClass(i) && !answers[i]) {
        skipped.add(i);
        leaveOut(i);
      }
    }
    if (answers.some((a, i) => i !== at && a?.status === "solved")) {
      onVerdict("winnable");
      leaveOut(at);
    }
    shares.forEach((name, i) => { if (isClass(i) && byTogether.has(name)) leaveOut(i); });
    if (shares.every((_, i) => !isClass(i) || decidedOf(i))) leaveOut(together); // nothing left for it
    else if (togetherAsked && !answers[together] && !skippedOut.has(together)) {
      // the classes decided since it started: it drops them (as the one-worker check's turns do)
      const news = decided().filter((name) => !toldTogether.has(name) && !byTogether.has(name));
      news.forEach((name) => toldTogether.add(name));
      if (news.length) job.tell(together, { decided: news });
    }
  };
  // the jumps question names the classes it decided, in its progress and in its answer
  const fromTogether = (names) => {
    names.forEach((name) => byTogether.add(name));
    settle();
  };
  show();
  job = spreadRequests(pool, "never_lose", shares, {
    argsOf,
    onProgress: (i, p) => {
      nodes[i] = p.nodes ?? nodes[i];
      if (i === together && p.note?.startsWith(DECIDED)) fromTogether(p.note.slice(DECIDED.length).split(" "));
      show();
    },
    onResult: (i, value) => {
      answers[i] = value;
      nodes[i] = value?.nodes ?? nodes[i];
      show();
      if (i === together) fromTogether((value?.answers ?? []).map((a) => a.decide));
      else settle();
    },
  });
  return job;
}
