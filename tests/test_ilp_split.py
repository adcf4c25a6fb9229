"""An integer programme split by the first jump with a choice (pyapp/search/ilp_split.py, scripts/ilp_run.py --split):
the parts cover every legal jump there, each is closed under the programme's symmetries, and the parts together
answer as the whole programme does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from test_levels import reachable

from pyapp.core.catalogue import get_board
from pyapp.core.goal import Goal
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.notation import format_jump
from pyapp.core.problem import Problem, make_problem
from pyapp.proofs import lp
from pyapp.search.ilp import IlpFormulation, _answer
from pyapp.search.ilp_cuts import symmetry_group
from pyapp.search.ilp_split import leaves, part_problem, parts, restrict

ROOT = Path(__file__).resolve().parent.parent


def test_german_e1_splits_after_its_two_forced_jumps_into_three_mirror_classes():
    board = get_board("german")
    f = IlpFormulation(make_problem(board, start="e1", goal="e1"), cuts=["symmetry"])
    every = parts(f)
    assert [format_jump(board, j) for j in every[0].forced] == ["e3-e1", "e5-e3"]
    pos = f.problem.start
    for j in every[0].forced:
        assert legal_jumps(board, pos) == [j]
        pos = apply_jump(pos, j)
    chosen = [j for p in every for j in p.jumps]
    assert sorted(chosen) == sorted(legal_jumps(board, pos)) and len(chosen) == len(set(chosen)) == 5
    perms = [board.permutation(i) for i in symmetry_group(f)]
    for p in every:
        assert p.step == 3
        assert {(q[a], q[b], q[c]) for q in perms for a, b, c in p.jumps} == set(p.jumps)
    assert [p.label(f) for p in every] == ["step 3 in c4-e4, g4-e4", "step 3 in c5-e5, g5-e5", "step 3 in e7-e5"]
    assert all(p.position == apply_jump(pos, p.jumps[0]) for p in every)
    rows = f.model.rows
    restrict(f, every[0])
    assert f.model.rows == rows + 1


def test_the_parts_answer_as_the_whole_programme():
    """Triangle 5 from vacancy 13 (on a mirror axis) to a finish it reaches and one it does not, with the
    symmetry rows (the addition a restricted part must not fight): in both forms of the parts, some part is
    feasible exactly where enumeration reaches the finish, and a feasible part's jumps replay (checked by
    _answer)."""
    board = get_board("triangle5")
    start = board.start("13")
    seen = reachable(board, start)
    answers = {"solved": 0, "impossible": 0}
    won = [h for h in board.bits if 1 << h in seen][:1]
    lost = [h for h in board.bits if 1 << h not in seen][:1]
    for finish in won + lost:
        problem = Problem(board, start, Goal("hole", 1 << finish))
        split = parts(IlpFormulation(problem, cuts=["symmetry"]))
        assert len(split) >= 1 and all(p.step == 1 for p in split)
        statuses, own = [], []
        for k in range(len(split)):
            f = IlpFormulation(problem, cuts=["symmetry"])
            restrict(f, split[k])
            statuses.append(_answer(f, lp.solve(f.model), 0.0).status)
            sub = part_problem(problem, split[k])
            assert sub.start == apply_jump(start, split[k].jumps[0]) and sub.goal == problem.goal
            g = IlpFormulation(sub, cuts=["symmetry"])
            own.append(_answer(g, lp.solve(g.model), 0.0).status)
        want = "solved" if 1 << finish in seen else "impossible"
        assert ("solved" in statuses) == ("solved" in own) == (want == "solved"), (board.name_of[finish], statuses)
        assert set(statuses) | set(own) <= {"solved", "impossible"}
        answers[want] += 1
    assert answers["solved"] and answers["impossible"]


def test_a_game_with_no_choice_is_one_part_with_every_jump_forced():
    board = get_board("triangle5")
    pegs = (1 << board.hole("1")) | (1 << board.hole("2"))  # one legal jump: 1 over 2 into 4
    f = IlpFormulation(Problem(board, pegs, Goal("hole", 1 << board.hole("4"))), cuts=False)
    every = parts(f)
    assert len(every) == 1 and every[0].step == 0 and every[0].jumps == ()
    assert [format_jump(board, j) for j in every[0].forced] == ["1-4"]
    rows = f.model.rows
    restrict(f, every[0])
    assert f.model.rows == rows and _answer(f, lp.solve(f.model), 0.0).status == "solved"


def _run(*args: str) -> dict:
    done = subprocess.run([sys.executable, "scripts/ilp_run.py", *args], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True, timeout=120)
    return json.loads(done.stdout)


def test_the_script_splits_proves_and_solves(tmp_path):
    board = get_board("triangle5")
    seen = reachable(board, board.start("13"))
    impossible = next(board.name_of[h] for h in board.bits if 1 << h not in seen)
    log = str(tmp_path / "ilp.log")
    answer = _run("triangle5", "13", impossible, "--split", "--jobs", "2", "--log", log)
    assert answer["status"] == "impossible" and len(answer["parts"]) == answer["split"]
    assert answer["reason"].startswith(f"integer programme infeasible in each of its {answer['split']} parts")
    assert all(p["status"] == "impossible" for p in answer["parts"])
    assert all(Path(f"{log}.part{k}").is_file() for k in range(answer["split"]))
    one = _run("triangle5", "13", impossible, "--part", "0", "--log", log)
    assert one["status"] == "impossible" and "part 0 only" in one["reason"]
    solved = _run("triangle5", "13", "13", "--split", "--log", log)
    assert solved["status"] == "solved"
    line = next(p["solution"] for p in solved["parts"] if p["status"] == "solved")
    assert len(line.split()) == 13


def test_a_deeper_split_covers_every_line_and_a_ledger_carries_a_proof_over(tmp_path):
    """Depth 2 splits each part at its own first choice (the leaves are the parts of the parts); with a ledger,
    each part's answer is appended as it ends and a second run takes every part from it instead of solving."""
    board = get_board("triangle5")
    seen = reachable(board, board.start("13"))
    impossible = next(board.name_of[h] for h in board.bits if 1 << h not in seen)
    problem = make_problem(board, start="13", goal=impossible)
    deep = leaves(problem, 2)
    assert [leaf.line() for leaf in leaves(problem, 1)] == \
        [" ".join(format_jump(board, j) for j in (*p.forced, p.jumps[0])) for p in parts(IlpFormulation(problem))]
    assert len(deep) == sum(len(parts(IlpFormulation(leaf.problem, cuts=False))) for leaf in leaves(problem, 1))
    for leaf in deep:  # each leaf's problem starts where its jumps lead
        pos = problem.start
        for j in leaf.before:
            assert j in legal_jumps(board, pos)
            pos = apply_jump(pos, j)
        assert pos == leaf.problem.start and leaf.problem.goal == problem.goal
    ledger, log = str(tmp_path / "ledger.jsonl"), str(tmp_path / "ilp.log")
    first = _run("triangle5", "13", impossible, "--split", "--depth", "2", "--ledger", ledger, "--log", log)
    assert first["status"] == "impossible" and first["split"] == len(deep)
    assert first["reason"].startswith(f"integer programme infeasible in each of its {len(deep)} parts, split at")
    text = Path(ledger).read_text(encoding="utf-8")
    assert "Infinity" not in text and "NaN" not in text  # strict JSON: an infeasible part's gap is null
    rows = [json.loads(line) for line in text.splitlines()]
    assert sorted(r["line"] for r in rows) == sorted(leaf.line() for leaf in deep)
    again = _run("triangle5", "13", impossible, "--split", "--depth", "2", "--ledger", ledger, "--log", log)
    assert again["status"] == "impossible" and all(p.get("from_ledger") for p in again["parts"])
    assert f"{len(deep)} parts from the ledger" in again["reason"]
    assert len(Path(ledger).read_text(encoding="utf-8").splitlines()) == len(rows)


def test_a_ledger_covers_the_leaves_its_impossible_parts_begin():
    """uncovered(): a part proved impossible covers every deeper leaf its line begins; a solved part covers only
    itself; covering() finds a part's own row or an impossible row above it; a ledger of every part covers all."""
    from pyapp.search.ilp_split import covering, distinct, uncovered

    problem = make_problem(get_board("german"), start="e1", goal="e1")
    top, deep = leaves(problem, 1), distinct(problem, leaves(problem, 2))
    assert len(uncovered(problem, 2, [])) == len(deep)
    first = {"line": top[0].line(), "status": "impossible"}
    below = [leaf for leaf in deep if leaf.line().startswith(top[0].line() + " ")]
    assert below and [leaf.line() for leaf in uncovered(problem, 2, [first])] == \
        [leaf.line() for leaf in deep if leaf not in below]
    assert covering([first], below[0].line()) is first and covering([first], top[1].line()) is None
    solved = {"line": top[0].line(), "status": "solved"}
    assert covering([solved], below[0].line()) is None and covering([solved], top[0].line()) is solved
    assert uncovered(problem, 2, [{"line": leaf.line(), "status": "impossible"} for leaf in top]) == []


def test_leaves_reached_by_other_orders_or_as_images_are_one_part_and_covered_by_position():
    """distinct(): German e1 -> e1 two choices deep has leaves that reach one position by two orders of the same
    jumps (c4-e4 then c5-e5, c5-e5 then c4-e4); only the first is kept, and every kept position is another's
    under none of the goal's symmetries (the mirror).  covering() with the problem: a row for the other order
    covers the part, an impossible row covers the parts whose lines pass through its position, and a solved row
    only the part at its own position."""
    from pyapp.core.game import replay
    from pyapp.search.ilp_split import covering, distinct, same, uncovered

    problem = make_problem(get_board("german"), start="e1", goal="e1")
    board, form = problem.board, same(problem)
    every = leaves(problem, 2)
    kept = distinct(problem, every)
    forms = [form(leaf.problem.start) for leaf in kept]
    assert len(set(forms)) == len(kept) < len(every)
    assert {form(leaf.problem.start) for leaf in every} == set(forms)
    mirror = board.transform(kept[0].problem.start, max(problem.goal.symmetries(board)))
    assert mirror != kept[0].problem.start and form(mirror) == forms[0]
    one = "e3-e1 e5-e3 c4-e4 c5-e5"
    other = "e3-e1 e5-e3 c5-e5 c4-e4"
    assert replay(board, problem.start, one.split()).final == replay(board, problem.start, other.split()).final
    assert [leaf.line() for leaf in every].count(one) == 1 and other in [leaf.line() for leaf in every]
    assert other not in [leaf.line() for leaf in kept]
    row = {"line": other, "status": "impossible"}
    assert covering([row], one) is None and covering([row], one, problem) is row
    assert one not in [leaf.line() for leaf in uncovered(problem, 2, [row])]
    below = "e3-e1 e5-e3 c4-e4 c5-e5 d2-d4"
    assert covering([row], below, problem) is row
    solved = {"line": other, "status": "solved"}
    assert covering([solved], one, problem) is solved and covering([solved], below, problem) is None


def test_a_part_whose_own_parts_are_all_impossible_is_covered():
    """uncovered() at depth 1 counts a part settled when the ledger proves every part of its own split (rows one
    choice deeper), not when one of them is missing; rows of another part's split do not count for it."""
    from pyapp.search.ilp_split import distinct, uncovered

    problem = make_problem(get_board("german"), start="e1", goal="e1")
    top, deep = leaves(problem, 1), distinct(problem, leaves(problem, 2))
    under = [leaf for leaf in deep if leaf.line().startswith(top[0].line() + " ")]
    assert len(under) >= 2
    rows = [{"line": leaf.line(), "status": "impossible"} for leaf in under]
    assert [leaf.line() for leaf in uncovered(problem, 1, rows)] == [leaf.line() for leaf in top[1:]]
    assert [leaf.line() for leaf in uncovered(problem, 1, rows[1:])] == [leaf.line() for leaf in top]
    others = [{"line": leaf.line(), "status": "impossible"} for leaf in deep if leaf not in under]
    assert top[0].line() in [leaf.line() for leaf in uncovered(problem, 1, others)]


def test_a_row_proved_with_closings_refused_covers_its_own_line_only():
    """A ``dual`` row (proved under the order of its split, scripts/ilp_run.py --dual) answers its own part, not the
    deeper parts its line begins, and not other orders of its jumps: only the whole order makes it a proof."""
    from pyapp.search.ilp_split import covering, distinct, uncovered

    problem = make_problem(get_board("german"), start="e1", goal="e1")
    top, deep = leaves(problem, 1), distinct(problem, leaves(problem, 2))
    row = {"line": top[0].line(), "status": "impossible", "dual": {"depth": 1, "index": 0, "refused": 2}}
    below = [leaf for leaf in deep if leaf.line().startswith(top[0].line() + " ")]
    assert covering([row], top[0].line(), problem) is row
    assert below and all(covering([row], leaf.line(), problem) is None for leaf in below)
    assert len(uncovered(problem, 2, [row])) == len(deep)
    assert len(uncovered(problem, 1, [row])) == len(top) - 1


def _positions(board, start: int, jumps) -> list[int]:
    out = [start]
    for j in jumps:
        out.append(apply_jump(out[-1], j))
    return out


def test_closings_keep_a_solution_or_its_dual_in_the_part_it_opens():
    """For a problem that is its own reverse (English d4 -> d4), a solution and its dual (the jumps backwards, each
    from its landing hole over the same peg: a solution on the complemented board) open in parts a and b of the
    split; part min(a, b) refuses neither's closing, whatever the ledger proves elsewhere.  And a part refuses the
    closings of the parts before it and of a part the ledger proves."""
    from pyapp.analysis.facade import solve
    from pyapp.search.ilp_split import closings, distinct, same, self_dual

    problem = make_problem(get_board("english"), start="d4", goal="d4")
    board, full = problem.board, problem.board.full()
    assert self_dual(problem) and not self_dual(make_problem(board, start="d4", goal="any"))
    depth = 4
    every = distinct(problem, leaves(problem, depth))
    k = len(every[0].before)
    assert all(len(leaf.before) == k for leaf in every) and len(every) > 5
    form = same(problem)
    index = {form(leaf.problem.start): i for i, leaf in enumerate(every)}
    jumps = solve(problem).jumps
    dual = [(c, b, a) for a, b, c in reversed(jumps)]
    ours, theirs = _positions(board, problem.start, jumps), _positions(board, problem.start, dual)
    assert theirs[-1] == problem.goal.exact and all(full ^ ours[len(jumps) - t] == theirs[t]
                                                      for t in range(len(jumps) + 1))
    a, b = index[form(ours[k])], index[form(theirs[k])]
    line, first = (ours, a) if a <= b else (theirs, b)
    others = [leaf for i, leaf in enumerate(every) if i not in (a, b)]
    proved = [{"line": leaf.line(), "status": "impossible"} for leaf in others]  # the ledger may prove any other
    for rows in ([], proved):
        assert line[len(jumps) - k] not in closings(problem, depth, rows, first)
    refused = closings(problem, depth, proved, first)
    assert all(full ^ leaf.problem.start in refused for leaf in others)
    assert all(full ^ every[i].problem.start in closings(problem, depth, [], first) for i in range(first))


def test_the_script_with_closings_refused_still_finds_a_solvable_problem_and_marks_its_rows(tmp_path):
    """--dual on triangle 5, 13 -> 13 (its own reverse, solvable): the split still finds the solution (a rule that
    refused too much would call it impossible), each ledger row says it was proved under the order; a problem that
    is not its own reverse is refused with a message."""
    ledger, log = str(tmp_path / "ledger.jsonl"), str(tmp_path / "ilp.log")
    answer = _run("triangle5", "13", "13", "--split", "--depth", "2", "--dual", "--ledger", ledger, "--log", log)
    assert answer["status"] == "solved"
    rows = [json.loads(line) for line in Path(ledger).read_text(encoding="utf-8").splitlines()]
    assert rows and all(r["dual"]["depth"] == 2 and r["dual"]["refused"] >= 0 for r in rows)
    assert any(r["status"] == "solved" for r in rows)
    bad = subprocess.run([sys.executable, "scripts/ilp_run.py", "triangle5", "13", "1", "--split", "--dual"],
                         cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                         timeout=120)
    assert bad.returncode != 0 and "its own reverse" in bad.stderr and "Traceback" not in bad.stderr


def test_the_report_counts_a_part_proved_under_the_order_and_says_so():
    """BENCHMARKS' line on German e1 -> e1's split (pyapp/bench/report_lp.py): a part proved with closings refused
    counts as covered, and the line says how many were, and that they are proofs only once every part is settled."""
    from pyapp.bench.report_lp import _split
    from pyapp.search.ilp_split import uncovered

    problem = make_problem(get_board("german"), start="e1", goal="e1")
    rows = [json.loads(line) for line in (ROOT / "benchmarks" / "ilp-ledger.jsonl").read_text().splitlines()]
    left = uncovered(problem, 3, [r for r in rows if r["problem"] == "german e1 -> e1"])
    before = _split(rows)[0]
    assert f"{len(left)} remain open" in before and "time reversal" not in before
    dual = {**rows[-1], "line": left[0].line(), "status": "impossible", "dual": {"depth": 3, "index": 0, "refused": 9}}
    after = _split([*rows, dual])[0]
    assert f"{len(left) - 1} remain open" in after
    assert "1 of them proved with closings refused by time reversal" in after
