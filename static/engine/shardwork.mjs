// The worker's two roles in a sweep run on the page's pool (pyapp/exact/relay.py says why the
// sweep is driven this way): as the *driver*, it takes the shard steps its job's Python Relay has
// recorded and hands their answers back; as a *pool worker*, it runs one step
// (pyapp.web.api.shard_step).  Keys and weights cross as ArrayBuffers in the transfer list of
// postMessage, never as JSON lists; this module only converts between Python bytes and buffers.

/** A Python bytes object (a PyProxy) as a new ArrayBuffer of its own; undefined stays undefined. */
function bufferOf(proxy) {
  if (proxy === undefined || proxy === null) return undefined;
  const view = proxy.getBuffer("u8");
  try {
    return view.data.slice().buffer; // a copy out of the wasm heap: transferable
  } finally {
    view.release();
    proxy.destroy();
  }
}

/** Pool worker: run `task` ({spec, keys, weights, expand_it, keep, pairs_out, pairs_in}: buffers in, as
 *  the page sent them; the pairs are a complement count's final combination) and return {value: {info, kept_keys, kept_weights, buckets: [{keys, weights}]}, transfer}. */
export function runShardStep(webapi, task) {
  const u8 = (b) => (b === undefined || b === null ? undefined : new Uint8Array(b));
  const weights = task.weights ? task.weights.map(u8) : undefined;
  const out = webapi.shard_step(task.spec, task.keys.map(u8), weights, task.expand_it, task.keep,
    Boolean(task.pairs_out), task.pairs_in || 0);
  try {
    const info = out.get(0);
    const keptKeys = bufferOf(out.get(1));
    const keptWeights = bufferOf(out.get(2));
    const flat = out.get(3);
    const buckets = [];
    try {
      for (let i = 0; i < flat.length; i += 2) buckets.push({ keys: bufferOf(flat.get(i)), weights: bufferOf(flat.get(i + 1)) });
    } finally {
      flat.destroy();
    }
    const transfer = [keptKeys, keptWeights, ...buckets.flatMap((b) => [b.keys, b.weights])].filter(Boolean);
    return { value: { info, kept_keys: keptKeys, kept_weights: keptWeights, buckets }, transfer };
  } finally {
    out.destroy();
  }
}

/** Driver: the steps the job's relay recorded since the last call, with the bytes they carry (a
 *  first level's buckets) put in as buffers: {tasks, transfer}; tasks is empty when none. */
export function takeSteps(relay) {
  const tasks = JSON.parse(relay.take());
  const transfer = [];
  for (const task of tasks) {
    task.spec = JSON.stringify(task.spec);
    for (const ref of task.incoming) {
      if (ref.keys === undefined) continue;
      ref.keys = bufferOf(relay.blob(ref.keys));
      ref.weights = ref.weights === null ? undefined : bufferOf(relay.blob(ref.weights));
      transfer.push(...[ref.keys, ref.weights].filter(Boolean));
    }
  }
  if (tasks.length) relay.forget_blobs();
  return { tasks, transfer };
}

/** Driver: a pool worker's answer to step `msg.task` ({info, kept_keys, kept_weights}). */
export function deliverStep(relay, msg) {
  const u8 = (b) => (b ? new Uint8Array(b) : undefined);
  relay.deliver(msg.task, msg.info, u8(msg.kept_keys), u8(msg.kept_weights));
}
