"""How big the winnable set of every standard game is, and what it costs: ``python scripts/measure_sets.py``.

For each game (every English single-vacancy start to its own hole and to the centre, the French
single-vacancy games to their own hole and the French default d2 -> d6, asymmetric d5 -> d5, German
e5 -> e5, Diamond 41 d2 -> any, triangles 7 and 8 from their defaults) it says whether the position
class allows the goal, and the estimate of :func:`pyapp.exact.estimate.estimate_positions` (positions
the meeting count stores, up to symmetry).  With ``--compute SECONDS`` every game whose estimate is
below that many CPU seconds is computed in this process (:func:`pyapp.exact.winnable.winnable`): its
classes per level, the bytes of the shipped format (:func:`pyapp.exact.store.encode`, and of the
solutions-left file when the counts fit), and the CPU seconds of each part.  ``--out FILE`` writes JSON;
``--update FILE`` replaces the rows of the games measured in that JSON and keeps the others.

``--floors 18,19,20`` measures, for an own-hole game, the set shipped only from each of those peg counts up
(:mod:`pyapp.exact.partial`; ``K/L``, for any game: from ``K`` up and from ``L`` down; ``K/table``: from ``K`` up
over the goal's endgame table, :mod:`pyapp.exact.overtable`): its bytes and classes,
the CPU and peak memory to decode it (in a fresh process), and the CPU milliseconds of a never-lose answer
(:func:`pyapp.analysis.neverlose_exact.never_lose_exact`, its search's verdicts forgotten before each) on every
position of seeded games whose answer needs the search between the shipped levels and their complements (or
the shipped low levels): half the games play a random winnable jump while one is left, half any random jump.
``--whole FOLDER`` reads a whole set saved there (``--save``) instead of computing it.

    nice python scripts/measure_sets.py --compute 900 --out benchmarks/sets.json
    nice python scripts/measure_sets.py --compute 900 --only english-c1-c1 --whole DIR --floors 18,19,20 \
        --update benchmarks/sets.json
    nice python scripts/measure_sets.py --compute 900 --only triangle7-4-any --whole DIR --floors 18/10,17/10 \
        --update benchmarks/sets.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from pyapp.analysis.neverlose_exact import never_lose_exact, prepare_steps  # noqa: E402
from pyapp.bench.rows import percentile  # noqa: E402
from pyapp.core.budget import drive  # noqa: E402
from pyapp.core.catalogue import get_board, get_entry  # noqa: E402
from pyapp.core.moves import apply_jump, legal_jumps  # noqa: E402
from pyapp.core.problem import Problem, make_problem  # noqa: E402
from pyapp.exact.endgame import install  # noqa: E402
from pyapp.exact.endgame_files import sweep_table  # noqa: E402
from pyapp.exact.estimate import MICROSECONDS_PER_POSITION, estimate_positions  # noqa: E402
from pyapp.exact.overbits import BitsOverTable  # noqa: E402
from pyapp.exact.overtable import OverTable, over_table  # noqa: E402
from pyapp.exact.partial import PartialWinnable, partial  # noqa: E402
from pyapp.exact.store import decode, encode, encode_ways, start_hole  # noqa: E402
from pyapp.exact.ways import ways_steps  # noqa: E402
from pyapp.exact.winnable import Winnable, clear_cache, register, winnable  # noqa: E402
from pyapp.web.sets import SHIPPED, Game, file_name  # noqa: E402


def representatives(board_id: str) -> list[str]:
    """One hole of each symmetry class of the board's holes, in reading order."""
    board = get_board(board_id)
    seen: set[int] = set()
    out = []
    for bit, name in zip(board.bits, board.names):
        if bit in seen:
            continue
        out.append(name)
        seen.update(board.transform(1 << bit, g).bit_length() - 1 for g in range(len(board.symmetries)))
    return out


def games() -> list[tuple[str, str, str]]:
    """(board, start hole, goal) of every game measured."""
    out = []
    for hole in representatives("english"):
        out.append(("english", hole, hole))
        if hole != "d4":
            out.append(("english", hole, "d4"))
    for hole in representatives("french"):
        out.append(("french", hole, hole))
    out.append(("french", "d2", "d6"))
    for board_id in ("asymmetric", "german", "diamond41", "triangle7", "triangle8"):
        entry = get_entry(board_id)
        out.append((board_id, entry.start, entry.goal))
    return out


GAMES_PER_FLOOR = 100
"""Seeded games played per floor measured (each answer of a position between the levels is timed)."""


PEAK = """
import sys, time
sys.path.insert(0, sys.argv[1])
from pyapp.exact.store import decode
from pyapp.web.sets import Game
def peak():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
problem = Game(*sys.argv[3:6]).problem()
data = open(sys.argv[2], "rb").read()
before = peak()
t0 = time.process_time()
win = decode(data, problem)
print(time.process_time() - t0, before, peak())
"""
"""Decodes a file in a fresh process: its CPU seconds and the process's peak resident kB (``VmHWM``, which,
unlike ``ru_maxrss``, does not carry the parent's peak across the fork) before and after."""


def decode_peak(data: bytes, problem_args: tuple[str, str, str]) -> dict:
    """The CPU seconds and peak resident memory (MB, the whole process's, and its growth over the process
    with the engine imported and the file read) of decoding ``data`` in a fresh CPython process (Linux)."""
    with tempfile.NamedTemporaryFile(suffix=".bin") as f:
        f.write(data)
        f.flush()
        out = subprocess.run([sys.executable, "-c", PEAK, ROOT, f.name, *problem_args], check=True,
                             capture_output=True, text=True).stdout.split()
    cpu, before, after = float(out[0]), int(out[1]), int(out[2])
    return {"cpu_decode": round(cpu, 2), "peak_rss_mb": round(after / 1024, 1),
            "decode_rss_mb": round((after - before) / 1024, 1)}


def measure_floor(win: Winnable, floor: int, upto: int = 0, table: bool = False) -> dict:
    """What shipping ``win`` from ``floor`` pegs up (and from ``upto`` down, when given; over the goal's endgame
    table, shipped by the site, when ``table``) costs (see the module docstring)."""
    data = encode(over_table(win, floor) if table else partial(win, floor, upto))
    row = floor_row(win.problem, data, decode(data, win.problem), floor, upto, table, win.can_win, GAMES_PER_FLOOR)
    register(win)
    return row


def floor_row(problem: Problem, data: bytes, part: Winnable, floor: int, upto: int, table: bool,
              good: Callable[[int], bool] | None, games: int) -> dict:
    """The bytes, classes and decoding cost (in a fresh process) of the set file ``data`` shipped from ``floor`` pegs
    up, decoded here as ``part``, and the CPU of a never-lose answer on ``games`` seeded games (half following jumps
    ``good`` calls winnable; None: the file's own exact answer, for a file over the goal's table)."""
    board, goal = problem.board, problem.goal
    row: dict = {"from": floor, **({"upto": upto} if upto else {}), **({"over": "endgame table"} if table else {}),
                 "bytes": len(data), "classes": len(part), "key_bytes": part.nbytes}
    if isinstance(part, BitsOverTable):
        row.update(format="bits", reachable=part.reachable_classes)
    game = (board.id, start_hole(problem), goal.text(board))
    row.update(decode_peak(data, game))
    assert isinstance(part, PartialWinnable)
    memo = part.memo
    if table:  # the table the site ships for the goal
        assert isinstance(part, OverTable)
        install(sweep_table(problem))
        memo = part.table(problem.start).memo
    register(part)  # never_lose_exact finds it as it finds a shipped set
    won = good or part.can_win
    rng = random.Random(floor)
    cpu_ms: list[float] = []
    for game_no in range(games):
        history = [problem.start]
        while jumps := legal_jumps(board, history[-1]):
            pos = history[-1]
            if (floor - 1 if table else part.low + 1) <= pos.bit_count() <= (problem.start.bit_count() if table
                                                                              else floor):
                # over a table: every answer whose line or jumps it reads; else: those the search answers
                memo.clear()
                t0 = time.process_time()
                assert drive(prepare_steps(board, goal, history))
                assert never_lose_exact(board, goal, history) is not None
                cpu_ms.append((time.process_time() - t0) * 1e3)
            good_jumps = [j for j in jumps if won(apply_jump(pos, j))] if game_no % 2 == 0 else []
            history.append(apply_jump(pos, rng.choice(good_jumps or jumps)))
    row.update(answers=len(cpu_ms), p50_ms=round(percentile(cpu_ms, 0.5), 2),
               p95_ms=round(percentile(cpu_ms, 0.95), 2), max_ms=round(max(cpu_ms, default=0.0), 2))
    return row


def measure_artefact(row: dict, game: Game, games: int) -> dict:
    """A game shipped over its goal's table as a committed artefact (its whole set is never built), measured from
    that file: the held levels' winnable classes, and the file as :func:`floor_row` measures it."""
    with open(os.path.join(ROOT, "sets", file_name(game)), "rb") as f:
        data = f.read()
    problem, floor = game.problem(), game.floor
    assert floor is not None
    held = decode(data, problem)
    row.update(held_classes=len(held), levels=held.counts(), shipped="committed artefact", shipped_from=floor,
               floors=[floor_row(problem, data, held, floor, 0, True, None, games)])
    clear_cache()
    return row


def measure(board_id: str, start: str, goal: str, compute: float, save: str | None = None,
            whole: str | None = None, floors: tuple[tuple[int, int, bool], ...] = (), artefacts: int = 0) -> dict:
    board = get_board(board_id)
    problem = make_problem(board, start=start, goal=goal)
    row: dict = {"board": board_id, "start": start, "goal": goal}
    obstacle = problem.goal.obstacle(board, problem.start)
    if obstacle:
        row["obstacle"] = obstacle
        return row
    guess = estimate_positions(problem)
    row["estimated_positions"] = guess["positions"]
    row["estimated_cpu"] = round(guess["positions"] * MICROSECONDS_PER_POSITION / 1e6, 1)
    over = [g for g in SHIPPED if g.over_table and g.artefact and (g.board, g.start, g.goal) == (board_id, start, goal)]
    if artefacts and over:
        return measure_artefact(row, over[0], artefacts)
    if row["estimated_cpu"] > compute:
        return row
    clear_cache()
    t0 = time.process_time()
    path = os.path.join(whole, file_name(Game(board_id, start, goal))) if whole else None
    if path and os.path.isfile(path):
        with open(path, "rb") as f:
            win = decode(f.read(), problem)  # its CPU to build: from the run that saved it (--update keeps it)
    else:
        win = winnable(problem)
        row["cpu_winnable"] = round(time.process_time() - t0, 1)
    row["classes"] = len(win)
    row["levels"] = win.counts()
    data = encode(win)
    row["bytes"] = len(data)
    if save:
        os.makedirs(save, exist_ok=True)
        with open(os.path.join(save, file_name(Game(board_id, start, goal))), "wb") as f:
            f.write(data)
    if floors:  # shipped from a level up: no solution counts (they need every level)
        row["floors"] = [measure_floor(win, floor, upto, table) for floor, upto, table in floors]
        shipped = [g for g in SHIPPED if (g.board, g.start, g.goal) == (board_id, start, goal) and g.floor]
        if shipped:
            row.update(shipped="committed artefact", shipped_from=shipped[0].floor)
            if shipped[0].upto:
                row["shipped_upto"] = shipped[0].upto
        clear_cache()
        return row
    t0 = time.process_time()
    try:
        row["ways_bytes"] = len(encode_ways(win, drive(ways_steps(win))))
    except OverflowError:
        row["ways_bytes"] = None  # a count past 2**64 - 1: no funnel file
    row["cpu_ways"] = round(time.process_time() - t0, 1)
    clear_cache()
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compute", type=float, default=0.0, help="compute games estimated below this CPU s")
    parser.add_argument("--only", help="board ids or games (board-start-goal), comma-separated")
    parser.add_argument("--save", help="also write each computed set file into this folder (named as shipped)")
    parser.add_argument("--whole", help="read each whole set from this folder when saved there (else compute it)")
    parser.add_argument("--floors", help="peg counts to measure shipping the set from (own-hole games), or "
                        "K/L: from K up and from L down (any game), or K/table: from K up over the goal's "
                        "endgame table")
    parser.add_argument("--artefacts", type=int, default=0, metavar="GAMES",
                        help="measure each game shipped over its goal's table from its committed file, on GAMES games")
    parser.add_argument("--out")
    parser.add_argument("--update", help="a JSON written by --out: replace the rows of the games measured")
    args = parser.parse_args()
    floors = tuple((int(k), 0 if low == "table" else int(low or 0), low == "table")
                   for k, _, low in (f.partition("/") for f in args.floors.split(","))) if args.floors else ()
    rows = []
    for board_id, start, goal in games():
        if args.only and not {board_id, f"{board_id}-{start}-{goal}"} & set(args.only.split(",")):
            continue
        row = measure(board_id, start, goal, args.compute, args.save, args.whole, floors, args.artefacts)
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.update:
        _update(args.update, rows)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({"python": sys.version.split()[0], "date": time.strftime("%Y-%m-%d"),
                       "machine": f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end",
                       "commands": [" ".join(["python", *sys.argv])], "games": rows}, f, indent=1)


def _update(path: str, rows: list[dict]) -> None:
    """Replace the rows of ``rows``' games in the JSON at ``path``, keeping what they do not measure again
    (the CPU to build a set read with ``--whole``, what the page does with it) and the other rows."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    new = {(r["board"], r["start"], r["goal"]): r for r in rows}
    for i, old in enumerate(data["games"]):
        row = new.get((old["board"], old["start"], old["goal"]))
        if row is not None:
            data["games"][i] = {**old, **row}
            if "shipped" in row:  # a game that ships now: the old reason it did not is gone
                data["games"][i].pop("not_shipped", None)
    command = " ".join(["python", *sys.argv])
    data["commands"] = [*[c for c in data["commands"] if c != command], command]
    data["machine"] = f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end of the last run"
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
