"""Fuzz targets shared by ``tests/test_fuzz.py`` (a short run with a fixed seed in the test command)
and ``scripts/fuzz.py`` (the long run): hypothesis strategies for notation, positions, custom boards,
goals, web-API requests, command lines and share-link fragments, and for each a check that runs the
project's code on one example.

The rule every check enforces: only the project's own errors escape (:class:`pyapp.core.errors.PegError`
from the library; ``{"error": ...}`` without "internal error" or "bad request" from the web API; exit
codes 0 or 2 with at most one line on stderr from the command line; ``{ok: false, error}`` from the
page's link reader, never an exception).  What is accepted must also read back: a custom board
through its own spec, a position through its own text.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess
from pathlib import Path

from hypothesis import strategies as st

from pyapp.core.catalogue import CATALOGUE, get_board
from pyapp.core.custom import board_from_text
from pyapp.core.errors import PegError
from pyapp.core.goal import Goal
from pyapp.core.notation import parse_move, parse_moves
from pyapp.core.position import format_position, parse_position
from pyapp.core.request import board_spec
from pyapp.core.spec import resolve_board
from pyapp.web import api as webapi

ROOT = Path(__file__).resolve().parents[1]
BOARD_IDS = sorted(CATALOGUE)
FAST_BUDGET = 0.02
"""Seconds any fuzzed search may take (the fuzzer tests input handling, not the solver)."""

# ---------------------------------------------------------------- strategies
NOTATION_CHARS = "abcdefghjz0123456789-\u2013:,; /.oO*x_\n\t|"
noise = st.text(max_size=40)  # any unicode, control characters included
notation_text = st.one_of(st.text(alphabet=NOTATION_CHARS, max_size=30), noise)
grid_text = st.one_of(
    st.lists(st.text(alphabet="o.x_ -*", max_size=12), max_size=12).map("/".join),
    st.lists(st.text(alphabet="o. ", max_size=30), max_size=30).map("\n".join),
    st.text(alphabet="o._ /\n?x1\u00a0", max_size=80),
    st.sampled_from(["triangle:o o" + "/o" * 990, "o" * 3000, "/" * 500, "o/" * 27, "o" + " " * 80 + "oo"]),
)
json_scalar = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12))
json_value = st.recursive(json_scalar, lambda inner: st.lists(inner, max_size=4)
                          | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=8)
board_value = st.one_of(st.sampled_from(BOARD_IDS), grid_text.map(lambda g: "square:" + g),
                        grid_text.map(lambda g: "triangle:" + g), noise, json_value)
budget_value = st.one_of(st.floats(min_value=0.001, max_value=FAST_BUDGET), json_scalar,
                         st.sampled_from([float("inf"), float("nan"), -1, 0, 1e400]))
moves_value = st.one_of(st.lists(notation_text, max_size=6), notation_text, json_value)
cells_value = st.one_of(st.lists(st.tuples(st.integers(-3, 30), st.integers(-3, 30), st.booleans()).map(list),
                                 max_size=40),
                        st.lists(st.tuples(st.integers(-10**7, 10**7), st.integers(0, 3), st.booleans()).map(list),
                                 min_size=3, max_size=5),
                        json_value)
request_args = st.one_of(json_value, st.fixed_dictionaries({}, optional={
    "board": board_value, "start": st.one_of(notation_text, json_scalar), "position": st.one_of(grid_text, json_value),
    "goal": st.one_of(st.sampled_from(["any", "min", "d4", "1", "target:"]), notation_text, json_scalar),
    "moves": moves_value, "move": st.one_of(notation_text, json_scalar), "max_seconds": budget_value,
    "seed": json_scalar, "cells": cells_value, "lattice": st.one_of(st.sampled_from(["square", "triangle"]), noise),
    "pegs": st.one_of(st.integers(-2, 50), json_scalar), "legal_prefix": json_scalar, "coordinates": json_scalar,
    "quick": json_scalar, "repeat": json_scalar, "only": json_value,
}))
one_shot_names = st.sampled_from(sorted(webapi.ONE_SHOT) + ["no-such-request"])
streaming_names = st.sampled_from(sorted(webapi.STREAMING))
cli_tokens = st.lists(st.one_of(st.sampled_from(["show", "replay", "boards", "--start", "--position", "--json",
                                                 "--svg", "--goal", "--target", "--", "-h"]),
                                st.sampled_from(BOARD_IDS), notation_text, grid_text.map(lambda g: "square:" + g)),
                      max_size=8)
link_values = st.one_of(st.sampled_from(BOARD_IDS), notation_text, grid_text, noise,
                        st.text(alphabet="%0123456789abcdefABCDEF", max_size=12))
link_fragment = st.one_of(
    noise.map(lambda t: "#" + t),
    st.lists(st.tuples(st.sampled_from(["board", "start", "pos", "goal", "moves", "x", "", "board"]), link_values),
             max_size=6).map(lambda parts: "#" + "&".join(f"{k}={v}" for k, v in parts)),
)


# ---------------------------------------------------------------- checks (raise on a violation)
def quietly(fn, *args):
    """Run ``fn``: a :class:`PegError` is a fine answer (returns None); anything else propagates."""
    try:
        return fn(*args)
    except PegError as err:
        assert str(err), f"{type(err).__name__} without a message"
        return None


def check_notation(board_id: str, text: str) -> None:
    board = get_board(board_id)
    quietly(parse_move, board, text)
    quietly(parse_moves, board, text)


def check_position(board_id: str, text: str, bits: int) -> None:
    board = get_board(board_id)
    quietly(parse_position, board, text)
    pos = bits & board.mask
    assert parse_position(board, format_position(board, pos)) == pos


def check_custom_board(lattice: str, text: str) -> None:
    made = quietly(board_from_text, text, lattice)
    if made is None:
        return
    board, pos = made
    again = resolve_board(board_spec(board, pos))
    assert again.board.cells == board.cells and again.start == pos


def check_goal(board_id: str, text: str) -> None:
    board = get_board(board_id)
    goal = quietly(Goal.parse, board, text)
    if goal is not None:
        assert Goal.parse(board, goal.text(board)) == goal


def _budget(args):
    """Valid budgets made small: the fuzzer checks input handling, not how long a search may run."""
    if isinstance(args, dict):
        value = args.get("max_seconds")
        if value is None or isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
            args = {**args, "max_seconds": min(value or FAST_BUDGET, FAST_BUDGET)}
    return args


def _clean_error(message: str) -> None:
    assert not message.startswith(("internal error", "bad request")), message


def check_one_shot(fn: str, args) -> None:
    out = json.loads(webapi.call(fn, json.dumps(_budget(args))))
    assert set(out) in ({"ok"}, {"error"}), out
    if "error" in out:
        _clean_error(out["error"])


def check_streaming(fn: str, args) -> None:
    args = _budget(args)
    if fn == "bench" and isinstance(args, dict):
        # a benchmark row takes seconds: name one that does not exist, so a request that passes the
        # field checks ends at the first step with the 'unknown benchmark' error
        only = args.get("only")
        args = {**args, "only": [*only, "no-such-row"] if isinstance(only, list) else only or ["no-such-row"]}
    job = webapi.start(fn, json.dumps(args))
    for _ in range(3):
        out = json.loads(job.step())
        if out["done"]:
            if "error" in out:
                _clean_error(out["error"])
            return
    json.loads(job.cancel())


def check_cli(argv: list[str]) -> None:
    from pyapp.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:  # argparse's --help
            code = stop.code or 0
    assert code in (0, 2), (code, err.getvalue())
    assert "Traceback" not in err.getvalue() and len(err.getvalue().strip().splitlines()) <= 1, err.getvalue()
    assert not any(ch in err.getvalue() for ch in "\x1b\x07\x00"), err.getvalue()


class LinkReader:
    """The page's own link reader (``static/play/share.mjs``) in one Node process, one fragment per line."""

    SCRIPT = """
import { createInterface } from "node:readline";
import { parseFragment } from "./static/play/share.mjs";
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  let out;
  try { out = parseFragment(JSON.parse(line)); } catch (err) { out = { threw: String(err && err.stack || err) }; }
  process.stdout.write(JSON.stringify(out) + "\\n");
}
"""

    def __init__(self) -> None:
        if shutil.which("node") is None:
            raise RuntimeError("node is not installed")
        self.proc = subprocess.Popen(["node", "--input-type=module", "-e", self.SCRIPT], cwd=ROOT, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=1)

    def read(self, fragment: str) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(fragment) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=10)


def check_link(reader: LinkReader, fragment: str) -> None:
    """The page's path for a link: the reader, then (if it accepts) the engine's ``state``."""
    parsed = reader.read(fragment)
    assert "threw" not in parsed, parsed
    assert isinstance(parsed.get("ok"), bool), parsed
    if parsed["ok"] and parsed["game"]:
        game = parsed["game"]
        check_one_shot("state", {**{k: v for k, v in game.items() if k != "moves" and v is not None},
                                 "moves": game["moves"], "legal_prefix": True})
    elif not parsed["ok"]:
        assert isinstance(parsed["error"], str) and parsed["error"], parsed
