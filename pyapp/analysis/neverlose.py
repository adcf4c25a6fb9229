"""Never lose: is the goal still reachable from this position, and which legal jumps lose it?

G. Bell's "Never Lose" player flags every move that leads to a dead end.  This analysis
answers both questions the page asks in that mode, in one cancellable step generator
(the web worker runs it slice by slice, so a new move or Cancel stops it within a slice):

1. the position itself: ``winnable`` (with a continuation that reaches the goal), ``lost``
   (with the solver's proof: position class, a pagoda function, exhaustive search) or
   ``unknown`` (the share of the budget ran out: how many nodes were searched is said);
2. then, unless the position is lost, each legal jump, grouped by the symmetries that fix
   the position and the goal exactly as :func:`pyapp.analysis.hint` does: ``good``,
   ``bad`` (with why) or ``unknown``.

It uses the Hint budget (``DEFAULT_HINT_SECONDS``) and Hint's filing rules (the ``min`` goal
included), only driving the solver's step generator instead of blocking on it.  Toward a definite goal
the searches of the position and of its jumps run side by side in turns that double
(:func:`pyapp.analysis.turns.turns_steps`): a jump whose position is winnable usually needs a fraction of
a second, a losing one may need seconds for its proof, and neither waits on the other's share.  On positions of
up to :data:`SHARED_PEGS` pegs one level search for every jump at once (:mod:`.sharedjumps`) runs beside them, as
long as they do each round (three times as long above :data:`REPLACES_PEGS`), and proves the losing jumps the
beams leave open; once every jump is proved losing, the position is lost and the search stops.  Every search goes
through the game's table of proved positions (:mod:`.proven`): the position after a jump on a line
already found, an undo, or a position proved lost before is answered at once, and nothing proved is
searched twice.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from ..core.budget import Budget, Progress, budget_of, drive
from ..core.moves import Jump, apply_jump, legal_jumps
from ..core.problem import Problem, Result
from ..exact.count import memo_steps
from ..exact.endgame import endgame_steps, when_to_build
from .hint import DEFAULT_HINT_SECONDS, Hint, _classes, file_class, order_as
from .neverlose_exact import never_lose_book, never_lose_endgame_steps
from .neverlose_result import VERDICT, NeverLose
from .proven import decide_steps
from .sharedjumps import shared_for
from .turns import turns_steps

SLICE_SECONDS = 0.05
FUNNEL_SECONDS = 2.0
"""At most this long for the solution counts of the funnel off the shipped games (after every verdict)."""
FUNNEL_PROBE_NODES = 10_000
"""The first count of the funnel gets at most this many nodes: one that does not finish in them drops the funnel at once
(the counts of a position's jumps are of one size; one that cannot finish drops the funnel anyway).  Nodes, not seconds,
so that whether a position shows its funnel does not depend on the runtime or the machine's load: 10,000 nodes are
about 0.15 s in CPython and 0.4 s in Pyodide; triangle 5's counts take under 2,000 (a probe of 0.25 s once missed them
in Chromium on a loaded machine), triangle 6's 146,000.  Why a probe at all: on triangle 8's default game
(CPython, 2 seeded games, every position of 20-35 pegs) the first count never finished, and without a probe the funnel
took 2.0 s of each check (2.0-6.3 CPU s in all), the verdicts the rest."""
PORTFOLIOS: tuple[tuple[int, ...] | None, ...] = (None, (128, 256))
"""Never-lose toward a definite goal searches each position after a jump with at most :data:`PROVER_PEGS`
pegs twice side by side (:mod:`.turns`): with the solver's own portfolio, whose wide beams find most winnable
lines soonest, and with only the two narrow beams before the programmes (pagodas, jump counts) and the complete search
(depth-first and level search), which decides both kinds but proves a lost position soonest.  Measured on
French d2 -> d6 jump verdicts (25-32 pegs) the solver's own portfolio left unknown in 10 CPU s (decided by a
long solve): 4 lost ones were proved in 0.27-1.18 s instead of 2.1-3.1 s, 4 winnable ones found in 1.3-7.8 s
instead of 1.5-10 s; but 2 winnable ones the wide beams find in 0.6 s took the complete search 9 s or more,
hence both."""
PROVER_PEGS = 32
"""Above this many pegs the complete search does not finish in a never-lose budget (German e5 -> e5 at 41
pegs: no answer after 120 CPU s and 11.6 million stored positions), and the second portfolio would only halve
the wide beams' time: those positions are searched with the solver's own portfolio alone."""
PROVER_HOLES = 41
"""On boards of more holes the second portfolio does not run either: on German e5 -> e5 (45 holes) its complete search
does not finish in the budget at any peg count the positions of a game reach before the endgame table takes over, and
it only takes the wide beams' time.  Measured side by side on German e5 -> e5 (one worker, 10 CPU s a position, the
same 42 positions of 24-41 pegs): 64 jump verdicts left unknown at 24-32 pegs without it, 65 with it; on the page's
pool, where it would have a worker of its own (:func:`pyapp.web.neverpool.pool_items`), 16 positions of 24-33 pegs:
110 unknown with it, 100 with the questions split between the workers instead.  Diamond 41 (41 holes) keeps it (not
measured)."""
SHARED = True
SHARED_PEGS = 24
"""Positions of up to this many pegs run one level search for all their jumps at once (:mod:`.sharedjumps`) as one
more side of the turns, instead of the per-jump complete searches of the second portfolio.  Measured on fixed
positions of random games (10 CPU s each; CPU s per position and jump verdicts left unknown, against both
portfolios alone): French d2 -> d6 at 22-27 pegs 1.5-2.3 s instead of 2.4-6.2 s, the same verdicts; German e5 -> e5
at 19-21 pegs 3.3-6.9 s instead of 5.0-8.3 s, but at 23-25 pegs, where the shared search does not finish in the
budget, 2 to 4 more unknown jumps per position (the per-jump complete searches prove some of the losing ones); at
28-31 French pegs it only took time from the others.  So the bound was the German one; since both sides of the
level search are keyed by the symmetries that fix the start (2-3x less CPU deep in a game) it runs to 24 pegs,
beside both portfolios and weighted (:data:`REPLACES_PEGS`, :data:`BESIDE_WEIGHT`)."""
REPLACES_PEGS = 22
"""Up to this many pegs the shared search stands in for the second portfolio (it finishes in the budget there); above
it both portfolios run too (their per-jump searches prove some losing jumps the shared search does not reach)."""
TOGETHER_FROM = 1
"""The round of the turns from which the shared search runs (:func:`pyapp.analysis.turns.turns_steps`)."""
BESIDE_WEIGHT = 3.0
"""Above :data:`REPLACES_PEGS` pegs the shared search runs beside both portfolios, each round this many times as
long as the other searches of the round together (see :data:`SHARED_PEGS`)."""
LEAD_WEIGHT = 8.0
"""From the third round of the turns on, the position's own searches run this many times as long as each jump's
(:func:`pyapp.analysis.turns.turns_steps`' ``lead``): a position none of whose jumps was proved good in the first two
rounds is often lost (the game went wrong a few jumps before), and its own complete search then proves every jump
losing at once, where each jump's search would need almost as long.  Measured side by side (10 CPU s a position, the
same positions): French d2 -> d6, 15 positions of 23-31 pegs, median 1.04 -> 0.68 s, unknown jump verdicts 2 -> 2;
asymmetric d5 -> d5, 29 positions of 23-32 pegs, unknown 98 -> 93 (this count varies by about 5 from run to run:
the turns end on CPU time).  The lost positions of 25-30 pegs those games reach stay out of reach: a 25-peg one
takes the solver 13.4 CPU s (level search), a 28-peg one is undecided after 120 s."""
BEAMS_ONLY = True
"""When both portfolios run, the solver's own (the first) stops once its beams found nothing: its complete search
would only repeat the prover's, seconds behind, and take half the time the prover needs on a lost position."""
STEPS_PER_ROUND = 4
"""Each round of the turns in this many steps (:func:`pyapp.analysis.turns.turns_steps`), so that when the prover
decides a jump mid-round the wide beams of the same jump stop within a step, not at the round's end.  Measured with
:data:`BEAMS_ONLY` side by side (10 CPU s a position, the same positions): French d2 -> d6, 15 positions of 23-31
pegs, unknown jump verdicts 2 -> 0 (the two losing jumps the prover decides in 1.9 and 2.9 s of its own time),
median 0.74 -> 0.72 s, p95 10.05 -> 9.54 s; asymmetric d5 -> d5, 29 positions of 23-32 pegs, unknown 91 -> 94 (within
the run-to-run spread: its lost positions of 24-30 pegs need more than the budget, see :data:`LEAD_WEIGHT`)."""
LOST_BY_JUMPS = "every legal jump leads to a lost position"
"""Why a position is lost when its jumps, not its own search, proved it (the search then stops at once)."""


def never_lose_steps(problem: Problem, *, max_seconds: float | None = DEFAULT_HINT_SECONDS,
                     slice_seconds: float = SLICE_SECONDS,
                     budget: Budget | None = None) -> Generator[Progress, None, NeverLose]:
    """Yield the solver's progress (nodes summed over its runs) every slice; return :class:`NeverLose`.

    ``budget`` (or one of ``max_seconds``).  Toward a definite goal the position and its jumps are decided
    side by side in doubling turns (:mod:`.turns`), so the easy verdicts come first and the hard ones get
    what is left; toward the fewest pegs, the position first, then each jump on an equal share."""
    budget = budget_of(budget, max_seconds, slice_seconds=slice_seconds)
    board, start, goal = problem.board, problem.start, problem.goal
    booked = never_lose_book(board, goal, start)  # the opening of a game whose book is installed: no search
    if booked is not None:
        return booked

    def run(pos: int, part: Budget) -> Generator[Progress, None, Result]:
        gen = decide_steps(Problem(board, pos, goal), part)
        try:
            while True:
                p = next(gen)
                yield budget.progress(entries=p.entries, depth=p.depth)
        except StopIteration as stop:
            return stop.value

    build = when_to_build(problem)  # the goal's endgame table: exact on positions with few pegs
    if build == "first":
        yield from endgame_steps(board, goal, start, budget)
    known = (yield from never_lose_endgame_steps(board, goal, start, budget)) if build else None
    if known is not None:
        return known
    jumps = legal_jumps(board, start)
    classes = _classes(problem, jumps) if jumps else []
    if goal.definite and jumps:
        out = yield from _side_by_side(problem, classes, budget)
    else:
        out = yield from _one_by_one(problem, jumps, classes, budget, run)
    if out.status == "winnable" and goal.definite and not budget.over():
        yield from _funnel(problem, out, budget)
    if build == "after" and not budget.over():
        yield from endgame_steps(board, goal, start, budget)
    out.nodes = budget.nodes
    out.seconds = out.jumps.seconds = budget.elapsed()
    return out


def shares(problem: Problem) -> bool:
    """True when never-lose runs the shared level search of every jump for ``problem`` (:data:`SHARED_PEGS`)."""
    return SHARED and problem.goal.definite and problem.start.bit_count() <= SHARED_PEGS


def turns_options(problem: Problem, together: object | None, lead: bool = True) -> dict[str, Any]:
    """The options of :func:`pyapp.analysis.turns.turns_steps` with which never-lose decides a position toward a
    definite goal and the positions after its jumps (the page's pool workers decide their groups of those questions
    with the same: :mod:`pyapp.web.neverpool_shares`): the portfolios (both up to :data:`PROVER_PEGS` pegs on boards of
    at most :data:`PROVER_HOLES` holes, unless ``together``, the shared level search of every jump, stands in for the
    prover's, up to :data:`REPLACES_PEGS`), the rounds' steps, and the position's lead when ``lead`` (the position is
    the first problem)."""
    pegs = problem.start.bit_count()
    # up to REPLACES_PEGS the shared search stands in for the per-jump complete searches (the second portfolio)
    alone = together is None or pegs > REPLACES_PEGS
    prover = pegs - 1 <= PROVER_PEGS and problem.board.mask.bit_count() <= PROVER_HOLES
    portfolios = PORTFOLIOS if alone and prover else PORTFOLIOS[:1]
    return {"portfolios": portfolios, "lead": LEAD_WEIGHT if lead else 1.0, "steps_per_round": STEPS_PER_ROUND,
            "complete": (not BEAMS_ONLY, True) if len(portfolios) > 1 else None}


def _side_by_side(problem: Problem, classes: list[list[tuple[Jump, dict[int, int]]]], budget: Budget
                  ) -> Generator[Progress, None, NeverLose]:
    """A definite goal: the position and one position per class of jumps decided side by side in turns
    that double (:mod:`.turns`); the position's verdict is announced as soon as it is known (its own proof,
    a jump proved good, or every jump proved bad)."""
    board, start, goal = problem.board, problem.start, problem.goal
    out = NeverLose("unknown")
    own: list[Result] = []

    def wanted(i: int) -> bool:
        return out.status == "unknown" if i == 0 else out.status != "lost"

    def on_result(i: int, result: Result) -> None:
        if i == 0:
            own.append(result)
            if result.status == "impossible":
                out.status, out.reason = "lost", result.reason
            elif result.status == "solved":
                out.status, out.line = "winnable", list(result.jumps)
            return
        file_class(out.jumps, True, classes[i - 1], result)
        if out.status == "unknown" and out.jumps.good:  # a jump that keeps the goal reachable proves the position
            first = out.jumps.good[0]
            out.status, out.line = "winnable", [first, *out.jumps.lines[first]]
        elif out.status == "unknown" and len(out.jumps.bad) == njumps:  # so does every jump losing: stop searching
            out.status, out.reason = "lost", LOST_BY_JUMPS

    njumps = sum(len(members) for members in classes)
    problems = [problem, *(Problem(board, apply_jump(start, members[0][0]), goal) for members in classes)]
    together = shared_for(problem, max_bytes=budget.ceiling() // 2, slice_seconds=budget.slice_seconds) \
        if shares(problem) else None
    steps = turns_steps(problems, budget, wanted=wanted, on_result=on_result, **turns_options(problem, together),
                        together=together, together_from=TOGETHER_FROM,
                        together_weight=1.0 if start.bit_count() <= REPLACES_PEGS else BESIDE_WEIGHT)
    told = False
    try:
        while True:
            yield next(steps)
            if not told and out.status != "unknown":
                told = True
                yield budget.progress(note=f"{VERDICT}{out.status}")
    except StopIteration as stop:
        results = stop.value
    if out.status == "lost":
        out.jumps = Hint()  # a lost position files no jumps (every one loses, by the same proof)
    else:
        for members, result in zip(classes, results[1:]):
            if result is None:
                for jump, _ in members:
                    out.jumps.unknown.append(jump)
                    out.jumps.reasons[jump] = budget.why()
        if out.status == "unknown":
            nodes = own[0].nodes if own else budget.nodes
            out.reason = f"budget spent after {nodes:,} nodes"
        order_as(out.jumps, legal_jumps(board, start))
    if not told:
        yield budget.progress(note=f"{VERDICT}{out.status}")
    return out


def _one_by_one(problem: Problem, jumps: list[Jump], classes: list[list[tuple[Jump, dict[int, int]]]],
                budget: Budget, run: Callable[[int, Budget], Generator[Progress, None, Result]]
                ) -> Generator[Progress, None, NeverLose]:
    """The fewest-pegs goal (no jump can be judged before the fewest pegs from the position are known)
    and a position without a jump: the position first, on up to half the budget, then each class of
    jumps on an equal share of what is left."""
    start, goal = problem.start, problem.goal
    whole = yield from run(start, budget.share(2 if classes else 1))
    out = NeverLose("unknown", f"budget spent after {whole.nodes:,} nodes")
    if not jumps:
        out.status = "over"
        out.reason = None if whole.status == "solved" else "no jump is possible"
    elif whole.status == "impossible":
        out.status, out.reason = "lost", whole.reason
    elif whole.status == "solved":
        out.status, out.reason, out.line = "winnable", None, list(whole.jumps)
        if not goal.definite:
            out.jumps.best_pegs = whole.pegs_left
    yield budget.progress(note=f"{VERDICT}{out.status}")  # before the per-jump detail
    if out.status in ("winnable", "unknown") and jumps:
        if not goal.definite and out.jumps.best_pegs is None:
            # without the fewest pegs reachable from here no jump can be judged: say so, as Hint does
            out.jumps.unknown = list(jumps)
            out.jumps.reasons = {j: "the fewest pegs reachable from here is not known (budget spent)" for j in jumps}
        else:
            for n, members in enumerate(classes):
                result = yield from run(apply_jump(start, members[0][0]), budget.share(len(classes) - n))
                file_class(out.jumps, goal.definite, members, result)
            order_as(out.jumps, jumps)
        conclude(out, jumps)
    return out


def conclude(out: NeverLose, jumps: list[Jump]) -> None:
    """Settle a position its own search left unknown from its filed jumps: lost when every legal jump loses,
    winnable (the first good jump, then its line) when one keeps the goal reachable."""
    if out.status == "unknown" and len(out.jumps.bad) == len(jumps):
        out.status, out.reason = "lost", LOST_BY_JUMPS
    elif out.status == "unknown" and out.jumps.good:
        first = out.jumps.good[0]
        out.status, out.reason, out.line = "winnable", None, [first, *out.jumps.lines[first]]


def _funnel(problem: Problem, out: NeverLose, budget: Budget) -> Generator[Progress, None, None]:
    """The survival funnel off the shipped games: the solutions through each legal jump (0 for a losing one)
    by the memoised count, within :data:`FUNNEL_SECONDS` of what is left; any count that does not finish
    leaves the numbers out (the page then says "winnable" without one).  The first count is a probe
    (:data:`FUNNEL_PROBE_NODES`); the others draw on those seconds in turn, each on what the ones before left (not
    an equal share each): one count that cannot finish drops the funnel anyway, so a fixed share would only drop it
    when one count is slow and the rest are quick."""
    good = out.jumps.good
    if out.jumps.unknown or not good:
        return
    part = budget.share(1, seconds=min(FUNNEL_SECONDS, budget.remaining_seconds() or FUNNEL_SECONDS))
    through: dict[Jump, int] = dict.fromkeys(out.jumps.bad, 0)
    for n, jump in enumerate(good):
        after = Problem(problem.board, apply_jump(problem.start, jump), problem.goal)
        steps = memo_steps(after, budget=part.share(1, nodes=FUNNEL_PROBE_NODES if n == 0 else None))
        try:
            while True:  # the progress of the whole check, as the searches report it
                yield budget.progress(entries=next(steps).entries, note="counting the solutions")
        except StopIteration as stop:
            counted = stop.value
        if counted.solutions is None:
            return
        through[jump] = counted.solutions
    order = legal_jumps(problem.board, problem.start)
    out.through = {jump: through[jump] for jump in order}
    out.solutions = sum(through.values())


def never_lose(problem: Problem, *, max_seconds: float | None = DEFAULT_HINT_SECONDS) -> NeverLose:
    """Run :func:`never_lose_steps` to the end (the command line and the tests)."""
    return drive(never_lose_steps(problem, max_seconds=max_seconds))
