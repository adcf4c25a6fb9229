"""Exact analyses at full scale: every position of a game, level by level, with no cap on positions.

* :mod:`.codec`: canonical dense keys and the compiled level expansion of a board;
* :mod:`.sweep`: level-by-level sweeps over sorted ``array('Q')`` keys (with class weights);
* :mod:`.count`: the number of solutions, two sweeps meeting in the middle;
* :mod:`.levels`: positions reachable and positions that can still win, per peg count;
* :mod:`.winnable`: the winnable sets, and ``can_win(pos)`` ("still solvable?") once computed;
* :mod:`.fewest`: the fewest moves over the winnable positions, by the dynamic programme of
  :mod:`.fewest_dp` (every winnable jump once) or, as a cross-check, the search by chains
  (:mod:`.chains` its compiled layer); :mod:`.lookup` the marked sorted arrays both search;
* :mod:`.fewest_all`: the fewest moves of every single-vacancy problem of a board (``fewest --all``);
* :mod:`.report`, :mod:`.web`, :mod:`.bench_rows`: their JSON, web-worker jobs and bench rows.

Every long call is a step generator under a :class:`pyapp.budget.Budget` (time, memory
ceiling, cancel) that yields per-level :class:`.sweep.Progress`.
"""
