"""Board specs as users type them (pyapp.core.spec): catalogue ids and custom grids."""

import pytest

from pyapp.core.catalogue import get_board, get_entry
from pyapp.core.errors import PegError
from pyapp.core.spec import resolve_board


def test_catalogue_id_gives_the_default_problem():
    spec = resolve_board("english")
    entry = get_entry("english")
    assert spec.board is get_board("english")
    assert spec.start == spec.board.start(entry.start) and spec.goal == entry.goal


@pytest.mark.parametrize("text, holes, pegs", [
    ("square:ooo/o.o/ooo", 9, 8),
    ("SQUARE:ooo/o.o/ooo", 9, 8),
    (" square:o_o/ooo ", 5, 5),
    ("triangle:__./_o_o/o_o_o", 6, 5),
])
def test_custom_grids_start_from_their_pegs_and_aim_for_fewest(text, holes, pegs):
    spec = resolve_board(text)
    assert len(spec.board) == holes and spec.start.bit_count() == pegs
    assert spec.goal == "min" and spec.board.lattice.name == text.strip().split(":")[0].lower()


@pytest.mark.parametrize("text", ["no-such-board", "square:o?o", "square:oo", "hexagon:ooo"])
def test_bad_specs_are_input_errors(text):
    with pytest.raises(PegError):
        resolve_board(text)
