"""Goals: what counts as finished, and everything the engine asks about it.

A :class:`Goal` is one of a few *kinds*:

* ``hole``: one peg, on a given hole (``target`` is that hole's bit);
* ``any``: one peg, anywhere;
* ``target``: an exact final position (``target`` is that position);
* ``min``: as few pegs as possible (no definite end: the answer is the fewest reached).

Every other module asks the goal (:meth:`Goal.reached`, :meth:`Goal.obstacle`,
:meth:`Goal.symmetries`, :meth:`Goal.pagoda_targets`, :meth:`Goal.text`, ...) instead of
testing its kind.  Each kind's behaviour is one :class:`Kind` object in :data:`KINDS`:
adding a kind means writing one more subclass here and registering it (plus, if the
searches should specialise on it, their own code); nothing else outside changes.

>>> from pyapp.core.catalogue import get_board
>>> b = get_board("english")
>>> g = Goal.parse(b, "d4")
>>> g.text(b), g.describe(b), g.final_pegs
('d4', 'one peg at d4', 1)
>>> g.reached(1 << b.hole("d4")), g.reached(1 << b.hole("d3"))
(True, False)
>>> Goal.parse(b, "any").obstacle(b, b.start("d4")) is None
True
>>> len(Goal.parse(b, "min").symmetries(b)), len(g.symmetries(b))
(8, 8)
>>> Goal.parse(b, "target:" + "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo").final_pegs
32
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import ClassVar, Literal

from .board import Board
from .errors import PegError
from .limits import MAX_GOAL_CHARS, check_text
from .position import format_position, parse_position
from .wording import plural

GoalKind = Literal["hole", "any", "target", "min"]

CLASS_CLASH = "position class: the start and the goal are in different position classes (rule of three)"
NO_SINGLE_IN_CLASS = "position class: no single-peg position is in the start's class (rule of three)"


def stabilizer(board: Board, fixed: int) -> tuple[int, ...]:
    """Indices of the board symmetries that map the peg set ``fixed`` onto itself."""
    return tuple(i for i in range(len(board.symmetries)) if board.transform(fixed, i) == fixed)


def singles_in_class(board: Board, start: int) -> list[int]:
    """The one-peg positions in the start's position class (the only one-peg ends it can reach)."""
    cls = board.position_class(start)
    return [1 << b for b in board.bits if board.position_class(1 << b) == cls]


def fewest_in_class(board: Board, start: int) -> int:
    """The fewest pegs any position in the start's class has (1, 2, 3, or 4 meaning 'more').

    A lower bound on the pegs left by any game from ``start`` (Conway's rule of three).
    """
    cls = board.position_class(start)
    for k in (1, 2, 3):
        if k > start.bit_count():
            return start.bit_count()
        for combo in combinations(board.bits, k):
            if board.position_class(sum(1 << b for b in combo)) == cls:
                return k
    return 4


class Kind:
    """The behaviour of one kind of goal; :class:`Goal` delegates to the kind it names.

    The defaults here are those of 'one peg anywhere' (:class:`_Any` adds only its names); a new
    kind overrides what differs and is registered in :data:`KINDS`.  The searches specialise on
    :attr:`Goal.exact` (one wanted final position) and :attr:`Goal.final_pegs` only.
    """

    name: ClassVar[str]
    definite: ClassVar[bool] = True
    """True when a finished position has a fixed number of pegs (every kind but ``min``)."""
    label: ClassVar[str] = ""
    """A short name of the goal for tables (the hole kind overrides :meth:`short`)."""
    argument: ClassVar[bool] = False
    """True when the goal needs a position (``hole``, ``target``); the others are read by name."""
    badge: ClassVar[str] = ""
    """One word for a counter on the page (the hole kind overrides :meth:`word`)."""

    def final_pegs(self, goal: Goal) -> int | None:
        return 1

    def exact(self, goal: Goal) -> int | None:
        return None

    def reached(self, goal: Goal, pos: int) -> bool:
        return pos.bit_count() == 1

    def ends(self, goal: Goal, board: Board, start: int) -> list[int]:
        return singles_in_class(board, start)

    def obstacle(self, goal: Goal, board: Board, start: int) -> str | None:
        return None if singles_in_class(board, start) else NO_SINGLE_IN_CLASS

    def symmetries(self, goal: Goal, board: Board) -> tuple[int, ...]:
        return tuple(range(len(board.symmetries)))

    def must_move(self, goal: Goal, pegs: int) -> int:
        return max(pegs.bit_count() - 1, 0)

    def text(self, goal: Goal, board: Board) -> str:
        return self.name

    def short(self, goal: Goal, board: Board) -> str:
        return self.label

    def describe(self, goal: Goal, board: Board) -> str:
        return "one peg anywhere"

    def hole_name(self, goal: Goal, board: Board) -> str | None:
        return None

    def word(self, goal: Goal, board: Board) -> str:
        return self.badge


class _Any(Kind):
    """One peg, anywhere."""

    name = "any"
    label = "one peg"
    badge = "any"


class _Exact(Kind):
    """A definite final position: ``goal.target``."""

    argument = True

    def final_pegs(self, goal: Goal) -> int | None:
        return goal.target.bit_count()

    def exact(self, goal: Goal) -> int | None:
        return goal.target

    def reached(self, goal: Goal, pos: int) -> bool:
        return pos == goal.target

    def ends(self, goal: Goal, board: Board, start: int) -> list[int]:
        return [goal.target]

    def obstacle(self, goal: Goal, board: Board, start: int) -> str | None:
        return CLASS_CLASH if board.position_class(start) != board.position_class(goal.target) else None

    def symmetries(self, goal: Goal, board: Board) -> tuple[int, ...]:
        return stabilizer(board, goal.target)

    def must_move(self, goal: Goal, pegs: int) -> int:
        return (pegs & ~goal.target).bit_count()


class _Hole(_Exact):
    """One peg, on the hole ``goal.target``."""

    name = "hole"

    def text(self, goal: Goal, board: Board) -> str:
        return board.name_of[goal.target.bit_length() - 1]

    short = hole_name = word = text

    def describe(self, goal: Goal, board: Board) -> str:
        return f"one peg at {self.text(goal, board)}"


class _Target(_Exact):
    """An exact target position."""

    name = "target"
    label = "target"
    badge = "target"

    def text(self, goal: Goal, board: Board) -> str:
        # without alignment spaces (parse_position gives a row's symbols to its holes in order): short links
        return "target:" + "/".join(row.replace(" ", "") for row in format_position(board, goal.target).split("\n"))

    def describe(self, goal: Goal, board: Board) -> str:
        return f"the target position ({plural(goal.target.bit_count(), 'peg')})"


class _Min(Kind):
    """As few pegs as possible: no definite end, never 'reached' (callers compare peg counts)."""

    name = "min"
    definite = False
    label = "fewest pegs"
    badge = "fewest"

    def final_pegs(self, goal: Goal) -> int | None:
        return None

    def reached(self, goal: Goal, pos: int) -> bool:
        return False

    def ends(self, goal: Goal, board: Board, start: int) -> list[int]:
        # the best hope is the class's lower bound: its one-peg ends when that bound is one peg
        return singles_in_class(board, start) if fewest_in_class(board, start) == 1 else []

    def obstacle(self, goal: Goal, board: Board, start: int) -> str | None:
        return None

    def must_move(self, goal: Goal, pegs: int) -> int:
        return 0

    def describe(self, goal: Goal, board: Board) -> str:
        return "as few pegs as possible"


KINDS: dict[str, Kind] = {k.name: k for k in (_Hole(), _Any(), _Target(), _Min())}
"""Every goal kind by name.  :meth:`Goal.parse` reads kinds that need no argument by name."""


@dataclass(frozen=True)
class Goal:
    """What counts as finished: a kind (see :data:`KINDS`) and its position argument."""

    kind: GoalKind
    target: int = 0
    """The peg bits wanted at the end: one bit for ``hole``, a position for ``target``, else 0."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise PegError(f"unknown goal kind {self.kind!r}: expected one of {', '.join(KINDS)}")

    @property
    def _kind(self) -> Kind:
        return KINDS[self.kind]

    # ------------------------------------------------------------ reading and writing
    @staticmethod
    def parse(board: Board, text: str | None, default: str = "any") -> Goal:
        """Read a goal: a hole name, a kind's name (``any``, ``min``), or ``target:`` and position text."""
        value = check_text(text if text is not None else default, "goal", MAX_GOAL_CHARS).strip()
        head, sep, rest = value.partition(":")
        if sep and head.lower() == "target":
            return Goal("target", parse_position(board, rest))
        kind = KINDS.get(value.lower())
        if kind is not None and not kind.argument:
            return Goal(kind.name)  # type: ignore[arg-type]
        return Goal("hole", 1 << board.hole(value))

    def text(self, board: Board) -> str:
        """The goal as :meth:`parse` reads it (``d4``, ``any``, ``min``, ``target:ooo/...``)."""
        return self._kind.text(self, board)

    def short(self, board: Board) -> str:
        """A short name for tables: the hole's name, 'one peg', 'fewest pegs' or 'target'."""
        return self._kind.short(self, board)

    def describe(self, board: Board) -> str:
        """The goal in words: 'one peg at d4', 'one peg anywhere', ..."""
        return self._kind.describe(self, board)

    def hole_name(self, board: Board) -> str | None:
        """The goal hole's name when the goal is one peg on a given hole, else None."""
        return self._kind.hole_name(self, board)

    def word(self, board: Board) -> str:
        """One word for a counter: the hole's name, 'any', 'fewest' or 'target'."""
        return self._kind.word(self, board)

    # ------------------------------------------------------------ what the engine asks
    @property
    def definite(self) -> bool:
        """True when a finished position has a fixed number of pegs (every goal but 'as few as possible')."""
        return self._kind.definite

    @property
    def final_pegs(self) -> int | None:
        """Pegs left when this goal is met (None for ``min``)."""
        return self._kind.final_pegs(self)

    @property
    def exact(self) -> int | None:
        """The one position that meets the goal, when there is exactly one (``hole``, ``target``)."""
        return self._kind.exact(self)

    def reached(self, pos: int) -> bool:
        """True when ``pos`` meets the goal (never for ``min``, which has no definite end)."""
        return self._kind.reached(self, pos)

    def obstacle(self, board: Board, start: int) -> str | None:
        """Why the position class (Conway's rule of three) rules the goal out from ``start``, or None."""
        return self._kind.obstacle(self, board, start)

    def symmetries(self, board: Board) -> tuple[int, ...]:
        """Indices of the board symmetries that leave the goal unchanged (all of them for any/min)."""
        return self._kind.symmetries(self, board)

    def pagoda_targets(self, board: Board, start: int) -> list[int]:
        """The final positions a pagoda function must value (those the start's class allows).

        For ``min``: the one-peg positions when the class allows one peg, else none.
        """
        return self._kind.ends(self, board, start)

    def pegs_at_best(self, board: Board, start: int) -> int:
        """Pegs in a finished position: the goal's own count, or for ``min`` the class's lower bound."""
        final = self.final_pegs
        return fewest_in_class(board, start) if final is None else final

    def must_move(self, pegs: int) -> int:
        """At least how many of the pegs in ``pegs`` must leave their holes before the goal is met
        (for ``any``: all but one, which may be the survivor; for ``min``: none)."""
        return self._kind.must_move(self, pegs)


def parse_goal(board: Board, text: str | None, default: str = "any") -> Goal:
    """:meth:`Goal.parse` as a function."""
    return Goal.parse(board, text, default)
