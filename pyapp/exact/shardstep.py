"""One sharded step: merge the buckets sent to a shard, keep or save it, expand it into the next level's buckets.

Why a module of its own: the step is where the sharding (:mod:`.shards`) meets the final combination of a
complement count (:mod:`.pairs`), which itself builds on the shards' buckets; keeping the step here lets
both be imported by it without either importing the other.
"""

from __future__ import annotations

import os
import time

from .pairs import backward_part, emit, settle
from .shards import Bucket, Spec, accumulate, arrays, bucket_bytes, encode_weights, expand, save_bucket


def step(spec: Spec, incoming: list[Bucket], *, expand_it: bool = True, keep: bool = False,
         save: str | None = None, spill: str | None = None, pairs_out: bool = False, pairs_in: int = 0) -> dict:
    """Merge ``incoming`` into one shard; keep it in the answer (``keep``), save it to the file ``save`` (a
    checkpoint); expand it into the next level's buckets (``expand_it``), written as files ``spill + '.<j>'``
    instead of returned as bytes when ``spill`` is given.  The final combination of a one-sweep count
    (:mod:`.pairs`): ``pairs_out`` appends the shard's pair buckets (buckets ``S + j``, or ``j`` when the shard is
    not expanded); ``pairs_in`` says
    that the last ``pairs_in`` of ``incoming`` are pair buckets, summed against the shard (``info["pairs"]``).

    Returns ``{"info": {"size", "stats"[, "pairs"]}, "kept": (keys, weights) or None, "buckets": [...]}``:
    a driver reads the small ``info`` first and the rest only where it needs it."""
    if (pairs_out or pairs_in) and not spec.weights:
        raise ValueError("pair buckets need a counting sweep")
    t0, c0 = time.perf_counter(), time.process_time()
    bytes_in = sum(os.path.getsize(b) if isinstance(b, str) else bucket_bytes(b) for b in incoming)
    split = len(incoming) - pairs_in
    acc = accumulate(spec, incoming[:split])
    info: dict = {"size": len(acc)}
    if pairs_in:
        info["pairs"] = str(settle(spec, acc, incoming[split:]))  # type: ignore[arg-type]
    kept: tuple[bytes, bytes | None] | None = None
    buckets: list[Bucket] = []
    bytes_out = 0
    if keep or save or expand_it or pairs_out:
        keys, weights = arrays(spec, acc, ordered=keep or expand_it)  # sorted: parents expand faster (.shards)
        del acc
        if keep or save:
            # a joint count's level read again only for its backward weights keeps just those (.pairs)
            mine = backward_part(spec, weights) if pairs_out and not expand_it else weights
            kept = (keys.tobytes(), None if mine is None else encode_weights(mine))
            if save:
                save_bucket(save, kept)
        made = expand(spec, keys, weights) if expand_it else []
        if pairs_out:
            made += emit(spec, keys, weights)
        bytes_out = sum(len(b[0]) + len(b[1] or b"") for b in made)
        buckets = [save_bucket(f"{spill}.{j}", b) for j, b in enumerate(made)] if spill else list(made)
    stats = {"seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0, "bytes_in": bytes_in,
             "bytes_out": bytes_out, "pid": os.getpid()}
    info["stats"] = stats
    return {"info": info, "kept": kept if keep else None, "buckets": buckets}
