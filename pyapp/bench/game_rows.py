"""Benchmark rows of never-lose on every standard game, played as a player plays: ``neverlose-play-<game>``.

Each row plays :data:`GAMES` seeded random games of one game of :data:`PLAYED` (the English central game
and d1 -> d1, c1 -> c1, French d2 -> d6, German e5 -> e5, asymmetric d5 -> d5, Diamond 41 d2 -> any,
triangle 7 from 4, triangle 8 from 1): at every position the page's check
(:func:`pyapp.analysis.neverlose.never_lose_steps`,
the search path, the game's opening book (:func:`shipped_book`) and the goal's endgame table where they answer (the
ones the site ships: the book committed in ``sets/``, the table from the build's cache, where there is one:
:func:`shipped_table`), on Hint's 10 s budget counted in CPU seconds,
with the engine's game-long table of proved positions); the next jump is one the check filed good with
probability 0.8, else any legal jump.  A game ends when no jump is left or a position is lost (every later
verdict is then "lost" by the same proof).

The answer: positions, the jump verdicts left unknown, and the CPU seconds per position (median, 95th
percentile).  The check: where the game's exact winnable set is on this machine (the build's set cache,
:func:`pyapp.exact.store.sets_cache`, or the committed ``sets/``, named by
:func:`pyapp.exact.store.key_version`), every decided verdict, of a position and of each jump, agrees with
it (0 disagreements); and a position called winnable
has a line that replays to the goal.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

from ..analysis.neverlose import never_lose_steps
from ..analysis.neverlose_result import NeverLose
from ..core.budget import CPU_CLOCK, Budget, drive
from ..core.catalogue import get_board
from ..core.errors import PegError
from ..core.moves import Jump, apply_jump, legal_jumps
from ..core.problem import Problem, make_problem
from ..exact import endgame, openingbook
from ..exact.endgame import Endgame
from ..exact.endgame_files import decode_table, file_name
from ..exact.openingbook import Book
from ..exact.openingbook_files import decode_book
from ..exact.openingbook_files import file_name as book_file
from ..exact.store import decode, key_version, sets_cache, stem
from ..exact.winnable import Winnable
from .rows import Case, Outcome, percentile

PLAYED = (("english", "d4", "d4"), ("english", "d1", "d1"), ("english", "c1", "c1"), ("french", "d2", "d6"),
          ("german", "e5", "e5"), ("asymmetric", "d5", "d5"), ("diamond41", "d2", "any"), ("triangle7", "4", "any"),
          ("triangle8", "1", "any"))
"""The games of the rows: (board, start hole, goal)."""
GAMES = 2
"""Seeded random games per row."""
GOOD = 0.8
"""How often the next jump is one filed good (else any legal jump)."""
SECONDS = 10.0
"""The check's budget per position (the page's: Hint's 10 s), in CPU seconds."""
ROOT = Path(__file__).resolve().parents[2]


def exact_set(problem: Problem, stem: str) -> Winnable | None:
    """The game's winnable set from the build's cache or the committed artefacts, when one decodes here."""
    name = f"{stem}-{key_version(problem)}.bin"
    for folder in (sets_cache(), ROOT / "sets"):
        path = folder / name
        if path.is_file():
            try:
                return decode(path.read_bytes(), problem)
            except PegError:
                continue
    return None


def shipped_table(problem: Problem, stem: str) -> Endgame | None:
    """The goal's endgame table the site ships for this game (:mod:`pyapp.exact.endgame_files`), from the build's
    cache, when it is there and decodes: installed as the page installs it."""
    path = sets_cache() / file_name(stem, problem)
    try:
        return decode_table(path.read_bytes(), problem) if path.is_file() else None
    except PegError:
        return None


def shipped_book(problem: Problem) -> Book | None:
    """The game's opening book the site ships (:mod:`pyapp.exact.openingbook_files`, committed in ``sets/``), when
    it is there and decodes."""
    path = ROOT / "sets" / book_file(problem)
    try:
        return decode_book(path.read_bytes(), problem) if path.is_file() else None
    except PegError:
        return None


def install_shipped(problem: Problem) -> None:
    """The game's shipped endgame table and opening book installed as the page installs them (any installed before
    dropped), where they are here (:func:`shipped_table`, :func:`shipped_book`)."""
    endgame.clear()
    openingbook.clear()
    table = shipped_table(problem, stem(problem))
    if table is not None:
        endgame.install(table)
    book = shipped_book(problem)
    if book is not None:
        openingbook.install(book)


def played(problem: Problem, games: int, rng: random.Random, paths: dict[int, list] | None = None
           ) -> Iterator[tuple[int, int, NeverLose, float, Jump | None]]:
    """``(game, position, never-lose's answer, its CPU seconds, the jump played next)`` at every position of
    ``games`` games from the start: the check on :data:`SECONDS` CPU seconds, the next jump one it filed good with
    probability :data:`GOOD`, else any legal jump (``paths``: the jumps of each game to play instead); a game ends
    when no jump is left, a position is lost, or its path runs out (the jump played next is then None); a game played
    along ``paths`` follows its path to the end whatever the checks say, so two runs see the same positions."""
    board = problem.board
    for game in range(games):
        pos, n = problem.start, 0
        while True:
            t = time.process_time()
            r = drive(never_lose_steps(Problem(board, pos, problem.goal), budget=Budget(SECONDS, clock=CPU_CLOCK)))
            seconds = time.process_time() - t
            jumps = legal_jumps(board, pos)
            jump: Jump | None = None
            if paths is not None:  # the other run's jumps, whatever this run says (the same positions in both)
                path = paths.get(game, [])
                jump = tuple(path[n]) if n < len(path) and path[n] is not None else None
            elif r.status not in ("lost", "over") and jumps:
                good = r.jumps.good if r.jumps.good and rng.random() < GOOD else jumps
                jump = rng.choice(good)
            yield game, pos, r, seconds, jump
            if jump is None:
                break
            pos = apply_jump(pos, jump)
            n += 1


def play_case(board_id: str, start: str, goal: str) -> Case:
    stem = f"{board_id}-{start}-{goal}"
    problem = make_problem(get_board(board_id), start=start, goal=goal)
    board = problem.board

    def work(i: int, budget: Budget) -> list[dict]:
        install_shipped(problem)
        return [{"pos": pos, "seconds": seconds, "status": r.status, "line": r.line, "good": r.jumps.good,
                 "bad": r.jumps.bad, "unknown": r.jumps.unknown}
                for _, pos, r, seconds, _ in played(problem, GAMES, random.Random(28))]

    def check(i: int, raw: list[dict]) -> Outcome:
        times = [v["seconds"] for v in raw]
        unknown = sum(len(v["unknown"]) for v in raw) + sum(v["status"] == "unknown" for v in raw)
        win = exact_set(problem, stem)
        answer = (f"{len(raw)} positions of {GAMES} games: {unknown} unknown verdicts, per position p95 "
                  f"{percentile(times, 0.95):.2f} CPU s, median {statistics.median(times):.2f} s; "
                  + ("checked against the exact set" if win else "no exact set here to check against"))
        out = Outcome("played", answer)
        for v in raw:
            pos = v["pos"]
            if v["status"] == "winnable":
                end = pos
                for jump in v["line"]:
                    end = apply_jump(end, jump)
                if not problem.goal.reached(end):
                    out.wrong = f"a winnable verdict's line does not reach the goal at {board.pegs(pos)}"
                    return out
            if win is None:
                continue
            claims = [(pos, v["status"] == "winnable")] if v["status"] in ("winnable", "lost") else []
            claims += [(apply_jump(pos, j), True) for j in v["good"]] + [(apply_jump(pos, j), False) for j in v["bad"]]
            for after, wins in claims:
                if win.can_win(after) != wins:
                    out.wrong = f"a verdict disagrees with the exact set at {board.pegs(after)}"
                    return out
        if unknown:
            out.unanswered = f"{unknown} verdicts not decided within {SECONDS:g} CPU s"
        return out

    return Case(f"neverlose-play-{stem}", f"{board.title}: never lose over random games, {start} -> {goal} (search)",
                work, check, "0 disagreements with the exact set where there is one; lines replay",
                target="p95 per position < 10 s", runs=1, traced=False)


def cases() -> list[Case]:
    return [play_case(*game) for game in PLAYED]
