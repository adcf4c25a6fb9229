// "Where can one peg finish?" on the page's pool of workers (pooluse.mjs), as the whole-board table
// runs there (table.mjs).  pyapp.web.finishes describes the three requests:
//   1. the plan, in the page's engine worker: the position class and the exhaustive method (one sweep
//      answers every hole: nothing to spread); when the solver method is needed and its holes make at
//      least two shares (whole symmetry classes), the answer is those shares instead;
//   2. the shares side by side on the pool (spreadRequests: each pool worker takes the next share
//      when free), the solver method on the time the plan left of the budget, progress summed
//      (shares done, nodes), one Cancel (its requests asked to stop, the pool terminated after 120 ms);
//   3. the merge, in the engine worker: every hole checked and every solution replayed, answered as
//      the one-worker request answers.
// What the pool gives up: the engine worker's table of proved positions (pyapp/analysis/proven.py),
// shared with never-lose and Hint, is not in the pool workers, so a hole the game has proved already
// is searched again there.  The answer stays right (a proof holds whatever table it came through);
// the merge answers a hole the shares left unknown from that table, and records their solutions in it.
//
// Without a pool (one core, ?workers=1, or a board under 36 holes while the pool is not up) the page runs
// the one `finishes` request, as it always did.

import { spreadRequests } from "../engine/pool.mjs";
import { taskRequest } from "./tasks.mjs";

// Cancel waits this long for the pool's requests to answer with what they did, then terminates the pool
const CANCEL_GRACE_MS = 120;

/** The finishes of `args` (game arguments with max_seconds), on the pool when the solver method runs and
 *  the pool is worth it, else in the engine worker.  `onProgress(p)` gets the engine worker's progress,
 *  `onPool(p)` the pool's ({done, total, nodes, workers}).  Resolves with the one-worker answer, plus
 *  `workers` (how many ran the solver method) and `why` (why one did, when the pool could not start). */
export async function finishesOnPool(ctx, args, { onProgress, onPool }) {
  const { store } = ctx;
  const s = store.state;
  const plan = await taskRequest(ctx, "finishes", { ...args, workers: s.pool.size }, onProgress);
  if (!plan.shares) return { ...plan, workers: 1 };
  const got = await ctx.pool.acquire(true); // answers at once on a Cancel while the pool starts
  if (got.cancelled || s.task.cancelAt !== null) return { ...plan.pending, workers: 1 }; // cancelled before the solver
  const left = Math.max(1, args.max_seconds - plan.seconds);
  const solverArgs = { ...args, max_seconds: left };
  let parts;
  if (got.size < 2) { // the pool could not start: the solver method on every share here, in the engine worker
    const holes = plan.shares.flat();
    parts = [await taskRequest(ctx, "finishes", { ...solverArgs, holes }, onProgress)];
  } else {
    parts = await spread(ctx, got.pool, solverArgs, plan.shares, onPool);
  }
  const stopped = s.task.cancelAt !== null || parts.some((p) => !p || p.cancelled);
  const merged = await ctx.call("finishes_merge", { ...args, parts, cancelled: stopped });
  return { ...merged, workers: got.size, why: got.why };
}

/** The shares side by side on `pool`: the answers in the shares' order (null for one not answered). */
async function spread(ctx, pool, args, shares, onPool) {
  const done = new Array(shares.length).fill(false);
  const nodes = new Array(shares.length).fill(0);
  const show = () => onPool({ done: done.filter(Boolean).length, total: shares.length,
    nodes: nodes.reduce((a, b) => a + b, 0), workers: pool.size });
  show();
  const job = spreadRequests(pool, "finishes", shares, {
    argsOf: (holes) => ({ ...args, holes }),
    onProgress: (i, p) => {
      nodes[i] = p.nodes ?? nodes[i];
      show();
    },
    onResult: (i) => {
      done[i] = true;
      show();
    },
  });
  const release = ctx.pool.run(["finishes"], () => job.cancel(CANCEL_GRACE_MS));
  try {
    return await job.promise;
  } finally {
    release();
  }
}
