"""BENCHMARKS.md's table of the standard games' winnable sets, from ``benchmarks/sets.json``.

Why: whether a game's never-lose answers come from an exact set (milliseconds, no search) or from the
search depends on the set's size and the CPU it takes to build; ``scripts/measure_sets.py`` measures both
for every standard game and this table shows them beside what the page does with each (shipped by the
build, committed as an artefact, or left to the search, and why).  Every figure is read from the JSON.
"""

from __future__ import annotations

from collections.abc import Callable


def _int(value: object) -> str:
    return f"{value:,}" if isinstance(value, int) else "-"


def _mb(value: object) -> str:
    return f"{value / 1e6:.2f} MB" if isinstance(value, int) else "-"


def _cpu(game: dict) -> str:
    if "cpu_winnable" in game:
        ways = f" + {game['cpu_ways']:.0f} s counts" if "cpu_ways" in game else ""
        return f"{game['cpu_winnable']:.0f} s{ways}"
    return f"est. {game['estimated_cpu']:,.0f} s" if "estimated_cpu" in game else "-"


def _levels(f: dict) -> str:
    over = " up over the goal's endgame table" if f.get("over") else ""
    return f"from {f['from']} pegs" + (f" up and {f['upto']} down" if f.get("upto") else over)


def _floor_text(f: dict) -> str:
    peak = f", {f['peak_rss_mb']:.0f} MB peak RSS" if "peak_rss_mb" in f else ""
    where = "from the set and the table" if f.get("over") else "between the levels"
    if f.get("format") == "bits":  # one bit per reachable class, read in place (pyapp/exact/overbits.py)
        held = (f"{f['classes']:,} winnable of {f['reachable']:,} reachable classes (one bit each, read in place: "
                f"loaded in {f['cpu_decode']:.2f} CPU s{peak})")
    else:
        held = (f"{f['classes']:,} classes ({f['key_bytes'] / 1e6:.0f} MB of keys, decoded in "
                f"{f['cpu_decode']:.1f} CPU s{peak})")
    return (f"{_levels(f)}: {f['bytes'] / 1e6:.2f} MB, {held}; "
            f"never-lose {where}: p50 {f['p50_ms']:.1f}, p95 {f['p95_ms']:.1f}, max {f['max_ms']:.0f} CPU ms over "
            f"{f['answers']:,} answers")


def _chromium(c: dict | None) -> str:
    """The shipped choice measured in Pyodide (``scripts/sets_chromium.py``), when it was."""
    if not c:
        return ""
    ms = c["python_ms"]
    return (f" In Chromium, shipped {_levels(c)}: the first answer {c['first_ms']:,} ms (fetch, decode, "
            f"answer), then p50 {ms['p50']:.0f}, p95 {ms['p95']:.0f}, max {ms['max']:.0f} ms over {c['answers']} "
            f"answers that need the search ({c['browser_cpu_s']:.1f} CPU s of the browser in all; load "
            f"{c['load']:.1f}).")


def _floors(games: list[dict]) -> list[str]:
    """The shipping choices measured for the own-hole games shipped from a level up."""
    out = []
    for g in games:
        if g.get("floors"):
            whole = f"whole set {_mb(g['bytes'])}" if "bytes" in g else "the whole set never built"
            out.append(f"- {g['board']} {g['start']} -> {g['goal']} ({whole}): "
                       + "; ".join(_floor_text(f) for f in g["floors"]) + "." + _chromium(g.get("chromium")))
    if not out:
        return []
    return ["", "Games shipped from a level up (`--floors`): an own-hole game's set is closed under complement, "
            "so a position with few pegs is looked up through its complement and one between by an exhaustive "
            "search down to the level the complements answer (`pyapp/exact/partial.py`); another game (`K/L`) ships "
            "its low levels too, from L pegs down, and the search between ends in them; a big board's game (`K/table`) "
            "ships from K up over its goal's endgame table, which answers every level under K (`pyapp/exact/overtable."
            "py`; its answer times: every position from K - 1 pegs up, the table's memo emptied before each, its "
            "searches settled first); peak RSS is a fresh CPython "
            "process's that decodes the file; the answer times are CPython "
            "CPU milliseconds of a whole never-lose answer (every jump and the line to the goal), the search's "
            "verdicts forgotten before each, on seeded games' positions whose answer needs the search; in Chromium "
            "(`python scripts/sets_chromium.py GAMES --out benchmarks/sets.json`) the worker keeps them, as in play.",
            "", *out]


def _method(game: dict) -> str:
    if "obstacle" in game:
        return f"impossible: {game['obstacle']}"
    if "shipped" in game:
        held = [f for f in game.get("floors", [])
                if (f["from"], f.get("upto")) == (game.get("shipped_from"), game.get("shipped_upto"))]
        if held and held[0].get("over"):
            return f"exact set {_levels(held[0])} ({held[0]['bytes'] / 1e6:.2f} MB); {game['shipped']}"
        if held:
            rest = "a short search down to them" if held[0].get("upto") else "complements and a short search"
            return (f"exact set {_levels(held[0])}{'' if held[0].get('upto') else ' up'} "
                    f"({held[0]['bytes'] / 1e6:.2f} MB), the rest through {rest}; {game['shipped']}")
        return f"exact set, {game['shipped']}"
    if "not_shipped" in game:
        return f"search; set not shipped: {game['not_shipped']}"
    cpu = game.get("estimated_cpu", 0.0)
    if cpu < 900:
        return "search (set not computed yet: buildable as a committed artefact, `scripts/make_sets.py`)"
    return f"search (set not built: estimated {cpu / 3600:.1f} CPU hours)"


def section(data: dict) -> str:
    """The games table: one row per game that is not ruled out by position class, then a count of those."""
    rows = [g for g in data["games"] if "obstacle" not in g]
    ruled = [g for g in data["games"] if "obstacle" in g]
    out = ["### The standard games' winnable sets", "",
           f"CPython {data['python']}; {data['machine']}.", "", "```sh", *data["commands"], "```", "",
           "| game | never-lose answers from | positions (estimated) | winnable classes | set | solution counts "
           "| CPU to build |", "|---|---|---:|---:|---:|---:|---:|"]
    for g in rows:
        classes = (f"{g['held_classes']:,} from {g['shipped_from']} pegs up" if "held_classes" in g
                   else _int(g.get("classes")))
        out.append(f"| {g['board']} {g['start']} -> {g['goal']} | {_method(g)} | {_int(g.get('estimated_positions'))} "
                   f"| {classes} | {_mb(g.get('bytes'))} | {_mb(g.get('ways_bytes'))} | {_cpu(g)} |")
    out += _floors(rows)
    if ruled:
        names = ", ".join(f"{g['board']} {g['start']} -> {g['goal']}" for g in ruled)
        out += ["", f"Ruled out by position class, no set needed ({len(ruled)}): {names}."]
    return "\n".join(out)


def endgame(data: dict) -> str:
    """The goals' endgame tables (``benchmarks/endgame.json``, ``scripts/endgame_tables.py``): each table's size
    and sweep, and never-lose on the same positions without and with it."""
    out = ["### The goals' endgame tables", "",
           f"CPython {data['python']}, Pyodide under Node for the sweep's second figure; {data['date']}; 2 cores "
           "shared with other work (CPU seconds).", "", "```sh", data["command"], "```", "",
           "Never-lose (Hint's 10 s, in CPU seconds) at every position of seeded games from the command's `--top` "
           "pegs down, without the table, then with it, on the same positions.", "",
           "| game | lookup up to | exact up to | classes | keys | sweep CPU s (CPython / Pyodide) | positions "
           "| median s (without / with) | p95 s | max s | unknown | answered by the table | disagreements |",
           "|---|---:|---:|---:|---:|---|---:|---|---|---|---|---:|---:|"]
    for g in data["games"]:
        a, b = g["without"], g["with"]
        pyodide = "-" if g.get("build_pyodide") is None else f"{g['build_pyodide']:.2f}"
        out.append(f"| {g['game'].replace(':', ' ', 1).replace(':', ' -> ')} | {g['lookup_pegs']} pegs "
                   f"| {g['ceiling'] + 1} pegs | {_int(g['classes'])} | {_mb(g['key_bytes'])} "
                   f"| {g['build_cpu']:.2f} / {pyodide} | {a['positions']} | {a['median']:.3f} / {b['median']:.3f} "
                   f"| {a['p95']:.2f} / {b['p95']:.2f} | {a['max']:.2f} / {b['max']:.2f} "
                   f"| {a['unknown']} / {b['unknown']} | {b['by_table']} | {g['disagreements']} |")
    shipped = [g for g in data["games"] if g.get("shipped")]
    if shipped:
        out += ["", "With the deeper table the site ships for the goal (`--shipped`, `pyapp/exact/endgame_files.py`: "
                "swept by the build, fetched by the page on the game's first check), on the same positions; "
                "disagreements against the first mode's decided verdicts:", "",
                "| game | lookup up to | exact up to | classes | file | sweep / decode CPU s | median s | p95 s "
                "| max s | unknown | answered by the table | disagreements |",
                "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|"]
        for g in shipped:
            t, r = g["shipped"], g["shipped"]["summary"]
            out.append(f"| {g['game'].replace(':', ' ', 1).replace(':', ' -> ')} | {t['lookup_pegs']} pegs "
                       f"| {t['ceiling'] + 1} pegs | {_int(t['classes'])} | {_mb(t['file_bytes'])} "
                       f"| {t['sweep_cpu']:.1f} / {t['decode_cpu']:.2f} | {r['median']:.3f} | {r['p95']:.2f} "
                       f"| {r['max']:.2f} | {r['unknown']} | {r['by_table']} | {t['disagreements']} |")
    pages = [g for g in data["games"] if g.get("chromium")]
    if pages:
        first = pages[0]["chromium"]
        out += ["", f"In the page (`scripts/endgame_chromium.py`: Pyodide in Chromium, a fresh profile, the pool of "
                f"{first['workers']} workers, the same positions opened by links; the milliseconds the page records "
                "from each position's change to its verdict, wall time; the shipped table fetched beside the game's "
                "first check):", "", "```sh", *sorted({g["chromium"]["command"] for g in pages}), "```", "",
                "| game | positions | median ms | p95 ms | max ms | positions left unknown "
                "| answered by the shipped table | measured |", "|---|---:|---:|---:|---:|---:|---:|---|"]
        for g in pages:
            c = g["chromium"]
            out.append(f"| {g['game'].replace(':', ' ', 1).replace(':', ' -> ')} | {c['positions']} "
                       f"| {c['median_ms']:,} | {c['p95_ms']:,} | {c['max_ms']:,} | {c['unknown']} | {c['by_shipped']} "
                       f"| {c['date']}, load {c['load'][0]}-{c['load'][1]} |")
    return "\n".join(out)


def books(data: dict) -> str:
    """The games' opening books (``benchmarks/books.json``, ``scripts/opening_book.py``): what each holds and cost,
    and never-lose at the positions it holds, with and without it."""
    out = ["### The games' opening books", "",
           "Each class of the deepest level decided once by the solver (CPU seconds each, on this 2-core machine "
           "shared with other work), every level above following from the one below (`pyapp/exact/openingbook.py`); "
           "the file is committed in `sets/` and shipped.", "",
           "| game | deepest | classes decided / reached, by level (won + lost / reached) | solver CPU s | "
           "decided by | file | measured |", "|---|---:|---|---:|---|---:|---|"]
    for name, g in data["games"].items():
        b = g.get("book")
        if not b:
            continue
        levels = ", ".join(f"{p}: {w:,} + {lo:,} / {r:,}" + (" (the children of the winnable classes above)"
                                                              if b.get("under_won") and int(p) == b["deepest"] else "")
                           for p, (w, lo, r) in b["levels"].items())
        methods = ", ".join(f"{m} {n:,}" for m, n in sorted(b["by_method"].items(), key=lambda x: -x[1]))
        out.append(f"| {name} | {b['deepest']} pegs | {levels} | {b['cpu']:,.0f} | {methods} "
                   f"| {b['bytes'] / 1000:,.0f} KB | {b['date']}, CPython {b['python']} |")
    out += _games_table(
        data, "measure", "Never-lose (Hint's 10 s, in CPU seconds) at every position the book's levels hold on seeded "
        "games from the start (a jump the book proves good with probability 0.8, else any legal jump), without the "
        "book, then with it, on the same positions (`--measure GAMES`):",
        "| game | games | positions | median s (without / with) | p95 s | max s | unknown jumps "
        "| answered by the book | disagreements | measured |", "|---|---:|---:|---|---|---|---|---:|---:|---|",
        lambda m, a, b: f"{m['games']} | {m['count']} | {a['median']:.3f} / {b['median']:.4f} | {a['p95']:.2f} / "
        f"{b['p95']:.4f} | {a['max']:.2f} / {b['max']:.4f} | {a['unknown']} / {b['unknown']} | {m['from_book']} "
        f"| {m['disagreements']}", ("without", "with"))
    out += _games_table(
        data, "along", "Past the book: never-lose (Hint's 10 s, in CPU seconds) at the positions of seeded games with "
        "the given pegs, before and after a change, on the same positions (one run following the other's jumps; "
        "`scripts/neverlose_games.py`, both runs side by side):",
        "| game | change | positions (pegs) | median s (before / after) | p95 s | CPU s in all "
        "| jump verdicts decided | left unknown | measured |", "|---|---|---|---|---|---|---|---|---|",
        lambda m, x, y: f"{m['label']} | {m['positions']} ({m['pegs'][0]}-{m['pegs'][1]}) | {x['median']:.2f} / "
        f"{y['median']:.2f} | {x['p95']:.2f} / {y['p95']:.2f} | {x['cpu']:,.1f} / {y['cpu']:,.1f} "
        f"| {x['decided']} / {y['decided']} | {x['unknown']} / {y['unknown']}", ("before", "after"))
    pages = [(name, g["chromium"]) for name, g in data["games"].items() if g.get("chromium")]
    if pages:
        out += ["", "In the page, at the same positions (`scripts/endgame_chromium.py --opening`: Pyodide in "
                f"Chromium, a fresh profile, the pool of {pages[0][1]['workers']} workers, each position opened by a "
                "link; the milliseconds the page records from the position's change to its verdict, wall time; "
                "the book fetched before the game's first check):", "",
                "```sh", *sorted({c["command"] for _, c in pages}), "```", "",
                "| game | positions | median ms | p95 ms | max ms | positions left unknown | answered by the book "
                "| measured |", "|---|---:|---:|---:|---:|---:|---:|---|"]
        for name, c in pages:
            out.append(f"| {name} | {c['positions']} | {c['median_ms']:,} | {c['p95_ms']:,} | {c['max_ms']:,} "
                       f"| {c['unknown']} | {c['by_shipped']} | {c['date']}, load {c['load'][0]}-{c['load'][1]} |")
    return "\n".join(out + _past_in_page(data))


def _past_in_page(data: dict) -> list[str]:
    """The page past the book (``scripts/endgame_chromium.py --follow``): the positions of a CPython run of
    ``scripts/neverlose_games.py``, opened by links, beside that run's CPU seconds at the same positions."""
    runs = [(name, c) for name, g in data["games"].items() for c in g.get("chromium_past", [])]
    if not runs:
        return []
    out = ["", "In the page past the book, at the positions of a CPython run above (`scripts/endgame_chromium.py "
           "--follow RUN --pegs LO HI --workers N`: Pyodide in Chromium, each position opened by a link in one page, "
           "never-lose on its 10 s of wall time; 1 worker is the page's default, 2 the pool; the CPython run's figures "
           "are CPU seconds):", "",
           "| game | run | workers | positions (pegs) | median ms | p95 ms | max ms | jump verdicts left unknown "
           "| CPython median / p95 s | measured |", "|---|---|---:|---|---:|---:|---:|---:|---|---|"]
    for name, c in runs:
        site = f" (the site of {c['site']})" if c.get("site") else ""
        out.append(f"| {name} | `{c['run']}`{site} | {c['workers']} | {c['positions']} ({c['pegs'][0]}-{c['pegs'][1]}) "
                   f"| {c['median_ms']:,} | {c['p95_ms']:,} | {c['max_ms']:,} | {c['unknown_jumps']} "
                   f"| {c['cpython_median']:.2f} / {c['cpython_p95']:.2f} | {c['date']}, "
                   + (f"load {c['load'][0]}-{c['load'][1]} |" if c.get("load") else "load not recorded |"))
    return out


def _games_table(data: dict, key: str, intro: str, header: str, align: str,
                 cells: Callable[[dict, dict, dict], str], sides: tuple[str, str]) -> list[str]:
    """The lines of a table of the games that hold ``key`` (a comparison of two ``sides``), with its introduction;
    none when no game holds it."""
    rows = [(name, m) for name, g in data["games"].items() if g.get(key)
            for m in (g[key] if isinstance(g[key], list) else [g[key]])]  # a list: several comparisons, in order
    if not rows:
        return []
    return ["", intro, "", header, align,
            *(f"| {name} | {cells(m, m[sides[0]], m[sides[1]])} | {m['date']}, CPython {m['python']} |"
              for name, m in rows)]
