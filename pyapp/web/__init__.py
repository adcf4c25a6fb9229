"""The web worker's Python side: requests in, replies out (plain dicts that cross to JavaScript).

* :mod:`.api`: the protocol (one-shot calls, streaming jobs; the docstring lists every request);
* :mod:`.jobs`: the long, cancellable requests as step generators; :mod:`.exact` the exact
  analyses' jobs; :mod:`.play`: never-lose, puzzles and finishes for the page; :mod:`.table`:
  whole-board tables;
* :mod:`.boarddata`: the catalogue as data for the page (``build.py`` writes ``boards.json``).

May import: every package but :mod:`pyapp.cli`.
"""
