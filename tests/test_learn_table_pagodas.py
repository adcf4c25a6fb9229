"""``scripts/learn_table_pagodas.py``'s ranking (:func:`rank`): the pagodas it keeps are chosen greedily by the lost
positions each proves that the ones kept before it do not, not by how many each proves alone (a library holding two
copies of the best pagoda keeps it once, then the next most useful).  Triangle 6 (4 -> one peg anywhere), its goal's
table swept to 5,000 classes (low 6, ceiling 16), trained on four seeded positions one peg above the ceiling: about
20 pagodas in a CPU second."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pyapp.core.budget import Budget, drive
from pyapp.core.catalogue import get_board
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import make_problem
from pyapp.exact.endgame import endgame_steps

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import learn_table_pagodas as learning  # noqa: E402


@pytest.fixture(scope="module")
def trained():
    """The table, the training roots, the pegs from which pagodas prune, and the library learned on them."""
    problem = make_problem(get_board("triangle6"), start="4", goal="any")
    table = drive(endgame_steps(problem.board, problem.goal, problem.start, Budget(60), 5_000))
    assert table is not None
    roots = [learning._edge(problem, None, table.ceiling + 1, seed) for seed in range(4)]
    library: list[dict[int, int]] = []
    learning.learn(problem.board, table, roots, table.low + 1, library, 50)
    assert len(library) >= 8
    return problem.board, table, roots, table.low + 1, library


def _proofs(board, table, roots, min_pegs, library) -> list[set[int]]:
    """Per lost position the search meets (every pagoda of ``library`` pruning), the pagodas that prove it."""
    packed = learning._packed(board, table, library)
    proofs: list[set[int]] = []

    def cut(pos: int, pegs: int) -> bool:
        proving = set(packed.provers(packed.sum(pos), pegs))
        if proving:
            proofs.append(proving)
        return bool(proving)

    search = learning._searcher(board, table, min_pegs, cut, lambda pos: None)
    for root in roots:
        for jump in legal_jumps(board, root):
            search(apply_jump(root, jump))
    return proofs


def test_rank_keeps_each_next_pagoda_by_the_positions_the_kept_ones_do_not_prove(trained):
    board, table, roots, min_pegs, library = trained
    proofs = _proofs(board, table, roots, min_pegs, library)
    assert len(proofs) > 20
    kept = learning.rank(board, table, roots, min_pegs, library, len(library))
    order = [library.index(w) for w in kept]
    assert sorted(order) == list(range(len(library)))
    covered: set[int] = set()
    for k in order:
        gain = {i for i, proving in enumerate(proofs) if k in proving} - covered
        best = max(len({i for i, proving in enumerate(proofs) if j in proving} - covered)
                   for j in range(len(library)) if j not in {order[m] for m in range(order.index(k))})
        assert len(gain) == best, f"pagoda {k} proves {len(gain)} new positions, another {best}"
        covered |= gain
    assert covered == set(range(len(proofs)))
    assert learning.rank(board, table, roots, min_pegs, library, 3) == kept[:3]


def test_a_copy_of_the_best_pagoda_is_not_kept_before_a_pagoda_that_proves_something_new(trained):
    board, table, roots, min_pegs, library = trained
    best = learning.rank(board, table, roots, min_pegs, library, 1)[0]
    doubled = [*library, dict(best)]
    proofs = _proofs(board, table, roots, min_pegs, doubled)
    alone = [sum(k in proving for proving in proofs) for k in range(len(doubled))]
    assert alone[-1] == alone[library.index(best)] == max(alone)  # on raw counts the copy would come second
    new = [k for k in range(len(library)) if any(k in p and library.index(best) not in p for p in proofs)]
    assert new, "some pagoda proves a position the best one does not"
    kept = learning.rank(board, table, roots, min_pegs, doubled, 2)
    assert kept[0] is best and kept[1] is not doubled[-1] and library.index(kept[1]) in new
