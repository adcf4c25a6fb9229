"""The opening book (pyapp/exact/openingbook.py, openingbook_files.py): computed on triangle 6's default game, every
verdict it gives equals the game's exact winnable set; its file round-trips and is refused when damaged, of another
game or version, or when a solution does not reach the goal; never-lose and the game's table answer from it."""

from __future__ import annotations

import hashlib
import json
import zlib

import pytest

from pyapp.analysis.neverlose_exact import never_lose_book
from pyapp.analysis.proven import Proven
from pyapp.core.budget import drive
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import Problem, default_problem, make_problem
from pyapp.exact import openingbook
from pyapp.exact.openingbook import NAME, assemble, decide, frontier
from pyapp.exact.openingbook_files import decode_book, encode_book, file_name, jump_table
from pyapp.exact.store import MAGIC, StoreError
from pyapp.exact.winnable import winnable
from pyapp.web.play import never_lose_job

DEEPEST = 15


@pytest.fixture(scope="module")
def t6():
    """Triangle 6, 4 -> one peg anywhere: its book down to 15 pegs (every class decided by the solver) and its
    exact winnable set."""
    problem = default_problem("triangle6")
    cd, levels = frontier(problem, DEEPEST)
    records = [decide(problem, cd, key, 10.0) for key in levels[DEEPEST]]
    return problem, cd, levels, records, assemble(problem, cd, levels, records), winnable(problem)


@pytest.fixture(autouse=True)
def _no_book_left():
    yield
    openingbook.clear()


def test_every_verdict_equals_the_exact_set_and_every_line_reaches_the_goal(t6):
    problem, cd, levels, records, book, win = t6
    assert {r["status"] for r in records} <= {"solved", "impossible"}  # triangle 6 is decided at once
    assert len(book) == sum(len(keys) for keys in levels.values())  # so is every class above
    assert book.won and book.lost
    for pegs, keys in levels.items():
        for key in keys:
            pos = cd.layout(key)
            verdict = book.answer(pos)
            assert verdict is not None and verdict.won == win.can_win(pos), (pegs, key)
            if verdict.won:
                end = pos
                for jump in verdict.line:
                    assert jump in legal_jumps(problem.board, end)
                    end = apply_jump(end, jump)
                assert problem.goal.reached(end)
            else:
                assert verdict.why.startswith(NAME)
    # an image of a class under the group is answered with the line moved onto it
    image = problem.board.transform(cd.layout(next(iter(book.won))), cd.group[-1])
    assert book.answer(image) is not None and book.answer(image).won
    assert book.answer(cd.layout(levels[DEEPEST][0]) & (cd.layout(levels[DEEPEST][0]) - 1)) is None  # below it


def test_a_record_that_contradicts_the_levels_below_is_refused(t6):
    problem, cd, levels, records, book, _ = t6
    above = levels[DEEPEST + 1][0]
    wrong = {"key": above, "status": "impossible" if above in book.won else "solved", "why": "made up", "line": []}
    with pytest.raises(ValueError, match="disagree"):
        assemble(problem, cd, levels, [*records, wrong])


def test_a_level_under_the_winnable_classes_holds_their_children_only_and_stays_exact():
    """``frontier(under=book)`` on triangle 5 (4 -> one peg anywhere, where many classes are lost): the level below a
    book holds the children of its winnable classes, none of a lost one's; assembled with the book's verdicts,
    every class of it and above agrees with the exact set."""
    problem = default_problem("triangle5")
    win = winnable(problem)
    cd, levels = frontier(problem, 10)
    book = assemble(problem, cd, levels, [decide(problem, cd, key, 10.0) for key in levels[10]])
    assert book.lost
    with pytest.raises(ValueError, match="not 8"):
        frontier(problem, 8, under=book)
    _, deeper = frontier(problem, 9, under=book)
    _, whole = frontier(problem, 9)
    kids = {cd.canon(apply_jump(cd.layout(k), j)) for k in book.won if cd.layout(k).bit_count() == 10
            for j in legal_jumps(problem.board, cd.layout(k))}
    assert set(deeper[9]) == kids and len(kids) < len(whole[9]) and deeper[10] == levels[10]
    below = [decide(problem, cd, key, 10.0) for key in deeper[9]]
    lower = assemble(problem, cd, deeper, below + [r for r in (decide(problem, cd, k, 10.0) for k in levels[10])])
    assert lower.deepest == 9 and set(lower.won) >= set(book.won) and set(lower.lost) >= set(book.lost)
    for key in {*lower.won, *lower.lost}:
        assert (key in lower.won) == win.can_win(cd.layout(key)), key
    outside = cd.layout(next(k for k in whole[9] if k not in kids))
    assert lower.answer(outside) is None and not win.can_win(outside)  # a lost class's child: not the book's to say
    assert decode_book(encode_book(lower), problem).won == lower.won
    # one level further under that book: its own level stays as it held it, the next holds its winnable ones' children
    _, deepest = frontier(problem, 8, under=lower)
    assert deepest[9] == deeper[9] and deepest[10] == levels[10]
    assert set(deepest[8]) == {cd.canon(apply_jump(cd.layout(k), j)) for k in lower.won
                               if cd.layout(k).bit_count() == 9 for j in legal_jumps(problem.board, cd.layout(k))}
    # a lost class above that level (none of its children held): never-lose answers lost from the book at once,
    # and the page's pool is asked nothing
    from pyapp.web.neverpool import plan_steps

    openingbook.install(lower)
    gone = cd.layout(next(k for k in levels[10] if k in book.lost))
    assert all(lower.answer(apply_jump(gone, j)) is None for j in legal_jumps(problem.board, gone))
    out = never_lose_book(problem.board, problem.goal, gone)
    assert out is not None and out.status == "lost" and out.reason.startswith(NAME)
    plan = drive(plan_steps(Problem(problem.board, gone, problem.goal), 10.0, []))
    assert "shares" not in plan and plan["status"] == "lost", plan
    # the integer programme alone (--engine ilp, for the classes the solver leaves open) gives the same verdicts, on
    # every 24th class of the level (6 of 121: 3 solved, 3 infeasible; every 12th, 11, took HiGHS 7 s more)
    for key in deeper[9][::24]:
        record = decide(problem, cd, key, 20.0, engine="ilp")
        assert record["status"] == ("solved" if win.can_win(cd.layout(key)) else "impossible"), record
        assert "integer programm" in (record.get("why") or record["method"]), record


def test_the_file_round_trips_and_is_refused_when_it_must_not_be_used(t6):
    problem, _, _, _, book, _ = t6
    data = encode_book(book)
    back = decode_book(data, problem)
    assert (back.won, back.lost, back.deepest, back.reached) == (book.won, book.lost, book.deepest, book.reached)
    assert file_name(problem).startswith("triangle6-4-any-") and file_name(problem).endswith(".book.bin")
    head_end = data.index(b"}", len(MAGIC)) + 1
    header = json.loads(data[len(MAGIC) + 4:head_end])

    def with_header(**changes) -> bytes:
        head = json.dumps({**header, **changes}, separators=(",", ":")).encode()
        return MAGIC + len(head).to_bytes(4, "little") + head + data[head_end:]

    cases = {"not an opening book": with_header(kind="endgame"),
             "another key version": with_header(keys="0" * 16),
             "another game": with_header(start="o"),
             "damaged": data[:-5] + bytes(5)}
    for why, bad in cases.items():
        with pytest.raises(StoreError, match=why):
            decode_book(bad, problem)
    with pytest.raises(StoreError, match="another game"):
        decode_book(data, make_problem(problem.board, start="1", goal="any"))
    # a solution that does not reach the goal is refused even under a good checksum
    key = next(iter(book.won))
    short = type(book)(problem, book.codec, book.deepest, {**book.won, key: book.won[key][:-1]}, book.lost,
                       book.reached)
    with pytest.raises(StoreError, match="does not end at the goal"):
        decode_book(encode_book(short), problem)
    # indices past the file's own tables are refused under a good checksum too (not read as another jump or proof)
    raw = bytearray(zlib.decompress(data[head_end:]))
    count = sum(w + lo for _, _, w, lo in header["levels"])
    lost = sum(lo for *_, lo in header["levels"])
    assert lost > 0 and len(jump_table(problem.board)) < 255

    def with_body(at: int, value: int) -> bytes:
        body = zlib.compress(bytes(raw[:at]) + bytes([value]) + bytes(raw[at + 1:]), 9)
        head = json.dumps({**header, "sha256": hashlib.sha256(body).hexdigest(), "body_bytes": len(body)},
                          separators=(",", ":")).encode()
        return MAGIC + len(head).to_bytes(4, "little") + head + body

    with pytest.raises(StoreError, match="a solution names a jump the board does not have"):
        decode_book(with_body(8 * count + 2 * lost + 1, 255), problem)  # the first line's first jump
    with pytest.raises(StoreError, match="a proof index out of range"):
        decode_book(with_body(8 * count, 255), problem)  # the first lost class's proof


def test_never_lose_and_the_games_table_answer_from_an_installed_book(t6):
    problem, cd, levels, _, book, win = t6
    assert never_lose_book(problem.board, problem.goal, problem.start) is None  # not installed
    openingbook.install(book)
    start = never_lose_book(problem.board, problem.goal, problem.start)
    assert start is not None and start.status == "winnable" and start.answered and NAME in start.answered
    answer = drive(never_lose_job(problem, 10.0))  # no history: the exact set computed above is not asked
    assert answer["method"] == "exact" and not answer["unknown"] and NAME in answer["answered"]
    # a position one level above the deepest with a losing jump: filed bad, the book named as the proof
    risky = next(p for p in map(cd.layout, levels[DEEPEST + 1])
                 if any(cd.canon(apply_jump(p, j)) in book.lost for j in legal_jumps(problem.board, p)))
    out = never_lose_book(problem.board, problem.goal, risky)
    assert out is not None and out.status == "winnable" and out.jumps.bad and out.jumps.good
    assert all(why.startswith(NAME) for why in out.jumps.reasons.values())
    assert all(not win.can_win(apply_jump(risky, j)) for j in out.jumps.bad)
    lost = cd.layout(next(k for k in levels[DEEPEST] if k in book.lost))
    found = Proven().answer(Problem(problem.board, lost, problem.goal))
    assert found is not None and found.status == "impossible" and found.method == NAME
    # below the book's deepest level it says nothing, and the search answers as before
    deep = cd.layout(levels[DEEPEST][0])
    assert never_lose_book(problem.board, problem.goal, deep) is None
    assert win.can_win(problem.start)


def test_the_pools_plan_asks_no_worker_where_the_book_answers(t6):
    """The page's pool (pyapp.web.neverpool) gives no question to its workers when the book decides the position and
    every jump: the plan answers in this worker, from the book."""
    from pyapp.web.neverpool import plan_steps

    problem, _, _, _, book, _ = t6
    before = drive(plan_steps(problem, 10.0, []))
    assert before.get("shares"), before  # without the book the jumps are shared out
    openingbook.install(book)
    out = drive(plan_steps(problem, 10.0, []))
    assert "shares" not in out and out["method"] == "exact" and NAME in out["answered"], out


def test_a_lost_position_of_a_shipped_book_is_lost_with_the_books_proof():
    """Diamond 41's book (committed in sets/) holds lost classes above its deepest level: never-lose says lost, names
    the book, and files no jump."""
    from pathlib import Path

    problem = default_problem("diamond41")
    data = (Path(__file__).resolve().parents[1] / "sets" / file_name(problem)).read_bytes()
    book = decode_book(data, problem)
    openingbook.install(book)
    key = next(k for k in sorted(book.lost) if book.codec.layout(k).bit_count() > book.deepest)
    out = never_lose_book(problem.board, problem.goal, book.codec.layout(key))
    assert out is not None and out.status == "lost" and not out.jumps.good and not out.jumps.bad
    assert out.reason and out.reason.startswith(NAME)
