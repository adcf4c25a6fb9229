"""The shared level search of a position's jumps (pyapp.search.sharedlevels, pyapp.analysis.sharedjumps)."""

import random

import pytest

from pyapp.analysis import neverlose as neverlose_module
from pyapp.analysis import proven as proven_module
from pyapp.analysis.hint import _classes
from pyapp.analysis.neverlose import never_lose_steps
from pyapp.analysis.proven import Proven
from pyapp.analysis.sharedjumps import METHOD, shared_for
from pyapp.analysis.turns import turns_steps
from pyapp.core.budget import Budget, drive
from pyapp.core.catalogue import get_board
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.core.problem import Problem, default_problem, make_problem
from pyapp.exact import winnable as winnable_module
from pyapp.search.masked import MaskBuilder, merge_runs
from pyapp.search.sharedlevels import SharedLevels
from pyapp.search.solver import search


@pytest.fixture(autouse=True)
def _no_winnable_sets_from_other_tests():
    winnable_module._CACHE.clear()
    yield
    winnable_module._CACHE.clear()


def _positions(problem: Problem, rng: random.Random, games: int, most_pegs: int):
    """Positions of random games from ``problem``'s start with at most ``most_pegs`` pegs where the search applies."""
    for _ in range(games):
        pos = problem.start
        while jumps := legal_jumps(problem.board, pos):
            pos = apply_jump(pos, rng.choice(jumps))
            if pos.bit_count() <= most_pegs and shared_for(Problem(problem.board, pos, problem.goal)) is not None:
                yield Problem(problem.board, pos, problem.goal)


def _decided(problem: Problem, budget: Budget | None = None):
    shared = shared_for(problem)
    assert shared is not None
    assert drive(shared.steps(budget or Budget(60))) is True
    got = shared.take()
    classes = _classes(problem, legal_jumps(problem.board, problem.start))
    assert sorted(got) == list(range(1, len(classes) + 1))
    return classes, got


def _replays(problem: Problem, after: int, result) -> bool:
    pos = after
    for jump in result.jumps:
        if jump not in legal_jumps(problem.board, pos):
            return False
        pos = apply_jump(pos, jump)
    return problem.goal.reached(pos) and pos == result.final


class TestVerdicts:
    @pytest.mark.parametrize("board_id,start,games,most", [("triangle5", "1", 4, 14), ("triangle5", "4", 4, 14),
                                                           ("triangle6", None, 2, 11)])
    def test_equal_the_exact_winnable_set(self, board_id, start, games, most):
        base = default_problem(board_id)
        board, goal = base.board, base.goal
        problem = base if start is None else Problem(board, board.start(start), goal)
        win = winnable_module.winnable(problem)
        checked = 0
        for q in _positions(problem, random.Random(5), games, most):
            classes, got = _decided(q)
            for c, members in enumerate(classes):
                after = apply_jump(q.start, members[0][0])
                result = got[c + 1]
                assert (result.status == "solved") == win.can_win(after), (q.start, members[0][0])
                assert result.method == METHOD
                if result.status == "solved":
                    assert _replays(q, after, result)
                else:
                    assert result.reason.startswith(("exhaustive level search", "pagoda functions"))
                checked += 1
        assert checked > 10

    def test_equal_the_per_jump_search_on_english_endgames(self):
        problem = make_problem(get_board("english"), start="d4", goal="d4")
        checked = 0
        for q in _positions(problem, random.Random(3), 4, 12):
            classes, got = _decided(q)
            for c, members in enumerate(classes):
                after = apply_jump(q.start, members[0][0])
                alone = drive(search(Problem(q.board, after, q.goal), budget=Budget(60)))
                assert got[c + 1].status == alone.status, (q.start, members[0][0])
                checked += 1
        assert checked > 10


class TestProofs:
    def test_a_lost_jump_is_proved_by_the_exhausted_forward_side(self):
        problem = default_problem("triangle5")
        reasons = [r.reason for q in _positions(problem, random.Random(5), 2, 13)
                   for r in _decided(q)[1].values() if r.status == "impossible"]
        assert any(r.startswith("exhaustive level search: no position with") for r in reasons)


class TestBudget:
    def _lost_german(self) -> Problem:
        # 24 pegs in a lost region of a German e5 -> e5 game: the shared search needs seconds
        p = make_problem(get_board("german"), start="e5", goal="e5")
        return Problem(p.board, 37927243980141202771968, p.goal)

    def test_cancellation_mid_search(self):
        problem = self._lost_german()
        shared = shared_for(problem)
        budget = Budget(600)
        steps = shared.steps(budget)
        for _ in range(5):
            next(steps)
        budget.cancel()
        with pytest.raises(StopIteration) as stop:
            for _ in range(3):
                next(steps)
        assert stop.value.value is False
        assert shared.open()
        assert "jumps open" in shared.how_far()

    def test_memory_budget(self):
        problem = self._lost_german()
        ceiling = 24 << 20
        shared = shared_for(problem, max_bytes=ceiling)
        assert drive(shared.steps(Budget(600))) is False
        levels = shared.search
        held = sum(lv.nbytes for lv in levels.levels) + sum(lv.nbytes for lv in levels.bwd.levels)
        assert held <= ceiling
        assert "memory ceiling of 24 MB reached" in shared.how_far() and shared.open()

    def test_dropped_classes_are_not_searched(self):
        problem = default_problem("triangle6")
        q = next(_positions(problem, random.Random(1), 1, 14))
        shared = shared_for(q)
        n = len(_classes(q, legal_jumps(q.board, q.start)))
        for i in range(1, n + 1):
            shared.drop(i)
        assert not shared.open()
        assert drive(shared.steps(Budget(10))) is True and not shared.take()


class TestStorage:
    def test_masks_are_or_merged(self):
        kb = MaskBuilder(3, run=2)
        for key, m in ((7, 1), (1, 2), (7, 4), (4, 1), (1, 2)):
            kb.buffer.append(key << 3 | m)
            if len(kb.buffer) >= kb.run:
                kb.flush()
        level = drive(kb.build())
        assert list(level.keys) == [1, 4, 7] and list(level.masks) == [2, 1, 5]
        assert level.nbytes == 48
        assert drive(merge_runs([level_arrays(level)])) == level_arrays(level)

    def test_refuses_too_many_classes(self):
        board = get_board("triangle5")
        with pytest.raises(ValueError, match="1 to 64 classes"):
            SharedLevels(board, board.start("1"), [], [1], [0], max_bytes=1 << 20)


def level_arrays(level):
    return level.keys.keys, level.masks


class TestNeverLose:
    def test_turns_record_the_shared_answers(self):
        problem = make_problem(get_board("english"), start="d4", goal="d4")
        q = next(_positions(problem, random.Random(3), 1, 12))
        classes = _classes(q, legal_jumps(q.board, q.start))
        problems = [q, *(Problem(q.board, apply_jump(q.start, m[0][0]), q.goal) for m in classes)]
        table = Proven()
        answers = drive(turns_steps(problems, Budget(30), table=table, portfolios=(None,),
                                    together=shared_for(q), together_from=0))
        assert all(a is not None and a.status != "unknown" for a in answers)
        assert all(table.answer(p) is not None for p in problems[1:])

    def test_a_weight_of_nothing_skips_the_shared_search(self):
        problem = make_problem(get_board("english"), start="d4", goal="d4")
        q = next(_positions(problem, random.Random(3), 1, 12))
        classes = _classes(q, legal_jumps(q.board, q.start))
        problems = [q, *(Problem(q.board, apply_jump(q.start, m[0][0]), q.goal) for m in classes)]
        together = shared_for(q)
        answers = drive(turns_steps(problems, Budget(30), table=Proven(), portfolios=(None,),
                                    together=together, together_from=0, together_weight=0.0))
        assert all(a is not None and a.status != "unknown" for a in answers)
        assert together.search.st.nodes == 0 and not together.take()

    @pytest.mark.parametrize("replaces", [22, 0])
    def test_same_verdicts_with_and_without(self, monkeypatch, replaces):
        """``replaces`` 0: the shared search beside both portfolios, weighted (:data:`BESIDE_WEIGHT`).

        Seed 0's six positions (14 down to 9 pegs): five winnable with both winning and losing jumps, one lost.  Seed
        2's began with two positions of 13 and 10 jumps, all winning, and cost seven times as much."""
        monkeypatch.setattr(neverlose_module, "REPLACES_PEGS", replaces)
        problem = default_problem("triangle6")
        for q in list(_positions(problem, random.Random(0), 2, 14))[:6]:
            monkeypatch.setattr(proven_module, "_TABLES", {})
            monkeypatch.setattr(neverlose_module, "SHARED", True)
            with_ = drive(never_lose_steps(q, budget=Budget(30)))
            monkeypatch.setattr(proven_module, "_TABLES", {})
            monkeypatch.setattr(neverlose_module, "SHARED", False)
            without = drive(never_lose_steps(q, budget=Budget(30)))
            assert with_.status == without.status
            assert (set(with_.jumps.good), set(with_.jumps.bad)) == (set(without.jumps.good), set(without.jumps.bad))
