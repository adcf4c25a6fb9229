"""The model: what a peg solitaire game *is*, with no search in it.

Owns boards and lattices (:mod:`.lattice`, :mod:`.board`, :mod:`.catalogue`, :mod:`.spec`), positions
(:mod:`.position`), jumps and moves (:mod:`.moves`), notation (:mod:`.notation`), replaying a game
(:mod:`.game`), goals and problems (:mod:`.goal`, :mod:`.problem`), the one position codec (the
:mod:`.codec` package: canonical 64-bit keys, symmetry images, sorted key sets), budgets
(:mod:`.budget`), size limits (:mod:`.limits`), errors (:mod:`.errors`), the one builder of problems
from user strings or request dicts (:mod:`.request`, :mod:`.fields`), the SVG drawing of a board
(:mod:`.render`) and shared wording (:mod:`.wording`).

May import: nothing else of ``pyapp``.  Everything else may import it.
"""
