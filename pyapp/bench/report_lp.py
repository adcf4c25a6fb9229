"""BENCHMARKS.md's section on linear and integer programmes, from ``benchmarks/lp.json``.

The file holds four measurements, each naming its command, runtime and date: the time per programme of
the prover's callers before (the hand-written simplex) and after (HiGHS) the move to :mod:`pyapp.proofs.lp`
(``scripts/lp_timing.py`` on both checkouts, alternated), searches and bench rows that use programmes (answers,
nodes and seconds before and after), the page's first programme against the next ones
(``scripts/lp_chromium.py``, with the cells the page answers from the book), and the integer programme's cells
(``solve --engine ilp``; in Chromium: ``scripts/ilp_chromium.py``).  Ratios are computed
here from the JSON, never typed in.
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
    return "\n".join(out) if len(out) > 3 else ""
