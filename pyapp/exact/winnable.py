"""Every position that can still win, level by level, and "still solvable?" in one lookup.

A position can still win when it is reachable from the start *and* the goal is reachable
from it.  Both sides are swept only down to the middle level ``m`` (forward from the start
to ``m`` pegs, the complement game from the goal's complement to ``N - m``), then:

* at ``m``: the reachable positions whose complement the backward sweep reached;
* below ``m``: the children of the winnable positions one level up whose complement the
  backward sweep reached (a winnable position's predecessor on its path is winnable);
* above ``m``: the reachable parents of the winnable positions one level down (found as the
  complements of the children of their complements).

So only the winnable sets themselves, much smaller than the reachable ones, are expanded
past the middle.  By default the sets are kept up to every symmetry of the goal
(``Sides.wide_codec``), even those that move the start: a class is kept when one of its
members is reachable and (the goal being invariant, hence every member) can reach the goal.
For a position met in a game from the start that is exactly "still solvable?"; on a
triangle start fixed by no symmetry the sweeps are about six times smaller.  For the
English central game 1,679,072 positions (up to symmetry) can still win out of 23,475,688
reachable (G. I. Bell, arXiv:0903.3696).

:func:`winnable` caches the answer per problem, so :meth:`Winnable.can_win` answers "is
this position still solvable?" for every move of a game with one canonical key and one
binary search (the never-lose mode of the page can call it after each move).
"""

from __future__ import annotations

import os
from array import array
from bisect import bisect_left
from collections.abc import Callable, Generator
from dataclasses import dataclass, field

from ..core.budget import Budget, drive
from ..core.codec.compiled import Codec
from ..core.moves import Jump, apply_jump, legal_jumps
from ..core.problem import Problem
from .setup import Sides, sides, stop_if_over
from .sharded import Parallel, sweeper
from .sweep import Level, Progress, to_array
from .twosided import Side, sweep_sets, two_sided, wait_all


def member(keys: array, key: int) -> bool:
    """``key`` in the sorted array ``keys`` (binary search)."""
    i = bisect_left(keys, key)
    return i < len(keys) and keys[i] == key


@dataclass
class Winnable:
    """The positions of a problem that can still win, per peg count (canonical keys, sorted)."""

    problem: Problem
    codec: Codec
    levels: dict[int, array] = field(default_factory=dict)
    reachable: dict[int, int] = field(default_factory=dict)
    """Reachable positions per level for the levels the sweeps stored (up to symmetry)."""
    seconds: float = 0.0
    ways: dict[int, array] | None = None
    source: bytes | None = None
    """The file the set was decoded from (:mod:`pyapp.exact.store`), when it came from one."""
    """Solutions left from each position, aligned with :attr:`levels` (:mod:`pyapp.exact.ways`), once loaded."""

    def can_win(self, pos: int) -> bool:
        """True when ``pos`` is reachable from the start and can still reach the goal."""
        return self.lookup(pos)

    def lookup(self, pos: int) -> bool:
        """What the held levels say of ``pos`` (False on a level not held): its key among the level's keys here;
        one bit per reachable position in :class:`~.overbits.BitsOverTable`, whose subclasses' answers above
        their floor are this lookup."""
        keys = self.levels.get(pos.bit_count())
        return keys is not None and member(keys, self.codec.canon(pos))

    @property
    def whole(self) -> bool:
        """True when every level of the set is held (:class:`~.partial.PartialWinnable` holds some)."""
        return True

    def known(self, pos: int) -> bool:
        """True when ``pos`` is known to win without a search (a partial set's search found it); False says
        nothing (a whole set answers every position by lookup: :meth:`can_win`)."""
        return False

    def counts(self) -> dict[int, int]:
        """Winnable positions per peg count (up to the problem's symmetries)."""
        return {pegs: len(keys) for pegs, keys in sorted(self.levels.items(), reverse=True)}

    def __len__(self) -> int:
        return sum(len(keys) for keys in self.levels.values())

    def answered(self, pos: int) -> str:
        """What answers the verdicts of ``pos`` and of the positions after its jumps, for the page's note."""
        return "the exact winnable set of this game, no search"

    def why_not(self, pos: int) -> str:
        """Why ``pos`` cannot win, as the set proves it (:mod:`.partial` answers some positions otherwise)."""
        return f"not among the {len(self):,} position{'' if len(self) == 1 else 's'} that can still win"

    @property
    def nbytes(self) -> int:
        return sum(keys.itemsize * len(keys) for keys in self.levels.values())


def line_from(win: Winnable, pos: int) -> list[Jump]:
    """Jumps from the winnable position ``pos`` to the goal, each step staying in the set: a jump to a position
    already known to win (:meth:`Winnable.known`) first, so a partial set follows the line its search found."""
    board, line = win.problem.board, []
    goal = win.problem.goal
    while not goal.reached(pos):
        steps = [(jump, apply_jump(pos, jump)) for jump in legal_jumps(board, pos)]
        found = next((s for s in steps if win.known(s[1])), None) or next((s for s in steps if win.can_win(s[1])),
                                                                           None)
        if found is None:  # pragma: no cover - a winnable position always has a winnable child
            raise AssertionError("a winnable position with no winnable child")
        line.append(found[0])
        pos = found[1]
    return line


_CACHE: dict[tuple, Winnable] = {}
CACHE_ENTRIES = 2
"""Winnable sets kept for "still solvable?" lookups (the English one holds 13 MB of keys)."""


_LOADED: dict[tuple, Winnable] = {}
"""Sets loaded from files (:mod:`pyapp.exact.store`): kept for the whole session, never evicted."""


def clear_cache() -> None:
    """Forget the sets computed in this process (not those loaded from files): a benchmark's next run computes
    them again."""
    _CACHE.clear()


def cached(problem: Problem) -> Winnable | None:
    """The winnable set of ``problem`` if it was computed or loaded already (see :func:`winnable_steps`)."""
    key = _cache_key(problem)
    return _LOADED[key] if key in _LOADED else _CACHE.get(key)


def register(win: Winnable) -> None:
    """Keep a set loaded from a file (:func:`pyapp.exact.store.decode`) for :func:`cached` and :func:`winnable`."""
    _LOADED[_cache_key(win.problem)] = win


def is_loaded(problem: Problem) -> bool:
    return _cache_key(problem) in _LOADED


def _cache_key(problem: Problem, wide: bool = True) -> tuple:
    return (problem.board.id, problem.board.mask, problem.start, problem.goal, wide)


def winnable(problem: Problem, budget: Budget | None = None) -> Winnable:
    """Every position of ``problem`` that can still win (computed once, then cached)."""
    return drive(winnable_steps(problem, budget))


def winnable_steps(problem: Problem, budget: Budget | None = None, forward: dict[int, array] | None = None,
                   wide: bool = True, parallel: Parallel | None = None) -> Generator[Progress, None, Winnable]:
    """Compute the winnable sets, yielding :class:`Progress`; raises the :mod:`setup` stop exceptions.

    ``wide`` keeps them up to every symmetry of the goal (``Sides.wide_codec``), else up to those
    fixing the start too (``Sides.codec``: ``count --levels`` counts positions that way).
    ``forward`` may give reachable levels already swept from the start with that codec
    (``count --levels`` sweeps every level and passes them on); the levels this sweep adds go into
    it too, so problems with the same start and codec (``fewest --all``) sweep from the start once.
    ``parallel`` runs the sweeps on its pool: on a local pool of two workers the forward and backward sweeps
    at once, each whole in a worker (:mod:`.twosided`), else sharded (:mod:`.sharded`).
    """
    hit = cached(problem) if wide else _CACHE.get(_cache_key(problem, wide))
    if hit is not None and hit.whole:  # a set loaded from some level up (:mod:`.partial`) is not what callers sweep
        return hit
    hit = _CACHE.get(_cache_key(problem, wide))
    if hit is not None:
        return hit
    budget = budget or Budget()
    s = sides(problem)
    fcd = s.wide_codec if wide else s.codec
    n = s.holes
    meet = s.meet()
    reach: dict[int, array] = forward if forward is not None else {}
    back: dict[int, array]
    stored = [sum(keys.itemsize * len(keys) for keys in reach.values())]

    def held() -> int:
        return stored[0]

    def run(sources, last: int, stage: str, into: dict[int, array], cd: Codec):
        for item in sweeper(parallel)(cd, list(sources), last, weights=False, stage=stage, kept_bytes=held,
                          max_bytes=budget.max_bytes):
            if isinstance(item, Level):
                into[item.pegs] = item.keys
                stored[0] += item.nbytes
            else:
                stop_if_over(budget)
                yield item

    if s.complement_problem:
        low = min(meet, n - meet)
        if low not in reach:
            yield from run([s.start], low, "reachable", reach, fcd)
        back = reach
    elif two_sided(parallel) and meet not in reach:  # both sides at once, each whole in a worker
        assert parallel is not None
        board, folder, tag = problem.board, parallel.pool.exchange_dir or "", f"win-{os.getpid()}-{id(reach)}"
        ceiling = None if budget.max_bytes is None else budget.max_bytes // 2
        ahead, back = yield from sweep_sets(parallel, [
            Side(board, fcd.group, (s.start,), meet, False, tuple(range(meet, s.first_pegs + 1)), folder, f"{tag}-f",
                 ceiling),
            Side(board, s.back_codec.group, tuple(s.backward), n - meet, False, tuple(range(n - meet, n + 1)),
                 folder, f"{tag}-b", ceiling)], budget, "reachable and can reach the goal")
        reach.update(ahead)
    else:
        if meet not in reach:
            yield from run([s.start], meet, "reachable", reach, fcd)
        back = {}
        yield from run(s.backward, n - meet, "can reach the goal", back, s.back_codec)
    win = Winnable(problem, fcd, reachable={k: len(v) for k, v in reach.items()})
    if meet not in reach or (n - meet) not in back:
        win.seconds = budget.elapsed()
        return win  # a sweep died out before the middle: nothing can win
    win.levels[meet] = yield from _middle(s, fcd, reach[meet], back[n - meet], meet, budget)
    if two_sided(parallel) and not s.complement_problem:  # up from the middle and down from it at once
        assert parallel is not None
        above = {p: reach[p] for p in range(meet + 1, s.first_pegs + 1)}
        below = {n - p: back[n - p] for p in range(meet - 1, s.last_pegs - 1, -1)}
        middle = win.levels[meet]
        handles = [parallel.pool.submit(_up_all, problem, wide, middle, meet, above),
                   parallel.pool.submit(_down_all, problem, wide, middle, meet, below)]
        up, down = yield from wait_all(parallel, handles, budget, "can still win", meet)
        win.levels.update(up)
        win.levels.update(down)
    else:
        for pegs in range(meet + 1, s.first_pegs + 1):
            win.levels[pegs] = yield from _up(fcd, win.levels[pegs - 1], reach[pegs], pegs, budget)
        for pegs in range(meet - 1, s.last_pegs - 1, -1):
            if s.complement_problem and fcd is s.back_codec and n - pegs in win.levels:
                # its own complement game: x can win exactly when its complement can (3x faster than _down)
                win.levels[pegs] = _flipped(fcd, win.levels[n - pegs])
            else:
                win.levels[pegs] = yield from _down(s, fcd, win.levels[pegs + 1], back[n - pegs], pegs, budget)
    win.seconds = budget.elapsed()
    if len(_CACHE) >= CACHE_ENTRIES:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[_cache_key(problem, wide)] = win
    return win


def _up_all(problem: Problem, wide: bool, middle: array, meet: int, reach: dict[int, array]) -> dict[int, array]:
    """In a worker: every winnable level above the middle one, ``meet`` pegs (``reach``: the reachable levels
    above it)."""
    s = sides(problem)
    fcd = s.wide_codec if wide else s.codec
    out: dict[int, array] = {}
    below = middle
    for pegs in range(meet + 1, s.first_pegs + 1):
        below = out[pegs] = drive(_up(fcd, below, reach[pegs], pegs, Budget()))
    return out


def _down_all(problem: Problem, wide: bool, middle: array, meet: int, back: dict[int, array]) -> dict[int, array]:
    """In a worker: every winnable level below the middle one, ``meet`` pegs (``back``: the backward levels, by
    their pegs)."""
    s = sides(problem)
    fcd = s.wide_codec if wide else s.codec
    out: dict[int, array] = {}
    above = middle
    for pegs in range(meet - 1, s.last_pegs - 1, -1):
        above = out[pegs] = drive(_down(s, fcd, above, back[s.holes - pegs], pegs, Budget()))
    return out


EXPAND_CHUNK = 250_000
"""Winnable positions expanded at a time by :func:`_down` and :func:`_up`, a progress report and a budget check
after each (a few CPU seconds).  The children of a whole level held at once are a set several times the size of the
level they give; in chunks, a child reached from two chunks is tested twice.  Triangle 7 vacancy 4, the whole set,
side by side with the whole-level expansion (2026-12-06, CPython): 482 against 455 CPU s (+6 %), peak RSS 595
against 1,002 MB; 50,000 a chunk cost +14 % (420 against 368 s) for 479 MB."""


def _goal_test(s: Sides, fcd: Codec, back: array) -> Callable[[int], bool]:
    """``reaches(x)``: can the position whose ``fcd``-packed images are ``x`` reach the goal?

    With one codec for both sides: when the backward sweep reached its complement.  Otherwise the
    backward level is first put in ``fcd``'s frame (the ``fcd``-canonical keys of the complements of
    its positions): the goal being invariant under ``fcd``'s group, a position reaches it exactly when
    some image does, so one canonical key and one lookup answer it."""
    bcd = s.back_codec
    everything = bcd.everything
    if bcd is fcd:  # lane 0 is the position: the complement's canonical key is its greatest lane flipped
        least_greatest = bcd.least_greatest
        return lambda x: member(back, everything ^ least_greatest(x)[1])
    least, packed_key = fcd.least, fcd.packed_key
    keys = to_array(sorted({least(packed_key(everything ^ k)) for k in back}))
    return lambda x: member(keys, least(x))


def _middle(s: Sides, fcd: Codec, reach: array, back: array, pegs: int, budget: Budget
            ) -> Generator[Progress, None, array]:
    """Winnable positions of the middle level: reachable ones whose complement the backward sweep reached."""
    reaches = _goal_test(s, fcd, back)
    packed_key = fcd.packed_key
    out = []
    for i, key in enumerate(reach):
        if reaches(packed_key(key)):
            out.append(key)
        if i & 0xFFFF == 0xFFFF:
            stop_if_over(budget)
            yield Progress("can still win", pegs, i, len(reach), len(out), 0, 0, budget.elapsed())
    return to_array(out)


def _down(s: Sides, cd: Codec, above: array, back: array, pegs: int, budget: Budget
          ) -> Generator[Progress, None, array]:
    """Winnable positions with ``pegs`` pegs: children of the winnable ones above that can reach the goal.

    The parents are expanded :data:`EXPAND_CHUNK` at a time, a :class:`Progress` after each: the children of a
    whole level at once would be a set several times the size of the answer, held at once, and the budget would
    not be checked (nor a cancel seen) until the level was done."""
    least = cd.least
    reaches = _goal_test(s, cd, back)
    out: set[int] = set()
    raw: set[int] = set()
    one_codec = cd is s.back_codec
    least_greatest, everything = cd.least_greatest, cd.everything
    for lo in range(0, len(above), EXPAND_CHUNK):
        hi = min(len(above), lo + EXPAND_CHUNK)
        raw.clear()
        cd.expand_set(above, lo, hi, raw)
        if one_codec:  # one min and max per child (what _goal_test does, inlined)
            for x in raw:
                key, greatest = least_greatest(x)
                if key not in out and member(back, everything ^ greatest):
                    out.add(key)
        else:
            for x in raw:
                key = least(x)
                if key not in out and reaches(x):
                    out.add(key)
        stop_if_over(budget)
        yield Progress("can still win", pegs, hi, len(above), len(out), 0, 0, budget.elapsed())
    return to_array(sorted(out))


def _flipped(cd: Codec, keys: array) -> array:
    """The canonical keys of the complements of the positions ``keys`` (sorted)."""
    packed_key, least_greatest, everything = cd.packed_key, cd.least_greatest, cd.everything
    return to_array(sorted(everything ^ least_greatest(packed_key(key))[1] for key in keys))


def _up(cd: Codec, below: array, reach: array, pegs: int, budget: Budget) -> Generator[Progress, None, array]:
    """Winnable positions with ``pegs`` pegs: reachable parents of the winnable ones below (their complements
    expanded :data:`EXPAND_CHUNK` at a time, as :func:`_down` does)."""
    everything = cd.everything
    return (yield from reachable_parents(cd, to_array(key ^ everything for key in below), reach, pegs, budget))


def reachable_parents(cd: Codec, flipped: array, reach: array, pegs: int, budget: Budget, lo: int = 0,
                      hi: int | None = None) -> Generator[Progress, None, array]:
    """The positions of the sorted level ``reach`` (``pegs`` pegs) that are parents of a position whose complement
    is among ``flipped[lo:hi]`` (children of a complement are the complements of parents), sorted: :func:`_up`, and
    a level made from the complements a backward sweep stores (``scripts/make_overtable.py``)."""
    least_greatest = cd.least_greatest
    everything = cd.everything
    hi = len(flipped) if hi is None else hi
    out: set[int] = set()
    raw: set[int] = set()
    for a in range(lo, hi, EXPAND_CHUNK):
        b = min(hi, a + EXPAND_CHUNK)
        raw.clear()
        cd.expand_set(flipped, a, b, raw)
        for z in raw:
            key = everything ^ least_greatest(z)[1]  # z is a child of a complement: flip it back
            if key not in out and member(reach, key):
                out.add(key)
        stop_if_over(budget)
        yield Progress("can still win", pegs, b - lo, hi - lo, len(out), 0, 0, budget.elapsed())
    return to_array(sorted(out))
