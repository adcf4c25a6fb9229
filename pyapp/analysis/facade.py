"""The Python API: the few entry points a notebook user needs, re-exported by :mod:`pyapp` itself.

Each takes what a person types (a board name or custom grid, hole names, position text, moves in
notation) and answers the engine's own result objects (see :mod:`pyapp` for a short session).

Nothing here is a second implementation: each function builds its input the way the command line
does (:func:`pyapp.core.request.build`) and calls the one engine function that answers it.  Budgets
are keyword-only; ``max_seconds=None`` means no time limit (use it with care on the large boards).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.board import Board
from ..core.budget import Budget, drive
from ..core.game import Replay
from ..core.game import replay as _replay
from ..core.notation import format_moves
from ..core.position import format_position, parse_position
from ..core.problem import Problem, Result
from ..core.render import render_svg
from ..core.request import board_spec, build
from ..core.spec import resolve_board
from ..exact.count import ExactCount, count_exact
from ..exact.fewest import ExactFewest, fewest_exact
from ..search.solver import solve as _solve
from .finishes import Finishes, finishes_steps
from .hint import Hint
from .hint import hint as _hint

__all__ = ["board", "count", "fewest", "finishes", "hint", "notation", "position", "position_text", "problem",
           "render_svg", "replay", "solve"]


def board(spec: str) -> Board:
    """A catalogue board by id (``english``, ``french``, ``triangle5``, ...) or a custom grid.

    >>> b = board("english")
    >>> len(b.bits), b.name_of[b.bits[0]]
    (33, 'c1')
    >>> len(board("square:ooo/o.o/ooo").bits)
    9
    """
    return resolve_board(spec).board


def problem(spec: str | Board, *, start: str | None = None, position: str | None = None,
            goal: str | None = None, target: str | None = None, moves: Sequence[str] = ()) -> Problem:
    """A problem: a board (id, custom grid or :class:`Board`), a start hole or position text, a goal
    (a hole name, ``any``, ``min``) or a target position, and moves played since the start.

    Anything left out comes from the catalogue's default problem (the English board: ``d4`` vacant,
    finish at ``d4``); a custom board's default is its grid's pegs (every hole, for a :class:`Board`) and the
    fewest pegs.  Bad input raises :class:`pyapp.PegError` (a ``ValueError``) with a message that names it.

    >>> p = problem("english", moves=["f4-d4"])
    >>> p.start.bit_count(), p.goal.text(p.board)
    (31, 'd4')
    >>> problem(board("english")).goal.text(board("english")), problem(board("square:ooo/o.o/ooo")).start.bit_count()
    ('d4', 9)
    >>> problem("english", start="z9")
    Traceback (most recent call last):
      ...
    pyapp.core.errors.HoleError: no hole 'z9' on board 'english' (holes are named like c1, d1, e1, ...)
    """
    if isinstance(spec, Board):  # the spec that recreates it: its catalogue id, or its grid with every hole pegged
        spec = board_spec(spec, spec.full())
    return build(spec, start=start, position=position, goal=goal, target=target, moves=list(moves)).problem


def position(b: Board, text: str) -> int:
    """Position text (``o`` peg, ``.`` empty, rows on lines or separated by ``/``) as the engine's int.

    >>> b = board("triangle5")
    >>> position(b, "./oo/ooo/oooo/ooooo").bit_count()
    14
    """
    return parse_position(b, text)


def position_text(b: Board, pos: int) -> str:
    """The canonical text of a position, one line per row.

    >>> print(position_text(board("square:ooo/o.o/ooo"), 0b101))
    o.o
    ...
    ...
    """
    return format_position(b, pos)


def solve(p: Problem, *, max_seconds: float | None = 30.0, max_nodes: int | None = None,
          seed: int | None = None) -> Result:
    """Solve ``p``: ``solved`` (with ``jumps``), ``impossible`` (``reason`` names the proof) or ``unknown``.

    >>> r = solve(problem("english", start="d4", goal="d4"))
    >>> r.status, len(r.jumps)
    ('solved', 31)
    >>> solve(problem("english", start="d4", goal="c1")).reason
    'position class: the start and the goal are in different position classes (rule of three)'
    """
    return _solve(p, max_seconds=max_seconds, max_nodes=max_nodes, seed=seed)


def notation(b: Board, jumps: Sequence[tuple[int, int, int]]) -> list[str]:
    """Jumps (as in :attr:`Result.jumps`) in standard notation, a chain of jumps by one peg as one move.

    >>> p = problem("triangle5", start="1", goal="any")
    >>> notation(p.board, solve(p).jumps)[0]
    '6-1'
    """
    return format_moves(b, list(jumps))


def replay(b: Board, start: int, moves: Sequence[str]) -> Replay:
    """Replay moves in notation from ``start``: ``valid``, the first ``error``, the ``final`` position.

    >>> b = board("english")
    >>> r = replay(b, b.start("d4"), ["f4-d4", "e6-e4"])
    >>> r.valid, r.moves, r.final.bit_count()
    (True, 2, 30)
    >>> replay(b, b.start("d4"), ["d4-f4"]).error
    'move 1 (d4-f4): jump d4-f4 is illegal: no peg on d4'
    """
    return _replay(b, start, list(moves))


def hint(p: Problem, *, max_seconds: float | None = 10.0) -> Hint:
    """The legal jumps from ``p.start`` sorted into those that keep the goal reachable (``good``, each with
    a line in ``lines``), those that lose it (``bad``, with ``reasons``) and ``unknown`` (budget spent).

    >>> h = hint(problem("english"))
    >>> len(h.good), len(h.bad), len(h.unknown)
    (4, 0, 0)
    """
    return _hint(p, max_seconds=max_seconds)


def finishes(p: Problem, *, max_seconds: float | None = 30.0) -> Finishes:
    """Every hole where one last peg can finish from ``p.start`` (``possible``, each with a solution),
    cannot (``impossible``, with the reason) or is undecided (``unknown``), keyed by hole bit.

    >>> p = problem("triangle5", start="1")
    >>> f = finishes(p)
    >>> sorted(p.board.name_of[h] for h in f.possible), len(f.impossible), len(f.unknown)
    (['1', '10', '13', '7'], 11, 0)
    """
    return drive(finishes_steps(p.board, p.start, budget=Budget(max_seconds)))


def count(p: Problem, *, max_seconds: float | None = 900.0) -> ExactCount:
    """The exact number of jump sequences that solve ``p`` (level sweeps, in this process).

    >>> count(problem("triangle5", start="1", goal="any")).solutions
    29760
    """
    return count_exact(p, Budget(max_seconds))


def fewest(p: Problem, *, max_seconds: float | None = 900.0) -> ExactFewest:
    """A solution of ``p`` with the fewest moves, proven minimal (``status`` ``solved``), or why not.

    >>> f = fewest(problem("triangle5", start="1", goal="any"))
    >>> f.status, f.moves
    ('solved', 10)
    """
    return fewest_exact(p, Budget(max_seconds))

