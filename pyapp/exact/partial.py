"""Winnable sets held only from some level up (and, for some games, from a low level down), exact on every level.

For a game whose goal is the complement of its start (an own-hole game: the start is the full board but the
hole ``v``, the goal one peg at ``v``), the winnable set is closed under complement: a jump ``a -> c`` over
``b`` read on the complements is the jump ``c -> a`` over ``b``, so ``S ->* p ->* G`` exactly when
``comp(G) ->* comp(p) ->* comp(S)``, and ``comp(S) = G``, ``comp(G) = S``.  The keys are canonical under the
symmetries fixing the goal (which, here, are those fixing the start), and complementing commutes with every
symmetry of the board, so a class is winnable exactly when the class of its complement is.

So such a game ships only the levels with at least ``K`` pegs (:class:`PartialWinnable`, made by
:func:`partial`; the files are :func:`pyapp.exact.store.encode_partial`'s): a position with at most
``n - K`` pegs (``n`` holes) is answered by looking up its complement, and one with between ``n - K + 1``
and ``K - 1`` pegs by an exhaustive search of the positions it leads to, down to the first level the
complement answers: a position reached in play is reachable from the start, so it can still win exactly when
one of its descendants with ``n - K`` pegs can.  The search keeps its verdicts per canonical key (each class
of a level searched once, and one search shared by every jump of a position and by the line to the goal), so
every answer stays exact: never a guess, and no budget to run out of.

A game whose set is not closed under complement (triangle 7, 4 -> one peg anywhere) holds the low levels
themselves instead: the levels with at least ``K`` pegs and those with at most ``L`` (:attr:`PartialWinnable.upto`;
the middle levels, the widest, are left out), and a position between is answered by the same search, down to
the positions with ``L`` pegs it leads to, each one lookup: a reachable position can still win exactly when one
of them is in the set.
"""

from __future__ import annotations

from array import array
from collections.abc import Generator
from dataclasses import dataclass, field

from ..core.budget import drive
from ..core.problem import Problem
from .pagoda_prune import PackedPagodas
from .subtree import Subtree, filter_steps
from .winnable import Winnable, member

MEMO_ENTRIES = 1 << 20
"""Verdicts of searched classes kept between questions (about 80 MB): a cache of exact answers, cleared when
full, so a long session never grows it further; a cleared verdict is searched again."""


def complement_closed(problem: Problem) -> str | None:
    """Why ``problem``'s winnable set is not closed under complement, or None when it is (the goal is the
    complement of the start: one peg on the start's hole, for a single-vacancy start)."""
    board, goal = problem.board, problem.goal
    if goal.kind not in ("hole", "target") or not goal.target:
        return "the goal is not a given position"
    if problem.start != board.mask ^ goal.target:
        return "the goal is not the complement of the start (not an own-hole game)"
    return None


@dataclass
class PartialWinnable(Winnable):
    """The levels of a winnable set with at least :attr:`floor` pegs (and, when :attr:`upto` is set, those with
    at most :attr:`upto`); every other position answered exactly, through its complement or the held low
    levels, or by the search down to them (see the module docstring).
    :meth:`can_win` answers as the whole set would for every position reachable from the start."""

    floor: int = 0
    """The fewest pegs of a held high level (``K``)."""
    upto: int = 0
    """The most pegs of a held low level (``L``), or 0 when the complements answer the low levels."""
    memo: dict[int, bool] = field(default_factory=dict, repr=False)
    _subtree: Subtree | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        why = None if self.upto else complement_closed(self.problem)
        if why is not None:
            raise ValueError(f"a partial winnable set needs a set closed under complement: {why}")
        self._prepare()

    def _prepare(self) -> None:
        """The board's size, for the search."""
        board = self.problem.board
        self._holes = len(board)
        self._mask = board.mask

    @property
    def whole(self) -> bool:
        return False

    @property
    def searched(self) -> int:
        """Classes the search between the held levels and their complements has visited (a measure of its cost)."""
        return 0 if self._subtree is None else self._subtree.searched

    @property
    def low(self) -> int:
        """The most pegs a position answered without the search can have below the floor: ``L`` when the
        low levels are held, else ``n - K`` (the complements answer)."""
        return self.upto or self._holes - self.floor

    def via(self, pegs: int) -> str:
        """How a position with ``pegs`` pegs is answered: ``lookup``, ``complement`` or ``search``."""
        if pegs >= self.floor or self.upto and pegs <= self.upto:
            return "lookup"
        return "complement" if pegs <= self.low else "search"

    def can_win(self, pos: int) -> bool:
        pegs = pos.bit_count()
        if pegs >= self.floor:
            return super().can_win(pos)
        if pegs <= self.low:
            return self._below(pos, pegs)
        if len(self.memo) >= MEMO_ENTRIES:
            self.memo.clear()
        return self._search(pos, pegs)

    def known(self, pos: int) -> bool:
        return self.memo.get(self.codec.canon(pos)) is True

    def _below(self, pos: int, pegs: int) -> bool:
        """The verdict of ``pos`` (``pegs`` pegs, at most :attr:`low`): a lookup of it, or of its complement."""
        if self.upto:
            return super().can_win(pos)
        keys = self.levels.get(self._holes - pegs)
        return keys is not None and member(keys, self.codec.canon(self._mask ^ pos))

    def _search(self, pos: int, pegs: int) -> bool:
        """Can ``pos`` (``pegs`` pegs, between the low levels and the held high ones) reach a winnable position
        with :attr:`low` pegs?  The compiled search of :mod:`.subtree`, its verdicts kept in :attr:`memo`."""
        return self.subtree().search(pos, pegs)

    def subtree(self) -> Subtree:
        """The compiled search down to the level :attr:`low` (made at the first search: the levels are set after
        the set is made)."""
        return drive(self.subtree_steps())

    @property
    def search_ready(self) -> bool:
        """Whether the search down to :attr:`low` is made (its filter is built at its first search otherwise)."""
        return self._subtree is not None

    def subtree_steps(self) -> Generator[None, None, Subtree]:
        """:meth:`subtree`, pausing while it builds the search's filter (:func:`~.subtree.filter_steps`): the web
        worker makes it while it loads the file, in steps, instead of at its first search, in one go."""
        if self._subtree is None:
            low = self.low
            keys = self.levels.get(low if self.upto else self._holes - low)
            if keys is None:
                keys = array("Q")
            filt = yield from filter_steps(keys)
            self._subtree = Subtree(self.codec, keys, low, self.memo, complement=not self.upto, filt=filt,
                                    pagodas=self.pagodas())
        return self._subtree

    def pagodas(self) -> PackedPagodas | None:
        """Pagodas that prune the search (:mod:`.pagoda_prune`): none here; the goal's endgame table has some."""
        return None

    def answered(self, pos: int) -> str:
        pegs = pos.bit_count()
        how = {"lookup": "by lookup",
               "complement": "through their complements, since the set is closed under complement",
               "search": f"by an exhaustive search down to {self.low} pegs, where "
                         f"{'the set' if self.upto else 'the complements'} answer{'s' if self.upto else ''}"}
        here, after = self.via(pegs), self.via(pegs - 1)
        parts = f"this position and its jumps {how[here]}" if here == after else \
            f"this position {how[here]}, its jumps {how[after]}"
        return f"the exact winnable set of this game, shipped {self.held}: {parts}"

    @property
    def held(self) -> str:
        """Which levels are held, in words."""
        return f"from {self.floor} pegs up" + (f" and from {self.upto} pegs down" if self.upto else "")

    def why_not(self, pos: int) -> str:
        pegs = pos.bit_count()
        which = f"at most {self.upto} or at least {self.floor}" if self.upto else f"at least {self.floor}"
        held = f"the {len(self):,} positions with {which} pegs that can still win"
        how = self.via(pegs)
        if how == "lookup":
            return f"not among {held}"
        if how == "complement":
            return f"its complement is not among {held}; the set is closed under complement"
        each = "each looked up" if self.upto else "each through its complement"
        return (f"no position with {self.low} pegs it leads to can still win: an exhaustive search down to that "
                f"level, {each} among {held}")


def partial(win: Winnable, floor: int, upto: int = 0) -> PartialWinnable:
    """The levels of the whole set ``win`` with at least ``floor`` pegs (and with at most ``upto``, when
    given), as a :class:`PartialWinnable`."""
    out = PartialWinnable(win.problem, win.codec, floor=floor, upto=upto)
    out.levels = {pegs: keys for pegs, keys in win.levels.items() if pegs >= floor or pegs <= upto}
    return out
