"""The solver: one portfolio of phases that finds a solution or proves there is none.

:mod:`.solver` is the entry point (:func:`~pyapp.search.solver.solve`): cheap proofs (position
class, pagodas from :mod:`pyapp.proofs`), then the portfolio of :mod:`.phases` (depth-first
:mod:`.dfs` over :mod:`.compiled` tables with the bounded transposition :mod:`.table`, :mod:`.beam`,
:mod:`.formulations`), then the complete search (:mod:`.complete`: :mod:`.levels`/:mod:`.decide`, the
bidirectional search by peg count with :mod:`.levelside` and :mod:`.cuts`).  :mod:`.ilp` is the
time-indexed integer programme (``solve --engine ilp``, and a phase before the complete search on long
budgets).  :mod:`.pagoda_learn` learns the pagodas of :mod:`pyapp.proofs.pagoda_library` by search (a developer tool).

May import: :mod:`pyapp.core`, :mod:`pyapp.proofs`.
"""
