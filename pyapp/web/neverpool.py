"""Never-lose on the page's pool of workers: the plan, a share, the merge.

The ``never_lose`` request (:func:`pyapp.web.play.never_lose_job`) decides a position and then each class
of its legal jumps one after the other, in one worker.  Those are independent problems, so the page can
decide them side by side on its pool instead (``static/panels/neverpool.mjs``), in three steps:

1. ``never_lose`` with ``workers`` N, in the page's engine worker (:func:`plan_steps`): a game whose winnable set is
   held answers by lookup, and so does a position whose verdicts the engine's table of proved positions
   (:mod:`pyapp.analysis.proven`) holds or gets from a neighbouring position's line, adapted (or which follows a
   position it holds as lost); a position with no
   jump, a goal without a definite end (Hint needs the fewest pegs first) or fewer than two questions left to search
   also runs as the one-worker request.  Otherwise the answer is ``{"shares": [...], "decided": [...]}``: the
   questions not in the table, each ``position`` (the position's own verdict) or the first jump of a class of
   symmetric jumps (:func:`pyapp.analysis.hint._classes`, as the one-worker request groups them) in notation, and
   second ``jumps`` where the one-worker check runs its shared level search (:func:`together`: a definite goal, up to
   ``SHARED_PEGS`` pegs, two classes or more left to search); ``decided`` names the classes the table answered.
2. ``never_lose`` with ``decide`` (one of those), in a pool worker (:func:`share_steps`): that one
   position searched through the pool worker's own table on the share's budget; the answer is the
   solver's (``status``, ``reason``, ``moves`` from the position after the jump, ``nodes``).  ``decide``
   ``jumps`` runs the shared level search of every class at once (:mod:`pyapp.analysis.sharedjumps`)
   except those named in ``decided`` (the classes the page knows when it starts the share), those the page
   names while it runs (:func:`share`: ``Job.tell`` with ``{"decided": [...]}``, :func:`news`) and those this
   worker's table holds, and answers ``answers``: one such answer per class it decided (named by the class's
   first jump), and ``status`` ``solved`` when one of them is, ``impossible`` when it decided every class
   lost, else ``unknown``.  Its progress reports name the classes it has decided so far (:data:`DECIDED`).
   The page runs it from the start on all the budget beside the other questions, as the one-worker check
   gives the shared search as much time as all the others from its first round and drops the classes they
   decide; the page stops a class's question once ``jumps`` names it, and ``jumps`` once every class is
   decided (measured by ``scripts/neverpool_cpython.py``; figures in the README).
3. ``never_lose_merge``, in the page's engine worker (:func:`merge_request`): every share checked (a
   question of this position, none twice, every ``solved`` line replayed to the goal, every
   ``impossible`` with its named proof; the ``jumps`` share's answers each checked so, and a question
   answered by both must get the same status), recorded in the engine's table (so an undo, a revisit or the
   next position answers at once), the questions not shared answered from that table, and the jumps
   filed by Hint's rules into the one-worker answer (:func:`pyapp.web.play.never_lose_json`), with
   ``workers``.  The survival funnel is not counted on this path (``solutions`` None).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import replace
from typing import Any

from ..analysis.hint import _classes, file_class, order_as
from ..analysis.neverlose import NeverLose, conclude
from ..analysis.neverlose import shares as runs_shared
from ..analysis.neverlose_exact import never_lose_endgame_steps, never_lose_exact
from ..analysis.proven import Proven, decide_steps, table_for
from ..analysis.sharedjumps import METHOD, applies, shared_for
from ..core import fields
from ..core.board import Board
from ..core.budget import Budget, Progress
from ..core.errors import PegError
from ..core.game import replay
from ..core.moves import Jump, apply_jump, legal_jumps
from ..core.notation import format_moves
from ..core.problem import Problem, Result
from ..core.request import from_request
from ..exact.endgame import endgame_steps, when_to_build
from ..exact.openingbook import Book, book_for
from . import play as webplay

POSITION = "position"
"""The share that decides the position itself (the others name the first jump of a class)."""
JUMPS = "jumps"
"""The share that decides every class of jumps by one shared level search."""
DECIDED = "decided:"
"""The note of the ``jumps`` share's progress reports that names the classes it has decided so far."""
MAX_REASON_CHARS = 4000
NOT_SEARCHED = "not searched (decided without it)"
CANCELLED = "cancelled"

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


def _known(table: Proven, problem: Problem, pos: int, book: Book | None) -> bool:
    """Whether ``pos`` is decided already: in the game's table of proved positions (or one jump after a position it
    holds as lost), in the game's opening book, or winnable by a neighbouring position's known line, adapted
    (:meth:`pyapp.analysis.proven.Proven.adapted`)."""
    asked = Problem(problem.board, pos, problem.goal)
    return pos in table.won or table.lost_reason(asked) is not None \
        or (book is not None and book.answer(pos) is not None) or table.adapted(asked) is not None


def plan_steps(problem: Problem, max_seconds: float | None,
               history: Sequence[int]) -> Generator[Progress, None, dict]:
    """Step 1 (module docstring): the one-worker answer, or ``{"shares", "seconds"}`` for the pool."""
    t0 = time.perf_counter()
    board, goal = problem.board, problem.goal
    jumps, _, asked = questions(problem)
    table = table_for(problem)
    book = book_for(board, goal)
    exact = never_lose_exact(board, goal, history) if history else None
    build = when_to_build(problem)
    if exact is None and build:  # the goal's endgame table (loaded from the site, or swept here): as one worker
        budget = Budget(max_seconds)
        if build == "first":
            yield from endgame_steps(board, goal, problem.start, budget)
        exact = yield from never_lose_endgame_steps(board, goal, problem.start, budget)
    shares = [] if exact is not None or not jumps or not goal.definite or table.lost_reason(problem) else \
        [name for name, pos in asked.items() if not _known(table, problem, pos, book)]
    if len(shares) < 2:  # on what the table's attempt left of the check's time (the pool's shares get the same)
        left = None if max_seconds is None else max(0.1, max_seconds - (time.perf_counter() - t0))
        return (yield from webplay.never_lose_job(problem, left, history))
    decided = [name for name in list(asked)[1:] if name not in shares]
    if len([name for name in shares if name != POSITION]) >= 2 and together(problem):
        shares.insert(1 if shares[0] == POSITION else 0, JUMPS)
    return {"shares": shares, "decided": decided, "seconds": round(time.perf_counter() - t0, 3)}


def together(problem: Problem) -> bool:
    """Whether the plan lists the ``jumps`` share: as the one-worker check runs the shared search
    (:func:`pyapp.analysis.neverlose.shares`: a definite goal, up to ``SHARED_PEGS`` pegs) and where it applies
    (:func:`pyapp.analysis.sharedjumps.applies`: two classes of jumps or more...)."""
    return runs_shared(problem) and applies(problem) is not None


def asked_position(problem: Problem, decide: str) -> int:
    """The position a share's ``decide`` names: the position itself, or the position after one legal jump."""
    if decide == POSITION:
        return problem.start
    rep = replay(problem.board, problem.start, [decide])
    if not rep.valid or len(rep.jumps) != 1:
        raise PegError(f"'decide' must be {POSITION!r} or one legal jump, not {decide[:40]!r}"
                       + (f" ({rep.error})" if rep.error else ""))
    return rep.final


def share_steps(problem: Problem, decide: str, budget: Budget, decided: Sequence[str] | None = None,
                later: list[str] | None = None) -> Generator[Progress, None, dict]:
    """Step 2: one question decided through this worker's table on ``budget``; ``decided`` (``jumps`` only):
    the classes of jumps already decided elsewhere, by their first jump, which the shared search drops, and
    ``later``: the classes decided elsewhere while it runs, appended by the caller (:func:`news`)."""
    if decide == JUMPS:
        return (yield from _jumps_share(problem, budget, decided or [], [] if later is None else later))
    if decided is not None:
        raise PegError(f"'decided' goes only with 'decide' {JUMPS!r}")
    after = asked_position(problem, decide)
    result = yield from decide_steps(Problem(problem.board, after, problem.goal), budget)
    return share_json(problem.board, decide, result)


def share(problem: Problem, decide: str, budget: Budget, decided: Sequence[str] | None
          ) -> tuple[Generator[Progress, None, dict], Callable[[Any], object] | None]:
    """:func:`share_steps` and, for ``jumps``, what takes the page's news while it runs (:func:`news`)."""
    later: list[str] = []
    told = (lambda value: later.extend(news(problem, value))) if decide == JUMPS else None
    return share_steps(problem, decide, budget, decided, later), told


def news(problem: Problem, value: Any) -> list[str]:
    """What the page tells a running ``jumps`` share, ``{"decided": [...]}``: classes of jumps of this position
    (the first jump of each) decided since it started, checked."""
    names = list(questions(problem)[2])[1:]
    got = fields.text_list(fields.request(value), "decided", limit=len(names), item_chars=20) or []
    wrong = next((d for d in got if d not in names), None)
    if wrong is not None:
        raise PegError(f"'decided' must list classes of jumps of this position, not {wrong[:40]!r}")
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
    if len(decided) > len(names) or len(set(decided)) != len(decided) or not set(decided) <= set(names):
        wrong = next((d for d in decided if d not in names), None)
        raise PegError("'decided' must list classes of jumps of this position (the first jump of each) once each"
                       + (f", not {wrong[:40]!r}" if wrong is not None else ""))
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


def share_json(board: Board, decide: str, result: Result) -> dict:
    """A share's answer: the solver's status, reason, line (from the position asked about) and nodes."""
    return {"decide": decide, "status": result.status, "reason": result.reason,
            "moves": format_moves(board, result.jumps), "nodes": result.nodes, "method": result.method}


def _checked(problem: Problem, name: str, after: int, part: dict) -> Result:
    """A share's answer as a :class:`Result`: a solution must replay from ``after`` to the goal, a proof or
    an unknown must say why."""
    status, nodes = part.get("status"), fields.integer(part, "nodes", 0) or 0
    if status == "solved":
        moves = part.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise PegError(f"the share {name!r} must list its solution's moves as text")
        rep = replay(problem.board, after, moves)
        if not rep.valid or not problem.goal.reached(rep.final):
            raise PegError(f"the solution of the share {name!r} does not replay to the goal"
                           + (f" ({rep.error})" if rep.error else ""))
        return Result("solved", None, rep.jumps, rep.final, nodes)
    if status not in ("impossible", "unknown"):
        raise PegError(f"the share {name!r} answered {str(status)[:20]!r}, not solved, impossible or unknown")
    reason = part.get("reason")
    if not isinstance(reason, str) or not reason or len(reason) > MAX_REASON_CHARS:
        raise PegError(f"the share {name!r} must say why in 1 to {MAX_REASON_CHARS} characters")
    return Result(status, reason, [], after, nodes)


def _parts(problem: Problem, asked: dict[str, int], raw: Any) -> dict[str, Result]:
    if not isinstance(raw, list) or len(raw) > len(asked) + 1:
        raise PegError(f"'parts' must be a list of at most {len(asked) + 1} share answers, not {fields.kind(raw)}")
    out: dict[str, Result] = {}
    together: dict[str, Result] | None = None
    for part in raw:
        if part is None:
            continue
        if not isinstance(part, dict):
            raise PegError(f"a share's answer must be an object, not {fields.kind(part)}")
        if part.get("decide") == JUMPS:
            if together is not None:
                raise PegError(f"two shares answered {JUMPS!r}")
            together = _together(problem, asked, part)
            continue
        name = part.get("decide")
        if not isinstance(name, str) or name not in asked:
            raise PegError(f"a share answered {str(name)[:40]!r}, which is not a question of this position "
                           f"(expected {POSITION!r} or the first jump of a class)")
        if name in out:
            raise PegError(f"two shares answered {name!r}")
        out[name] = _checked(problem, name, asked[name], part)
    for name, result in (together or {}).items():
        own = out.get(name)
        if own is not None and own.status != "unknown" and own.status != result.status:
            raise PegError(f"the shares disagree on {name}: {own.status} alone, {result.status} in {JUMPS!r}")
        if own is None or own.status == "unknown":
            out[name] = result
    return out


def _together(problem: Problem, asked: dict[str, int], part: dict) -> dict[str, Result]:
    """The ``jumps`` share's answers, each checked as a share of its own (a decided class only)."""
    raw = part.get("answers")
    if not isinstance(raw, list) or len(raw) > len(asked) - 1:
        raise PegError(f"the share {JUMPS!r} must list at most {len(asked) - 1} answers, not {fields.kind(raw)}")
    out: dict[str, Result] = {}
    for answer in raw:
        name = answer.get("decide") if isinstance(answer, dict) else None
        if not isinstance(name, str) or name not in asked or name == POSITION or name in out:
            raise PegError(f"the share {JUMPS!r} answered {str(name)[:40]!r}, not a class of jumps of this position "
                           "once each")
        result = _checked(problem, name, asked[name], answer)
        if result.status == "unknown":
            raise PegError(f"the share {JUMPS!r} lists only decided answers, not {name} unknown")
        out[name] = result
    return out


def merge_request(args: dict) -> dict:
    """``never_lose_merge`` (step 3): the game as for ``never_lose``, ``parts`` (the shares' answers, null
    for one not run), ``cancelled``, ``workers`` (how many ran them), ``seconds`` (the check's wall time as
    the page measured it) and ``max_seconds`` (its budget)."""
    args = fields.request(args)
    problem = from_request(args).problem
    board, goal = problem.board, problem.goal
    if not goal.definite:
        raise PegError("never-lose runs on the pool only for a goal with a definite end")
    jumps, classes, asked = questions(problem)
    cancelled = fields.flag(args, "cancelled", False)
    workers = fields.integer(args, "workers", 1, low=1, high=64) or 1
    budget = fields.number(args, "max_seconds", webplay.NEVER_LOSE_SECONDS)
    got = _parts(problem, asked, args.get("parts"))
    table = table_for(problem)
    for name, part in got.items():  # what the pool proved, kept for the rest of the game
        table.record(Problem(board, asked[name], goal), part)
    results: dict[str, Result] = {}
    for name, pos in asked.items():
        shared = got.get(name)
        if shared is None or shared.status == "unknown":
            shared = table.answer(Problem(board, pos, goal)) or shared
        if shared is None:  # a jump's question may be left out only when the position is proved lost
            if name != POSITION and not cancelled and results[POSITION].status != "impossible":
                raise PegError(f"no share answered {name} (and the check was not cancelled)")
            shared = Result("unknown", CANCELLED if cancelled else NOT_SEARCHED, [], pos)
        results[name] = shared
    out = merged(problem, jumps, classes, results)
    if out.status == "winnable":
        table.record(problem, Result("solved", None, out.line, _end(problem.start, out.line)))
    elif out.status == "lost":
        table.record(problem, Result("impossible", out.reason, [], problem.start))
    out.nodes = sum(fields.integer(p, "nodes", 0) or 0 for p in args["parts"] if isinstance(p, dict))
    out.seconds = out.jumps.seconds = fields.number(args, "seconds", 0.0)
    return {**webplay.never_lose_json(board, out, budget), "workers": workers, "cancelled": cancelled}


def _end(pos: int, line: list[Jump]) -> int:
    for jump in line:
        pos = apply_jump(pos, jump)
    return pos


def merged(problem: Problem, jumps: list[Jump], classes: Classes, results: dict[str, Result]) -> NeverLose:
    """The one-worker answer from every question's result (:func:`pyapp.analysis.neverlose.never_lose_steps`'s
    rules: the position's own verdict, then every jump filed; a good jump proves the position winnable,
    every jump bad proves it lost)."""
    whole = results[POSITION]
    out = NeverLose("unknown", whole.reason if whole.status == "unknown" and whole.reason != NOT_SEARCHED
                    else "budget spent")
    if whole.status == "impossible":
        out.status, out.reason = "lost", whole.reason
    elif whole.status == "solved":
        out.status, out.reason, out.line = "winnable", None, list(whole.jumps)
    if out.status == "lost":
        return out
    names = list(results)[1:]
    for name, members in zip(names, classes):
        file_class(out.jumps, True, members, results[name])
    order_as(out.jumps, jumps)
    conclude(out, jumps)
    return out
