"""How soon never-lose's pool answers a stop, in headless Chromium: jumps played while the pool decides.

A stop is what a player causes by playing before the never-lose note has answered: every question running on the
page's pool is asked to stop and answers with what it did (``static/panels/neverpool.mjs``); a pool worker that has
not answered within the grace period is terminated, and the pool starts afresh the next time it is needed (two
runtimes booted, the game's sets decoded again).  The page records each stop in ``window.pegLab.neverloseStops``:
the milliseconds from the stop until every pool worker answered or was terminated, and whether one was.

Method: seeded random games of one game of the catalogue in a page opened with ``?workers=N`` and never-lose on
(warmed first by an untimed check on triangle 7, which also starts the pool, as ``neverlose_chromium.py`` does).
After each jump the script waits until the check has gone to the pool, then a random delay (0 to ``--delay``
seconds: a stop then lands in any phase of a check, the sets still loading in a new pool's workers included), and
plays a random legal jump if the check still runs (a stop), else after the answer.  Printed per game: stops, their
milliseconds (median, p95, max), terminations; then the whole row as JSON, with the load average before and after.

    python scripts/neverlose_stops_chromium.py french:d2:d6 [--games 3] [--workers 2] [--delay 1.5] [--fresh]
                                              [--opened K] [--dist DIR] [--seed 28] [--out FILE]

``--fresh`` plays each game in a new page: its pool's workers then fetch and decode the game's endgame table and
opening book while they decide the first questions; ``--opened K`` opens each game by a link K jumps into the
solver's line (French, 12: 24 pegs, past the opening book and above the table's reach, where the pool searches for
seconds).  Together: the case where a stop used to wait longest.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from neverlose_chromium import game_arguments, new_game, open_page, pegs, run_rows  # noqa: E402

from pyapp.bench.rows import percentile  # noqa: E402

ON_POOL = ("(() => { const nl = window.pegLab.store.state.neverlose;"
           " return nl.checking ? (nl.pool ? 'pool' : 'check') : 'answered'; })()")
STOPS = "window.pegLab.neverloseStops"


def wait_pool_or_answer(page, timeout: float = 60.0) -> str:
    """'pool' once the running check has gone to the pool, 'answered' once it has answered (polled: the page's
    CSP refuses string predicates in wait_for_function)."""
    deadline = time.monotonic() + timeout
    while (state := page.evaluate(ON_POOL)) == "check":
        if time.monotonic() > deadline:
            raise SystemExit(f"the check neither went to the pool nor answered within {timeout} s")
        time.sleep(0.02)
    return state


def play_with_stops(page, fragment: str, rng: random.Random, delay: float) -> list[dict]:
    """One game, every jump played after a random delay once the check is on the pool; the stops it caused."""
    new_game(page, fragment)
    first = len(page.evaluate(STOPS))
    while legal := page.evaluate("window.pegLab.store.state.board.legal"):
        if wait_pool_or_answer(page) == "pool":
            time.sleep(rng.uniform(0, delay))
        jump = rng.choice(legal)
        n = pegs(page)
        page.click(f"[data-hole='{jump[0]}']")
        page.click(f"[data-hole='{jump[2]}']")
        while pegs(page) != n - 1:
            time.sleep(0.02)
    # the last stop is recorded once its workers have answered (or the grace has passed)
    time.sleep(3)
    return page.evaluate(STOPS)[first:]


def summary(stops: list[dict]) -> dict:
    ms = sorted(s["ms"] for s in stops)
    return {"stops": len(ms), "terminated": sum(bool(s["terminated"]) for s in stops),
            "median_ms": statistics.median(ms) if ms else None, "p95_ms": percentile(ms, 0.95) if ms else None,
            "max_ms": ms[-1] if ms else None}


def opening(board_name: str, start: str, goal: str, jumps: int) -> str:
    """The link's moves: the first ``jumps`` jumps of the solver's line for the game ("" for none)."""
    if not jumps:
        return ""
    from pyapp.core.catalogue import get_board
    from pyapp.core.problem import make_problem
    from pyapp.search.solver import solve

    board = get_board(board_name)
    line = solve(make_problem(board, start=start, goal=goal)).jumps[:jumps]
    return "&moves=" + ",".join(f"{board.name_of[a]}-{board.name_of[c]}" for a, _, c in line)


def run_row(browser, base: str, game: str, games: int, workers: int, seed: int, delay: float, fresh: bool,
            opened: int) -> dict:
    board, start, goal = game.split(":")
    fragment = f"#board={board}&start={start}&goal={goal}" + opening(board, start, goal, opened)
    page = open_page(browser, base, workers)
    rng = random.Random(seed)
    load = os.getloadavg()
    stops: list[dict] = []
    errors: list[str] = []
    for g in range(games):
        if fresh and g:  # a new page: a new pool, whose workers load the game's sets during its first questions
            errors += page.errors
            page.context.close()
            page = open_page(browser, base, workers)
        got = play_with_stops(page, fragment, rng, delay)
        stops += got
        print(f"{game} game {g}: {summary(got)}", file=sys.stderr, flush=True)
    errors += page.errors
    page.context.close()
    return {"game": game, "games": games, "seed": seed, "workers": workers, "delay_s": delay, "fresh": fresh,
            "opened": opened,
            **summary(stops),
            "ms": [s["ms"] for s in stops], "page_errors": errors, "load_before": [round(x, 1) for x in load],
            "load_after": [round(x, 1) for x in os.getloadavg()]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    game_arguments(parser, 3)
    parser.add_argument("--delay", type=float, default=1.5, help="the longest wait before a jump, in seconds (1.5)")
    parser.add_argument("--fresh", action="store_true",
                        help="each game in a new page (a new pool, loading the game's sets while it decides)")
    parser.add_argument("--opened", type=int, default=0,
                        help="each game opened by a link this many jumps into the solver's line (0)")
    args = parser.parse_args(argv)
    rows = run_rows(args, "neverlose-stops", lambda browser, base, game: run_row(
        browser, base, game, args.count, args.workers, args.seed, args.delay, args.fresh, args.opened))
    return 1 if any(r["terminated"] or r["page_errors"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
