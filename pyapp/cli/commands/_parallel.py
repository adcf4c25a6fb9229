"""``--workers``, ``--cluster``, ``--checkpoint`` and ``--shards``: where an exact sweep runs.

``--workers N`` (default: every core, ``os.cpu_count()``) runs the shards of each level in N local
processes; ``--workers 1`` is the in-process sweep, today's code path and node counts.
``--cluster tcp://HOST:PORT`` runs them on a Dask scheduler's workers (Dask optional: a clear
error without it).  ``--checkpoint DIR`` writes each finished level there and resumes from it.
``--exchange DIR`` puts the local workers' buckets in DIR instead of ``/dev/shm``, which is memory
(French d2 -> d6's backward level 20: about 7 GB of it beside the workers).
"""

from __future__ import annotations

import argparse
import os

from ...core.errors import PegError
from ...exact.pool import Pool
from ...exact.sharded import Checkpoint, Parallel, make_pool
from ._common import positive_int


def add_parallel_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workers", type=positive_int, default=None,
                   help="local worker processes for the level sweeps (default: every core; 1: in this process)")
    p.add_argument("--cluster", metavar="tcp://HOST:PORT",
                   help="run the level sweeps on this Dask scheduler's workers (needs the distributed package)")
    p.add_argument("--checkpoint", metavar="DIR",
                   help="write each finished level to DIR; a run killed mid-level resumes from the last one")
    p.add_argument("--exchange", metavar="DIR",
                   help="where local workers pass a level's buckets (default: /dev/shm, which is memory; a folder "
                        "on disk spares it on sweeps of hundreds of millions of positions)")
    p.add_argument("--shards", type=positive_int, default=None,
                   help="shards per level (default: one per local worker, two per Dask worker; a checkpoint "
                        "keeps its own)")


def parallel_from_args(args: argparse.Namespace) -> Parallel | None:
    """The :class:`~pyapp.exact.sharded.Parallel` the options ask for, or None (the in-process sweep)."""
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    if args.cluster and args.workers is not None:
        raise PegError("give --workers or --cluster, not both")
    if args.exchange and (args.cluster or workers == 1):
        raise PegError("--exchange is for two local workers or more (--workers N): a cluster's workers and a "
                       "sweep in this process exchange no files")
    if not args.cluster and workers == 1 and not args.checkpoint and not args.shards:
        return None
    ck = None
    if args.checkpoint:
        try:
            ck = Checkpoint(args.checkpoint)
        except (OSError, ValueError) as err:
            raise PegError(f"cannot use the checkpoint folder {args.checkpoint!r}: {err}") from None
    return Parallel(make_pool(workers, args.cluster, args.exchange), ck, args.shards)


def add_pool_args(p: argparse.ArgumentParser, prefix: str = "") -> None:
    """``--workers`` and ``--cluster`` for commands that spread independent problems over a pool."""
    p.add_argument("--workers", type=positive_int, default=None,
                   help=f"{prefix}worker processes (default: every core; 1: in this process)")
    p.add_argument("--cluster", metavar="tcp://HOST:PORT",
                   help=f"{prefix}this Dask scheduler's workers (needs the distributed package)")


def pool_workers(args: argparse.Namespace, default: int | None = None) -> int | None:
    """How many local workers ``--workers`` asks for (``default`` when it is not given, else every core),
    None for ``--cluster``; checks the two are not given together.  A command calls it before any work,
    so a bad pair of options is refused at once, and makes the pool later (:func:`pool_from_args`)."""
    if args.cluster and args.workers is not None:
        raise PegError("give --workers or --cluster, not both")
    if args.cluster:
        return None
    if args.workers is not None:
        return int(args.workers)
    return default if default is not None else (os.cpu_count() or 1)


def pool_from_args(args: argparse.Namespace, default: int | None = None) -> Pool | None:
    """The pool ``--workers``/``--cluster`` ask for, or None (one after the other in this process);
    ``default``: the workers when ``--workers`` is not given (else every core)."""
    workers = pool_workers(args, default)
    if workers == 1:
        return None
    return make_pool(workers, args.cluster)


def close(par: Parallel | None) -> None:
    if par is not None:
        par.pool.close()
