"""A winnable set held from some level up over the goal's endgame table (pyapp.exact.overtable), checked on
English d1 -> d4, a game whose set is not closed under complement: its verdicts, never-lose answers and lines
equal the whole set's on random reachable positions; the table's searches settled in pauses before an answer; no
table, no answer (the caller searches); its file kept and refused as the other partial files are."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from steps_support import pauses_and_value
from test_partial_sets import _random_positions, _with_header, same_never_lose

from pyapp.analysis.neverlose_exact import never_lose_exact, never_lose_prepared, prepare_steps
from pyapp.core.budget import Budget, drive
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.exact import endgame, overtable
from pyapp.exact.endgame import endgame_steps
from pyapp.exact.overtable import OverTable, over_table
from pyapp.exact.partial import complement_closed
from pyapp.exact.store import StoreError, decode, encode
from pyapp.exact.subtree import Overrun
from pyapp.exact.winnable import Winnable, line_from, register
from pyapp.web.sets import Game, file_name

ROOT = Path(__file__).resolve().parents[1]
D1D4 = Game("english", "d1", "d4")
FLOOR = 20


@pytest.fixture(autouse=True)
def _own_loaded_sets(monkeypatch):
    """The sets and tables these tests install are forgotten after each."""
    from pyapp.exact import winnable as module
    monkeypatch.setattr(module, "_LOADED", {})
    monkeypatch.setattr(endgame, "_CACHE", dict(endgame._CACHE))
    monkeypatch.setattr(endgame, "_SHIPPED", dict(endgame._SHIPPED))


@pytest.fixture(scope="module")
def whole() -> Winnable:
    """English d1 -> d4's whole set (1,679,072 classes), from its committed file."""
    return decode((ROOT / "sets" / file_name(D1D4)).read_bytes(), D1D4.problem())


@pytest.fixture(scope="module")
def table() -> endgame.Endgame:
    """The endgame table of d4 for d1's class of ends (swept here: about 4 CPU s; lookups up to 13 pegs, search
    up to 23)."""
    problem = D1D4.problem()
    found = drive(endgame_steps(problem.board, problem.goal, problem.start, Budget()))
    assert found is not None and found.ceiling >= FLOOR - 1
    return found


def test_verdicts_equal_the_whole_sets_through_a_file(whole, table):
    endgame.install(table)
    assert complement_closed(D1D4.problem()) is not None  # so neither the complements nor partial() would do
    part = decode(encode(over_table(whole, FLOOR)), D1D4.problem())
    assert isinstance(part, OverTable) and part.floor == FLOOR and set(part.levels) == set(range(FLOOR, 33))
    board, seen = D1D4.problem().board, set()
    for history in _random_positions(whole, 3, 8):
        pos = history[-1]
        seen.add(part.via(pos.bit_count()))
        for p in [pos, *(apply_jump(pos, jump) for jump in legal_jumps(board, pos))]:
            assert part.can_win(p) == whole.can_win(p), board.pegs(p)
    assert seen == {"lookup", "table"}


def test_never_lose_matches_the_whole_set_its_lines_replay_and_the_table_is_settled_first(whole, table, monkeypatch):
    endgame.install(table)
    problem = D1D4.problem()
    part = over_table(whole, FLOOR)
    histories = [h for h in _random_positions(whole, 11, 4) if 14 <= h[-1].bit_count() <= FLOOR + 3]
    got = same_never_lose(problem, whole, part, histories, "shipped from 20 pegs up")
    assert any("endgame table" in g.answered for g in got)
    # one line, the first good jump's (the one shown): each other would cost table searches
    assert all(list(g.jumps.lines) == g.jumps.good[:1] for g in got)
    # on a fresh memo, prepare_steps settles in pauses (a chunk of 50 classes here) what the answer reads (of a lost
    # position, only its own verdict: it files no jump): the answer searches nothing more.  Above the floor that is
    # one line's step under it (a few classes when its first child wins), under it the jumps' verdicts too
    monkeypatch.setattr(endgame, "CHUNK", 50)
    for pegs, wins in ((FLOOR + 1, True), (FLOOR, True), (FLOOR - 2, True), (FLOOR - 2, False)):
        history = next(h for h in histories if h[-1].bit_count() == pegs and whole.can_win(h[-1]) == wins)
        table.memo.clear()
        before = table.searched
        pauses, ready = pauses_and_value(prepare_steps(problem.board, problem.goal, history))
        settled = table.searched
        answer = never_lose_exact(problem.board, problem.goal, history)
        assert ready and answer is not None and answer.status != "unknown"
        assert table.searched == settled > before and pauses >= (settled - before) // 100, (pegs, pauses, settled)
        assert answer.status == ("winnable" if wins else "lost")


def test_a_lines_first_step_under_the_floor_is_found_in_growing_rounds_not_after_proving_each_lost_child(
        whole, table, monkeypatch):
    """At a held position of :attr:`~OverTable.floor` pegs whose first child is lost and a later one wins, the
    children share growing rounds (here 100 classes, then 4 times as many): the winning child is settled for fewer
    classes than proving the lost ones first in their order would cost."""
    endgame.install(table)
    monkeypatch.setattr(overtable, "FIRST_LOOK", 100)
    board, part = D1D4.problem().board, over_table(whole, FLOOR)
    edges = (h[-1] for h in _random_positions(whole, 11, 40) if h[-1].bit_count() == FLOOR and whole.can_win(h[-1]))
    cheaper = 0
    for edge in edges:
        children = [apply_jump(edge, jump) for jump in legal_jumps(board, edge)]
        wins = [whole.can_win(child) for child in children]
        if wins[0]:
            continue
        table.memo.clear()
        before = table.searched
        assert drive(part._settle_line(table, edge, Budget())) is True
        rounds = table.searched - before
        assert any(table.known(c) for c in children) and line_from(part, edge)  # the step is read, no search
        table.memo.clear()
        before = table.searched
        for child in children[:wins.index(True) + 1]:  # in order: each lost child proved, then the first winner
            assert drive(table.settle_steps([child], Budget(), table.limit))
        cheaper += rounds < table.searched - before
    assert cheaper >= 2


def test_out_of_time_at_the_floor_the_answer_gives_what_the_table_settled_and_the_rest_unknown(whole, table,
                                                                                              monkeypatch):
    """When settling ran out of the check's time, the answer reads what the table settled (no search), files the
    other jumps unknown with the reason, and names no line it has not got; with time left the caller searches."""
    endgame.install(table)
    problem = D1D4.problem()
    board, part = problem.board, over_table(whole, FLOOR)
    register(part)
    history = next(h for h in _random_positions(whole, 11, 40) if h[-1].bit_count() == FLOOR and whole.can_win(h[-1]))
    pos = history[-1]
    jumps = legal_jumps(board, pos)
    table.memo.clear()

    def out_of_time(spent: bool, line: bool = True):
        """The answer after a preparation that did not end, ``spent`` its 10 s or not."""
        since = time.perf_counter() - (10 if spent else 0)
        return never_lose_prepared(board, problem.goal, history, False, 10, since, line)

    assert out_of_time(spent=False) is None  # time left: search
    nothing = out_of_time(spent=True, line=False)
    assert nothing is not None and nothing.status == "winnable" and nothing.jumps.unknown == jumps
    assert all("stopped by the check's budget" in why for why in nothing.jumps.reasons.values())
    first = apply_jump(pos, jumps[0])
    assert drive(table.settle_steps([first], Budget(), table.limit))
    some = out_of_time(spent=True, line=False)
    assert some is not None and some.jumps.unknown == jumps[1:] and not some.line
    assert (jumps[0] in some.jumps.good) == whole.can_win(first) != (jumps[0] in some.jumps.bad)
    before = table.searched
    asked = out_of_time(spent=True)  # a line asked: none given
    assert asked is not None and not asked.line and table.searched == before
    # the position's own status (a lookup at the floor) is reported before its jumps are settled
    table.memo.clear()
    monkeypatch.setattr(endgame, "CHUNK", 50)
    notes = [p.note for p in prepare_steps(board, problem.goal, history)]
    assert notes[0] == "verdict:winnable" and len(notes) > 1


def test_the_pages_request_without_a_line_gets_the_same_verdicts_and_no_line(whole, table):
    """``never_lose`` with ``line`` false (the page's request: it shows no line) settles no line and gives the same
    verdicts; asked with its line, the line replays to the goal."""
    import json

    from pyapp.core.notation import format_jump, parse_moves
    from pyapp.web import api

    endgame.install(table)
    problem = D1D4.problem()
    board = problem.board
    register(over_table(whole, FLOOR))
    history = next(h for h in _random_positions(whole, 5, 40)
                   if h[-1].bit_count() == FLOOR + 3 and whole.can_win(h[-1]))
    moves = [format_jump(board, next(j for j in legal_jumps(board, a) if apply_jump(a, j) == b))
             for a, b in zip(history, history[1:])]

    def ask(**extra) -> dict:
        job = api.start("never_lose", json.dumps({"board": "english", "start": "d1", "goal": "d4", "moves": moves,
                                                  **extra}))
        while not (out := json.loads(job.step()))["done"]:
            pass
        return out["result"]

    table.memo.clear()
    before = table.searched
    bare = ask(line=False)
    assert table.searched == before and bare["method"] == "exact" and bare["line"] == [] and not bare["unknown"]
    full = ask()
    assert (full["status"], full["good"], full["bad"]) == (bare["status"], bare["good"], bare["bad"]) == \
        ("winnable", full["good"], full["bad"]) and table.searched > before
    pos = history[-1]
    for jump in parse_moves(board, full["line"]):
        pos = apply_jump(pos, jump)
    assert problem.goal.reached(pos)


def test_without_its_table_it_gives_no_answer_and_the_caller_searches(whole, table):
    problem = D1D4.problem()
    part = over_table(whole, FLOOR)
    register(part)
    endgame.clear()
    history = [problem.start]
    for jump in line_from(whole, problem.start)[:32 - FLOOR]:
        history.append(apply_jump(history[-1], jump))
    assert history[-1].bit_count() == FLOOR
    after = apply_jump(history[-1], legal_jumps(problem.board, history[-1])[0])
    with pytest.raises(Overrun, match="not loaded"):
        part.can_win(after)
    assert never_lose_exact(problem.board, problem.goal, history) is None
    assert drive(prepare_steps(problem.board, problem.goal, history)) is False
    endgame.install(table)
    assert drive(prepare_steps(problem.board, problem.goal, history)) is True
    assert never_lose_exact(problem.board, problem.goal, history) is not None




@pytest.mark.parametrize(("change", "why"), [
    (lambda h: h.update(closed="sideways"), "does not say how the rest is answered"),
    (lambda h: h.update({"from": FLOOR + 1}), "lacks some level"),
    (lambda h: h.update({"kind": "winnable"}), "whole set that lacks some level"),
])
def test_a_file_that_does_not_hold_what_it_says_is_refused(whole, change, why):
    data = encode(over_table(whole, FLOOR))
    with pytest.raises(StoreError, match=why):
        decode(_with_header(data, change), D1D4.problem())


def test_a_floor_above_the_tables_ceiling_lifts_it_by_at_most_lift(whole, table):
    """A set may be held from up to LIFT + 1 levels above its table's ceiling: the table is then asked to search
    that high (each question within its limit); one level more and the set cannot answer (the caller searches)."""
    endgame.install(table)
    ceiling = table.ceiling
    try:
        for floor, answers in ((ceiling + 1 + overtable.LIFT, True), (ceiling + 2 + overtable.LIFT, False)):
            table.ceiling = ceiling
            part = over_table(whole, floor)
            pos = next(h[-1] for h in _random_positions(whole, 3, 20) if h[-1].bit_count() == floor - 1)
            if answers:
                assert part.can_win(pos) == whole.can_win(pos) and table.ceiling == floor - 1
            else:
                with pytest.raises(Overrun, match=f"answers up to {ceiling} pegs"):
                    part.can_win(pos)
    finally:
        table.ceiling = ceiling
