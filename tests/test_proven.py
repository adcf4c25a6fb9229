"""The game's table of proved positions (pyapp.analysis.proven): never-lose and Hint never search a
position twice, a move on a found line or an undo is answered at once, the English scenario's losing
jump (the fallback path, no exact set loaded) is lost at once after the position before it was checked,
and the position's own verdict reaches the page before the per-jump detail."""

from __future__ import annotations

import json

from pyapp.analysis.neverlose import never_lose, never_lose_steps
from pyapp.analysis.proven import FOLLOWS, HIT, Proven, decide_steps, table_for
from pyapp.core.budget import CPU_CLOCK, Budget, drive
from pyapp.core.catalogue import get_board
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.notation import parse_moves
from pyapp.core.problem import Problem, default_problem, make_problem
from pyapp.exact import endgame
from pyapp.search.solver import solve
from pyapp.web import api as webapi

SCENARIO = ["f4-d4", "e6-e4", "g5-e5", "d5-f5", "b5-d5", "c7-c5", "c4-c6", "e7-c7-c5"]


def _after(problem: Problem, moves: list[str]) -> Problem:
    pos = problem.start
    for jump in parse_moves(problem.board, moves):
        pos = apply_jump(pos, jump)
    return Problem(problem.board, pos, problem.goal)


def test_every_position_on_a_found_line_is_known_and_replays():
    problem = default_problem("triangle6")
    table = Proven()
    first = drive(decide_steps(problem, Budget(10), table))
    assert first.status == "solved"
    pos = problem.start
    for i, jump in enumerate(first.jumps):
        hit = table.answer(Problem(problem.board, pos, problem.goal))
        assert hit is not None and hit.method == HIT and list(hit.jumps) == first.jumps[i:]
        assert problem.goal.reached(hit.final)
        pos = apply_jump(pos, jump)


def test_a_lost_position_is_remembered_with_its_reason():
    problem = make_problem(get_board("french"), start="d4", goal="d4")  # the position class rules it out
    table = Proven()
    lost = drive(decide_steps(problem, Budget(5), table))
    assert lost.status == "impossible"
    again = table.answer(problem)
    assert again is not None and again.status == "impossible" and again.reason == lost.reason and again.nodes == 0


def test_every_position_after_a_lost_one_is_lost_at_once_and_truly_lost():
    """Triangle 6 from 4 to one peg: a position the solver proves lost; every position one and two jumps after it is
    answered lost from the table alone (no search), with the first proof's reason, and the solver agrees."""
    problem = make_problem(get_board("triangle6"), start="4", goal="any")
    board, table = problem.board, Proven()
    bad, level = None, [problem.start]
    while bad is None and level:  # the first position, jump by jump from the start, that the solver proves lost
        level = [apply_jump(pos, j) for pos in level[:4] for j in legal_jumps(board, pos)]
        for pos in level:
            after = Problem(board, pos, problem.goal)
            if drive(decide_steps(after, Budget(10), table)).status == "impossible":
                bad = after
                break
    assert bad is not None
    reason = table.lost[bad.start]
    frontier = [bad.start]
    for _ in range(2):
        children = [apply_jump(pos, j) for pos in frontier for j in legal_jumps(board, pos)]
        assert children
        for child in children:
            asked = Problem(board, child, problem.goal)
            hit = table.answer(asked)
            assert hit is not None and hit.status == "impossible" and hit.nodes == 0
            assert hit.reason == f"{FOLLOWS}: {reason}" and table.lost[child] == hit.reason
            assert solve(asked, budget=Budget(10)).status == "impossible"
        frontier = children[:3]
    for pos in level:  # the lost position's siblings: answered lost only when they are
        hit = table.answer(Problem(board, pos, problem.goal))
        if hit is not None and hit.status == "impossible":
            assert solve(Problem(board, pos, problem.goal), budget=Budget(10)).status == "impossible"


def test_the_table_keeps_to_its_size():
    problem = default_problem("triangle6")
    table = Proven(max_entries=10)
    drive(decide_steps(problem, Budget(10), table))
    assert len(table) <= 21  # one solution (20 positions) once the oldest half went


def test_the_english_losing_jump_is_lost_at_once_after_the_check_before_it(monkeypatch):
    problem = default_problem("english")
    # without the goal's endgame table, which the check would sweep after its search (7 of its 9 CPU s) and which
    # would then answer the losing jump's 22-peg position itself: the table of proved positions is what is tested
    # here (the endgame table has its own tests in test_endgame.py)
    monkeypatch.setattr(endgame, "MIN_HOLES", len(problem.board) + 1)
    before = _after(problem, SCENARIO)
    # the check's 10 s counted in CPU seconds (about 2 are needed): a loaded machine does not starve it
    checked = drive(never_lose_steps(before, budget=Budget(10.0, clock=CPU_CLOCK)))
    assert checked.status == "winnable"
    assert parse_moves(problem.board, ["d5-d7"])[0] in checked.jumps.bad
    lost = never_lose(_after(problem, [*SCENARIO, "d5-d7"]))
    assert lost.status == "lost" and lost.nodes == 0  # proved by the check before: no search
    assert lost.reason == checked.jumps.reasons[parse_moves(problem.board, ["d5-d7"])[0]]
    assert solve(_after(problem, [*SCENARIO, "d5-d7"]), budget=Budget(30)).status == "impossible"
    assert len(table_for(problem)) > 0


def test_the_verdict_arrives_before_the_per_jump_detail():
    job = webapi.start("never_lose", json.dumps({"board": "french", "moves": []}))
    seen = []
    while not (out := json.loads(job.step()))["done"]:
        seen.append(out["progress"])
    verdicts = [p["verdict"] for p in seen if "verdict" in p]
    assert verdicts == [out["result"]["status"]]  # once, as a progress report, before the answer


def test_off_the_shipped_games_the_funnel_counts_when_it_finishes_in_time():
    from pyapp.exact.count import count_solutions

    problem = make_problem(get_board("triangle5"), start="4", goal="any")  # not a shipped game: the search path
    r = never_lose(problem)
    assert r.status == "winnable" and r.solutions == count_solutions(problem)
    assert sum(r.through.values()) == r.solutions and all(r.through[j] == 0 for j in r.jumps.bad)
    big = never_lose(Problem(get_board("german"), get_board("german").start("e5"), default_problem("german").goal),
                     max_seconds=3)
    assert big.solutions is None and big.through == {}  # far too many to count in the budget: no number
    # the first count is a probe of FUNNEL_PROBE_NODES nodes, not seconds: triangle 6's counts (146,416 nodes each)
    # never show, on any machine, and triangle 5's (under 2,000) always do
    six = never_lose(make_problem(get_board("triangle6"), start="1", goal="any"))
    assert six.status == "winnable" and six.solutions is None


def test_finishes_share_the_games_table_with_never_lose_and_hint():
    from pyapp.analysis.finishes import finishes
    from pyapp.analysis.hint import hint
    from pyapp.core.goal import Goal

    board = get_board("triangle6")
    pos = apply_jump(board.start("4"), parse_moves(board, ["11-4"])[0])
    first = finishes(board, pos, max_seconds=10, max_positions=1)  # too big to explore: one search per hole
    assert first.method == "solver" and first.possible
    hole = min(first.possible)
    table = table_for(Problem(board, pos, Goal("hole", 1 << hole)))
    hits = table.hits
    again = hint(Problem(board, pos, Goal("hole", 1 << hole)), max_seconds=10)  # the same question from Hint
    assert again.good and table.hits > hits
