"""Notation: jumps f4-d4, multi-jump moves e7-c7-c5, triangle numbers, errors."""

import pytest

from pyapp.core.catalogue import get_board
from pyapp.core.errors import NotationError
from pyapp.core.notation import format_jump, format_move, format_moves, parse_move, parse_moves


def test_jump_round_trip():
    b = get_board("english")
    (j,) = parse_move(b, "f4-d4")
    assert j == (b.hole("f4"), b.hole("e4"), b.hole("d4"))
    assert format_jump(b, j) == "f4-d4"


def test_multi_jump_move():
    b = get_board("english")
    jumps = parse_move(b, "e7-c7-c5")
    assert [format_jump(b, j) for j in jumps] == ["e7-c7", "c7-c5"]
    assert format_move(b, jumps) == "e7-c7-c5"


def test_triangle_jump():
    b = get_board("triangle5")
    (j,) = parse_move(b, "4-1")
    assert (b.name_of[j[0]], b.name_of[j[1]], b.name_of[j[2]]) == ("4", "2", "1")


def test_format_moves_groups_chains():
    b = get_board("english")
    jumps = parse_moves(b, "d6-d4 f5-d5 d4-d6 g5-e5 e2-e4-e6")
    assert format_moves(b, jumps) == ["d6-d4", "f5-d5", "d4-d6", "g5-e5", "e2-e4-e6"]


def test_case_and_spaces_are_accepted():
    b = get_board("english")
    assert parse_move(b, " F4 - D4 ") == parse_move(b, "f4-d4")


@pytest.mark.parametrize("text,message", [
    ("", "empty move"),
    ("d4", "names one hole"),
    ("d4-z9", "no hole 'z9' on board 'english'"),
    ("d4-d5", "d4-d5 is not a jump"),
    ("a3-c5", "a3-c5 is not a jump"),
])
def test_errors(text, message):
    with pytest.raises(NotationError, match=message):
        parse_move(get_board("english"), text)
