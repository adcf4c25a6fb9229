"""Input size limits (pyapp.core.limits): checked on the raw text before anything is built, the same for
the command line, the web API and share links (the page's link reader included, run under Node);
and every board the engine accepts round-trips through its own spec and link and stays playable."""

from __future__ import annotations

import json
import shutil
import subprocess
import tracemalloc
from pathlib import Path

import pytest

from pyapp.core import limits
from pyapp.core.errors import BoardError, LimitError, PegError
from pyapp.core.position import format_position, parse_position
from pyapp.core.spec import resolve_board
from pyapp.web import api as webapi

ROOT = Path(__file__).resolve().parents[1]


def call(fn: str, args) -> dict:
    out = json.loads(webapi.call(fn, json.dumps(args)))
    assert set(out) in ({"ok"}, {"error"}), out
    return out


def drive(job: webapi.Job) -> dict:
    while True:
        out = json.loads(job.step())
        if out["done"]:
            return out


def node(script: str, payload) -> object:
    """Run an ES-module snippet under Node with ``payload`` on stdin (JSON); its JSON output."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    proc = subprocess.run(["node", "--input-type=module", "-e", script], input=json.dumps(payload), cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


READ_STDIN = "const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
NODE_PRELUDE = ("import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);"
                + READ_STDIN + "import { formatFragment, parseFragment } from './static/play/share.mjs';")


def peak_mb(fn) -> float:
    """Peak memory (MB, tracemalloc) that ``fn()`` allocates."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


# ---------------------------------------------------------------- one set of numbers
def test_the_pages_limits_are_generated_from_pyapp():
    assert (ROOT / "static" / "play" / "limits.mjs").read_text(encoding="utf-8") == limits.as_js(), (
        "static/play/limits.mjs is stale: run `python -m pyapp.core.limits > static/play/limits.mjs`")
    got = node("import * as L from './static/play/limits.mjs'; console.log(JSON.stringify(L));", None)
    assert got == limits.as_dict()


def test_the_limits_fit_together():
    # the widest row the engine ever writes: a triangle drawn centred, (rows - 1) + 2 (columns - 1) + 1
    assert limits.MAX_ROWS - 1 + 2 * (limits.MAX_COLUMNS - 1) + 1 <= limits.MAX_ROW_CHARS
    assert limits.MAX_MOVES >= limits.MAX_HOLES - 1  # every jump removes a peg
    assert len("z26-x26,") * limits.MAX_HOLES <= limits.MAX_MOVES_CHARS


# ---------------------------------------------------------------- checked on the raw text
HOSTILE_LINK_BOARD = "triangle:o o" + "/o" * 990  # the 2 KB link (540 MB, 3.8 s before): 991 rows


@pytest.mark.parametrize("spec, words", [
    (HOSTILE_LINK_BOARD, "991 rows"),
    ("square:" + "/".join(["o"] * 27), "27 rows"),
    ("square:o" + " " * 70 + "oo", "73 columns"),
    ("triangle:o" + " " * 100 + "o o", "row 1 of custom board is too long"),
    ("square:" + "/".join(["o" * 26] * 16), "416 holes"),
    ("square:" + "o" * 3000, "at most 2063"),
], ids=["issue-link", "rows", "columns", "row-chars", "holes", "spec-chars"])
def test_oversized_boards_are_refused_before_anything_is_built(spec, words):
    def attempt():
        with pytest.raises(BoardError, match=words):
            resolve_board(spec)

    assert peak_mb(attempt) < 1.0
    out = call("state", {"board": spec})
    assert words in out["error"]


def test_editor_cells_far_away_are_refused_before_the_grid_is_drawn():
    # the issue: a cell at row 1,000,000 ran 31 s and ended in MemoryError
    cells = [[0, 0, True], [0, 1, True], [1_000_000, 0, False]]
    mb = peak_mb(lambda: call("custom_board", {"lattice": "square", "cells": cells}))
    out = call("custom_board", {"lattice": "square", "cells": cells})
    assert "1000001 rows" in out["error"] and mb < 1.0
    out = call("custom_board", {"lattice": "triangle", "cells": [[0, 0, 1], [1, 0, 1], [2, 10**9, 0]]})
    assert "columns" in out["error"]
    out = call("custom_board", {"lattice": "square", "cells": [[r, c, 1] for r in range(21) for c in range(20)]})
    assert "420 holes" in out["error"]


@pytest.mark.parametrize("args, words", [
    ({"board": "english", "position": "o" * 3000}, "'position' is too long"),
    ({"board": "english", "position": "/".join(["ooo"] * 30)}, "30 rows"),
    ({"board": "english", "goal": "target:" + "o" * 3000}, "too long"),
    ({"board": "english", "moves": ["f4-d4"] * 401}, "more than 400"),
    ({"board": "english", "moves": ["f4-d4-" * 600]}, "too long"),
    ({"board": "english", "start": "d" * 50}, "too long"),
], ids=["position-chars", "position-rows", "goal-chars", "moves", "move-chars", "start-chars"])
def test_positions_goals_and_moves_are_capped(args, words):
    out = call("state", args)
    assert words in out["error"], out


def test_the_command_line_uses_the_same_limits():
    from pyapp.cli.main import main

    assert main(["show", "triangle:" + "/".join(["o"] * 200)]) == 2
    assert main(["replay", "english", *(["f4-d4"] * 401)]) == 2
    with pytest.raises(LimitError):
        parse_position(resolve_board("english").board, "o" * 5000)


def test_the_link_reader_applies_the_same_limits():
    got = node(NODE_PRELUDE + "console.log(JSON.stringify(input.map((h) => parseFragment(h))));", [
        "#board=" + HOSTILE_LINK_BOARD.replace(" ", "%20"),
        "#board=square:" + "/".join(["o"] * 27),
        "#board=english&moves=" + ",".join(["f4-d4"] * 401),
        "#board=english&pos=" + "o" * 2100,
        "#board=english&start=" + "d" * 11,
        "#board=" + "x" * (limits.MAX_LINK_CHARS - 6) + "&goal=any",
        "#board=english&start=d4&goal=d4&moves=f4-d4,d2-d4",
    ])
    errors = [g.get("error", "") for g in got]
    assert "991 rows" in errors[0] and "at most 26" in errors[1] and "401 moves" in errors[2]
    assert "too long" in errors[3] and "too long" in errors[4]
    assert f"at most {limits.MAX_LINK_CHARS}" in errors[5]
    assert got[6]["ok"] and got[6]["game"]["moves"] == ["f4-d4", "d2-d4"]


# ---------------------------------------------------------------- boards at the limits
def _rect(rows: int, cols: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(rows) for c in range(cols)]


def _comb() -> list[tuple[int, int]]:
    """A 26 x 26 bounding box with few holes: the top row and six full columns."""
    cells = {(0, c) for c in range(26)} | {(r, c) for c in range(0, 26, 5) for r in range(26)}
    return sorted(cells | {(r, 25) for r in range(26)})


def _triangle(n: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(n) for c in range(r + 1)]


def _hexagon(side: int) -> list[tuple[int, int]]:
    n = 2 * side - 1
    return [(r, c) for r in range(n) for c in range(n) if abs(r - c) <= side - 1]


def _wide_triangle_frame() -> list[tuple[int, int]]:
    """Skewed 26 x 26 bounding box (drawn 76 characters wide): the longest rows a spec can have."""
    cells = {(0, c) for c in range(26)} | {(25, c) for c in range(26)} | {(r, 0) for r in range(26)}
    return sorted(cells | {(r, 25) for r in range(26)} | {(r, r) for r in range(26)})


AT_THE_LIMITS = [
    ("square", _rect(26, 15)),          # 390 holes, 26 rows
    ("square", _rect(20, 20)),          # 400 holes
    ("square", _comb()),                # 26 x 26 grid
    ("triangle", _triangle(26)),        # 351 holes, 26 rows
    ("triangle", _rect(26, 15)),        # a rhombus, 390 holes
    ("triangle", _hexagon(12)),         # 397 holes, 12 symmetries
    ("triangle", _wide_triangle_frame()),
]


@pytest.mark.parametrize("lattice, cells", AT_THE_LIMITS, ids=lambda v: v if isinstance(v, str) else len(v))
def test_boards_at_the_limits_round_trip_and_play_and_solve(lattice, cells):
    # the editor's cells -> a spec -> state: the engine's own spec reads back as the same board
    editor = [[r, c, (r, c) != cells[len(cells) // 2]] for r, c in cells]
    made = call("custom_board", {"lattice": lattice, "cells": editor})["ok"]
    spec = made["board"]
    assert len(spec) <= limits.MAX_SPEC_CHARS
    state = call("state", {"board": spec})["ok"]
    assert state["board"]["spec"] == spec and state["board"]["holes"] == len(cells)
    again = call("state", {"board": state["board"]["spec"]})["ok"]
    assert [(c["r"], c["c"]) for c in again["cells"]] == [(c["r"], c["c"]) for c in state["cells"]]

    # play: a legal move, through the API, and the game's link reads back (the page's own code, in Node)
    board = resolve_board(spec).board
    if state["legal"]:
        a, _, c = state["legal"][0]
        played = call("apply", {"board": spec, "moves": [], "move": f"{a}-{c}"})["ok"]
        assert played["jump_count"] == 1 and played["peg_count"] == len(cells) - 2
        moves = played["moves"]
    else:
        moves = []
    goal_target = "target:" + "/".join(r.replace(" ", "") for r in format_position(board, board.mask).split("\n"))
    games = [{"board": spec, "goal": state["goal"]["text"], "moves": moves},
             {"board": spec, "position": format_position(board, board.mask), "goal": goal_target,
              "moves": ["z26-x26"] * limits.MAX_MOVES}]
    links = node(NODE_PRELUDE + "console.log(JSON.stringify(input.map((g) => {"
                 "const f = formatFragment(g); return { length: f.length, parsed: parseFragment('#' + f) }; })));",
                 games)
    for game, link in zip(games, links):
        assert link["length"] <= limits.MAX_LINK_CHARS and link["parsed"]["ok"], link
        assert link["parsed"]["game"]["board"] == spec and link["parsed"]["game"]["moves"] == game["moves"]
    reread = call("state", {"board": spec, "goal": links[0]["parsed"]["game"]["goal"], "moves": moves})["ok"]
    assert reread["moves"] == moves

    # solve, hint and finishes on a position of this board with two pegs left in a line
    a, b, _ = board.lines[len(board.lines) // 2]
    position = format_position(board, (1 << a) | (1 << b))
    solved = drive(webapi.start("solve", json.dumps({"board": spec, "position": position, "goal": "any",
                                                     "max_seconds": 60})))
    assert solved["result"]["status"] == "solved" and solved["result"]["jumps"] == 1, solved
    hint = call("hint", {"board": spec, "position": position, "goal": "any", "max_seconds": 30})["ok"]
    assert hint["good"] and hint["legal"] == len(hint["good"]) + len(hint["bad"]) + len(hint["unknown"])
    ends = call("finishes", {"board": spec, "position": position, "max_seconds": 30})["ok"]
    assert ends["possible"]


def test_every_error_of_the_limits_is_a_peg_error():
    assert issubclass(LimitError, PegError)
