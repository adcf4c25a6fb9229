"""The level search (:mod:`pyapp.search.levels`, :mod:`pyapp.search.decide`) against exhaustive enumeration.

The oracle here is independent of the solver: it lists every position reachable from the
start (a plain breadth-first closure over Python sets, no symmetry, no pruning), which is
cheap on boards of up to 21 holes and on sparse random positions.
"""

from __future__ import annotations

import random

import pytest

from pyapp.core.catalogue import get_board
from pyapp.core.goal import Goal
from pyapp.core.problem import Problem
from pyapp.search.decide import decide
from pyapp.search.levels import level_search


def _drive(gen):
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value


def _lines(board):
    out = []
    for a, b, c in board.lines:
        out.append((a, b, c))
        out.append((c, b, a))
    return out


def reachable(board, start: int) -> set[int]:
    """Every position reachable from ``start`` (the start included), by brute force: a jump over ``b`` from
    ``a`` into ``c`` applies where ``a`` and ``b`` hold pegs and ``c`` is empty, and flips the three."""
    moves = [((1 << a) | (1 << b), (1 << a) | (1 << b) | (1 << c)) for a, b, c in _lines(board)]
    seen = {start}
    frontier = [start]
    while frontier:
        nxt = []
        for pos in frontier:
            for pegs, flip in moves:
                if pos & flip == pegs:
                    child = pos ^ flip
                    if child not in seen:
                        seen.add(child)
                        nxt.append(child)
        frontier = nxt
    return seen


def check_path(board, problem: Problem, path: list[int]) -> None:
    """Each step of ``path`` is one legal jump, from the start, ending where the goal wants."""
    lines = set(_lines(board))
    assert path[0] == problem.start
    for p, q in zip(path, path[1:]):
        gone, come = p & ~q, q & ~p
        assert gone.bit_count() == 2 and come.bit_count() == 1 and (p & q) == (p & ~gone)
        c = come.bit_length() - 1
        x, y = (b for b in board.bits if gone >> b & 1)
        assert (x, y, c) in lines or (y, x, c) in lines
    if problem.goal.definite:
        assert problem.goal.reached(path[-1])


def _single_vacancy_cases(board_id):
    board = get_board(board_id)
    starts = {board.canonical(board.start(name)): name for name in board.names}
    return board, sorted(starts.values(), key=board.names.index)


# triangle5: every single-vacancy start up to symmetry, every goal; triangle6 (slower: the
# middle levels hold ~10^5 positions) the inner start 5 (227,050 positions reachable against
# the corner's 291,987: 40% less time), one peg anywhere, fewest pegs and two finishing holes
# the position class does not rule out: the start hole 5 (on the start's mirror line: the
# symmetric complement problem) and 7 (off it: no symmetry kept)
CASES = [("triangle5", None, None), ("triangle6", ["5"], ["5", "7"])]


@pytest.mark.parametrize(("board_id", "only", "holes"), CASES)
def test_every_single_vacancy_problem_agrees_with_enumeration(board_id, only, holes):
    board, starts = _single_vacancy_cases(board_id)
    for name in only or starts:
        start = board.start(name)
        closure = reachable(board, start)
        singles = {p for p in closure if p.bit_count() == 1}
        fewest = min(p.bit_count() for p in closure)
        ends = board.bits if holes is None else [board.hole(h) for h in holes]
        assert holes is None or all(board.position_class(1 << b) == board.position_class(start) for b in ends)
        goals = [Goal("any"), Goal("min")] + [Goal("hole", 1 << b) for b in ends]
        for goal in goals:
            problem = Problem(board, start, goal)
            answer = _drive(decide(problem))
            if goal.kind == "any":
                want = "solved" if singles else "impossible"
            elif goal.kind == "hole":
                want = "solved" if goal.target in singles else "impossible"
            else:
                want = "solved"
            assert answer.status == want, (board_id, name, goal, answer.reason)
            if answer.status == "solved":
                check_path(board, problem, answer.path)
            else:
                assert answer.reason
            if goal.kind == "min":
                assert answer.lower == fewest == answer.path[-1].bit_count()


def test_target_goal_and_unreachable_target():
    board = get_board("triangle5")
    start = board.start("1")
    closure = reachable(board, start)
    rnd = random.Random(11)
    some = rnd.sample(sorted(p for p in closure if p.bit_count() == 6), 3)
    misses = [p for p in (rnd.getrandbits(15) for _ in range(200)) if p & ~board.mask == 0 and p not in closure]
    for pos in some + misses[:3]:
        pos &= board.mask
        problem = Problem(board, start, Goal("target", pos))
        answer = _drive(decide(problem))
        assert answer.status == ("solved" if pos in closure else "impossible")
        if answer.status == "solved":
            check_path(board, problem, answer.path)


def _random_positions(board, count, low, high, seed):
    """Random peg sets, and as many positions played backward from a random single peg (solvable)."""
    rnd = random.Random(seed)
    lines = _lines(board)
    out = []
    for _ in range(count):
        k = rnd.randint(low, high)
        out.append(sum(1 << b for b in rnd.sample(board.bits, k)))
        pos = 1 << rnd.choice(board.bits)
        while pos.bit_count() < k:
            back = [(a, b, c) for a, b, c in lines if pos >> c & 1 and not pos >> a & 1 and not pos >> b & 1]
            if not back:
                break
            a, b, c = rnd.choice(back)
            pos ^= (1 << a) | (1 << b) | (1 << c)
        out.append(pos)
    return out


@pytest.mark.parametrize("board_id", ["english", "german", "diamond41"])
def test_random_positions_agree_with_enumeration(board_id):
    """Impossibility claims (and solutions) on sparse random positions, fixed seed, checked by brute force."""
    board = get_board(board_id)
    kinds = {"solved": 0, "impossible": 0}
    for start in _random_positions(board, 4, 9, 13, seed=2026):  # 4 random and 4 played backward (solvable)
        closure = reachable(board, start)
        fewest = min(p.bit_count() for p in closure)
        for goal in (Goal("any"), Goal("min")):
            problem = Problem(board, start, goal)
            answer = _drive(decide(problem))
            assert answer.status != "unknown"
            if goal.kind == "any":
                assert answer.status == ("solved" if fewest == 1 else "impossible"), answer.reason
                kinds[answer.status] += 1
            else:
                assert answer.status == "solved" and answer.lower == fewest == answer.path[-1].bit_count()
            if answer.status == "solved":
                check_path(board, problem, answer.path)
    assert kinds["solved"] and kinds["impossible"]  # the sample exercises both answers


def test_min_with_a_known_game_proves_one_count_below():
    board = get_board("english")
    start = _random_positions(board, 1, 12, 12, seed=5)[0]
    closure = reachable(board, start)
    fewest = min(p.bit_count() for p in closure)
    # a known game leaving ``fewest`` pegs: found by the search itself, then handed back as ``upper``
    first = _drive(decide(Problem(board, start, Goal("min"))))
    again = _drive(decide(Problem(board, start, Goal("min")), upper=first.path))
    assert again.status == "solved" and again.lower == fewest and again.path[-1].bit_count() == fewest


def test_budget_spent_reports_how_far():
    board = get_board("english")
    res = _drive(level_search(board, board.start("d4"), [1 << board.hole("d4")], 1, [0], max_nodes=2000))
    assert res.status == "unknown"
    assert "levels completed" in res.reason and "positions stored" in res.reason
    assert res.stats.nodes >= 2000 and res.stats.stored > 0 and res.stats.fewest_pegs is not None


def test_memory_ceiling_is_respected():
    board = get_board("english")
    res = _drive(level_search(board, board.start("d4"), [1 << board.hole("d4")], 1, [0], max_bytes=1 << 20))
    assert res.status == "unknown" and "MB" in res.reason


def test_solver_fewest_pegs_and_one_peg_agree_with_enumeration():
    """Through the whole portfolio (fast phases, then the complete phase with the level search)."""
    from pyapp.search.solver import solve

    board = get_board("german")
    checked = 0
    for start in _random_positions(board, 4, 10, 12, seed=77):
        fewest = min(p.bit_count() for p in reachable(board, start))
        res = solve(Problem(board, start, Goal("min")), max_seconds=60)
        assert res.status == "solved" and res.pegs_left == fewest, res.method
        one = solve(Problem(board, start, Goal("any")), max_seconds=60)
        assert one.status == ("solved" if fewest == 1 else "impossible"), one.reason
        checked += fewest > 1
    assert checked


def test_fewest_pegs_above_a_class_bound_of_two_agrees_with_enumeration():
    """``min`` when the position class allows no single peg: the complete stage is the fewest-pegs
    search at once (depth-first and level search), and its answer is the true minimum."""
    from pyapp.core.goal import fewest_in_class
    from pyapp.search.solver import solve

    board = get_board("german")
    rnd = random.Random(5)
    checked = above = 0
    while checked < 4:
        start = sum(1 << b for b in rnd.sample(board.bits, rnd.randint(9, 12)))
        if fewest_in_class(board, start) < 2:
            continue
        fewest = min(p.bit_count() for p in reachable(board, start))
        res = solve(Problem(board, start, Goal("min")), max_seconds=60)
        assert res.status == "solved" and res.pegs_left == fewest, res.method
        assert ("class lower bound" in res.method) == (fewest == fewest_in_class(board, start)), res.method
        checked += 1
        above += fewest > fewest_in_class(board, start)
    assert above


def test_one_peg_at_the_centre_from_random_positions_agrees_with_enumeration():
    """A definite goal from positions without symmetry: both sides keyed by the symmetries that fix the start
    too (none here but the identity), the meet one lookup a position; every verdict checked by brute force."""
    board = get_board("english")
    centre = 1 << board.hole("d4")
    syms = [s for s in range(len(board.symmetries)) if board.transform(centre, s) == centre]
    kinds = {"solved": 0, "impossible": 0}
    for start in _random_positions(board, 8, 9, 14, seed=28):
        answer = _drive(level_search(board, start, [centre], 1, syms))
        assert answer.status == ("solved" if centre in reachable(board, start) else "impossible"), answer.reason
        kinds[answer.status] += 1
        if answer.status == "solved":
            check_path(board, Problem(board, start, Goal("target", centre)), answer.path)
    assert kinds["solved"] and kinds["impossible"]


def test_the_meet_pauses_and_can_be_cancelled_there(monkeypatch):
    """The meet of two levels reports progress as it goes (every ``MEET_PAUSE`` lookups), so a cancel lands
    within a slice: closed in the middle of the meet, the search stops there."""
    from pyapp.search import levels
    board = get_board("english")
    start = _backward_from(board, 1 << board.hole("d4"), 16, seed=1)
    goal = 1 << board.hole("c4")  # out of reach: the meet looks every position of the smaller side up
    monkeypatch.setattr(levels, "MEET_PAUSE", 1)
    gen = level_search(board, start, [goal], 1, [0])
    at_meet = 0
    for st in gen:  # both sides at one peg count: the meet, whose lookups now pause one by one
        if st.forward_levels + st.backward_levels == start.bit_count() - 1:
            at_meet += 1
            if at_meet == 5:
                break
    assert at_meet == 5
    gen.close()
    assert "none in common" in _drive(level_search(board, start, [goal], 1, [0])).reason


def _backward_from(board, goal: int, pegs: int, seed: int) -> int:
    """A position of ``pegs`` pegs played backward from ``goal`` (so it reaches it), reverse jumps at random."""
    rnd = random.Random(seed)
    lines = _lines(board)
    pos = goal
    while pos.bit_count() < pegs:
        back = [(a, b, c) for a, b, c in lines if pos >> c & 1 and not pos >> a & 1 and not pos >> b & 1]
        a, b, c = rnd.choice(back)
        pos ^= (1 << a) | (1 << b) | (1 << c)
    return pos
