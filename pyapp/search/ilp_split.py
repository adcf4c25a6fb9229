"""A problem split into parts by the first jump with a choice, so that their integer programmes run side by side.

A proof of infeasibility by branch and bound is one long single-threaded run; HiGHS's tree search does not
spread over cores.  The same question splits by hand: follow the start's forced jumps (a position with one
legal jump) to the first step ``t`` with a choice, and group the legal jumps there into classes under the
symmetries the programme keeps (those fixing the start, the exact finish and the allowed finishing holes:
:func:`pyapp.search.ilp_cuts.symmetry_group`; they map the forced jumps to themselves).  Each class is a part, in
one of two forms:

* :func:`part_problem`: the problem from the position after the forced jumps and the class's first jump, to the
  same goal, with a programme of its own (its reachability fixings start from that position);
* :func:`restrict`: the whole programme plus the row "step ``t`` is one of the class's jumps".

Why the parts together answer the question: a solution plays the forced jumps first (each is the only legal one),
and its jump at step ``t`` is legal there, so it is in exactly one class.  With :func:`restrict` the parts divide
the programme's points.  With :func:`part_problem`, a symmetry of the group maps the solution to one through the
class's first jump (and keeps the start, the forced jumps and the goal), so that part is feasible.  Either way the
problem is solvable exactly when one part is.  A whole class goes into a restricted part, because the
symmetry-breaking rows of :mod:`pyapp.search.ilp_cuts` may forbid the member one would pick.

Measured on German e1 -> e1 (three classes after two forced jumps; one HiGHS thread each, at nice 12 beside other
work, load 5-10): the restricted part c4-e4 | g4-e4 had 1.4% of its tree explored after 825 s, the part problem from
c4-e4 15% after 761 s; ``scripts/ilp_run.py --split`` runs part problems (``--part K`` one of them).

:func:`leaves` splits the parts again (``--depth``): a part problem is a problem, so the same argument splits it at
its own first choice, under its own symmetries.  Deeper parts are smaller proofs, each recorded once it ends
(``--ledger``), so a proof longer than one run is carried on by the next.  On German e1 -> e1 at depth 2, a part
of c5-e5's split had 38% of its tree explored after 240 s, where the whole part c5-e5 had 59% after 4,860 s.

Leaves are often the same question: two jumps that do not touch commute (``c4-e4 d2-d4 a4-c4`` and
``c4-e4 a4-c4 d2-d4`` reach one position), and a symmetry of the goal maps a position onto another whose answer is
the same.  :func:`distinct` keeps one leaf per position up to the goal's symmetries (German e1 -> e1 three choices
deep: 172 leaves, 97 distinct), and :func:`covering` / :func:`uncovered` count a part as settled when a settled row
of the ledger reached the same position (or, for an impossible row, one the part's line passes through) by any
order of its jumps or as an image.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..core.game import replay
from ..core.moves import Jump, apply_jump, legal_jumps
from ..core.notation import format_jump
from ..core.problem import Problem
from .ilp import IlpFormulation
from .ilp_cuts import symmetry_group


@dataclass(frozen=True)
class Part:
    """One part: ``step`` (1-based) is one of ``jumps``, after the forced jumps ``forced``; ``position`` is the
    position after them and ``jumps[0]`` (after the forced jumps alone for a part with no jumps)."""

    step: int
    jumps: tuple[Jump, ...]
    forced: tuple[Jump, ...]
    position: int

    def label(self, f: IlpFormulation) -> str:
        """The part in notation, e.g. ``step 3 in c4-e4, g4-e4``."""
        board = f.problem.board
        return f"step {self.step} in {', '.join(format_jump(board, j) for j in self.jumps)}"


def parts(f: IlpFormulation) -> list[Part]:
    """The parts of ``f``'s programme: one per class of the legal jumps at the first step with a choice (one
    part, with no jumps, when no step before the end has a choice)."""
    board, pos = f.problem.board, f.problem.start
    perms = [board.permutation(i) for i in symmetry_group(f)]
    forced: list[Jump] = []
    while len(forced) < f.steps:
        jumps = legal_jumps(board, pos)
        if len(jumps) != 1:
            break
        forced.append(jumps[0])
        pos = apply_jump(pos, jumps[0])
    else:
        return [Part(0, (), tuple(forced), pos)]
    if not jumps:  # stuck after the forced jumps: the programme is infeasible as it is
        return [Part(0, (), tuple(forced), pos)]
    left, out = list(jumps), []
    while left:
        a, b, c = left[0]
        orbit = {(p[a], p[b], p[c]) for p in perms} | {left[0]}
        members = tuple(j for j in left if j in orbit)
        left = [j for j in left if j not in orbit]
        out.append(Part(len(forced) + 1, members, tuple(forced), apply_jump(pos, members[0])))
    return out


@dataclass(frozen=True)
class Leaf:
    """A part ``depth`` splits deep: its problem, and the jumps from the whole problem's start to its start
    (the forced jumps and the first jump of the class at each split)."""

    problem: Problem
    before: tuple[Jump, ...]

    def line(self) -> str:
        """The jumps before it in notation (its name in a ledger): ``e3-e1 e5-e3 c4-e4 d3-d5``."""
        return " ".join(format_jump(self.problem.board, j) for j in self.before)


def leaves(problem: Problem, depth: int) -> list[Leaf]:
    """The parts of ``problem`` split ``depth`` times (1: :func:`parts`, each as its :func:`part_problem`; 2: the
    parts of each of those; ...), in order.  ``problem`` is solvable exactly when one of them is."""
    if depth < 1:
        raise ValueError(f"a split is at least 1 deep, not {depth}")
    out = [Leaf(problem, ())]
    for _ in range(depth):
        out = [Leaf(part_problem(leaf.problem, p), (*leaf.before, *p.forced, *p.jumps[:1]))
               for leaf in out for p in parts(IlpFormulation(leaf.problem, cuts=False))]
    return out


def part_problem(problem: Problem, part: Part) -> Problem:
    """The problem of ``part``: from its position to ``problem``'s goal."""
    return Problem(problem.board, part.position, problem.goal)


def restrict(f: IlpFormulation, part: Part) -> None:
    """Add ``part``'s row to ``f``'s programme (nothing for a part with no jumps: the whole programme)."""
    if not part.jumps:
        return
    index = {j: k for k, j in enumerate(f.jumps)}
    f.model.add_row({f.x[part.step][index[j]]: 1 for j in part.jumps}, lower=1, upper=1)


def same(problem: Problem) -> Callable[[int], int]:
    """A position's form up to the symmetries of ``problem``'s goal (:meth:`~pyapp.core.goal.Goal.symmetries`): two
    positions with the same form are the same question toward that goal (a symmetry mapping the goal onto itself
    maps each one's solutions onto the other's)."""
    board = problem.board
    group = problem.goal.symmetries(board)
    return lambda pos: min(board.transform(pos, i) for i in group)


def distinct(problem: Problem, found: list[Leaf]) -> list[Leaf]:
    """The leaves ``found`` of ``problem``, but the first of each position up to its goal's symmetries (the others
    are the same question: a transposition of its jumps, or an image), in order."""
    form, seen, out = same(problem), set(), []
    for leaf in found:
        key = form(leaf.problem.start)
        if key not in seen:
            seen.add(key)
            out.append(leaf)
    return out


def _passes(problem: Problem, line: str) -> list[int]:
    """The positions ``line`` (jumps in notation from ``problem``'s start) passes through, the start's excluded."""
    out, pos = [], problem.start
    for j in replay(problem.board, problem.start, line.split()).jumps:
        pos = apply_jump(pos, j)
        out.append(pos)
    return out


def covering(rows: list[dict], line: str, problem: Problem | None = None) -> dict | None:
    """The row of a ledger (dicts with ``line`` and ``status``, as ``scripts/ilp_run.py --ledger`` writes them)
    that answers the part after ``line``: its own, or an impossible part it lies in (a part whose jumps begin
    its line: when that part is infeasible, so is every part split from it).  With ``problem`` (whose start the
    lines begin at), also a row whose position is the part's, or for an impossible row one the part's line passes
    through, up to the goal's symmetries (:func:`same`): the same question reached by other jumps.  A row proved
    with its closings refused (``dual``, :func:`closings`) answers its own line only."""
    jumps = line.split()
    for row in rows:
        before = row["line"].split()
        if before == jumps or row["status"] == "impossible" and before == jumps[:len(before)] and not row.get("dual"):
            return row
    if problem is None:
        return None
    form = same(problem)
    path = [form(pos) for pos in _passes(problem, line)]
    for row in rows:
        if row.get("dual"):  # proved under the order of its own split only (refuse_closings): its own line alone
            continue
        at = _passes(problem, row["line"])
        if not at:
            continue
        key = form(at[-1])
        if (path and key == path[-1]) or row["status"] == "impossible" and key in path:
            return row
    return None


def uncovered(problem: Problem, depth: int, rows: list[dict]) -> list[Leaf]:
    """The distinct leaves (:func:`distinct`) of ``problem`` split ``depth`` deep that the impossible rows of the
    ledger ``rows`` do not prove impossible: none covers it (:func:`covering`, by line or by position), and it was
    not split further into parts that each are (recursively, as deep as the rows go).  None means the ledger proves
    ``problem`` impossible (every leaf infeasible, whichever depth proved it)."""
    proved = [r for r in rows if r["status"] == "impossible"]
    return [leaf for leaf in distinct(problem, leaves(problem, depth)) if not _proved(problem, leaf, proved)]


def _proved(problem: Problem, leaf: Leaf, proved: list[dict]) -> bool:
    """True when the impossible rows ``proved`` cover ``leaf`` of ``problem``, or cover every part of its own split
    (the rows that pass through its position, up to the goal's symmetries, and go deeper)."""
    if covering(proved, leaf.line(), problem) is not None:
        return True
    form, pegs = same(problem), leaf.problem.start.bit_count()
    key = form(leaf.problem.start)
    deeper = [r for r in proved if not r.get("dual") and any(pos.bit_count() == pegs and form(pos) == key
                                       for pos in _passes(problem, r["line"])[:-1])]
    if not deeper:
        return False
    return all(_proved(problem, Leaf(part_problem(leaf.problem, p), (*leaf.before, *p.forced, *p.jumps[:1])), deeper)
               for p in parts(IlpFormulation(leaf.problem, cuts=False)))


def self_dual(problem: Problem) -> bool:
    """Whether ``problem`` is its own reverse: its start is the board with only its finish's one hole empty (German
    e1 -> e1).  A solution played backwards on the complemented board is then a solution too, its *dual*: the
    position ``t`` jumps into the dual is the complement of the position ``t`` jumps before the original's end."""
    exact = problem.goal.exact
    return exact is not None and exact.bit_count() == 1 and problem.start == problem.board.full() ^ exact


def closings(problem: Problem, depth: int, rows: list[dict], index: int) -> set[int]:
    """The positions that part ``index`` of :func:`distinct` ``leaves(problem, depth)`` may refuse as its closing,
    the position as many jumps before the end as the part's line has jumps (for a :func:`self_dual` problem).

    Every solution opens in one part and closes in another: the part its dual opens in, whose position is the
    complement of the closing (up to the goal's symmetries).  No solution closes in a part the ledger ``rows``
    prove infeasible outright, since its dual would open there.  And of a solution and its dual, one opens in a
    part no later in the list than the part it closes in; so part ``index`` may also refuse the closings of the
    parts before it, provided every part is proved under the same rule.  A part proved so is not proved on its
    own: its ledger row says ``dual`` and :func:`covering` counts it for its own line only."""
    if not self_dual(problem):
        raise ValueError("closings are refused only in a problem that is its own reverse")
    board = problem.board
    every = distinct(problem, leaves(problem, depth))
    still = {leaf.line() for leaf in uncovered(problem, depth, [r for r in rows if not r.get("dual")])}
    return {board.full() ^ board.transform(other.problem.start, g)
            for j, other in enumerate(every) if other.line() not in still or j < index
            for g in problem.goal.symmetries(board)}


def refuse_closings(f: IlpFormulation, before: int, positions: set[int]) -> int:
    """Add one row per position of ``positions`` to the part's programme ``f``: its position ``before`` jumps before
    the end (the jumps of the part's line) differs from that position in at least one hole; how many rows."""
    at = f.steps - before
    for pos in sorted(positions):
        row = {f.p[at][i]: (-1.0 if pos >> h & 1 else 1.0) for i, h in enumerate(f.holes)}
        f.model.add_row(row, lower=1 - pos.bit_count())  # sum over pos's pegs of (1 - p) + over its holes of p >= 1
    return len(positions)
