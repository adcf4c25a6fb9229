"""Proofs of impossibility that need no search: pagodas, pagoda separation, the book, and their programmes.

* :mod:`.pagoda`: pagoda functions (found by linear programming or taken from
  :mod:`.pagoda_library`), the pagoda test and its explanation;
* :mod:`.separation`: a pagoda separating the positions a jump or two after the start from
  those before the goal (or each one-peg finish), an impossibility proof;
* :mod:`.book`: results that took minutes to find, each naming its command: impossibility proofs, and solved
  problems (:mod:`.book_solved`) whose stored solutions it replays before answering;
* :mod:`.lp` (with :mod:`.lp_model` and :mod:`.lp_backends`): the one interface of linear and integer
  programmes, built in Python and solved by HiGHS (``highspy``, or its WebAssembly build in the page).

The position class (the other classical obstacle) is a property of the board's lattice and
lives with it (:meth:`pyapp.core.board.Board.position_class`; :mod:`pyapp.core.goal` applies it).

May import: :mod:`pyapp.core`.
"""
