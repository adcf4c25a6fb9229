"""Position text: canonical form, accepted variants, errors that quote the input."""

import pytest

from pyapp.core.catalogue import get_board
from pyapp.core.errors import PositionError
from pyapp.core.position import format_position, parse_position

ENGLISH_START = "  ooo\n  ooo\nooooooo\nooo.ooo\nooooooo\n  ooo\n  ooo"


class TestFormat:
    def test_english_start(self):
        b = get_board("english")
        assert format_position(b, b.start("d4")) == ENGLISH_START

    def test_triangle_is_centred(self):
        b = get_board("triangle5")
        assert format_position(b, b.start("1")).split("\n")[0] == "    ."
        assert format_position(b, b.start("1")).split("\n")[-1] == "o o o o o"

    @pytest.mark.parametrize("board_id", ["english", "french", "german", "asymmetric", "diamond41", "triangle7"])
    def test_round_trip(self, board_id):
        b = get_board(board_id)
        pos = b.full() ^ (1 << b.bits[0]) ^ (1 << b.bits[len(b) // 2])
        assert parse_position(b, format_position(b, pos)) == pos


class TestVariants:
    def test_slashes_and_compact_rows(self):
        b = get_board("english")
        assert parse_position(b, "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo") == b.start("d4")

    def test_other_symbols(self):
        b = get_board("english")
        text = ENGLISH_START.replace("o", "x").replace(".", "_")
        assert parse_position(b, text) == b.start("d4")
        assert parse_position(b, "\n" + ENGLISH_START.replace("o", "X") + "\n\n") == b.start("d4")

    def test_triangle_compact(self):
        b = get_board("triangle4")
        assert parse_position(b, "./oo/ooo/oooo") == b.start("1")


class TestErrors:
    def test_wrong_row_count(self):
        with pytest.raises(PositionError, match="expected 7 rows for board 'english', got 2"):
            parse_position(get_board("english"), "ooo/ooo")

    def test_wrong_row_length_quotes_row(self):
        with pytest.raises(PositionError, match="row 3 of position 'oooooo' has 6 cells.* 7 holes"):
            parse_position(get_board("english"), "ooo/ooo/oooooo/ooooooo/ooooooo/ooo/ooo")

    def test_bad_character(self):
        with pytest.raises(PositionError, match="unexpected character '#' in row 1"):
            parse_position(get_board("english"), "o#o/ooo/ooooooo/ooooooo/ooooooo/ooo/ooo")

    def test_not_text(self):
        with pytest.raises(PositionError, match="must be text"):
            parse_position(get_board("english"), 5)  # type: ignore[arg-type]
