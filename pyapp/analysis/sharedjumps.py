"""Every jump of a position decided by one search: the shared level search as a side of never-lose's turns.

Never-lose decides the position after each class of legal jumps (:func:`pyapp.analysis.hint._classes`).
Their searches overlap almost entirely, so besides the per-jump searches one level search runs for
all of them at once (:class:`pyapp.search.sharedlevels.SharedLevels`): :class:`SharedJumps` builds it
for a position, turns each class it proves into the :class:`~pyapp.core.problem.Result` a per-jump
search would give (a winnable class's line replayed to the goal first), and forgets the classes decided
elsewhere (:meth:`SharedJumps.drop`).  :func:`shared_for` says when it applies: a definite goal,
a board of up to 64 holes, a start the goal's position class allows, two classes of jumps or more.

>>> from pyapp.core.problem import Problem, default_problem
>>> from pyapp.core.budget import Budget, drive
>>> from pyapp.core.moves import apply_jump, legal_jumps
>>> p = default_problem("triangle5")
>>> after = Problem(p.board, apply_jump(p.start, legal_jumps(p.board, p.start)[0]), p.goal)
>>> shared = shared_for(after)
>>> drive(shared.steps(Budget(30)))
True
>>> sorted(r.status for r in shared.take().values())
['solved', 'solved', 'solved', 'solved']
"""

from __future__ import annotations

from collections.abc import Generator

from ..core.board import Board
from ..core.budget import Budget, Progress
from ..core.codec.keyset import MAX_HOLES
from ..core.moves import Jump, apply_jump, legal_jumps
from ..core.problem import Problem, Result
from ..search.sharedlevels import MAX_CLASSES, SharedLevels, Verdict
from ..search.solver import jumps_of
from .hint import _classes

METHOD = "shared level search"
"""``Result.method`` of the answers it gives (the reasons name the level search, as the page reads them)."""


class SharedJumps:
    """The shared level search of one position's classes of jumps; problem index ``i + 1`` is class ``i``
    (index 0 is the position itself, as never-lose numbers its questions)."""

    def __init__(self, problem: Problem, firsts: list[Jump], *, max_bytes: int, slice_seconds: float = 0.05) -> None:
        board, goal, start = problem.board, problem.goal, problem.start
        self.problem = problem
        self.afters = [apply_jump(start, j) for j in firsts]
        self.search = SharedLevels(board, start, self.afters, goal.pagoda_targets(board, start),
                                   list(goal.symmetries(board)), max_bytes=max_bytes, slice_seconds=slice_seconds)
        self.taken: set[int] = set()

    def drop(self, index: int) -> None:
        """Question ``index`` (a class of jumps, from 1) was answered elsewhere or no longer matters."""
        if index >= 1:
            self.search.drop(index - 1)

    def open(self) -> bool:
        """True while a class is left to decide."""
        return bool(self.search.open)

    def steps(self, budget: Budget) -> Generator[Progress, None, bool]:
        """Search on ``budget``; yield its progress; True once every class is decided."""
        steps = self.search.steps(budget)
        try:
            while True:
                st = next(steps)
                yield budget.progress(entries=st.stored, depth=st.forward_levels)
        except StopIteration as stop:
            return bool(stop.value)

    def take(self) -> dict[int, Result]:
        """The answers proved since the last call, by question index (class ``c`` is index ``c + 1``)."""
        out: dict[int, Result] = {}
        for c, verdict in self.search.decided.items():
            if c not in self.taken:
                self.taken.add(c)
                out[c + 1] = result_of(self.problem.board, self.problem, self.afters[c], verdict,
                                       self.search.st.nodes)
        return out

    def how_far(self) -> str:
        return self.search.how_far()


def result_of(board: Board, problem: Problem, after: int, verdict: Verdict, nodes: int) -> Result:
    """A class's verdict as the per-jump search's :class:`Result` for the position ``after`` its jump (a line
    that does not reach the goal is an error of the search, never an answer)."""
    if verdict.status == "solved":
        jumps = jumps_of(verdict.path)
        final = after
        for jump in jumps:
            if jump not in legal_jumps(board, final):
                raise AssertionError("shared level search: a line does not replay")  # pragma: no cover
            final = apply_jump(final, jump)
        if not problem.goal.reached(final):
            raise AssertionError("shared level search: a line does not reach the goal")  # pragma: no cover
        return Result("solved", None, jumps, final, nodes, method=METHOD)
    return Result("impossible", verdict.reason, [], after, nodes, method=METHOD)


def applies(problem: Problem) -> list[list[tuple[Jump, dict[int, int]]]] | None:
    """``problem``'s classes of jumps when the shared search applies to it (module docstring), else None."""
    board, goal, start = problem.board, problem.goal, problem.start
    if not goal.definite or len(board.bits) > MAX_HOLES or goal.final_pegs is None:
        return None
    if start.bit_count() - 1 <= goal.final_pegs or goal.obstacle(board, start) or not goal.pagoda_targets(board, start):
        return None
    jumps = legal_jumps(board, start)
    classes = _classes(problem, jumps) if jumps else []
    return classes if 2 <= len(classes) <= MAX_CLASSES else None


def shared_for(problem: Problem, *, max_bytes: int | None = None, slice_seconds: float = 0.05) -> SharedJumps | None:
    """The shared search of ``problem``'s classes of jumps, or None where it does not apply (:func:`applies`).
    ``max_bytes``: its memory ceiling (default: half of :data:`~pyapp.core.budget.DEFAULT_MAX_BYTES`)."""
    classes = applies(problem)
    if classes is None:
        return None
    ceiling = Budget(max_bytes=max_bytes).ceiling() // 2 if max_bytes is None else max_bytes
    return SharedJumps(problem, [members[0][0] for members in classes], max_bytes=ceiling,
                       slice_seconds=slice_seconds)
