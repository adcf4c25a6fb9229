"""The two lattices a board can live on, as pure data.

A cell is ``(row, col)``.  On the square lattice a peg jumps along rows and columns
(4 directions); on the triangular lattice, stored in skewed coordinates where row ``r``
holds columns ``0..r`` of a triangle, it also jumps along the ``(1, 1)`` diagonal
(6 directions).  Everything else (bit layouts, symmetries, invariants) is derived from
the three facts kept here: the unit steps, the linear maps that permute those steps
(the lattice's point symmetries), and the mod-3 colourings that every jump changes in
all three of its cells (the basis of Conway's position classes).
"""

from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]
Matrix = tuple[tuple[int, int], tuple[int, int]]


@dataclass(frozen=True)
class Lattice:
    """Unit steps, point symmetries and class colourings of one lattice."""

    name: str
    steps: tuple[Cell, ...]
    """One step per line direction (the opposite direction is implied)."""
    maps: tuple[Matrix, ...]
    """Linear maps on ``(row, col)`` that send the set of unit steps onto itself."""
    colourings: tuple[Cell, ...]
    """Coefficients ``(a, b)``: cell ``(r, c)`` has colour ``(a*r + b*c) % 3``."""

    def apply(self, matrix: Matrix, cell: Cell) -> Cell:
        """Image of ``cell`` under a linear map."""
        (a, b), (c, d) = matrix
        r, k = cell
        return (a * r + b * k, c * r + d * k)


def _group(generators: tuple[Matrix, ...]) -> tuple[Matrix, ...]:
    """Close a set of 2x2 integer matrices under multiplication."""

    def mul(x: Matrix, y: Matrix) -> Matrix:
        return (
            (x[0][0] * y[0][0] + x[0][1] * y[1][0], x[0][0] * y[0][1] + x[0][1] * y[1][1]),
            (x[1][0] * y[0][0] + x[1][1] * y[1][0], x[1][0] * y[0][1] + x[1][1] * y[1][1]),
        )

    identity: Matrix = ((1, 0), (0, 1))
    found = [identity]
    frontier = [identity]
    while frontier:
        nxt = []
        for m in frontier:
            for g in generators:
                p = mul(m, g)
                if p not in found:
                    found.append(p)
                    nxt.append(p)
        frontier = nxt
    return tuple(found)


SQUARE = Lattice(
    name="square",
    steps=((0, 1), (1, 0)),
    # rotation by 90 degrees and the transpose generate the 8 symmetries of a square
    maps=_group((((0, -1), (1, 0)), ((0, 1), (1, 0)))),
    # (r + c) and (r - c) mod 3: the two diagonal colourings of Conway's position classes
    colourings=((1, 1), (1, 2)),
)

TRIANGLE = Lattice(
    name="triangle",
    steps=((0, 1), (1, 0), (1, 1)),
    # rotation by 60 degrees, (r, c) -> (r - c, r), and the reflection (r, c) -> (r, r - c)
    maps=_group((((1, -1), (1, 0)), ((1, 0), (1, -1)))),
    colourings=((1, 1),),
)

LATTICES = {lat.name: lat for lat in (SQUARE, TRIANGLE)}
