"""Exact analyses at full scale: every position of a game, level by level, with no cap on positions.

* :mod:`.sweep`: level-by-level sweeps over sorted ``array('Q')`` canonical keys (with class
  weights), on the compiled codec of :mod:`pyapp.core.codec.compiled`; :mod:`.setup` the two sides
  of a problem (forward from the start, backward on the complement game);
* :mod:`.count` (package): the number of solutions, the one home of counting (memoised search for
  small positions, meeting sweeps at full scale);
* :mod:`.fewest` (package): the fewest moves, the one home of shortest solutions (breadth-first by
  moves for small positions, at full scale the move costs swept from both ends under caps and
  joined at every level or the dynamic programme over the winnable levels, the search by chains as their
  cross-check, and whole single-vacancy tables);
* :mod:`.levels`: positions reachable and positions that can still win, per peg count;
* :mod:`.winnable`: the winnable sets, and ``can_win(pos)`` ("still solvable?") once computed;
  :mod:`.partial` such a set held from some level up for an own-hole game (closed under complement), every
  level still answered exactly; :mod:`.store` their checked files; :mod:`.endgame` every position with few pegs
  that can still reach a goal, whatever the start (the complement game's first levels, swept when first needed);
* :mod:`.reach`: every position reachable from a small start (bounded), for finishes;
* :mod:`.lookup`: the marked sorted arrays the fewest-moves searches share;
* :mod:`.estimate`: how big a sweep will be, before it starts; :mod:`.report`: the JSON of each;
* :mod:`.shards`, :mod:`.sharded`, :mod:`.pool`, :mod:`.dask_pool`: the same sweeps split into shards
  (:mod:`.partition`: the parity of a symmetric set of holes, then a hash of the key), on local processes or
  a Dask cluster, with checkpoints and spilling to disk.

Every long call is a step generator under a :class:`pyapp.core.budget.Budget` (time, memory
ceiling, cancel) that yields per-level :class:`.sweep.Progress`.

May import: :mod:`pyapp.core`, :mod:`pyapp.proofs`, :mod:`pyapp.search`.
"""
