"""scripts/endgame_chromium.py on one short French game: every position gets a verdict in the page, the shipped
endgame table is fetched once and answers the positions it covers, and the figures render as BENCHMARKS.md's row."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import endgame_chromium as script  # noqa: E402

from pyapp.bench.report_sets import endgame as render  # noqa: E402

pytestmark = pytest.mark.browser


def test_the_page_answers_a_french_game_from_the_shipped_table(chromium, dist_dir):
    found = script.measure(chromium, dist_dir, "french:d2:d6", 1, 21, 2)
    assert found["positions"] >= 6 and found["unknown"] == 0
    tables = [f for f in found["fetched"] if f.endswith(".endgame.bin")]  # (the game's opening book is fetched too)
    assert len(tables) == 1
    # 21 pegs down, all below the table's reach (22 pegs): the first check waits for the table, which answers every
    # winnable position from the first (a lost position's note gives the proof instead of what answered)
    assert found["by_shipped"] >= found["positions"] // 2
    assert all(row[3] for row in found["per_position"] if row[2] == "win"), found["per_position"]
    assert all(verdict in ("win", "lose") for _, _, verdict, *_ in found["per_position"])
    game = {"game": "french:d2:d6", "lookup_pegs": 10, "ceiling": 20, "classes": 1, "key_bytes": 8, "build_cpu": 1.0,
            "build_pyodide": None, "disagreements": 0, "without": {}, "with": {},
            "chromium": {**found, "load": [1.0, 1.0], "date": "today", "command": "python scripts/endgame_chromium.py"}}
    zero = {"positions": 1, "median": 0, "p95": 0, "max": 0, "unknown": 0, "by_table": 0}
    game["without"] = game["with"] = zero
    text = render({"python": "3.11", "date": "today", "command": "c", "games": [game]})
    assert f"| french d2 -> d6 | {found['positions']} | {found['median_ms']:,} |" in text


def test_a_link_below_the_tables_reach_waits_for_it_and_is_answered_by_it(chromium, dist_dir):
    """A French game opened by a link 21 pegs in (below the table's reach, 22 pegs), never-lose switched on in a new
    profile: the first check waits for the shipped table (static/engine/sets.mjs), so the table answers it, instead
    of a search of what the table holds spending the check's budget while the table loads beside it."""
    from browser_support import Server, wait_ready

    from pyapp.core.problem import default_problem
    from pyapp.search.solver import solve

    problem = default_problem("french")
    names = problem.board.name_of
    moves = ",".join(f"{names[a]}-{names[c]}" for a, _, c in solve(problem).jumps[:15])
    server = Server(dist_dir)
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{server.url}?workers=2#board=french&moves={moves}")
        wait_ready(page)
        page.get_by_role("button", name="Never lose").click()
        page.wait_for_function(script.DONE, arg=21, timeout=120_000)
        note = page.eval_on_selector("#neverlose-note", "el => ({...el.dataset, text: el.textContent})")
        assert note["verdict"] == "win" and "shipped with the site" in note["text"], note
    finally:
        context.close()
        server.stop()
