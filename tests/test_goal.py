"""The Goal type: parsing and text form, what meets it, its class obstacle, symmetries and pagoda targets."""

import pytest

from pyapp.core.catalogue import get_board
from pyapp.core.errors import PegError
from pyapp.core.goal import KINDS, Goal, fewest_in_class, singles_in_class
from pyapp.core.position import parse_position
from pyapp.core.request import build, from_request, result_json
from pyapp.search.solver import solve

ENGLISH = get_board("english")
T4 = get_board("triangle4")


@pytest.mark.parametrize("text", ["d4", "any", "min", "target:ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo"])
def test_text_round_trips(text):
    goal = Goal.parse(ENGLISH, text)
    assert Goal.parse(ENGLISH, goal.text(ENGLISH)) == goal


def test_parse_reads_names_in_any_case_and_rejects_unknown_holes():
    assert Goal.parse(ENGLISH, " ANY ") == Goal("any")
    assert Goal.parse(ENGLISH, None, "min") == Goal("min")
    with pytest.raises(PegError):
        Goal.parse(ENGLISH, "z9")
    with pytest.raises(PegError, match="unknown goal kind"):
        Goal("nowhere")  # type: ignore[arg-type]


def test_every_kind_has_a_name_and_a_description():
    for name, kind in KINDS.items():
        assert kind.name == name
        goal = Goal(name, 1 << ENGLISH.hole("d4") if kind.argument else 0)  # type: ignore[arg-type]
        assert goal.describe(ENGLISH) and goal.short(ENGLISH)


def test_reached_and_final_pegs():
    d4, c4 = 1 << ENGLISH.hole("d4"), 1 << ENGLISH.hole("c4")
    assert Goal("hole", d4).reached(d4) and not Goal("hole", d4).reached(c4)
    assert Goal("any").reached(c4) and not Goal("any").reached(c4 | d4)
    assert Goal("target", c4 | d4).reached(c4 | d4) and Goal("target", c4 | d4).final_pegs == 2
    assert not Goal("min").reached(d4) and Goal("min").final_pegs is None and not Goal("min").definite


def test_obstacle_is_the_rule_of_three():
    # French d4 -> d4 and the 10-hole triangle from a corner to one peg are ruled out by the position class
    french = get_board("french")
    assert Goal.parse(french, "d4").obstacle(french, french.start("d4")).startswith("position class")
    assert Goal("any").obstacle(T4, T4.start("1")).startswith("position class")
    assert Goal("min").obstacle(T4, T4.start("1")) is None
    assert Goal.parse(ENGLISH, "d4").obstacle(ENGLISH, ENGLISH.start("d4")) is None


def test_symmetries_fix_the_goal():
    c3 = 1 << ENGLISH.hole("c3")
    group = Goal("hole", c3).symmetries(ENGLISH)
    assert 0 < len(group) < len(ENGLISH.symmetries)
    assert all(ENGLISH.transform(c3, i) == c3 for i in group)
    assert len(Goal("any").symmetries(ENGLISH)) == len(ENGLISH.symmetries) == len(Goal("min").symmetries(ENGLISH))


def test_pagoda_targets_and_class_bound():
    start = ENGLISH.start("d4")
    assert Goal("any").pagoda_targets(ENGLISH, start) == singles_in_class(ENGLISH, start)
    assert Goal.parse(ENGLISH, "d4").pagoda_targets(ENGLISH, start) == [1 << ENGLISH.hole("d4")]
    assert Goal("min").pagoda_targets(ENGLISH, start) == singles_in_class(ENGLISH, start)
    assert fewest_in_class(T4, T4.start("1")) == 2 and Goal("min").pagoda_targets(T4, T4.start("1")) == []
    assert Goal("min").pegs_at_best(T4, T4.start("1")) == 2


def test_must_move_counts_pegs_that_cannot_stay():
    pegs = parse_position(ENGLISH, "o../.../......./...o.../......./.../..o")
    assert Goal("any").must_move(pegs) == 2  # one of the three may be the survivor
    assert Goal.parse(ENGLISH, "d4").must_move(pegs) == 2  # d4 may stay, the others must go
    assert Goal.parse(ENGLISH, "a3").must_move(pegs) == 3
    assert Goal("min").must_move(pegs) == 0


def test_one_builder_for_strings_and_requests():
    s = build("english", start="d4", moves=["f4-d4", "c4-e4"])
    r = from_request({"board": "english", "start": "d4", "moves": "f4-d4, c4-e4"})
    assert s == r and s.problem.start.bit_count() == 30 and s.goal == Goal.parse(ENGLISH, "d4")
    custom = build("square:ooo/o.o/ooo")
    assert custom.goal == Goal("min") and custom.spec == "square:ooo/o.o/ooo"
    with pytest.raises(PegError, match="not both"):
        build("english", start="d4", position="ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo")
    with pytest.raises(PegError, match="do not replay"):
        build("english", moves=["d4-f4"])
    with pytest.raises(PegError, match="must be text"):
        from_request({"board": 7})


def test_one_result_format():
    s = build("triangle5")
    out = result_json(s.board, solve(s.problem))
    assert out["status"] == "solved" and out["jumps"] == len(out["jump_list"]) == 13
    assert out["move_count"] == len(out["moves"])
