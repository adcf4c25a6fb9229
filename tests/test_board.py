"""Board geometry: catalogue sizes, names, jump directions, symmetries, position classes."""

import pytest

from pyapp.core.catalogue import ENTRIES, get_board
from pyapp.core.custom import board_from_text
from pyapp.core.errors import BoardError, HoleError
from pyapp.core.moves import apply_jump, legal_jumps

# Hole counts from design.md / the literature (English 33, French 37, Wiegleb 45, 3-3-2-2 39,
# Diamond 41, triangles of side n have n(n+1)/2 holes).
SIZES = {"english": 33, "french": 37, "german": 45, "asymmetric": 39, "diamond41": 41,
         "triangle4": 10, "triangle5": 15, "triangle6": 21, "triangle7": 28, "triangle8": 36}


class TestCatalogue:
    @pytest.mark.parametrize("board_id,holes", SIZES.items())
    def test_hole_counts(self, board_id, holes):
        assert len(get_board(board_id)) == holes

    def test_every_entry_compiles_and_names_its_default_holes(self):
        assert {e.id for e in ENTRIES} == set(SIZES)
        for e in ENTRIES:
            b = get_board(e.id)
            b.hole(e.start)
            if e.goal != "any":
                b.hole(e.goal)
            assert e.source

    def test_jump_counts(self):
        # 76 jumps on the 33-hole board and 36 on the 15-hole triangle: the usual counts of
        # "possible jumps" (e.g. G. Bell's peg solitaire pages; Beasley 1985 ch. 2).
        assert len(get_board("english").lines) * 2 == 76
        assert len(get_board("triangle5").lines) * 2 == 36

    def test_unknown_board_error_names_it(self):
        with pytest.raises(BoardError, match="unknown board 'chess'.*english"):
            get_board("chess")


class TestNames:
    def test_english_names(self):
        b = get_board("english")
        assert b.names[0] == "c1" and "d4" in b.bit_of and "a3" in b.bit_of and "g5" in b.bit_of
        assert "a1" not in b.bit_of
        assert b.cell_of[b.hole("d4")] == (3, 3)

    def test_diamond_second_row_left_is_d2(self):
        b = get_board("diamond41")
        assert b.names[:4] == ("e1", "d2", "e2", "f2")

    def test_triangle_reading_order(self):
        b = get_board("triangle5")
        assert b.names == tuple(str(i) for i in range(1, 16))
        assert b.cell_of[b.hole("4")] == (2, 0) and b.cell_of[b.hole("15")] == (4, 4)

    def test_bad_hole_message_quotes_it(self):
        with pytest.raises(HoleError, match="no hole 'z99' on board 'english'"):
            get_board("english").hole("z99")


class TestDirections:
    def test_square_has_four_triangle_six(self):
        assert len(get_board("english").directions) == 4
        assert len(get_board("triangle5").directions) == 6

    def test_every_direction_is_a_shift(self):
        b = get_board("french")
        for d in b.directions:
            m = d.src
            while m:
                low = m & -m
                p = low.bit_length() - 1
                assert p in b.name_of and p + d.shift in b.name_of and p + 2 * d.shift in b.name_of
                m ^= low

    def test_triangle_lines_through_1(self):
        b = get_board("triangle5")
        ends = {(b.name_of[a], b.name_of[c]) for a, _, c in b.lines}
        assert ("1", "4") in ends and ("1", "6") in ends and ("4", "6") in ends
        assert ("2", "3") not in ends


class TestSymmetry:
    @pytest.mark.parametrize("board_id,count", [("english", 8), ("french", 8), ("german", 8), ("diamond41", 8),
                                                ("asymmetric", 2), ("triangle5", 6), ("triangle8", 6)])
    def test_group_sizes(self, board_id, count):
        assert len(get_board(board_id).symmetries) == count

    def test_identity_first_and_images_preserve_pegs(self):
        b = get_board("english")
        pos = b.start("d4", "c1", "b3")
        images = b.images(pos)
        assert images[0] == pos
        assert all(i.bit_count() == pos.bit_count() and i & ~b.mask == 0 for i in images)
        assert len(set(images)) == 8  # this position has no symmetry of its own

    def test_canonical_is_invariant(self):
        for board_id in ("english", "triangle5", "asymmetric"):
            b = get_board(board_id)
            pos = b.full() ^ (1 << b.bits[1]) ^ (1 << b.bits[5]) ^ (1 << b.bits[-2])
            c = b.canonical(pos)
            assert all(b.canonical(img) == c for img in b.images(pos))

    def test_symmetries_commute_with_jumps(self):
        b = get_board("english")
        pos = b.start("c1")
        for k in range(len(b.symmetries)):
            after = {b.transform(apply_jump(pos, j), k) for j in legal_jumps(b, pos)}
            moved = b.transform(pos, k)
            assert after == {apply_jump(moved, j) for j in legal_jumps(b, moved)}

    @pytest.mark.parametrize("board_id", ["english", "triangle7", "diamond41", "asymmetric"])
    def test_permutation_and_mapped_jumps_agree_with_transform(self, board_id):
        b = get_board(board_id)
        pos = b.start(b.names[2])
        jumps = []
        for _ in range(5):  # a short game: the first legal jump each time
            j = legal_jumps(b, pos)[0]
            jumps.append(j)
            pos = apply_jump(pos, j)
        for k in range(len(b.symmetries)):
            perm = b.permutation(k)
            assert sorted(perm.values()) == sorted(b.bits)
            assert all(b.transform(1 << bit, k) == 1 << perm[bit] for bit in b.bits)
            p = b.transform(b.start(b.names[2]), k)
            for j in b.map_jumps(jumps, k):
                assert j in legal_jumps(b, p)
                p = apply_jump(p, j)
            assert p == b.transform(pos, k)


class TestPositionClass:
    def test_english_centre_game_same_class(self):
        b = get_board("english")
        assert b.position_class(b.start("d4")) == b.position_class(1 << b.hole("d4"))

    def test_french_centre_game_differs(self):
        # Winning Ways vol. 4 ch. 23: the French board's centre game is impossible by position class.
        b = get_board("french")
        assert b.position_class(b.start("d4")) != b.position_class(1 << b.hole("d4"))

    def test_class_is_invariant_under_jumps(self):
        for board_id in ("english", "triangle6"):
            b = get_board(board_id)
            pos = b.start(b.names[3])
            cls = b.position_class(pos)
            for _ in range(6):
                jumps = legal_jumps(b, pos)
                if not jumps:
                    break
                pos = apply_jump(pos, jumps[len(jumps) // 2])
                assert b.position_class(pos) == cls


class TestCustomBoards:
    def test_square_grid(self):
        b, pos = board_from_text("ooo/o.o/ooo")
        assert len(b) == 9 and pos.bit_count() == 8 and b.names[4] == "b2"
        assert not pos >> b.hole("b2") & 1

    def test_triangle_grid_matches_catalogue(self):
        b, pos = board_from_text("    o\n   o o\n  o o o\n o o o o\no o o o o", "triangle")
        ref = get_board("triangle5")
        assert b.cells == ref.cells and len(b.lines) == len(ref.lines) and len(b.symmetries) == 6
        assert pos == ref.full()

    def test_gaps_in_rows(self):
        b, _ = board_from_text("ooo o\nooooo")
        assert len(b) == 9 and "d1" not in b.bit_of

    @pytest.mark.parametrize("text,lattice,message", [
        ("", "square", "empty"),
        ("oo", "square", "at least 3"),
        ("o?o", "square", "unexpected character '\\?'"),
        ("oo\no", "triangle", "not on one lattice"),
        ("ooo", "hex", "unknown lattice 'hex'"),
        ("o" * 27, "square", "at most 26 columns"),
    ])
    def test_errors(self, text, lattice, message):
        with pytest.raises(BoardError, match=message):
            board_from_text(text, lattice)
