"""The questions a player asks of a position, answered from the engines below.

* :func:`finishes`: every hole where one peg can remain from a start (with a solution each),
  and why the others cannot;
* :func:`hint`: the legal jumps after which the goal is still reachable;
* :mod:`.neverlose` / :mod:`.neverlose_exact`: after every move, can the goal still be reached
  (by search, or by one lookup in an exact winnable set);
* :mod:`.table`: every single-vacancy start times every finish of a board;
* :mod:`.puzzle`: random positions built backwards from one peg, solvable by construction;
* :mod:`.spread`: whole tables spread start by start over a pool of workers.

Counting and fewest moves have their one home in :mod:`pyapp.exact.count` and
:mod:`pyapp.exact.fewest`.  Every analysis takes a time budget where it may run long and says
plainly when it gave up.

May import: :mod:`pyapp.core`, :mod:`pyapp.proofs`, :mod:`pyapp.search`, :mod:`pyapp.sat`,
:mod:`pyapp.exact`.
"""

from .finishes import Finishes, finishes
from .hint import Hint, hint

__all__ = ["Finishes", "Hint", "finishes", "hint"]
