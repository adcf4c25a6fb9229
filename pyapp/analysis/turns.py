"""Several searches of one analysis side by side in one process, in turns that double.

Never-lose asks the solver about a position and about the position after each class of its jumps.
Those questions are not equally hard: a winnable position usually gives up a solution in a fraction
of a second, while a lost one may need its pagoda found by linear programming or an exhaustive
search.  Handing every question an equal share up front spends most of the budget waiting on the
shares of easy questions that ended early, and leaves each hard one a small, fixed slice.

:func:`turns_steps` runs the searches (each a :func:`pyapp.analysis.proven.decide_steps` generator, so
the game's table of proved positions answers what was proved before) in rounds: in round ``r`` every
undecided search runs until it has spent ``first * 2**r`` of its own time, so the easy questions are
answered in the first rounds, and the hard ones get what is left, the longer turns last.  No work
is thrown away between turns: a search is paused between two of its progress reports (every slice
of the budget) and resumed where it stopped.  Each search reads its own clock, which runs only
during its turns (on the budget's clock, CPU or wall), so its budget (the whole budget, on its own
clock) and the phases of its portfolio see the time it had, not the time the others had.

Before each turn the table is consulted again: a position another search has proved meanwhile (it
lay on that search's solution) is answered at once.  The caller's ``wanted`` drops searches whose
answer no longer matters (the position's own verdict once a jump is proved good).  When the budget is
spent each search still running is stopped at its next check and answers ``unknown`` with how far it
got, as a search on its own budget does.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Protocol

from ..core.budget import Budget, Clock, Progress
from ..core.problem import Problem, Result
from .proven import Proven, decide_steps, table_for

FIRST_TURN = 0.05
"""Seconds of its own time each search has after the first round (then 0.1, 0.2, ...)."""


class Together(Protocol):
    """One search that answers several of the problems at once (:class:`pyapp.analysis.sharedjumps.SharedJumps`)."""

    def drop(self, index: int) -> None:
        """Problem ``index`` is answered or no longer wanted: search no further for it."""

    def open(self) -> bool:
        """True while it has a problem left to answer."""

    def steps(self, budget: Budget) -> Generator[Progress, None, bool]:
        """Search on ``budget``, yielding progress; True when it has answered all it could."""

    def take(self) -> dict[int, Result]:
        """The answers proved since the last call, by problem index."""

    def how_far(self) -> str:
        """What it says when stopped before the end."""


class TaskClock:
    """A clock that runs only while its search has the turn (reading ``base`` for the time that passes)."""

    def __init__(self, base: Clock) -> None:
        self.base = base
        self.spent = 0.0
        self.since: float | None = None

    def __call__(self) -> float:
        return self.spent if self.since is None else self.spent + self.base() - self.since

    def resume(self) -> None:
        self.since = self.base()

    def pause(self) -> None:
        if self.since is not None:
            self.spent += self.base() - self.since
            self.since = None


@dataclass
class _Task:
    problem: Problem
    clock: TaskClock
    index: int
    """Which problem it searches."""
    widths: tuple[int, ...] | None
    """The beam widths of its portfolio (None: the solver's own)."""
    rank: int
    """Its portfolio's place in the list: the ``k``-th starts in round ``k`` (the first answers most
    questions in its first turn, and the others then never start)."""
    complete: bool = True
    """Whether its portfolio ends in the complete search (else it ends once its beams found nothing)."""
    budget: Budget | None = None
    ended: Result | None = None
    """Its own answer, once it ended (``unknown`` only when the budget was spent)."""
    steps: Generator[Progress, None, Result] | None = None

    def used(self) -> float:
        """Its work so far: own seconds, or nodes when the budget counts nodes only."""
        if self.budget is not None and self.budget.max_seconds is None:
            return float(self.budget.nodes)
        return self.clock()


def turns_steps(problems: list[Problem], budget: Budget, *, first: float = FIRST_TURN,
                wanted: Callable[[int], bool] = lambda i: True,
                on_result: Callable[[int, Result], object] | None = None,
                table: Proven | None = None, portfolios: tuple[tuple[int, ...] | None, ...] = (None,),
                together: Together | None = None, together_from: int = 1,
                together_weight: float = 1.0, lead: float = 1.0,
                lead_from: int = 2, steps_per_round: int = 1,
                complete: tuple[bool, ...] | None = None) -> Generator[Progress, None, list[Result | None]]:
    """Decide ``problems`` (one board and goal) side by side on ``budget``; yield its progress; return
    each one's :class:`Result` in order (None for one dropped by ``wanted`` before it answered).

    ``first``: the first round's turn in seconds of a search's own time (without a time limit but with
    a node limit, the turns count nodes: ``first`` times 1,000 nodes, doubling).  ``on_result(i, result)``
    is called as each answer comes; ``wanted(i)`` is asked before each turn.  ``portfolios``: each problem
    is searched once per entry, with those beam widths (:func:`pyapp.search.solver.search`; None: the
    solver's own), side by side, the ``k``-th from round ``k`` on; the first to decide answers and the others
    stop (a winnable position is often found soonest by the wide beams, a lost one proved soonest by the
    complete search, which comes early when the beams are few); ``complete`` says, per portfolio, whether it ends in
    the complete search (all by default; one that does not stops once its beams found nothing, and leaves the time to
    the others).  ``steps_per_round``: each round after the first is run in this many steps, every search a step in
    turn, so that of two searches of one problem the one that decides it stops the other within a step, not after a
    whole round (the French d2 -> d6 position of 30 pegs whose two losing jumps the prover decides at 1.9 s of its
    own time: the wide beams ran to the round's 3.2 s first; 11.4 -> 8.6 CPU s with 4 steps).  ``together``: one
    more search that answers several problems at once (the shared level search of a position's jumps), from round
    ``together_from`` on: each round it runs ``together_weight`` times as long as all the other searches of that round
    together (alone once they are done; a weight of 0 never runs it); what it proves is recorded in the table, and
    the problems answered elsewhere are dropped from it.  ``lead``: from
    round ``lead_from`` on, the first problem's searches run ``lead`` times as long as the others' (never-lose's own
    position: once its jumps' first turns found no good one, it may be lost, and its own search proves every jump
    losing at once)."""
    if not problems:
        return []
    table = table_for(problems[0]) if table is None else table
    by_nodes = budget.max_seconds is None and budget.max_nodes is not None
    ends = (True,) * len(portfolios) if complete is None else complete
    tasks = [_Task(p, TaskClock(budget.clock), i, widths, k, ends[k]) for i, p in enumerate(problems)
             for k, widths in enumerate(portfolios)]
    answers: list[Result | None] = [None] * len(problems)
    turn = first * 1000 if by_nodes else first
    round_ = 0

    def finish(i: int, result: Result) -> None:
        answers[i] = result
        for task in tasks:
            if task.index == i:
                _close(task)
        if on_result is not None:
            on_result(i, result)

    def open_tasks() -> list[_Task]:
        return [t for t in tasks if answers[t.index] is None and not t.ended and wanted(t.index)]

    shared = _Shared(together, budget) if together is not None and together_weight > 0 else None

    def settle_shared() -> None:
        if shared is None:
            return
        for i, result in shared.together.take().items():
            if answers[i] is None and wanted(i):
                table.record(problems[i], result)
                finish(i, result)
        for i in range(len(problems)):
            if answers[i] is not None or not wanted(i):
                shared.together.drop(i)

    while not budget.over() and ((todo := open_tasks()) or (shared is not None and shared.live())):
        began = budget.clock()
        before, parts = (0.0, 1) if round_ == 0 else (turn / 2, steps_per_round)
        for part in range(1, parts + 1):
            # the round's share in steps, every task a step in turn: of two searches of one problem, the one that
            # decides it stops the other within a step, not after the whole round
            until = before + (turn - before) * part / parts
            for task in todo:
                i = task.index
                if answers[i] is not None or not wanted(i) or task.rank > round_ or task.ended:
                    continue
                known = table.answer(task.problem) or table.adapted(task.problem)
                if known is not None:
                    finish(i, known)
                    continue
                if budget.over():
                    break
                if task.steps is None:
                    left = budget.remaining_nodes()
                    task.budget = Budget(budget.max_seconds, left, budget.max_bytes,
                                         slice_seconds=budget.slice_seconds, parent=budget, clock=task.clock)
                    task.steps = decide_steps(task.problem, task.budget, table, task.widths, task.complete)
                done = yield from _turn(task, budget, until * lead if i == 0 and round_ >= lead_from else until)
                if done is not None:
                    task.ended = done
                    if done.status != "unknown":
                        finish(i, done)
        if shared is not None and round_ >= together_from and not budget.over():
            settle_shared()
            if shared.live():
                yield from shared.turn(budget, together_weight * (budget.clock() - began) if todo else None)
                settle_shared()
        turn *= 2
        round_ += 1
    if shared is not None:
        shared.close()
    # the budget is spent: each search still running answers what it has (``unknown``, how far it got)
    for task in tasks:
        i = task.index
        if answers[i] is None and task.steps is not None and wanted(i):
            assert task.budget is not None
            task.budget.expire()
            done = yield from _turn(task, budget, None)
            task.ended = done
        _close(task)
    for i, answer in enumerate(answers):
        if answer is None and wanted(i):
            ended = [t.ended for t in tasks if t.index == i and t.ended is not None]
            if ended:
                answers[i] = ended[-1]  # the last portfolio's: the complete search says how far it got
                if on_result is not None:
                    on_result(i, ended[-1])
    return answers


def _turn(task: _Task, budget: Budget, until: float | None) -> Generator[Progress, None, Result | None]:
    """Run ``task`` until its work reaches ``until`` (None: to its answer) or ``budget`` is over; its answer or None."""
    assert task.steps is not None
    task.clock.resume()
    try:
        while True:
            p = next(task.steps)
            task.clock.pause()
            yield budget.progress(entries=p.entries, depth=p.depth)
            if until is not None and (task.used() >= until or budget.over()):
                return None
            task.clock.resume()
    except StopIteration as stop:
        task.steps = None
        return stop.value
    finally:
        task.clock.pause()


def _close(task: _Task) -> None:
    if task.steps is not None:
        task.steps.close()
        task.steps = None


class _Shared:
    """The ``together`` search of :func:`turns_steps`, on its own clock (the whole budget, as each task has)."""

    def __init__(self, together: Together, budget: Budget) -> None:
        self.together = together
        self.clock = TaskClock(budget.clock)
        self.budget = Budget(budget.max_seconds, budget.remaining_nodes(), budget.max_bytes,
                             slice_seconds=budget.slice_seconds, parent=budget, clock=self.clock)
        self.steps: Generator[Progress, None, bool] | None = together.steps(self.budget)
        self.ended = False

    def live(self) -> bool:
        return not self.ended and self.together.open()

    def turn(self, whole: Budget, seconds: float | None) -> Generator[Progress, None, None]:
        """Run for ``seconds`` more of its own time (None: until it ends) or until ``whole``, the budget of all
        the searches, or its own is over."""
        assert self.steps is not None
        until = None if seconds is None else self.clock() + seconds
        self.clock.resume()
        try:
            while True:
                p = next(self.steps)
                self.clock.pause()
                yield self.budget.progress(entries=p.entries, depth=p.depth)
                if whole.over() or self.budget.over() or (until is not None and self.clock() >= until) \
                        or not self.together.open():
                    return
                self.clock.resume()
        except StopIteration:
            self.ended = True
        finally:
            self.clock.pause()

    def close(self) -> None:
        if self.steps is not None:
            self.steps.close()
            self.steps = None
