"""Moves: legal jumps by bit operations, apply/undo, grouping into moves, end of game."""

from pyapp.core.catalogue import get_board
from pyapp.core.game import game_over, replay
from pyapp.core.moves import apply_jump, count_moves, group_moves, has_jump, legal_jumps, undo_jump
from pyapp.core.notation import format_jump, parse_moves


def names(b, jumps):
    return sorted(format_jump(b, j) for j in jumps)


def brute_force(b, pos):
    """Legal jumps by definition, from the board's lines, to check the bit-parallel generator."""
    out = []
    for a, m, c in b.lines:
        for src, dst in ((a, c), (c, a)):
            if pos >> src & 1 and pos >> m & 1 and not pos >> dst & 1:
                out.append((src, m, dst))
    return sorted(out)


def test_english_opening_jumps():
    b = get_board("english")
    assert names(b, legal_jumps(b, b.start("d4"))) == ["b4-d4", "d2-d4", "d6-d4", "f4-d4"]


def test_triangle_opening_jumps():
    b = get_board("triangle5")
    assert names(b, legal_jumps(b, b.start("1"))) == ["4-1", "6-1"]


def test_generator_matches_definition_on_many_positions():
    import random
    rng = random.Random(1)
    for board_id in ("english", "diamond41", "triangle6", "asymmetric"):
        b = get_board(board_id)
        for _ in range(200):
            pos = sum(1 << bit for bit in b.bits if rng.random() < 0.6)
            assert sorted(legal_jumps(b, pos)) == brute_force(b, pos)
            assert has_jump(b, pos) == bool(brute_force(b, pos))


def test_apply_and_undo():
    b = get_board("english")
    start = b.start("d4")
    (j,) = parse_moves(b, "f4-d4")
    after = apply_jump(start, j)
    assert after.bit_count() == 31 and after >> b.hole("d4") & 1 and not after >> b.hole("e4") & 1
    assert undo_jump(after, j) == start


def test_grouping():
    b = get_board("english")
    jumps = parse_moves(b, ["d6-d4", "f5-d5", "d4-d6", "g5-e5", "e2-e4-e6"])
    assert [len(m) for m in group_moves(jumps)] == [1, 1, 1, 1, 2]
    assert count_moves(jumps) == 5
    # consecutive jumps by different pegs are separate moves even when adjacent
    assert count_moves(parse_moves(b, ["d6-d4", "d3-d5"])) == 2


def test_replay_reports_first_illegal_move():
    b = get_board("english")
    r = replay(b, b.start("d4"), ["f4-d4", "f4-d4"])
    assert not r.valid and r.error.startswith("move 2 (f4-d4)") and "no peg on f4" in r.error
    assert len(r.jumps) == 1


def test_game_over():
    b = get_board("triangle4")
    assert not game_over(b, b.start("1"))
    assert game_over(b, 1 << b.hole("5"))
