"""Fuzzing in the test command (hypothesis, fixed seed, a few seconds per target): notation, positions,
custom boards, goals, web-API requests, command lines and share-link fragments.  Only the project's own
errors may escape, and every case must end well within its deadline.  The same targets run 100,000
cases in ``scripts/fuzz.py`` (results in BENCHMARKS.md)."""

from __future__ import annotations

from datetime import timedelta

import fuzz_support as fz
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CI = settings(derandomize=True, database=None, deadline=timedelta(seconds=3), max_examples=300,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
boards = st.sampled_from(fz.BOARD_IDS)


@CI
@given(boards, fz.notation_text)
def test_notation(board_id, text):
    fz.check_notation(board_id, text)


@CI
@given(boards, fz.grid_text, st.integers(min_value=0, max_value=2**81))
def test_positions(board_id, text, bits):
    fz.check_position(board_id, text, bits)


@CI
@given(st.sampled_from(["square", "triangle", "hex"]), fz.grid_text)
def test_custom_boards(lattice, text):
    fz.check_custom_board(lattice, text)


@CI
@given(boards, st.one_of(fz.notation_text, fz.grid_text.map(lambda g: "target:" + g)))
def test_goals(board_id, text):
    fz.check_goal(board_id, text)


# a one-shot call may run a whole small analysis (``finishes`` on English: 0.64 CPU s), so its deadline
# leaves room for a loaded machine; a hang still fails it.  200 cases (about 12 per request name), as the other
# request targets: 400 took 8 s, most of it requests without a budget running their default analysis again
@settings(CI, max_examples=200, deadline=timedelta(seconds=10))
@given(fz.one_shot_names, fz.request_args)
def test_web_api_one_shot_requests(fn, args):
    fz.check_one_shot(fn, args)


@settings(CI, max_examples=200)
@given(fz.streaming_names, fz.request_args)
def test_web_api_long_requests(fn, args):
    fz.check_streaming(fn, args)


@settings(CI, max_examples=200)
@given(fz.cli_tokens)
def test_command_lines(argv):
    fz.check_cli(argv)


@pytest.fixture(scope="module")
def link_reader():
    try:
        reader = fz.LinkReader()
    except RuntimeError as err:
        pytest.skip(str(err))
    yield reader
    reader.close()


@settings(CI, max_examples=400)
@given(fragment=fz.link_fragment)
def test_share_link_fragments(link_reader, fragment):
    fz.check_link(link_reader, fragment)
