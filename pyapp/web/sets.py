"""The classic games' winnable sets, shipped with the site so never-lose answers from the first move.

``build.py`` writes the set of every game in :data:`SHIPPED` into ``dist/sets/`` in the checked compact
format of :mod:`pyapp.exact.store` (computed once per machine and kept in
:func:`pyapp.exact.store.sets_cache`, or read from a committed, checksummed artefact in ``sets/`` for the
games too slow to compute during a build), and lists the files in ``dist/sets/index.json``
(:func:`index_entry`). File names carry the set's key version (:func:`pyapp.exact.store.key_version`), so a
set is computed again only when what its keys mean changes, never because other code did. The worker fetches
a game's file the first time never-lose or Hint asks about that game and hands the bytes to :func:`load`
(``pyapp.web.api.load_set``): from then on :func:`pyapp.exact.winnable.cached` holds the set, and every
never-lose verdict, losing jump and hint of that game is one lookup (:mod:`pyapp.analysis.neverlose_exact`).
A file that fails its checks is refused with the reason, and the worker drops it from its caches and fetches
it once more; until a good one arrives the search answers, so a damaged file is never trusted.

The English own-hole games c1 -> c1, c2 -> c2, c3 -> c3 and d3 -> d3 (12.8 to 41.7 million classes, 12.7 to
34.8 MB as whole sets) ship only the levels with at least ``Game.floor`` pegs (:data:`FLOORS`): their sets
are closed under complement, and :class:`pyapp.exact.partial.PartialWinnable` answers the other levels exactly
(through the complements, and between by a short search), so their answers are exact too, not all one lookup, and
they ship without the solutions left per position (those need every level).

Triangle 7's default game, 4 -> one peg anywhere (13,757,881 classes; 4.05 MB as a whole set, but 110 MB of
keys once decoded, too much for a phone's worker), is not closed under complement: it ships the levels with at
least 16 pegs and those with at most 10 (:data:`TRIANGLE7`; 4,083,072 classes, 1.55 MB, 33 MB of keys), and the
five levels between, the widest, are answered by the exhaustive search down to the held 10-peg level.

French d2 -> d6, the French board's default game, ships its levels with at least :data:`FRENCH` pegs over the
goal's endgame table (:class:`pyapp.exact.overtable.OverTable`, ``Game.over_table``): its set is not closed under
complement, but the table the site ships for its goal answers every position under the floor exactly.  The levels
were made by ``scripts/make_overtable.py`` (sharded sweeps of 464 million reachable classes down to the middle,
then the join; hours on 2 cores) and are committed in ``sets/``.  An answer above the floor is lookups but for one
line's first step under it; at the floor itself, the jumps' verdicts are table searches from 23 pegs (the slowest
answers, up to about a second of CPython: most lost positions there are cut short by the table's learned pagodas,
:mod:`pyapp.exact.pagoda_prune`).

Asymmetric d5 -> d5, the asymmetric board's default game, ships the same way from :data:`ASYMMETRIC` pegs over its
goal's table, but as one bit per class the start reaches (:class:`pyapp.exact.overbits.BitsOverTable`,
``Game.bits``): its 46,244,305 winnable classes there would be about 51 MB as keys (and 370 MB once decoded), while
the bits over its 85,054,056 reachable classes are about 13 MB, read in place.  Its levels were made by the engine's
sharded sweep down to 22 pegs, ``scripts/numpy_sweep.py`` (levels 21 and 20, 358 and 541 million classes, and the
join, in about 27 minutes on 2 cores) and ``scripts/make_overtable.py --bits``, and are committed in ``sets/``.  Its
floor's answers are its slowest (every jump's verdict a table search from 23 pegs): the table's 300 learned pagodas
halve them (about 0.5-8 CPython s each with the table's memo emptied before each; fewer in play, where it is kept).

Which games ship, and why the others do not, is measured by ``scripts/measure_sets.py`` (classes,
bytes, CPU; ``benchmarks/sets.json``): the German, Diamond and triangle 8 sets are
estimated at billions of positions, far past a download.  For German and Diamond 41, and under the sets of French
and asymmetric (:data:`ENDGAMES`), the site ships the goal's endgame table (:mod:`pyapp.exact.endgame_files`, kind
``endgame``): every position of up to 11-13 pegs that can reach the goal, swept by the build, which answers the
positions of up to 10 pegs more exactly; the worker fetches it beside the first never-lose or Hint request toward that
goal.  For
the games of :data:`BOOKS` an opening book ships too (kind ``book``): the exact verdicts of the first moves, where
the search is slowest, fetched (tens of KB) before that first request.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from ..core.budget import drive
from ..core.catalogue import get_board, get_entry
from ..core.errors import PegError
from ..core.goal import Goal
from ..core.position import parse_position
from ..core.problem import Problem, make_problem
from ..exact.endgame import SEARCH_LEVELS, install
from ..exact.endgame_files import decode_table_steps
from ..exact.endgame_files import file_name as endgame_file
from ..exact.openingbook import install as install_book
from ..exact.openingbook_files import decode_book_steps
from ..exact.openingbook_files import file_name as book_file
from ..exact.store import decode_steps, decode_ways, identity, key_version, read_header
from ..exact.winnable import cached, is_loaded, register


@dataclass(frozen=True)
class Game:
    """A catalogue board, a start hole and a goal, as the page's game names them."""

    board: str
    start: str
    goal: str
    artefact: bool = False
    """True when its set is committed in ``sets/`` instead of computed by each build (:mod:`.setfiles`)."""
    floor: int | None = None
    """When set, the file holds only the levels with at least this many pegs, the others answered through
    complements (an own-hole game, :mod:`pyapp.exact.partial`) or through :attr:`upto`: a whole set would be
    too big to download."""
    upto: int | None = None
    """With :attr:`floor`, for a game whose set is not closed under complement: the file holds the levels with
    at most this many pegs too, and the levels between are answered by a search down to them."""
    over_table: bool = False
    """With :attr:`floor` and no :attr:`upto`: the levels under the floor are answered by the goal's endgame table
    (:data:`ENDGAMES`, :mod:`pyapp.exact.overtable`), for a big board's game whose set is not closed under
    complement and whose low levels are too many to ship."""
    bits: bool = False
    """With :attr:`over_table`: the levels from the floor up are one bit per reachable position
    (:class:`pyapp.exact.overbits.BitsOverTable`, :mod:`pyapp.exact.bitfiles`) instead of the winnable keys: for a
    game whose winnable positions there are too many to ship as keys."""
    book: bool = False
    """True when the file is the game's opening book (:mod:`pyapp.exact.openingbook_files`, committed in ``sets/``): the
    verdicts of every class the start reaches down to some level, which hold from any position toward the goal."""
    endgame: bool = False
    """True when the file is the goal's endgame table (:mod:`pyapp.exact.endgame_files`), not a winnable set: it
    answers every game toward that goal from the start's class of ends, and every posed position of that class."""

    def problem(self) -> Problem:
        return make_problem(get_board(self.board), start=self.start, goal=self.goal)

    @property
    def default(self) -> bool:
        """True for the board's default game (which the page also names by leaving start and goal out)."""
        entry = get_entry(self.board)
        return (entry.start, entry.goal) == (self.start, self.goal)

    @property
    def stem(self) -> str:
        return f"{self.board}-{self.start}-{self.goal}"

    @property
    def kind(self) -> str:
        return "endgame" if self.endgame else "book" if self.book else "winnable"


FLOORS = {"c1": 19, "c2": 19, "c3": 19, "d3": 18}
"""The fewest pegs of a shipped level of each English own-hole game whose whole set is too big to download
(12.7 to 34.8 MB), chosen by ``scripts/measure_sets.py --floors`` (``benchmarks/sets.json``: the bytes, the keys
once decoded, and the CPython milliseconds of a never-lose answer that needs the search).  From 19 pegs c1, c2
and c3 ship 5.8, 4.5 and 7.2 MB (47 to 68 MB of keys) for a p95 of 8.2 to 8.9 ms; from 18 they would be 9.5 to
12 MB, from 20 (c3) 3.8 MB but 59 ms.  d3, whose set is smaller, ships from 18 pegs: 4.5 MB, 36 MB of keys,
1.3 ms."""

TRIANGLE7 = (16, 10)
"""The levels triangle 7's default game (4 -> one peg anywhere) ships: from 16 pegs up and from 10 down, chosen
by ``scripts/measure_sets.py --floors K/L`` (``benchmarks/sets.json``).  From 16/10: 1.55 MB, 33 MB of keys
(a 95 MB peak in a fresh CPython process that decodes it), a never-lose answer that needs the search p95 23
CPython CPU ms (max 62).  From 17/10 the keys drop to 20 MB but the p95 nearly triples (61 ms, max 176), from
18/10 (12 MB) it is 123 ms (max 408); 16/11 and 15/10 cut the p95 to 9.6 and 9.0 ms for 41 and 51 MB of keys
(113 and 135 MB peak).  16/10 keeps the keys below every shipped English partial set's (36 to 68 MB) and the
answers within tens of milliseconds."""

FRENCH = 24
"""The fewest pegs of French d2 -> d6's shipped levels: two above its goal's endgame table's own ceiling (22 pegs),
the highest floor an :class:`~pyapp.exact.overtable.OverTable` allows (:data:`pyapp.exact.overtable.LIFT`): 4,510,933
classes in 4.92 MB (36 MB of keys once decoded), cut by ``scripts/make_overtable.py`` from the sweeps' join (from
the middle up, 62 minutes on 2 cores).  From 23 pegs it was 9,486,223 classes in 10.4 MB (76 MB of keys); the
23-peg questions the table now answers by search take 0.1-2 CPython s, the table's learned pagodas
(:mod:`pyapp.exact.pagoda_prune`) cutting most lost positions short."""

FRENCH_GAME = Game("french", "d2", "d6", artefact=True, floor=FRENCH, over_table=True)
"""French d2 -> d6 as it ships (module docstring)."""

ASYMMETRIC = 24
"""The fewest pegs of asymmetric d5 -> d5's shipped levels: two above its goal's endgame table's own ceiling (22
pegs), the highest floor an :class:`~pyapp.exact.overtable.OverTable` allows, as for French.  Its winnable classes
there are too many to ship as keys, so it ships one bit per reachable class instead (``Game.bits``)."""

ASYMMETRIC_GAME = Game("asymmetric", "d5", "d5", artefact=True, floor=ASYMMETRIC, over_table=True, bits=True)
"""Asymmetric d5 -> d5 as it ships (module docstring)."""

ENDGAMES = (("french", "d2", "d6"), ("german", "e5", "e5"), ("asymmetric", "d5", "d5"), ("diamond41", "d2", "any"),
            ("triangle8", "1", "any"))
"""The games whose goal's endgame table ships (:mod:`pyapp.exact.endgame_files`; French 4.4 MB, German 7.5 MB,
asymmetric 3.7 MB, Diamond 41 4.6 MB, triangle 8 1.5 MB): the boards whose never-lose checks the page's own table
(:mod:`pyapp.exact.endgame`) leaves slow at 20-24 pegs (triangle 8: seconds at 20-22 pegs, p95 1.5 CPU s)."""

BOOKS = (("french", "d2", "d6"), ("asymmetric", "d5", "d5"), ("diamond41", "d2", "any"), ("german", "e5", "e5"))
"""The games whose opening book ships (:mod:`pyapp.exact.openingbook`, committed in ``sets/``, made by
``scripts/opening_book.py``): the verdict of every class the start reaches down to the book's deepest level, where
a never-lose check would otherwise search for seconds: the first moves of the boards' default games."""

SHIPPED: tuple[Game, ...] = (
    Game("english", "d4", "d4", artefact=True), Game("triangle5", "1", "any"), Game("triangle6", "4", "any"),
    Game("english", "d1", "d1", artefact=True), Game("english", "d1", "d4", artefact=True),
    Game("english", "d2", "d2", artefact=True),
    *(Game("english", hole, hole, artefact=True, floor=floor) for hole, floor in FLOORS.items()),
    Game("triangle7", "4", "any", artefact=True, floor=TRIANGLE7[0], upto=TRIANGLE7[1]), FRENCH_GAME, ASYMMETRIC_GAME,
    *(Game(board, start, goal, endgame=True) for board, start, goal in ENDGAMES),
    *(Game(board, start, goal, book=True) for board, start, goal in BOOKS),
)
"""The games whose winnable sets or endgame tables ship (sizes in ``index.json``)."""


def game_of(board_id: str) -> Game:
    """The shipped default game of a board (:class:`PegError` when it has none)."""
    for game in SHIPPED:
        if game.board == board_id and game.default and game.kind == "winnable":
            return game
    raise PegError(f"no shipped winnable set for the default game of {board_id!r}")


def file_name(game: Game, kind: str = "winnable") -> str:
    """The file of a shipped game (``kind``: ``winnable`` the set, ``ways`` the solutions left per position),
    as written into ``dist/sets/``: named by the game and the key version of its set."""
    if game.endgame and kind != "ways":  # (a table has no solution counts: no such file is ever made)
        return endgame_file(game.stem, game.problem())
    if game.book and kind != "ways":
        return book_file(game.problem())
    return f"{game.stem}-{key_version(game.problem())}{'.ways' if kind == 'ways' else ''}.bin"


def images(game: Game) -> list[list[str]]:
    """``[start, goal]`` of every symmetric image of ``game`` other than itself, in the board's symmetry order."""
    problem = game.problem()
    board, goal = problem.board, problem.goal
    out: list[list[str]] = []
    for g in range(1, len(board.symmetries)):
        start = board.transform(problem.start, g)
        image = [board.name_of[(board.full() ^ start).bit_length() - 1],
                 Goal(goal.kind, board.transform(goal.target, g)).text(board) if goal.target else goal.text(board)]
        if image != [game.start, game.goal] and image not in out:
            out.append(image)
    return out


def index_entry(game: Game, data: bytes, ways: bytes | None) -> dict:
    """What the worker needs to match a game to its file: board, start hole and goal as the page's game
    holds them (``default``: the board's default game; ``board_start``, ``board_goal``: what the page's game
    means when it leaves start or goal out; ``images``: the ``[start, goal]`` of the game's symmetric images,
    which the same set answers, :mod:`pyapp.analysis.neverlose_exact`), and each file's SHA-256 (the worker
    keeps a file it fetched past the service worker only when it matches)."""
    header, _ = read_header(data)
    catalogue = get_entry(game.board)
    entry = {"board": game.board, "start": game.start, "goal": game.goal, "default": game.default,
             "kind": game.kind, "board_start": catalogue.start, "board_goal": catalogue.goal,
             "images": [] if game.endgame or game.book else images(game),
             "file": file_name(game), "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
             "keys": sum(sum(level[-2:]) if game.book else level[1] for level in header["levels"]),
             "version": header["keys"]}
    for field in ("from", "upto", "low", "deepest"):
        if field in header:
            entry[field] = header[field]
    if game.over_table:  # the page waits for the goal's endgame table too: the set answers nothing without it
        entry["over_table"] = True
    if game.bits:  # ``keys``: the reachable classes its bits speak for; ``wins``: how many of them can still win
        entry["wins"] = sum(n for _, n in header["wins"])
    if game.book:  # the start's pegs: the page waits for the book while a game is above its deepest level
        entry["start_pegs"] = header["levels"][0][0]
    if game.endgame:  # the pegs it answers (by lookup or search): the page waits for it below them
        entry["start_pegs"] = game.problem().start.bit_count()
        entry["reach"] = header["low"] + SEARCH_LEVELS
    if ways is not None:
        entry.update(ways=file_name(game, "ways"), ways_bytes=len(ways), ways_sha256=hashlib.sha256(ways).hexdigest())
    return entry


def problem_of(header: dict) -> Problem:
    """The problem a set file speaks for, from its header (a shipped game of a catalogue board)."""
    board_id = header.get("board")
    games = [game for game in SHIPPED if game.board == board_id]
    if not games:
        raise PegError(f"winnable set file: board {board_id!r} is not one whose sets are shipped")
    board = get_board(board_id)
    start = parse_position(board, str(header.get("start", "")))
    for game in games:
        problem = game.problem()
        if start == problem.start and header.get("goal") == problem.goal.text(board) and \
                game.kind == (header.get("kind") if header.get("kind") in ("endgame", "book") else "winnable"):
            return problem
    raise PegError(f"winnable set file: not a shipped game of {board_id}")


def load(data: Any) -> dict:
    """Check and register a set file's bytes (a ``bytes``-like or a Pyodide proxy of a ``Uint8Array``);
    ``{"board", "keys", "bytes", "seconds"}``, or :class:`PegError` naming why the file is refused."""
    return drive(load_steps(data))


def load_steps(data: Any) -> Generator[None, None, dict]:
    """:func:`load`, pausing (``yield``) about every 20 ms of CPython's time while it decodes a file (a set, an
    endgame table: seconds in Pyodide; an opening book), so that the worker can take its messages meanwhile
    (``pyapp.web.api.load_set_steps``).  Solution counts (``ways``, a few hundred KB) decode in one go."""
    raw = data.to_bytes() if hasattr(data, "to_bytes") else bytes(data)
    started = time.perf_counter()
    header, _ = read_header(raw)
    problem = problem_of(header)
    if header.get("kind") == "ways":  # the solutions left per position: after the set they belong to
        win = cached(problem)
        if win is None or not is_loaded(problem):
            raise PegError("winnable set file: solution counts arrived before their winnable set")
        win.ways = decode_ways(raw, win)
    elif header.get("kind") == "endgame":  # the goal's endgame table: kept for every game toward that goal
        win = yield from decode_table_steps(raw, problem)
        yield from win.subtree_steps()  # its search's filter, made here in steps rather than at its first search
        install(win)
    elif header.get("kind") == "book":  # the game's opening book: kept for every question toward its goal
        book = yield from decode_book_steps(raw, problem)
        install_book(book)
        return {"board": header["board"], "kind": "book", "keys": len(book), "bytes": len(raw),
                "version": header["keys"], "seconds": round(time.perf_counter() - started, 4),
                "goal": identity(problem)["goal"]}
    else:
        win = yield from decode_steps(raw, problem)
        register(win)
    return {"board": header["board"], "kind": header.get("kind", "winnable"), "keys": len(win), "bytes": len(raw),
            "version": key_version(problem), "seconds": round(time.perf_counter() - started, 4),
            "goal": identity(win.problem)["goal"]}
