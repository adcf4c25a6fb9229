"""BENCHMARKS.md's table of never-lose over seeded random games, one row per game shipped with an exact set.

Its data (``benchmarks/neverlose_games.json``) joins two measurements of the same protocol (seeded random games
from the start, the next jump one the check filed good with probability 0.8, else any legal jump; a game over
at a lost position or with no jump left): ``scripts/neverlose_shipped.py`` in CPython (the page's request through
:mod:`pyapp.web.api`, its CPU time) and ``scripts/neverlose_chromium.py`` in the page (clicks on the board, the
wall time from each position's change to its answer, on the pool of 2 workers and on one worker).  Every figure
is the scripts' own; this module only lays them out and sums the totals.
"""

from __future__ import annotations

from .rows import percentile


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f}"


def section(data: dict) -> str:
    """The section: the commands, one row per game, and the totals (positions, unknown verdicts, disagreements)."""
    cpy, page = data["cpython"], data["chromium"]
    pages = {r["game"]: r for r in page["rows"]}
    out = ["### Never lose over seeded games: the games shipped with an exact set", "",
           f"{cpy['runtime']}, {cpy['date']}; the page: {page['runtime']}, {page['date']}; {data['machine']}.",
           "", "```sh", cpy["command"], page["command"], "```", "",
           "| game | shipped | games (CPython / page) | positions (CPython / page) "
           "| unknown jump verdicts (CPython / page) | CPython CPU ms, median / p95 / max "
           "| page, pool of 2: wall ms, median / p95 / max | page, 1 worker | disagreements | checked against |",
           "|---|---:|---|---|---|---|---|---|---:|---|"]
    positions = unknown = wrong = 0
    for r in cpy["rows"]:
        p = pages.get(r["game"])
        board, start, goal = r["game"].split(":")
        cells = ["-", "-", "-", "-"]  # the page's positions, unknown verdicts, pool and one-worker times
        page_wrong = 0
        if p is not None:
            pool, one = p["pool"], p["one"]
            cells = [str(pool["positions"]), str(pool["unknown_jumps"]),
                     f"{_ms(pool['median_s'])} / {_ms(pool['p95_s'])} / {_ms(pool['max_s'])}",
                     f"{_ms(one['median_s'])} / {_ms(one['p95_s'])} / {_ms(one['max_s'])}{_further(one)}"]
            page_wrong = len(p["disagreements"])
            positions += pool["positions"] + one["positions"]
            unknown += pool["unknown_jumps"] + one["unknown_jumps"]
        positions += r["positions"]
        unknown += r["unknown_jumps"]
        wrong += len(r["disagreements"]) + page_wrong
        out.append(f"| {board} {start} -> {goal} | {r['shipped_bytes'] / 1e6:.2f} MB | {r['games']} / "
                   f"{p['games'] if p else '-'} | {r['positions']:,} / {cells[0]} | {r['unknown_jumps']} / {cells[1]} "
                   f"| {r['median_ms']:,.1f} / {r['p95_ms']:,.1f} / {r['max_ms']:,.0f} | {cells[2]} | {cells[3]} "
                   f"| {len(r['disagreements']) + page_wrong} | {r['checked_against']} |")
    out += ["", f"{positions:,} answers in all (CPython, and the page on each of its paths); {unknown} jump verdicts "
                f"left unknown; {wrong} disagreements (the page's two paths against each other, CPython's against "
                f"the whole set where this machine holds it and against `solve`). {data['note']}"]
    if data.get("search"):
        out += ["", *_search(data["search"])]
    if data.get("stops"):
        out += ["", *_stops(data["stops"])]
    return "\n".join(out)


def _further(one: dict) -> str:
    """What the check that goes on while the position stays shown decided (``neverlose_chromium.py --further``)."""
    if not one.get("further_positions"):
        return ""
    decided = one["further_unknown_before"] - one["further_unknown_after"]
    return (f"; {one['unknown_jumps']} unknown, of which the further check (30 s more) decided {decided} at "
            f"{one['further_positions']} position{'s' if one['further_positions'] > 1 else ''}, at most "
            f"{_ms(one['further_max_s'])} ms after the position's change")


def _stops(stops: dict) -> list[str]:
    """A jump played while the page's pool decides (``scripts/neverlose_stops_chromium.py``): how soon the pool
    answered the stop, per run."""
    out = ["### Never lose: a jump played while the pool decides (the stop)", "",
           f"{stops['runtime']}, {stops['date']}; {stops['machine']}. {stops['note']}", "",
           "```sh", stops["command"], "```", "",
           "| version | conditions | games | stops | terminated | ms, median / p95 / max | every stop, ms | load |",
           "|---|---|---:|---:|---:|---|---|---|"]
    for r in stops["rows"]:
        how = ", ".join([*(["--fresh"] if r["fresh"] else []), *([f"--opened {r['opened']}"] if r["opened"] else []),
                         f"--delay {r['delay_s']:g}"])
        every = ", ".join(f"{ms:,}" for ms in sorted(r["ms"])) if len(r["ms"]) <= 12 else f"{len(r['ms'])} stops"
        load = f"{min(r['load_before'][0], r['load_after'][0]):g}-{max(r['load_before'][0], r['load_after'][0]):g}"
        out.append(f"| {r['version']} | {r['conditions']} ({how}) | {r['games']} | {r['stops']} | {r['terminated']} "
                   f"| {r['median_ms']:,g} / {r['p95_ms']:,g} / {r['max_ms']:,g} | {every} | {load} |")
    return out


def _page(p: dict | None) -> str:
    """A page row of ``scripts/neverlose_chromium.py`` in one cell: its games, then each path's figures."""
    if not p:
        return "-"
    pool, one = p["pool"], p["one"]
    return (f"{p['games']} games ({p['runtime_note']}): {pool['positions']} positions, "
            f"{pool['unknown_jumps']} unknown, "
            f"wall s {pool['median_s']:.2f} / {pool['p95_s']:.2f} / {pool['max_s']:.2f}; one worker "
            f"{one['unknown_jumps']} unknown, {one['median_s']:.2f} / {one['p95_s']:.2f} / {one['max_s']:.2f}; "
            f"{len(p['disagreements'])} disagreements")


def _search(rows: list[dict]) -> list[str]:
    """Games with no shipped set (the opening book, the endgame table and the search between): each row's
    positions summed up here from its run (``scripts/neverlose_games.py --jsonl``, one line per position)."""
    out = ["Games with no set to ship (answered by the game's opening book, the goal's endgame table and the search "
           "between), the same protocol on Hint's 10 s budget in CPU seconds, one line per position in the run file "
           "(goals: 0 unknown, p95 under 1 s in CPython and under 2 s in the page):",
           "", "| game | run | games | positions | unknown jump verdicts (positions with any) | unknown by pegs "
               "| CPU s per position, median / p95 / max | CPU s in all | page, pool of 2 |",
           "|---|---|---:|---:|---|---|---|---:|---|"]
    for r in rows:
        ps = r["positions"]
        seconds = [p["s"] for p in ps]
        by_pegs: dict[int, int] = {}
        for p in ps:
            if p["unknown"]:
                by_pegs[p["pegs"]] = by_pegs.get(p["pegs"], 0) + p["unknown"]
        spread = ", ".join(f"{n} at {k}" for k, n in sorted(by_pegs.items(), reverse=True)) or "-"
        whole = sum(p["status"] == "unknown" for p in ps)
        out.append(f"| {r['game'].replace(':', ' ', 1).replace(':', ' -> ')} | `{r['run']}` ({r['date']}) "
                   f"| {len({p['game'] for p in ps})} | {len(ps):,} | {sum(p['unknown'] for p in ps):,} "
                   f"({sum(1 for p in ps if p['unknown'])}; {whole} unknown as a whole) | {spread} "
                   f"| {percentile(seconds, 0.5):.3f} / {percentile(seconds, 0.95):.2f} / "
                   f"{max(seconds):.2f} | {sum(seconds):,.0f} | {_page(r.get('page'))} |")
    out += ["", "Command: " + "; ".join(f"`{r['command']}`" for r in rows) + "."]
    return out
