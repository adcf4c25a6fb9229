"""The page's own rules (static/play/rules.mjs reading boards.json, which build.py writes from pyapp)
against pyapp: random games on every catalogue board, played in Chromium, each legal-jump set,
position and end state compared with pyapp in CPython; and a game played, undone, redone and
written to the address while the Python engine never starts (no worker round trip)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from browser_support import ARTIFACTS, wait_state

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pyapp.core.catalogue import ENTRIES, get_board  # noqa: E402
from pyapp.core.moves import apply_jump, legal_jumps  # noqa: E402
from pyapp.core.position import format_position  # noqa: E402
from pyapp.web import api as webapi  # noqa: E402

pytestmark = pytest.mark.browser

GAMES_PER_BOARD = 20

# Random games in the page: a random start hole (some names in capitals, as a link may hold them),
# a random goal, then random legal jumps until none is left; every step's state is recorded.
PLAY = """async ({games, seed}) => {
  const { Catalogue } = await import("./static/play/rules.mjs");
  const cat = await Catalogue.load("./boards.json");
  let x = seed >>> 0;
  const rand = (n) => { x = (Math.imul(x ^ (x >>> 15), 2246822507) + 0x9e3779b9) >>> 0; return x % n; };
  const out = [];
  for (const rules of cat.boards) {
    const names = rules.d.names;
    for (let g = 0; g < games; g++) {
      let start = names[rand(names.length)];
      if (rand(4) === 0) start = start.toUpperCase();
      const goal = [null, "any", "min", names[rand(names.length)]][rand(4)];
      const args = { board: rules.d.id, start, goal, moves: [] };
      const steps = [];
      for (;;) {
        const st = cat.state(args);
        if (!st) return { error: `no local state for ${JSON.stringify(args)}` };
        steps.push({ legal: st.legal, position: st.position, pegs: st.pegs });
        if (!st.legal.length) {
          out.push({ args, steps, final: st });
          break;
        }
        const [a, , c] = st.legal[rand(st.legal.length)];
        args.moves = [...st.moves, `${a}-${c}`];
        // every other step written as the same move continued (e7-c7-c5) where it is one
        const last = st.played.at(-1);
        if (last && last[2] === a && rand(2)) args.moves = [...st.moves.slice(0, -1), `${st.moves.at(-1)}-${c}`];
      }
    }
  }
  return { games: out };
}"""


def test_random_games_on_every_board_match_pyapp(app):
    result = app.evaluate(PLAY, {"games": GAMES_PER_BOARD, "seed": 20261123})
    assert "error" not in result, result.get("error")
    games = result["games"]
    assert {g["args"]["board"] for g in games} == {e.id for e in ENTRIES}
    checked = 0
    for game in games:
        args = game["args"]
        board = get_board(args["board"])
        pos = board.start(args["start"])
        steps = game["steps"]
        for n, step in enumerate(steps):
            legal = legal_jumps(board, pos)
            assert step["legal"] == [[board.name_of[b] for b in j] for j in legal], (args, n)
            assert step["position"] == format_position(board, pos), (args, n)
            assert step["pegs"] == [board.name_of[b] for b in board.pegs(pos)], (args, n)
            checked += 1
            if n + 1 < len(steps):
                # the next position tells which jump was played: exactly one legal jump leads there
                after = [j for j in legal if format_position(board, apply_jump(pos, j)) == steps[n + 1]["position"]]
                assert len(after) == 1, (args, n)
                pos = apply_jump(pos, after[0])
        assert not legal_jumps(board, pos)
        # the whole final state, end message included, is pyapp.web.api.state's
        expected = webapi.state(args)
        local = {k: v for k, v in game["final"].items() if k not in ("svg", "local")}
        assert local == {k: v for k, v in expected.items() if k != "svg"}, args
    print(f"\n{len(games)} random games, {checked} positions: every legal set, position and end state as pyapp's")


def test_links_the_page_cannot_read_exactly_go_to_the_engine(app):
    """Unusual spellings and errors are never guessed in the page: the engine answers them."""
    cases = [
        {"board": "English"}, {"board": "english", "position": "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo"},
        {"board": "english", "goal": "target:ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo"},
        {"board": "english", "start": "zz9"}, {"board": "english", "moves": ["f4-d4", "f4-d4"]},
        {"board": "english", "moves": ["f4d4"]}, {"board": "square:ooo/o.o/ooo"},
    ]
    answers = app.evaluate("""async (cases) => {
      const { Catalogue } = await import("./static/play/rules.mjs");
      const cat = await Catalogue.load("./boards.json");
      return cases.map((c) => cat.state(c));
    }""", cases)
    assert answers == [None] * len(cases)


def test_a_game_is_played_before_and_without_the_engine(chromium, server):
    """The Python runtime's files never arrive: the board is drawn, jumps are played, undone and
    redone, the address follows, and Solve says the engine is starting."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    try:
        page = context.new_page()
        page.route("**/pyodide/**", lambda route: None)  # never answered: Python never starts
        errors = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(server.url + "#board=english&start=d4&goal=d4")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "first-paint.png"))
        page.wait_for_function("window.pegLab.timings.firstPlayable", timeout=10_000)
        assert page.locator("[data-hole]").count() == 33
        page.click("[data-hole='f4']")
        assert "target" in page.get_attribute("[data-hole='d4']", "class").split()
        page.click("[data-hole='d4']")
        wait_state(page, 1)
        page.wait_for_function("location.hash.includes('moves=f4-d4')")
        page.click("[data-hole='d2']")
        page.click("[data-hole='d4']")  # full: not a jump
        page.click("[data-hole='e2']")
        page.click("[data-hole='e4']")
        wait_state(page, 2)
        page.get_by_role("button", name="Undo").click()
        wait_state(page, 1)
        page.get_by_role("button", name="Redo").click()
        wait_state(page, 2)
        assert "moves=f4-d4,e2-e4" in page.url
        assert page.text_content("#count-pegs") == "30"
        page.select_option("#board-select", "triangle5")
        page.wait_for_function("document.querySelectorAll('[data-hole]').length === 15")
        assert "board=triangle5" in page.url
        page.get_by_role("button", name="Solve").click()
        page.wait_for_function("document.getElementById('progress').textContent.includes('Engine starting')")
        assert "engine is starting" in page.text_content("#status")
        assert page.evaluate("window.pegLab.timings.engineReady") is None
        assert errors == []
    finally:
        context.close()
