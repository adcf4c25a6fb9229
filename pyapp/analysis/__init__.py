"""Analyses of a problem beyond solving it once.

* :func:`finishes`: every hole where one peg can remain from a start (with a solution each),
  and why the others cannot;
* :func:`count_solutions` / :func:`count`: the exact number of jump sequences that solve a problem;
* :func:`fewest_moves`: a solution with the fewest moves, proven minimal where feasible;
* :func:`hint`: the legal jumps after which the goal is still reachable.

Every analysis takes a time budget where it may run long and says plainly when it gave up.
"""

from .count import Count, CountBudgetError, count, count_solutions
from .fewest import Fewest, fewest_moves
from .finishes import Finishes, finishes
from .hint import Hint, hint
from .reach import Reachable, explore

__all__ = [
    "Count", "CountBudgetError", "Fewest", "Finishes", "Hint", "Reachable",
    "count", "count_solutions", "explore", "fewest_moves", "finishes", "hint",
]
