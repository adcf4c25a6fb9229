"""The SVG renderer: stable hooks (data-hole, classes), coordinates, escaping."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from pyapp.core.catalogue import get_board
from pyapp.core.custom import board_from_text
from pyapp.core.render import hole_coordinates, render_svg

SVG = "{http://www.w3.org/2000/svg}"


def _holes(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.get("data-hole"): g for g in root.iter(f"{SVG}g") if g.get("data-hole")}


class TestHooks:
    def test_every_hole_has_data_hole_and_peg_class_when_filled(self):
        board = get_board("english")
        holes = _holes(render_svg(board, board.start("d4")))
        assert sorted(holes) == sorted(board.names)
        assert "peg" not in holes["d4"].get("class").split()
        assert all("peg" in g.get("class").split() for name, g in holes.items() if name != "d4")
        assert all("hole" in g.get("class").split() for g in holes.values())

    def test_selection_targets_goal_and_last_move_classes(self):
        board = get_board("english")
        b = board.bit_of
        svg = render_svg(board, board.start("d4"), selected=[b["f4"]], targets=[b["d4"]], goal=b["d4"],
                         last=(b["f4"], b["e4"], b["d4"]))
        holes = _holes(svg)
        assert "selected" in holes["f4"].get("class")
        assert {"target", "goal", "last-to"} <= set(holes["d4"].get("class").split())
        assert "last-from" in holes["f4"].get("class") and "last-over" in holes["e4"].get("class")

    def test_each_hole_has_a_full_cell_hit_area_pin_and_socket(self):
        board = get_board("english")
        g = _holes(render_svg(board, board.full()))["a3"]
        rect = g.find(f"{SVG}rect")
        assert rect.get("class") == "hit" and float(rect.get("width")) == 40.0
        assert {c.get("class") for c in g.findall(f"{SVG}circle")} == {"socket", "pin"}


class TestCoordinates:
    def test_data_xy_match_hole_coordinates(self):
        board = get_board("triangle5")
        coords = hole_coordinates(board)
        for name, g in _holes(render_svg(board, board.full())).items():
            assert (float(g.get("data-x")), float(g.get("data-y"))) == coords[name]

    def test_triangle_is_centred_and_rows_are_equilateral(self):
        coords = hole_coordinates(get_board("triangle5"))
        assert coords["1"][0] == coords["13"][0]  # the apex above the middle of the base row
        assert round(coords["2"][1] - coords["1"][1], 1) == round(40 * 0.8660254, 1)


def test_names_are_escaped_and_custom_boards_render():
    board, pos = board_from_text("ooo/o.o/ooo")
    svg = render_svg(board, pos, title='<b>"x"</b>')
    assert "<b>" not in svg and "&lt;b&gt;" in svg
    ET.fromstring(svg)  # well-formed XML


class TestCoordinateLabels:
    """``text.coord``: the notation's letters and numbers, placed along the edges (issue 12, point 1)."""

    @staticmethod
    def _labels(svg: str) -> list[ET.Element]:
        root = ET.fromstring(svg)
        return [t for t in root.iter(f"{SVG}text") if "coord" in (t.get("class") or "").split()]

    def test_square_board_letters_below_and_numbers_left_spell_the_hole_names(self):
        board = get_board("english")
        svg = render_svg(board, board.start("d4"))
        labels = self._labels(svg)
        files = {t.text: float(t.get("x")) for t in labels if "coord-file" in t.get("class")}
        ranks = {t.text: float(t.get("y")) for t in labels if "coord-rank" in t.get("class")}
        assert list(files) == list("abcdefg") and list(ranks) == [str(n) for n in range(1, 8)]
        coords = hole_coordinates(board)
        for name, (x, y) in coords.items():
            # every hole lies in the column of its letter and the row of its number
            assert files[name[0]] == x and ranks[name[1:]] == y, name
        lowest = max(y for _, y in coords.values())
        assert all(float(t.get("y")) > lowest + 20 for t in labels if "coord-file" in t.get("class"))
        assert all(float(t.get("x")) < 0 for t in labels if "coord-rank" in t.get("class"))
        # the strip for the labels widens the viewBox to negative x; the holes do not move
        x0, y0, w, h = map(float, ET.fromstring(svg).get("viewBox").split())
        assert x0 < 0 and y0 == 0 and x0 + w == max(x for x, _ in coords.values()) + 20

    def test_labels_are_outside_the_hole_groups_and_hidden_from_screen_readers(self):
        board = get_board("diamond41")
        root = ET.fromstring(render_svg(board, board.full()))
        group = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "coords")
        assert group.get("aria-hidden") == "true"
        assert all(g.find(f"{SVG}text") is None for g in root.iter(f"{SVG}g") if g.get("data-hole"))
        texts = [t.text for t in group]
        assert texts[:9] == list("abcdefghi") and texts[9:] == [str(n) for n in range(1, 10)]

    def test_triangle_holes_carry_their_numbers(self):
        board = get_board("triangle5")
        coords = hole_coordinates(board)
        labels = self._labels(render_svg(board, board.full()))
        assert [t.text for t in labels] == [str(n) for n in range(1, 16)]
        for t in labels:
            assert (float(t.get("x")), float(t.get("y"))) == coords[t.text]
        x0 = float(ET.fromstring(render_svg(board, board.full())).get("viewBox").split()[0])
        assert x0 == 0  # no strip on triangles

    def test_coordinates_can_be_turned_off(self):
        board = get_board("english")
        svg = render_svg(board, board.full(), coordinates=False)
        assert self._labels(svg) == [] and ET.fromstring(svg).get("viewBox").startswith("0.0 0 ")

    def test_custom_board_labels_start_at_a_and_1(self):
        board, pos = board_from_text("  o/ooo/o.o")
        labels = self._labels(render_svg(board, pos))
        assert [t.text for t in labels] == ["a", "b", "c", "1", "2", "3"]
