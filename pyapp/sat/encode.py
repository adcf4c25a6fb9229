"""The rule-based CNF encoding of a peg solitaire problem with a fixed number of jumps.

Variables (``T`` jumps, ``N`` holes, ``L`` lines of three holes):

* ``peg(t, k)``: hole ``k`` holds a peg after ``t`` jumps (``t = 0..T``).
* ``line(t, j)``: jump number ``t`` (``t = 1..T``) is made along line ``j`` = ``(a, b, c)``,
  in either direction.  No direction variable is needed: a jump along a line always
  empties the middle hole and flips both ends, and its precondition (middle full, exactly
  one end full) already says which end the peg comes from.  So one variable per line and
  step covers both directions with fewer variables than a direction bit (``+L`` per step)
  or two directed-jump variables (``+L`` per step, and ``2L`` rules for the exactly-one).
* auxiliary variables of the sequential-counter at-most-one (only with ``amo="sequential"``).

Clauses, per step ``t`` and line ``(a, b, c)`` with ``r = line(t, j)`` (the rule):
``r -> peg(t-1, b)``, ``r -> -peg(t, b)``, ``r -> peg(t-1, a) xor peg(t-1, c)`` (2 clauses),
``r -> peg(t, a) = -peg(t-1, a)`` and the same for ``c`` (2 clauses each): 8 clauses.

Frame axioms, per step and hole ``h``, in explanatory form: if ``h`` changes, one of the
rules through ``h`` is active (2 clauses).  With one active rule per step this says exactly
"every hole the active rule does not touch keeps its state", using ``2N`` clauses per step
instead of ``2N·L`` for the one-clause-pair-per-(rule, untouched hole) form.

One rule per step: at least one (one clause) and an at-most-one, three ways:

* ``pairwise``: ``-r_i | -r_j`` for every pair of lines, ``L(L-1)/2`` binary clauses.
* ``sequential``: Sinz's sequential counter, ``L-1`` auxiliary variables, ``3L-4`` clauses.
* ``overlap``: ``-r_i | -r_j`` only for lines sharing a hole.  Lines without a common hole
  may then fire together (a "parallel" step of independent jumps), but every jump removes
  exactly one peg, so ``T`` steps with at least one jump each remove at least ``T`` pegs;
  the goal (an exact final position, or one peg, which no jump can go below) allows exactly
  ``T``, so every step has exactly one jump.  No auxiliary variables.

The default is ``sequential``: on the catalogue boards it has the fewest clauses (English
board: 110 per step against 703 pairwise and 159 overlap) and both SAT solvers measured were
fastest with it on the largest instance, the English central game; on small patterns
``pairwise`` is as fast, and ``overlap`` is the slowest throughout, its parallel steps being
ruled out only by the final count (see the SAT section of BENCHMARKS.md).

Start: unit clauses fixing ``peg(0, *)``.  Goal: ``hole`` and ``target`` fix ``peg(T, *)``;
``any`` (one peg anywhere) needs no clause at all: ``T`` jumps from ``T + 1`` pegs leave one.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from ..core.errors import PegError
from ..core.moves import Jump
from ..core.problem import Problem

AMO_METHODS = ("sequential", "pairwise", "overlap")
DEFAULT_AMO = "sequential"

Clause = list[int]


class EncodingError(PegError):
    """A problem the fixed-length SAT encoding cannot express."""


@dataclass(frozen=True)
class Encoding:
    """A problem as CNF, with the variable layout needed to write and decode it."""

    problem: Problem
    steps: int
    """``T``: the number of jumps (pegs at the start minus pegs at the end)."""
    pegs_left: int
    amo: str
    holes: tuple[int, ...]
    """Bit index of hole ``k`` (the board's reading order)."""
    lines: tuple[Jump, ...]
    """Line ``j`` as bit indices ``(a, b, c)`` (``board.lines``)."""
    num_vars: int
    clauses: list[Clause]

    @property
    def line_base(self) -> int:
        """Variable number of ``line(1, 0)``."""
        return (self.steps + 1) * len(self.holes) + 1

    @property
    def aux_base(self) -> int:
        """First auxiliary variable (sequential counter)."""
        return self.line_base + self.steps * len(self.lines)

    def peg(self, t: int, k: int) -> int:
        """Variable: hole number ``k`` holds a peg after ``t`` jumps."""
        return t * len(self.holes) + k + 1

    def line(self, t: int, j: int) -> int:
        """Variable: jump ``t`` (from 1) is made along line number ``j``."""
        return self.line_base + (t - 1) * len(self.lines) + j


def fixed_steps(problem: Problem, pegs_left: int | None = None) -> tuple[int, int]:
    """``(T, pegs at the end)`` for the problem; ``pegs_left`` is required for a ``min`` goal."""
    goal = problem.goal
    if not goal.definite:
        if pegs_left is None:
            raise EncodingError("the SAT encoding needs a fixed number of jumps: goal 'min' has none; "
                                "give a goal hole, 'any' or a target position")
        end = pegs_left
    elif pegs_left is not None and pegs_left != goal.final_pegs:
        raise EncodingError(f"goal {goal.kind!r} leaves {goal.final_pegs} pegs, not {pegs_left}")
    else:
        end = goal.final_pegs  # type: ignore[assignment]
    if end < 1:
        raise EncodingError(f"a game always ends with at least one peg, not {end}")
    steps = problem.start.bit_count() - end
    if steps < 0:
        raise EncodingError(f"the start has {problem.start.bit_count()} pegs, fewer than the {end} of the goal")
    return steps, end


def encode(problem: Problem, *, amo: str = DEFAULT_AMO, pegs_left: int | None = None) -> Encoding:
    """The CNF of ``problem`` (see the module docstring); ``pegs_left`` sets the end for a ``min`` goal."""
    if amo not in AMO_METHODS:
        raise EncodingError(f"unknown at-most-one encoding {amo!r}: expected one of {', '.join(AMO_METHODS)}")
    board, goal = problem.board, problem.goal
    steps, end = fixed_steps(problem, pegs_left)
    holes = board.bits
    lines = board.lines
    n, nl = len(holes), len(lines)
    index = {bit: k for k, bit in enumerate(holes)}
    lk = [(index[a], index[b], index[c]) for a, b, c in lines]
    through: list[list[int]] = [[] for _ in range(n)]
    for j, ks in enumerate(lk):
        for k in ks:
            through[k].append(j)
    line_base = (steps + 1) * n + 1
    num_vars = line_base + steps * nl - 1
    clauses: list[Clause] = []
    add = clauses.append

    # start and goal
    for k, bit in enumerate(holes):
        add([k + 1 if problem.start >> bit & 1 else -(k + 1)])
    final = goal.exact
    if final is not None:
        last = steps * n + 1
        for k, bit in enumerate(holes):
            add([last + k if final >> bit & 1 else -(last + k)])

    if amo == "overlap":
        conflicts = sorted({(i, j) for js in through for i, j in combinations(js, 2)})

    for t in range(1, steps + 1):
        before = (t - 1) * n + 1
        after = t * n + 1
        rules = [line_base + (t - 1) * nl + j for j in range(nl)]
        # preconditions and effects of each rule
        for r, (a, b, c) in zip(rules, lk):
            pa, pb, pc = before + a, before + b, before + c
            qa, qb, qc = after + a, after + b, after + c
            add([-r, pb])
            add([-r, -qb])
            add([-r, pa, pc])
            add([-r, -pa, -pc])
            add([-r, pa, qa])
            add([-r, -pa, -qa])
            add([-r, pc, qc])
            add([-r, -pc, -qc])
        # explanatory frame axioms
        for k in range(n):
            via = [rules[j] for j in through[k]]
            add([before + k, -(after + k)] + via)
            add([-(before + k), after + k] + via)
        # exactly one rule
        add(list(rules))
        if amo == "pairwise":
            for x, y in combinations(rules, 2):
                add([-x, -y])
        elif amo == "overlap":
            for i, j in conflicts:
                add([-rules[i], -rules[j]])
        elif nl > 1:
            # Sinz's sequential counter: s_i = "some rule among the first i is active"
            s = list(range(num_vars + 1, num_vars + nl))
            num_vars += nl - 1
            add([-rules[0], s[0]])
            for i in range(1, nl - 1):
                add([-rules[i], s[i]])
                add([-s[i - 1], s[i]])
                add([-rules[i], -s[i - 1]])
            add([-rules[nl - 1], -s[nl - 2]])
    return Encoding(problem, steps, end, amo, holes, lines, num_vars, clauses)
