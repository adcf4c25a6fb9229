"""The bounded transposition table (pyapp.search.table): symmetric lookups and the entry cap."""

import pytest

from pyapp.catalogue import get_board
from pyapp.search.table import BoundedTable

BOARD = get_board("english")


def test_a_position_is_found_under_every_symmetry():
    table = BoundedTable(1000, BOARD.images)
    pos = BOARD.start("c3")
    table.add(pos)
    assert all(img in table for img in BOARD.images(pos))
    assert len(table) == len(set(BOARD.images(pos)))
    assert BOARD.start("d4") not in table and not table.full


def test_at_the_cap_nothing_more_is_stored_and_full_says_so():
    # the cap counts the images offered (with repeats): a position whose images would pass it is not stored
    table = BoundedTable(10, BOARD.images)
    table.add(BOARD.start("c3"))  # 8 images (4 distinct): 0 + 8 <= 10, stored
    stored = len(table)
    assert stored == 4 and not table.full
    table.add(BOARD.start("d3"))  # 4 + 8 > 10: refused
    assert len(table) == stored and BOARD.start("d3") not in table and table.full
    table.add_images([1, 2, 3])  # 4 + 3 <= 10: stored
    table.add_images([4, 5, 6, 7])  # 7 + 4 > 10: refused
    assert len(table) == 7 and 1 in table and 4 not in table


def test_add_images_stores_what_it_is_given():
    table = BoundedTable(100, BOARD.images)
    table.add_images([5, 7])
    assert 5 in table and 7 in table and len(table) == 2


def test_zero_cap_stores_nothing_and_negative_cap_is_refused():
    table = BoundedTable(0, BOARD.images)
    table.add(BOARD.start("d4"))
    assert len(table) == 0 and table.full
    with pytest.raises(ValueError):
        BoundedTable(-1, BOARD.images)
