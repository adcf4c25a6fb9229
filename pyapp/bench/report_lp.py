"""BENCHMARKS.md's section on linear and integer programmes, from ``benchmarks/lp.json``.

The file holds four measurements, each naming its command, runtime and date: the time per programme of
the prover's callers before (the hand-written simplex) and after (HiGHS) the move to :mod:`pyapp.proofs.lp`
(``scripts/lp_timing.py`` on both checkouts, alternated), searches and bench rows that use programmes (answers,
nodes and seconds before and after), the page's first programme against the next ones
(``scripts/lp_chromium.py``, with the cells the page answers from the book), and the integer programme's cells
(``solve --engine ilp``; in Chromium: ``scripts/ilp_chromium.py``).  Ratios are computed
here from the JSON, never typed in; so is the coverage of German e1 -> e1's split by the parts settled in
``benchmarks/ilp-ledger.jsonl`` (:func:`_split`).
"""

from __future__ import annotations


def _ms(v: float) -> str:
    return f"{v:.2f} ms"


def section(data: dict) -> str:
    """The Markdown section (empty when the file has nothing to show)."""
    out = ["## Linear and integer programmes: HiGHS", "",
           "Every linear programme of the prover (pagoda learning, pagoda separation, the level search's cuts) and "
           "the integer programme of `solve --engine ilp` go through one interface, `pyapp/proofs/lp.py`, solved by "
           "HiGHS 1.15.1 (`highspy` in CPython, its WebAssembly build in the page)."]
    timings = [t for t in (data.get("lp_timing"), data.get("lp_timing_pyodide")) if t]
    if timings:
        out += ["", "### Time per programme (" + "; ".join(f"{t['runtime']}: `{t['command']}`, {t['date']}, {t['note']}"
                                                     for t in timings) + ")", "",
                "| runtime | caller | calls | proofs before / after | hand-written simplex | HiGHS | ratio |",
                "|---|---|---:|---:|---:|---:|---:|"]
        for t in timings:
            for name, before in t["before"].items():
                after = t["after"][name]
                out.append(f"| {t['runtime'].split(' (')[0]} | {name} | {before['calls']} | {before['proofs']} / "
                           f"{after['proofs']} | {_ms(before['ms_per_call_median'])} | "
                           f"{_ms(after['ms_per_call_median'])} | "
                           f"{before['ms_per_call_median'] / after['ms_per_call_median']:.1f}x |")
    search = data.get("search")
    if search:
        out += ["", f"### Searches that use programmes, before and after ({search['runtime']}, {search['date']}, "
                    f"`{search['command']}`; {search['note']})", "",
                "| problem | answer before / after | nodes before / after | seconds before / after |",
                "|---|---|---:|---:|"]
        for r in search["rows"]:
            b, a = r["before"], r["after"]
            nodes = "—" if b["nodes"] is None else f"{b['nodes']:,} / {a['nodes']:,}"
            answer = b["answer"] if b["answer"] == a["answer"] else f"{b['answer']} / {a['answer']}"
            out.append(f"| {r['name']} | {answer} | {nodes} | {b['seconds']:.2f} / {a['seconds']:.2f} |")
    page = data.get("chromium")
    if page:
        first, rest = page["cells"][0], page["cells"][1:]
        asked = sorted(x for x in first["highs_requested_after_click_s"] if x is not None)
        out += ["", f"In the page ({page['runtime']}, `{page['command']}`, {page['date']}; {page['note']}): Diamond 41 "
                    f"{first['cell']}, the first proof that needs a programme, took {first['click_to_answer_s']:.2f} s "
                    f"from the click to the answer, HiGHS's WebAssembly requested {asked[len(asked) // 2]:.2f} s after "
                    f"the click and fetched and compiled in the worker; the next cells "
                    + ", ".join(f"{c['cell']} {c['click_to_answer_s']:.2f} s" for c in rest) + "."]
    book = data.get("chromium_book")
    if book:
        out += ["", f"Cells the integer programme settled in minutes are answered from the book in the page "
                    f"({book['runtime']}, `{book['command']}`, {book['date']}; {book['note']}): "
                    + ", ".join(f"Diamond 41 {c['cell']} {c['answer']} in {c['click_to_answer_s']:.2f} s from the "
                                f"click ({c['engine_s'] * 1000:.1f} ms in the engine)" for c in book["cells"]) + "."]
    cells = data.get("ilp")
    if cells:
        out += ["", "### The integer programme (`solve --engine ilp`)", "",
                "| cell | answer | HiGHS nodes | seconds | runtime, date | command |", "|---|---|---:|---:|---|---|"]
        for c in cells:
            note = f" ({c['note']})" if c.get("note") else ""
            nodes = "—" if c["nodes"] is None else f"{c['nodes']:,}"  # a row about building the programme: no nodes
            seconds = "—" if c["seconds"] is None else f"{c['seconds']:.1f}"  # a row of several runs: in its answer
            command = c["command"].replace("|", "\\|")  # a table cell: "|" escaped
            out.append(f"| {c['cell']} | {c['answer']}{note} | {nodes} | {seconds} | {c['runtime']}, "
                       f"{c['date']} | `{command}` |")
    if data.get("ledger"):
        out += ["", *_split(data["ledger"])]
    return "\n".join(out) if len(out) > 3 else ""


SPLIT = ("german", "e1", "e1", 3)
"""The open problem the ledger's parts belong to, and the depth of the split its coverage is counted at."""


def _split(rows: list[dict]) -> list[str]:
    """How much of German e1 -> e1's split the ledger's settled parts cover, computed here from the ledger with
    :func:`pyapp.search.ilp_split.uncovered` (every distinct leaf of the split 3 choices deep, one per position up
    to the goal's symmetries, that no impossible part, of whichever depth, covers by line or by position)."""
    from ..core.catalogue import get_board
    from ..core.problem import make_problem
    from ..search.ilp_split import distinct, leaves, uncovered

    board, start, goal, depth = SPLIT
    name = f"{board} {start} -> {goal}"
    mine = [r for r in rows if r.get("problem") == name and r.get("status") in ("impossible", "solved")]
    if not mine:
        return []
    found = [r for r in mine if r["status"] == "solved"]
    if found:
        return [f"**German e1 -> e1, split into parts**: the part after {found[0]['line']} is feasible, so the "
                f"problem is solved ({found[0].get('date')}): {found[0].get('solution')}."]
    problem = make_problem(get_board(board), start=start, goal=goal)
    total, left = len(distinct(problem, leaves(problem, depth))), len(uncovered(problem, depth, mine))
    cpu = sum(r.get("cpu_seconds") or r.get("seconds") or 0 for r in mine)
    by_depth: dict[int, int] = {}
    for r in mine:
        n = len(r["line"].split()) - 2  # the two forced jumps e3-e1 e5-e3 are not choices
        by_depth[n] = by_depth.get(n, 0) + 1
    parts = ", ".join(f"{n} after {d} choice{'s' if d > 1 else ''}" for d, n in sorted(by_depth.items()))
    dates = sorted(r["date"] for r in mine if r.get("date"))
    dual = sum(1 for r in mine if r.get("dual"))
    order = (f" ({dual} of them proved with closings refused by time reversal (`--dual`): proofs only once every "
             f"part is settled, in the split's order)") if dual else ""
    return [f"**German e1 -> e1, split into parts** (`PYTHONPATH=. python scripts/ilp_run.py german e1 e1 --split "
            f"--depth {depth} --ledger benchmarks/ilp-ledger.jsonl --jobs 2`; the ledger's rows {dates[0]} to "
            f"{dates[-1]}): {len(mine)} parts settled, every one infeasible ({parts}; "
            f"{sum(r.get('nodes') or 0 for r in mine):,} HiGHS nodes, {cpu:,.0f} s in all: CPU seconds, wall where a "
            f"row has none). Of the split {depth} choices deep ({total} distinct parts: one per position up to the "
            f"mirror, whatever the order of its jumps), {total - left} are covered by them{order} "
            + (f"and {left} remain open: the problem is still undecided." if left else
               "and none remains: no part is feasible, so the problem is impossible.")]
