"""Counting solutions: the one home of "how many jump sequences solve this problem?".

Two methods, one exact answer (Python ints, however large):

* :mod:`.memo`: depth-first with a memo per canonical position (:func:`count_solutions`,
  :func:`count`, :func:`memo_steps`): cheap set-up, bounded by a budget of positions; for the
  small positions of hints, puzzles and the page's quick count;
* :mod:`.sweep`: two level sweeps over canonical keys meeting in the middle
  (:func:`count_exact`, :func:`sweep_steps`): full scale, the English central game's
  40,861,647,040,079,968 solutions; the sides' product summed class by class (:mod:`.combine`) or over
  the jumps into the middle level (:mod:`.edge`), or both sides carried by one sweep when the start is,
  up to a symmetry, one of the backward sources (:mod:`.joint`).

``tests/test_exact.py`` checks the two agree on every small board.

May import: :mod:`pyapp.core`, :mod:`pyapp.search` and the rest of :mod:`pyapp.exact`.
"""

from .memo import Count, CountBudgetError, count, count_solutions
from .memo import count_steps as memo_steps
from .sweep import ExactCount, count_exact
from .sweep import count_steps as sweep_steps

__all__ = ["Count", "CountBudgetError", "ExactCount", "count", "count_exact", "count_solutions",
           "memo_steps", "sweep_steps"]
