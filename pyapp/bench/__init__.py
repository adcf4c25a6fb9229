"""The benchmark suite (``python -m pyapp bench``): rows that time and check the engine.

* :mod:`.suite`: runs the rows (repeats, medians, memory) and reports them;
* :mod:`.rows`: a row's types and the checks every answer must pass (replays, oracles);
* :mod:`.cases`: the solver, analysis and table rows; :mod:`.exact_rows`: the exact sweeps' rows;
  :mod:`.tables`: whole single-vacancy tables and random positions;
* :mod:`.sat_compare`: SAT against search on classic problems;
* :mod:`.scaling`: the scaling study (``bench --scaling``): generated puzzles at every peg count, our
  solver against :mod:`.baseline` (a plain depth-first search, the seeds' Algorithm 2), with the growth
  fits of :mod:`.fits` and the figures of :mod:`.plots` (matplotlib, optional, imported there only);
* :mod:`.report` and :mod:`.report_sections`: BENCHMARKS.md rendered from the JSON in ``benchmarks/``
  (``bench --report``).
* :mod:`.speedup`: the sharded sweeps' speedup on worker processes and a model of more (``bench --parallel``).

May import: :mod:`pyapp.core`, :mod:`pyapp.proofs`, :mod:`pyapp.search`, :mod:`pyapp.sat`,
:mod:`pyapp.exact`, :mod:`pyapp.analysis`.
"""
