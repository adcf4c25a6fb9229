"""The questions of never-lose on the page's pool, and the two kinds of share a pool worker runs.

:mod:`pyapp.web.neverpool` plans a check for the pool and merges what its workers answer; this module names the
questions (:func:`questions`: the position's own verdict, ``position``, and the position after the first jump of each
class of symmetric jumps, named by that jump) and runs the shares, each ``never_lose`` with ``decide`` in a pool
worker, on all that is left of the check's budget:

- ``jumps`` (:func:`share_steps`): the shared level search of every class of jumps at once
  (:mod:`pyapp.analysis.sharedjumps`), except those named in ``decided`` (known when it starts), those the page
  names while it runs (``Job.tell`` with ``{"decided": [...]}``, :func:`news`) and those this worker's table
  holds.  Its answer lists one answer per class it decided (``answers``, each named by the class's first jump); its
  progress reports name the classes decided so far (:data:`DECIDED`).
- ``group`` (:func:`group_steps`): the questions listed in ``group`` decided side by side in turns
  (:func:`pyapp.analysis.turns.turns_steps`) with the one-worker check's options
  (:func:`pyapp.analysis.neverlose.turns_options`), or with one of its two portfolios alone (``portfolio``: another
  worker runs the other over the same questions).  The page tells it which questions were answered elsewhere (a class
  decided on another worker; the position once a jump is proved good), and it drops them; its progress reports name
  every question it has answered so far with its status (:data:`ANSWERED`); its answer lists one answer per question
  not dropped (``unknown`` ones say how far they got, or that the budget ran out before their search started).

Why groups in turns, and the portfolios on workers of their own (:func:`pool_items`): the questions are not equally
hard, and a fixed equal share per question (the first way the pool split them) left a hard one (a lost position that
needs a proof) a small slice while the easy ones ended early; and the one-worker check's two portfolios, the wide
beams that find most winnable lines and the prover that proves lost positions soonest, each run at full speed when
each has a worker (measured with ``scripts/neverpool_cpython.py``: figures in the README).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import replace
from typing import Any

from ..analysis.hint import _classes
from ..analysis.neverlose import turns_options
from ..analysis.proven import table_for
from ..analysis.sharedjumps import METHOD, shared_for
from ..analysis.turns import turns_steps
from ..core import fields
from ..core.board import Board
from ..core.budget import Budget, Progress
from ..core.errors import PegError
from ..core.moves import Jump, apply_jump, legal_jumps
from ..core.notation import format_moves
from ..core.problem import Problem, Result

POSITION = "position"
"""The share that decides the position itself (the others name the first jump of a class)."""
JUMPS = "jumps"
"""The share that decides every class of jumps by one shared level search."""
GROUP = "group"
"""The share that decides a group of questions side by side in turns (:func:`group_steps`)."""
DECIDED = "decided:"
"""The note of the ``jumps`` share's progress reports that names the classes it has decided so far."""
ALONE_COMPLETE = True
"""Whether the solver's own portfolio, on a worker of its own beside the prover's, ends in its complete search (as it
does alone) rather than with its beams (as beside the prover in one worker, where its time would go to the prover).
Measured with ``scripts/neverpool_cpython.py --follow`` on 28 asymmetric d5 -> d5 positions of 23-32 pegs: 96 jump
verdicts left unknown with it, 97 without (within the run-to-run spread)."""
ANSWERED = "answered:"
"""The note of a group's progress reports: every question it has answered so far, ``name=status``."""

Classes = list[list[tuple[Jump, dict[int, int]]]]


def questions(problem: Problem) -> tuple[list[Jump], Classes, dict[str, int]]:
    """The legal jumps, their classes, and each question by name (``position``, then each class's first
    jump in notation) with the position it asks about."""
    board, start = problem.board, problem.start
    jumps = legal_jumps(board, start)
    classes = _classes(problem, jumps) if jumps else []
    asked = {POSITION: start}
    for members in classes:
        first = members[0][0]
        asked[format_moves(board, [first])[0]] = apply_jump(start, first)
    return jumps, classes, asked


def share_steps(problem: Problem, decide: str, budget: Budget, decided: Sequence[str] | None = None,
                later: list[str] | None = None) -> Generator[Progress, None, dict]:
    """Step 2's ``jumps`` share: the shared level search of every class of jumps on ``budget``; ``decided``: the
    classes of jumps already decided elsewhere, by their first jump, which it drops, and ``later``: the classes
    decided elsewhere while it runs, appended by the caller (:func:`news`).  (A group of questions is
    :func:`group_steps`.)"""
    if decide != JUMPS:
        raise PegError(f"'decide' must be {JUMPS!r} or 'group' (with the list 'group'), not {decide[:40]!r}")
    return (yield from _jumps_share(problem, budget, decided or [], [] if later is None else later))


def share(problem: Problem, decide: str, budget: Budget, decided: Sequence[str] | None
          ) -> tuple[Generator[Progress, None, dict], Callable[[Any], object]]:
    """:func:`share_steps` and what takes the page's news while it runs (:func:`news`)."""
    later: list[str] = []
    return share_steps(problem, decide, budget, decided, later), lambda value: later.extend(news(problem, value))


def news(problem: Problem, value: Any, position: bool = False) -> list[str]:
    """What the page tells a running ``jumps`` share or group, ``{"decided": [...]}``: classes of jumps of this
    position (the first jump of each) decided since it started, and for a group (``position``) the position
    itself once its verdict is known elsewhere; checked."""
    names = list(questions(problem)[2])[0 if position else 1:]
    got = fields.text_list(fields.request(value), "decided", limit=len(names), item_chars=20) or []
    wrong = next((d for d in got if d not in names), None)
    if wrong is not None:
        what = "questions of this position" if position else "classes of jumps of this position"
        raise PegError(f"'decided' must list {what}, not {wrong[:40]!r}")
    return got


def _jumps_share(problem: Problem, budget: Budget, decided: Sequence[str],
                 later: list[str]) -> Generator[Progress, None, dict]:
    """The ``jumps`` share: the shared level search of the classes of jumps not ``decided`` and not in this
    worker's table, what it decides recorded in that table too.  Its progress reports carry, once it has
    decided a class, :data:`DECIDED` and the first jumps of the classes it decided so far (the page then
    stops the questions of those classes)."""
    shared = shared_for(problem, max_bytes=budget.ceiling() // 2, slice_seconds=budget.slice_seconds)
    if shared is None:
        raise PegError(f"'decide' {JUMPS!r} needs a position of a definite goal with two classes of jumps or more")
    _, classes, asked = questions(problem)
    names = list(asked)[1:]
    _once_each(decided, names, "'decided' must list classes of jumps of this position (the first jump of each)")
    table = table_for(problem)
    for i, name in enumerate(names, 1):  # decided by another question, or proved before in this worker
        if name in decided or table.answer(Problem(problem.board, asked[name], problem.goal)) is not None:
            shared.drop(i)
    steps, told, done, heard = shared.steps(budget), 0, False, 0
    try:
        while True:
            for name in later[heard:]:  # decided elsewhere since: the next level leaves them out
                shared.drop(names.index(name) + 1)
            heard = len(later)
            p = next(steps)
            if len(shared.search.decided) > told:
                told = len(shared.search.decided)
                p = replace(p, note=DECIDED + " ".join(names[c] for c in sorted(shared.search.decided)))
            yield p
    except StopIteration as stop:
        done = bool(stop.value)
    answers = []
    for i, result in sorted(shared.take().items()):
        table.record(Problem(problem.board, asked[names[i - 1]], problem.goal), result)
        answers.append({**share_json(problem.board, names[i - 1], result), "nodes": 0})  # counted once, below
    status = "solved" if any(a["status"] == "solved" for a in answers) else \
        "impossible" if len(answers) == len(classes) and done else "unknown"
    reason = None if status == "solved" else "every jump leads to a lost position" if status == "impossible" \
        else "the other classes of jumps were decided without it" if done else f"{budget.why()}; {shared.how_far()}"
    return {"decide": JUMPS, "status": status, "reason": reason, "moves": [], "answers": answers,
            "nodes": shared.search.st.nodes, "method": METHOD}


def _once_each(got: Sequence[str], allowed: list[str], what: str, empty: bool = True) -> None:
    """Refuse ``got`` unless it names members of ``allowed`` once each (and at least one unless ``empty``), saying
    ``what`` it must list and the first name that is not allowed."""
    if (got or empty) and len(set(got)) == len(got) and set(got) <= set(allowed):
        return
    wrong = next((name for name in got if name not in allowed), None)
    raise PegError(f"{what} once each" + (f", not {wrong[:40]!r}" if wrong is not None else ""))


def share_json(board: Board, decide: str, result: Result) -> dict:
    """A share's answer: the solver's status, reason, line (from the position asked about) and nodes."""
    return {"decide": decide, "status": result.status, "reason": result.reason,
            "moves": format_moves(board, result.jumps), "nodes": result.nodes, "method": result.method}


def group_steps(problem: Problem, names: Sequence[str], budget: Budget, shared: bool,
                later: list[str], portfolio: int | None = None) -> Generator[Progress, None, dict]:
    """Decide the questions ``names`` of ``problem``'s position side by side in turns on ``budget``; ``shared``: the
    shared level search of every jump runs beside, on another worker (as in the one-worker check, it then stands in
    for the prover's portfolio up to ``REPLACES_PEGS`` pegs); ``later``: the questions answered elsewhere, appended by
    the caller while it runs (:func:`news`); ``portfolio``: only that one of the one-worker check's portfolios (0 the
    solver's own, 1 the prover's; another worker runs the other over the same questions), else all of them."""
    _, _, asked = questions(problem)
    _once_each(names, list(asked), "'group' must list questions of this position (position, or the first jump of a "
               "class)", empty=False)
    order = sorted(names, key=lambda name: name != POSITION)  # the position first: it leads from the third round
    board, goal = problem.board, problem.goal
    answered: dict[str, Result] = {}

    def wanted(i: int) -> bool:
        name = order[i]
        if name in later or answered.get(POSITION, _UNKNOWN).status == "impossible":
            return False  # answered elsewhere, or every jump loses with the position
        return name != POSITION or not any(r.status == "solved" for r in answered.values())

    def on_result(i: int, result: Result) -> None:
        if result.status != "unknown":
            answered[order[i]] = result

    problems = [Problem(board, asked[name], goal) for name in order]
    options = turns_options(problem, True if shared else None, lead=order[0] == POSITION)
    if portfolio is not None:  # one of the portfolios alone (another worker runs the other), to its end
        if not 0 <= portfolio < len(options["portfolios"]):
            raise PegError(f"'portfolio' must be below {len(options['portfolios'])} here, not {portfolio}")
        options = {**options, "portfolios": options["portfolios"][portfolio:portfolio + 1],
                   "complete": None if ALONE_COMPLETE or portfolio else (False,)}
    steps = turns_steps(problems, budget, wanted=wanted, on_result=on_result, **options)
    said = 0
    try:
        while True:
            p = next(steps)
            if len(answered) > said:
                said = len(answered)
                p = replace(p, note=ANSWERED + " ".join(f"{name}={r.status}" for name, r in answered.items()))
            yield p
    except StopIteration as stop:
        results: list[Result | None] = stop.value
    for i, name in enumerate(order):  # the budget ran out before its search started: unknown, as one worker says
        if results[i] is None and wanted(i):
            results[i] = Result("unknown", budget.why(), [], asked[name], 0)
    answers = [share_json(board, name, result) for name, result in zip(order, results) if result is not None]
    statuses = {a["status"] for a in answers}
    status = "solved" if "solved" in statuses else \
        "impossible" if answered.get(POSITION, _UNKNOWN).status == "impossible" else "unknown"
    reason = None if status != "unknown" else budget.why() if budget.over() else "the rest was answered elsewhere"
    return {"decide": GROUP, "group": order, "status": status, "reason": reason, "moves": [], "answers": answers,
            "nodes": budget.nodes}


def group_share(problem: Problem, names: Sequence[str], budget: Budget, shared: bool, portfolio: int | None = None
                ) -> tuple[Generator[Progress, None, dict], Callable[[Any], object]]:
    """:func:`group_steps` and what takes the page's news while it runs (:func:`news`)."""
    later: list[str] = []
    return group_steps(problem, names, budget, shared, later, portfolio), \
        lambda value: later.extend(news(problem, value, position=True))


_UNKNOWN = Result("unknown", "", [], 0)
