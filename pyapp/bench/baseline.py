"""The reference search of the scaling study: a BASELINE, not the engine.

This is the seeds' "Algorithm 2" (the ParallelProject study's solver and the C++ DFS of the
reference figures): a plain depth-first search over the jumps in a fixed board order, with one
set of positions known to be dead (positions from which the goal was not reached).  No pagoda
functions, no position class, no symmetry, no move ordering, no beam, no level search: it is kept
here so the study can show what those buy, on the same puzzles and under the same budget as
:func:`pyapp.search.solver.solve`.  Nothing outside :mod:`pyapp.bench` uses it.

Nodes count the jumps played, i.e. the positions the search enters after the start (a position found
in the dead set still counts: it was generated and looked up), as :mod:`pyapp.search.dfs` counts its
own: the unit the seeds call "elements searched".
"""

from __future__ import annotations

from ..core.board import Board
from ..core.budget import Budget, BudgetSpent
from ..core.moves import Jump
from ..core.problem import Result

CHECK_EVERY = 1024
"""The budget is read every this many nodes (a clock read per node would dominate)."""


def directed_jumps(board: Board) -> list[tuple[int, int, int, Jump]]:
    """Every jump of the board in a fixed order: ``(needs, empty, flip, (a, b, c))`` with ``needs`` the
    bits that must hold pegs (a and b), ``empty`` the bit that must be empty (c) and ``flip`` the xor
    that plays it."""
    out = []
    for a, b, c in board.lines:
        for src, dst in ((a, c), (c, a)):
            out.append(((1 << src) | (1 << b), 1 << dst, (1 << a) | (1 << b) | (1 << c), (src, b, dst)))
    return out


def baseline_solve(board: Board, start: int, target: int, budget: Budget | None = None) -> Result:
    """Depth-first search with a dead-position set from ``start`` to exactly the position ``target``.

    Answers ``solved`` (with the jumps), ``impossible`` (the search space exhausted) or ``unknown``
    (budget spent).  ``seconds`` is left for the caller to time.
    """
    budget = budget or Budget()
    jumps = directed_jumps(board)
    dead: set[int] = set()
    path: list[Jump] = []
    target_pegs = target.bit_count()
    nodes = 0

    def dfs(pos: int) -> bool:
        nonlocal nodes
        if pos == target:
            return True
        if pos in dead or pos.bit_count() <= target_pegs:
            return False
        for needs, empty, flip, jump in jumps:
            if pos & needs == needs and not pos & empty:
                nodes += 1
                if nodes % CHECK_EVERY == 0:
                    budget.spend(CHECK_EVERY)
                    budget.check()
                path.append(jump)
                if dfs(pos ^ flip):
                    return True
                path.pop()
        dead.add(pos)
        return False

    try:
        found = dfs(start)
    except BudgetSpent:
        return Result("unknown", reason=budget.why(), nodes=nodes, entries=len(dead), method="baseline DFS")
    if found:
        return Result("solved", jumps=list(path), final=target, nodes=nodes, entries=len(dead), method="baseline DFS")
    return Result("impossible", reason="every position searched (baseline DFS)", nodes=nodes, entries=len(dead),
                  method="baseline DFS")
