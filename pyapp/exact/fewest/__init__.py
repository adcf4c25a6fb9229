"""Fewest moves: the one home of "what is the shortest solution, proven?" (a move is one or
more consecutive jumps by one peg).

* :mod:`.bfs`: breadth-first search by moves with an upper bound from the solver and an
  admissible lower bound (:func:`fewest_moves`, :func:`bfs_steps`), for small positions;
* :mod:`.levels`: full scale (:func:`fewest_exact`, :func:`fewest_steps`): by default the costs
  swept from both ends under caps raised round by round and joined at every level (:mod:`.meet`, its
  compiled level :mod:`.push`; no winnable set built), or over the winnable levels of :mod:`pyapp.exact.winnable`
  by the dynamic programme of :mod:`.dp` (every winnable jump once) or, as a cross-check, the
  search by chains (:mod:`.chains`, its compiled layer);
* :mod:`.table`: the fewest moves of every single-vacancy problem of a board (``fewest --all``).

May import: :mod:`pyapp.core`, :mod:`pyapp.search` and the rest of :mod:`pyapp.exact`.
"""

from .bfs import Fewest, fewest_moves
from .bfs import fewest_steps as bfs_steps
from .levels import ExactFewest, fewest_exact, fewest_steps
from .table import FewestRow, FewestTable, fewest_all_steps, single_vacancy_problems

__all__ = ["ExactFewest", "Fewest", "FewestRow", "FewestTable", "bfs_steps", "fewest_all_steps", "fewest_exact",
           "fewest_moves", "fewest_steps", "single_vacancy_problems"]
