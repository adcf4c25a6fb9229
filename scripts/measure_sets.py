"""How big the winnable set of every standard game is, and what it costs: ``python scripts/measure_sets.py``.

For each game (every English single-vacancy start to its own hole and to the centre, the French
single-vacancy games to their own hole and the French default d2 -> d6, asymmetric d5 -> d5, German
e5 -> e5, Diamond 41 d2 -> any, triangles 7 and 8 from their defaults) it says whether the position
class allows the goal, and the estimate of :func:`pyapp.exact.estimate.estimate_positions` (positions
the meeting count stores, up to symmetry).  With ``--compute SECONDS`` every game whose estimate is
below that many CPU seconds is computed in this process (:func:`pyapp.exact.winnable.winnable`): its
classes per level, the bytes of the shipped format (:func:`pyapp.exact.store.encode`, and of the
solutions-left file when the counts fit), and the CPU seconds of each part.  ``--out FILE`` writes JSON.

    nice python scripts/measure_sets.py --compute 900 --out benchmarks/sets.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pyapp.core.budget import drive  # noqa: E402
from pyapp.core.catalogue import get_board, get_entry  # noqa: E402
from pyapp.core.problem import make_problem  # noqa: E402
from pyapp.exact.estimate import MICROSECONDS_PER_POSITION, estimate_positions  # noqa: E402
from pyapp.exact.store import encode, encode_ways  # noqa: E402
from pyapp.exact.ways import ways_steps  # noqa: E402
from pyapp.exact.winnable import clear_cache, winnable  # noqa: E402
from pyapp.web.sets import Game, file_name  # noqa: E402


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


def measure(board_id: str, start: str, goal: str, compute: float, save: str | None = None) -> dict:
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
    if row["estimated_cpu"] > compute:
        return row
    clear_cache()
    t0 = time.process_time()
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
    parser.add_argument("--out")
    args = parser.parse_args()
    rows = []
    for board_id, start, goal in games():
        if args.only and not {board_id, f"{board_id}-{start}-{goal}"} & set(args.only.split(",")):
            continue
        row = measure(board_id, start, goal, args.compute, args.save)
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({"python": sys.version.split()[0], "date": time.strftime("%Y-%m-%d"),
                       "machine": f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end",
                       "commands": [" ".join(["python", *sys.argv])], "games": rows}, f, indent=1)


if __name__ == "__main__":
    main()
