"""Never-lose on the page's pool of workers: the plan and the merge.

The ``never_lose`` request (:func:`pyapp.web.play.never_lose_job`) decides a position and each class of its legal
jumps side by side in one worker.  Those are independent problems, so the page can decide them on its pool instead
(``static/panels/neverpool.mjs``), in three steps:

1. ``never_lose`` with ``workers`` N, in the page's engine worker (:func:`plan_steps`): a game whose winnable set is
   held answers by lookup, and so does a position whose verdicts the engine's table of proved positions
   (:mod:`pyapp.analysis.proven`) holds or gets from a neighbouring position's line, adapted (or which follows a
   position it holds as lost); a position with no jump, a goal without a definite end (Hint needs the fewest pegs
   first) or fewer than two questions left to search also runs as the one-worker request.  Otherwise the answer is
   ``{"shares": [...], "decided": [...], "items": [...]}``: the questions not in the table
   (:func:`pyapp.web.neverpool_shares.questions`), and second ``jumps`` where the one-worker check runs its shared
   level search (:func:`together`: a definite goal, up to ``SHARED_PEGS`` pegs, two classes or more left to search);
   ``decided`` names the classes the table answered; ``items`` says what each of the N pool workers runs
   (:func:`pool_items`).
2. The items, one per pool worker, all from the start (:mod:`pyapp.web.neverpool_shares`: the ``jumps`` share and
   the groups of questions), each told what the others decide while it runs.
3. ``never_lose_merge``, in the page's engine worker (:func:`merge_request`): every share checked (questions of
   this position, every ``solved`` line replayed to the goal, every ``impossible`` with its named proof; a question
   answered by two shares must get the same status), recorded in the engine's table (so an undo, a revisit or the
   next position answers at once), the questions not shared answered from that table, and the jumps filed by Hint's
   rules into the one-worker answer (:func:`pyapp.web.play.never_lose_json`), with ``workers``.  The survival funnel
   is not counted on this path (``solutions`` None).
"""

from __future__ import annotations

import time
from collections.abc import Generator, Sequence
from typing import Any

from ..analysis.hint import file_class, order_as
from ..analysis.neverlose import NeverLose, conclude, turns_options
from ..analysis.neverlose import shares as runs_shared
from ..analysis.neverlose_exact import never_lose_endgame_steps, never_lose_prepared, prepare_steps
from ..analysis.proven import Proven, table_for
from ..analysis.sharedjumps import applies
from ..core import fields
from ..core.budget import Budget, Progress
from ..core.errors import PegError
from ..core.game import replay
from ..core.moves import Jump, apply_jump
from ..core.problem import Problem, Result
from ..core.request import from_request
from ..exact.endgame import endgame_steps, when_to_build
from ..exact.openingbook import Book, book_for
from . import play as webplay
from .neverpool_shares import GROUP, JUMPS, POSITION, Classes, questions

MAX_REASON_CHARS = 4000
NOT_SEARCHED = "not searched (decided without it)"
CANCELLED = "cancelled"
SPLIT = True
"""Whether a group's two portfolios run on a worker each where there are workers for both (:func:`pool_items`)."""



def _known(table: Proven, problem: Problem, pos: int, book: Book | None) -> bool:
    """Whether ``pos`` is decided already: in the game's table of proved positions (or one jump after a position it
    holds as lost), in the game's opening book, or winnable by a neighbouring position's known line, adapted
    (:meth:`pyapp.analysis.proven.Proven.adapted`)."""
    asked = Problem(problem.board, pos, problem.goal)
    return pos in table.won or table.lost_reason(asked) is not None \
        or (book is not None and book.answer(pos) is not None) or table.adapted(asked) is not None


def plan_steps(problem: Problem, max_seconds: float | None, history: Sequence[int],
               workers: int = 2, line: bool = True) -> Generator[Progress, None, dict]:
    """Step 1 (module docstring): the one-worker answer, or ``{"shares", "decided", "items", "seconds"}`` for a pool
    of ``workers`` (``line``: as :func:`pyapp.web.play.never_lose_job`'s)."""
    t0 = time.perf_counter()

    def left() -> float | None:
        """What is left of the check's time (at least 0.1 s): each stage after the first gets that, not the whole."""
        return None if max_seconds is None else max(0.1, max_seconds - (time.perf_counter() - t0))

    board, goal = problem.board, problem.goal
    jumps, _, asked = questions(problem)
    table = table_for(problem)
    book = book_for(board, goal)
    ready = yield from prepare_steps(board, goal, history, max_seconds, line)
    exact = never_lose_prepared(board, goal, history, ready, max_seconds, t0, line)
    build = when_to_build(problem)
    if exact is None and build:  # the goal's endgame table (loaded from the site, or swept here): as one worker,
        # on what the set's preparation left of the check's time (a fresh budget let a check run 3.5 s past its 10)
        budget = Budget(left())
        if build == "first":
            yield from endgame_steps(board, goal, problem.start, budget)
        exact = yield from never_lose_endgame_steps(board, goal, problem.start, budget)
    booked = None if book is None else book.answer(problem.start)
    lost = table.lost_reason(problem) or (booked is not None and not booked.won)  # no jump is asked of a lost one
    shares = [] if exact is not None or not jumps or not goal.definite or lost else \
        [name for name, pos in asked.items() if not _known(table, problem, pos, book)]
    if len(shares) < 2:  # on what the table's attempt left of the check's time (the pool's shares get the same)
        return (yield from webplay.never_lose_job(problem, left(), history, line))
    decided = [name for name in list(asked)[1:] if name not in shares]
    if len([name for name in shares if name != POSITION]) >= 2 and together(problem):
        shares.insert(1 if shares[0] == POSITION else 0, JUMPS)
    return {"shares": shares, "decided": decided, "items": pool_items(problem, shares, decided, workers),
            "seconds": round(time.perf_counter() - t0, 3)}


def pool_items(problem: Problem, shares: list[str], decided: list[str], workers: int) -> list[dict]:
    """What each of ``workers`` pool workers runs (at most one item each): ``jumps`` on a worker of its own when the
    plan lists it, and the questions in groups; where the one-worker check runs two portfolios, a group gets one
    worker per portfolio while there are workers for both (the wide beams and the prover then each run at full
    speed over the same questions, and each is told what the other decides), else one worker running both."""
    names = [name for name in shares if name != JUMPS]
    shared = len(names) < len(shares)
    items: list[dict] = [{"decide": JUMPS, "decided": decided}] if shared else []
    lanes = max(1, workers - len(items))
    kinds = len(turns_options(problem, True if shared else None)["portfolios"])
    count = max(1, min(len(names), -(-lanes // kinds)))
    for g in range(count):
        group = {"decide": GROUP, "group": names[g::count], "shared": shared}
        split = SPLIT and kinds > 1 and lanes - kinds >= count - g - 1  # a worker for each, one for each group after
        items += [{**group, "portfolio": k} for k in range(kinds)] if split else [group]
        lanes -= kinds if split else 1
    return items


def together(problem: Problem) -> bool:
    """Whether the plan lists the ``jumps`` share: as the one-worker check runs the shared search
    (:func:`pyapp.analysis.neverlose.shares`: a definite goal, up to ``SHARED_PEGS`` pegs) and where it applies
    (:func:`pyapp.analysis.sharedjumps.applies`: two classes of jumps or more...)."""
    return runs_shared(problem) and applies(problem) is not None


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
        if part.get("decide") != GROUP:
            raise PegError(f"a share answered {str(part.get('decide'))[:40]!r}, not {JUMPS!r} or {GROUP!r}")
        answers = part.get("answers")
        if not isinstance(answers, list) or len(answers) > len(asked):
            raise PegError(f"a group must list at most {len(asked)} answers, not {fields.kind(answers)}")
        for answer in answers:
            name = answer.get("decide") if isinstance(answer, dict) else None
            if not isinstance(name, str) or name not in asked:
                raise PegError(f"a group answered {str(name)[:40]!r}, which is not a question of this position "
                               f"(expected {POSITION!r} or the first jump of a class)")
            # (two groups ask a question when each runs one portfolio)
            _take(out, name, _checked(problem, name, asked[name], answer), "in another group")
    for name, result in (together or {}).items():
        _take(out, name, result, f"in {JUMPS!r}")
    return out


def _take(out: dict[str, Result], name: str, result: Result, where: str) -> None:
    """``result`` for question ``name`` into ``out``, unless a decided answer is there already; two decided answers
    must agree (``where``: the share ``result`` came from, for the message)."""
    own = out.get(name)
    if own is not None and "unknown" not in (own.status, result.status) and own.status != result.status:
        raise PegError(f"the shares disagree on {name}: {own.status} in one group, {result.status} {where}")
    if own is None or own.status == "unknown":
        out[name] = result


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
