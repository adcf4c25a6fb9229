"""Never lose from a computed winnable set: every answer in one lookup, no search.

Once the exact analyses (:mod:`pyapp.exact.winnable`, computed by "Fewest moves" and
``count --levels``) hold the set of positions of a game that can still win, the never-lose
questions need no solver at all (issue 10, "reuse for play"): a position reached from that
game's start by legal jumps can still reach the goal exactly when it is in the set, and a
jump loses exactly when the position after it is not.  A line to the goal is read off the
set too: from a winnable position some jump always leads to another winnable one.

The set only speaks for positions reachable from the start it was computed for, so the
caller passes the positions of the game so far (its start, then one after each jump): a set
computed from any of them (the page runs "Fewest moves" from the current position) answers
for every position played after it.  A set of a symmetric image of the game answers too (a
shipped d1 -> d1 set answers a4 -> a4): the game is mapped onto the image by the board's
symmetry, asked there, and the jumps of the answer mapped back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Sequence

from ..core.board import Board
from ..core.budget import Budget, Progress
from ..core.goal import Goal
from ..core.moves import Jump, apply_jump, legal_jumps
from ..core.problem import Problem
from ..exact.endgame import Overrun, endgame_for
from ..exact.openingbook import book_for
from ..exact.overtable import OverTable
from ..exact.partial import PartialWinnable
from ..exact.ways import ways_of
from ..exact.winnable import Winnable, cached, line_from
from .hint import Hint
from .neverlose_result import VERDICT, NeverLose
from .proven import ENDGAME, settle_on_time


def winnable_for(board: Board, goal: Goal, history: Sequence[int]) -> Winnable | None:
    """A winnable set computed in this process from one of the ``history`` positions (the game's
    positions in order, the current one last) towards ``goal``, or None."""
    if not goal.definite:
        return None
    for pos in history:
        win = cached(Problem(board, pos, goal))
        if win is not None:
            return win
    return None


def symmetric_image(board: Board, goal: Goal, history: Sequence[int]) -> tuple[int, Goal, list[int]] | None:
    """``(g, goal, history)`` mapped by the first symmetry ``g`` of the board for which a set is computed or
    loaded (:func:`winnable_for`), or None."""
    for g in range(1, len(board.symmetries)):
        image_goal = Goal(goal.kind, board.transform(goal.target, g)) if goal.target else goal
        image = [board.transform(pos, g) for pos in history]
        if winnable_for(board, image_goal, image) is not None:
            return g, image_goal, image
    return None


def _back(board: Board, g: int) -> Callable[[Jump], Jump]:
    inverse = {image: bit for bit, image in board.permutation(g).items()}
    return lambda jump: (inverse[jump[0]], inverse[jump[1]], inverse[jump[2]])


def _map_hint(hint: Hint, back: Callable[[Jump], Jump]) -> Hint:
    out = Hint(good=[back(j) for j in hint.good], bad=[back(j) for j in hint.bad],
               unknown=[back(j) for j in hint.unknown], best_pegs=hint.best_pegs, seconds=hint.seconds)
    out.lines = {back(j): [back(k) for k in line] for j, line in hint.lines.items()}
    out.reasons = {back(j): why for j, why in hint.reasons.items()}
    return out


def file_jumps(win: Winnable, position: int, jumps: Sequence[Jump], proof: str = "exact analysis",
               lines: int | None = None, partial: bool = False) -> Hint:
    """``jumps`` from ``position`` filed as good (with a line to the goal) or bad (the goal cannot be reached
    after it), each by one lookup in ``win`` (``proof`` starts the reason of a bad one).  ``lines``: how many of
    the good jumps, the first ones, get a line (None: all).  A line is lookups in most sets, but table searches in
    one held over the goal's endgame table (:class:`~pyapp.exact.overtable.OverTable`), whose callers ask for one
    line or none (:func:`exact_lines`).  ``partial``: from such a set, only what its table has settled is read (no
    search), and a jump it has not settled is filed unknown, saying why."""
    hint = Hint()
    for jump in jumps:
        after = apply_jump(position, jump)
        wins = win.settled(after) if partial and isinstance(win, OverTable) else win.can_win(after)
        if wins is None:
            hint.unknown.append(jump)
            hint.reasons[jump] = ("not decided in time: the goal's endgame table's search for it was stopped by the "
                                  "check's budget")
            continue
        if wins:
            hint.good.append(jump)
            if lines is None or len(hint.lines) < lines:
                hint.lines[jump] = line_from(win, after)
        else:
            hint.bad.append(jump)
            hint.reasons[jump] = f"{proof}: the goal cannot be reached after it ({win.why_not(after)})"
    return hint


def exact_lines(win: Winnable, line: bool) -> int | None:
    """How many good jumps :func:`file_jumps` gives a line from ``win``: all (None) where lines are lookups; from a
    set over the goal's endgame table (:class:`~pyapp.exact.overtable.OverTable`), whose lines cost table searches
    from 22 pegs on French, the first good jump's when ``line`` asks for the answer's line
    (:meth:`~pyapp.exact.overtable.OverTable.settle_steps` settles it), else none."""
    return (1 if line else 0) if isinstance(win, OverTable) else None


def never_lose_book(board: Board, goal: Goal, position: int) -> NeverLose | None:
    """The never-lose answer for ``position`` from the installed opening book toward ``goal``
    (:mod:`pyapp.exact.openingbook`) when it decides the position and, unless it is lost (a lost position files no
    jump: a book's level under the winnable classes holds no child of a lost one), every position after its jumps;
    else None."""
    book = book_for(board, goal)
    if book is None or position.bit_count() <= book.deepest:  # its jumps' positions would be below the book
        return None
    t0 = time.perf_counter()
    own = book.answer(position)
    if own is None:
        return None
    jumps = legal_jumps(board, position)
    verdicts = {jump: book.answer(apply_jump(position, jump)) for jump in jumps} if own.won else {}
    if None in verdicts.values():
        return None
    hint = Hint()
    for jump, verdict in verdicts.items():
        assert verdict is not None
        if verdict.won:
            hint.good.append(jump)
            hint.lines[jump] = list(verdict.line)
        else:
            hint.bad.append(jump)
            hint.reasons[jump] = verdict.why
    if not jumps:
        out = NeverLose("over", None if goal.reached(position) else "no jump is possible")
    elif own.won:
        out = NeverLose("winnable", jumps=hint, line=list(own.line))
    else:  # as every lost answer: the position's proof, no jump filed
        out = NeverLose("lost", own.why)
    out.answered = book.answered()
    out.seconds = out.jumps.seconds = time.perf_counter() - t0
    return out


def never_lose_endgame_steps(board: Board, goal: Goal, position: int, budget: Budget
                             ) -> Generator[Progress, None, NeverLose | None]:
    """:func:`never_lose_endgame`, the table's search first run in chunks on its share of ``budget``
    (:func:`pyapp.analysis.proven.settle_on_time`: yielding progress, stopped by cancel) and on at most the table's
    limit of classes per jump."""
    table = endgame_for(board, goal, position)
    if table is None or position.bit_count() > table.ceiling + 1:
        return None
    afters = [apply_jump(position, jump) for jump in legal_jumps(board, position)]
    if not (yield from settle_on_time(table, afters, budget, table.limit * max(1, len(afters)), floor=0.1)):
        return None
    return never_lose_endgame(board, goal, position, settled=True)


def never_lose_endgame(board: Board, goal: Goal, position: int, settled: bool = False) -> NeverLose | None:
    """The never-lose answer for ``position`` from the endgame table of ``goal`` (:mod:`pyapp.exact.endgame`),
    when one is built and answers every jump after it within its limits; else None (the caller searches).
    The table holds for any position, reachable from a start or posed; ``settled``: its jumps' positions were just
    settled (:meth:`Endgame.settle_steps`), so their verdicts are read from the memo even when it is full."""
    table = endgame_for(board, goal, position)
    if table is None or position.bit_count() > table.ceiling + 1:
        return None
    t0 = time.perf_counter()
    jumps = legal_jumps(board, position)
    table.question(keep=settled)
    try:
        if not jumps:
            out = NeverLose("over", None if goal.reached(position) else "no jump is possible")
        else:
            hint = file_jumps(table, position, jumps, ENDGAME)
            if hint.good:
                out = NeverLose("winnable", jumps=hint)
                out.line = [hint.good[0], *hint.lines[hint.good[0]]]
            else:
                out = NeverLose("lost", f"{ENDGAME}: every legal jump leads to a position that cannot reach the "
                                        f"goal ({table.why_not(apply_jump(position, jumps[0]))})")
    except Overrun:
        return None
    out.answered = table.answered(position)
    out.seconds = out.jumps.seconds = time.perf_counter() - t0
    return out


def hint_exact(board: Board, goal: Goal, history: Sequence[int]) -> Hint | None:
    """Hint for the last of ``history`` from a computed or shipped winnable set (every legal jump filed by
    lookup, no search), or None when none speaks for this game.  The page's Hint shows no lines: a set over the
    goal's endgame table gives none (:func:`exact_lines`), so ask :func:`prepare_steps` with ``line`` False."""
    win = winnable_for(board, goal, history)
    if win is None:
        image = symmetric_image(board, goal, history)
        found = None if image is None else hint_exact(board, image[1], image[2])
        return None if found is None or image is None else _map_hint(found, _back(board, image[0]))
    t0 = time.perf_counter()
    try:
        hint = file_jumps(win, history[-1], legal_jumps(board, history[-1]), lines=exact_lines(win, False))
    except Overrun:  # a set over the goal's endgame table, which cannot say (not loaded, or past its limit)
        return None
    hint.seconds = time.perf_counter() - t0
    return hint


def prepare_steps(board: Board, goal: Goal, history: Sequence[int], max_seconds: float | None = None,
                  line: bool = True) -> Generator[Progress, None, bool]:
    """Make, in pauses, what the set that is about to answer the last of ``history`` needs beyond lookups, and say
    whether :func:`never_lose_exact` and :func:`hint_exact` may then answer from it (False: ask the search).

    A partial set whose search answers the position or its jumps (:class:`~pyapp.exact.partial.PartialWinnable`)
    makes that search's filter (:meth:`~pyapp.exact.partial.PartialWinnable.subtree_steps`): its first search would
    otherwise build it in one go, 0.9-1.2 s in Pyodide for English c1 and c3, during which a web worker takes no
    message (a cancel waits).  A set over the goal's endgame table (:class:`~pyapp.exact.overtable.OverTable`)
    settles the table's searches its answer reads (:meth:`~pyapp.exact.overtable.OverTable.settle_steps`, the
    answer's line only when ``line`` asks for it), within ``max_seconds``: False when they do not end in time or
    the table is not loaded."""
    win = winnable_for(board, goal, history) if history else None
    position = history[-1] if history else 0
    if win is None and history:
        image = symmetric_image(board, goal, history)
        win = None if image is None else winnable_for(board, image[1], image[2])
        position = image[2][-1] if image is not None else position
    if isinstance(win, OverTable):
        budget = Budget(max_seconds)
        own = win.settled(position) if legal_jumps(board, position) else None
        if own is not None:  # a lookup: the position's status shows while its jumps settle (at the floor)
            yield budget.progress(note=f"{VERDICT}{'winnable' if own else 'lost'}")
        return (yield from win.settle_steps(position, budget, line))
    if not isinstance(win, PartialWinnable) or win.search_ready:
        return True
    pegs = position.bit_count()
    if "search" in (win.via(pegs), win.via(pegs - 1)):
        t0 = time.perf_counter()
        for _ in win.subtree_steps():
            yield Progress(0, 0, time.perf_counter() - t0, 0, "preparing the exact set's search")
    return True


SEARCH_FLOOR = 0.1
"""The fewest seconds a never-lose search is given after :func:`prepare_steps` (what is left of the check, or this)."""


def never_lose_prepared(board: Board, goal: Goal, history: Sequence[int], ready: bool, max_seconds: float | None,
                        since: float, line: bool = True) -> NeverLose | None:
    """:func:`never_lose_exact` after :func:`prepare_steps` (begun at ``perf_counter`` time ``since``) said ``ready``;
    when it did not and the check's ``max_seconds`` are spent but :data:`SEARCH_FLOOR` (settling a set over the
    goal's table, at its floor: French d2 -> d6's 24 pegs, where each jump is a table search from 23 pegs), the answer
    from what it settled, the others unknown, rather than a search with no time left; else None (the caller
    searches)."""
    spent = max_seconds is not None and time.perf_counter() - since >= max_seconds - SEARCH_FLOOR
    if not history or not (ready or spent):
        return None
    return never_lose_exact(board, goal, history, line, partial=not ready)


def never_lose_exact(board: Board, goal: Goal, history: Sequence[int], line: bool = True,
                     partial: bool = False) -> NeverLose | None:
    """The never-lose answer for the last of ``history`` (the game's positions, each one jump
    after the one before) from a computed winnable set, or None when none was computed for
    this game.  ``line`` False: a set whose lines cost searches gives none (:func:`exact_lines`; the answer's
    ``line`` is then empty); ``partial``: jumps it cannot decide are filed unknown (:func:`file_jumps`)."""
    win = winnable_for(board, goal, history)
    if win is None:
        image = symmetric_image(board, goal, history)
        found = None if image is None else never_lose_exact(board, image[1], image[2], line, partial)
        if found is None or image is None:
            return None
        back = _back(board, image[0])
        found.line = [back(j) for j in found.line]
        found.jumps = _map_hint(found.jumps, back)
        found.through = {back(j): n for j, n in found.through.items()}
        return found
    try:
        return _from_set(win, board, goal, history, line, partial)
    except Overrun:  # a set over the goal's endgame table, which cannot say (not loaded, or past its limit)
        return None


def _verdict(win: Winnable, pos: int, partial: bool) -> bool:
    """Whether ``pos`` can still win, from ``win``; ``partial``: without a search (:meth:`OverTable.settled`),
    :class:`Overrun` when that cannot say."""
    if not (partial and isinstance(win, OverTable)):
        return win.can_win(pos)
    wins = win.settled(pos)
    if wins is None:
        raise Overrun("the goal's endgame table has not settled this position")
    return wins


def _from_set(win: Winnable, board: Board, goal: Goal, history: Sequence[int], line: bool,
              partial: bool) -> NeverLose:
    """:func:`never_lose_exact` from the set ``win`` of this game."""
    t0 = time.perf_counter()
    position = history[-1]
    jumps = legal_jumps(board, position)
    if not jumps:
        reached = goal.reached(position)
        out = NeverLose("over", None if reached else "no jump is possible")
    elif not _verdict(win, position, partial):
        out = NeverLose("lost", f"exact analysis: this position cannot reach the goal ({win.why_not(position)})")
    else:
        out = NeverLose("winnable")
        # a partial answer reads what was settled and searches nothing, so it gives no line
        out.jumps = file_jumps(win, position, jumps, lines=0 if partial else exact_lines(win, line), partial=partial)
        first = out.jumps.good[0] if out.jumps.good else None
        out.line = [first, *out.jumps.lines[first]] if first in out.jumps.lines else []
    if win.ways is not None:  # the survival funnel: lookups too
        ways = win.ways
        out.solutions = ways_of(win, ways, position)
        out.through = {jump: ways_of(win, ways, apply_jump(position, jump)) for jump in jumps}
        # the set speaks for the positions from the one it was computed for on (earlier ones: not known)
        since = history.index(win.problem.start) if win.problem.start in history else len(history) - 1
        unknown: list[int | None] = [None] * since
        out.history = unknown + [ways_of(win, ways, pos) for pos in history[since:]]
    out.answered = win.answered(position)
    out.seconds = out.jumps.seconds = time.perf_counter() - t0
    return out
