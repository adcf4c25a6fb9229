"""One budget for every long call: limits, shares, cancel, and the step generators that obey it."""

import pytest

from pyapp.analysis.finishes import finishes_steps
from pyapp.analysis.hint import hint_steps
from pyapp.core.budget import CPU_CLOCK, DEFAULT_MAX_BYTES, WALL_CLOCK, Budget, Progress, drive
from pyapp.core.errors import PegError
from pyapp.core.problem import default_problem
from pyapp.core.request import build
from pyapp.exact.count import count
from pyapp.exact.fewest import bfs_steps as fewest_steps
from pyapp.search.phases import Beam, Exhaustive, PagodaProgram, Restart, portfolio
from pyapp.search.solver import search, solve

# a 12x12 square board, centre vacant, one peg anywhere: every search here runs for its whole budget
_ROWS12 = ["o" * 12] * 5 + ["ooooo.oooooo"] + ["o" * 12] * 6
BIG = build("square:" + "/".join(_ROWS12), goal="any")


def test_limits_are_checked():
    with pytest.raises(PegError):
        Budget(max_seconds=0)
    with pytest.raises(PegError):
        Budget(max_nodes=-1)
    with pytest.raises(PegError):
        Budget(max_bytes=0)
    assert not Budget().over() and Budget().remaining_seconds() is None


def test_nodes_of_a_share_count_for_its_parent_and_cancel_reaches_both():
    parent = Budget(max_nodes=1000)
    part = parent.share(4)
    assert part.max_nodes == 250
    part.spend(250)
    assert part.over() and not parent.over() and parent.nodes == 250
    parent.cancel()
    assert part.cancelled and part.over() and part.why() == "cancelled"


def test_a_share_takes_the_smaller_of_its_node_limit_and_its_parents_share():
    assert Budget().share(1, nodes=10).max_nodes == 10  # a node limit under a budget of seconds only
    assert Budget(max_nodes=1000).share(4, nodes=100).max_nodes == 100
    assert Budget(max_nodes=1000).share(4, nodes=900).max_nodes == 250


def test_memory_ceiling_lowers_caps():
    assert Budget().entries(1000, 100) == 1000
    assert Budget(max_bytes=10_000).entries(1000, 100) == 100


class FakeClock:
    """A clock the test moves by hand (stands for the CPU clock of a loaded machine)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_time_limit_is_read_from_the_budgets_clock_and_shares_keep_it():
    clock = FakeClock()
    b = Budget(10.0, clock=clock)
    assert not b.over() and b.remaining_seconds() == 10.0
    part = b.share(2)
    assert part.clock is clock and part.max_seconds == 5.0
    clock.now += 6.0  # six seconds of work: the share is spent, the whole budget is not
    assert part.over() and part.out_of_time() and not b.over()
    assert b.elapsed() == 6.0 and b.remaining_seconds() == 4.0
    clock.now += 4.0
    assert b.over() and b.why() == "budget spent"


def test_expiring_a_budget_ends_the_shares_handed_out_before_it_but_not_its_parent():
    # never-lose's turns expire a paused search's budget when the whole budget is spent; a share that search
    # had handed out (the endgame table's settling, on 60% of what was left) must stop too, not run its own
    # seconds out: it held asymmetric d5 -> d5 checks 2-4 CPU s past their 10 s
    clock = FakeClock()
    whole = Budget(10.0, clock=clock)
    task = Budget(10.0, clock=clock, parent=whole)
    part = task.share(1, seconds=6.0)
    deeper = part.share(2)
    clock.now += 1.0
    assert not part.over() and part.remaining_seconds() == 5.0
    task.expire()
    assert task.over() and part.over() and deeper.over() and part.remaining_seconds() == 0.0
    assert not whole.over() and whole.remaining_seconds() == 9.0
    assert Budget(max_nodes=5, parent=task).over()  # a share handed out after it too


def test_a_budget_on_the_cpu_clock_does_not_run_out_while_the_process_sleeps():
    import time

    b = Budget(0.05, clock=CPU_CLOCK)
    time.sleep(0.1)  # wall time passes, CPU time hardly does
    assert not b.over() and "CPU_CLOCK" in repr(b)
    assert Budget(0.05).clock is WALL_CLOCK


def test_room_comes_from_the_memory_ceiling_only():
    assert Budget().ceiling() == DEFAULT_MAX_BYTES == 1 << 30
    assert Budget().room(100) == DEFAULT_MAX_BYTES // 100
    assert Budget(max_bytes=10_000).room(100) == 100
    assert Budget(max_bytes=10_000).room(100, 2) == 50
    assert Budget(max_bytes=10).room(100) == 1


def test_entries_and_why_a_call_was_full():
    b = Budget(max_bytes=10_000)
    assert b.entries(None, 100) == 100 and b.entries(40, 100) == 40 and b.entries(500, 100) == 100
    assert b.full(100, 100) == "memory ceiling of 0 MB reached"
    assert b.full(40, 100) == "position limit of 40 reached"


@pytest.mark.parametrize("nodes", [1000, 5000])
def test_node_budget_gives_reproducible_answers(nodes):
    problem = default_problem("german")
    a, b = solve(problem, max_nodes=nodes), solve(problem, budget=Budget(max_nodes=nodes))
    assert a.status == b.status == "unknown" and a.nodes == b.nodes and a.entries == b.entries
    assert nodes <= a.nodes < nodes + 128  # the depth-first runs test their limit every 128 nodes


def test_memory_ceiling_caps_the_transposition_table():
    r = solve(default_problem("german"), budget=Budget(max_nodes=20_000, max_bytes=65 * 5_000))
    assert r.entries <= 5_000


def _cancel_after(steps, budget: Budget, reports: int, counts=lambda item: True):
    """Drive ``steps``; cancel the budget after ``reports`` progress reports (those ``counts`` accepts);
    return (answer, steps after)."""
    seen = after = 0
    try:
        while True:
            item = next(steps)
            assert isinstance(item, Progress)
            seen += bool(counts(item))
            if budget.cancelled:
                after += 1
            elif seen >= reports:
                budget.cancel()
    except StopIteration as stop:
        return stop.value, after


def test_cancelled_search_answers_unknown_cancelled():
    # cancel at the second report of the search proper (nodes searched): on a loaded machine every
    # pause of the set-up reports too (each takes over a slice there), so counting all reports could
    # cancel before any node and make ``nodes > 0`` fail for reasons that are not the search's
    budget = Budget(slice_seconds=0.001)
    result, after = _cancel_after(search(BIG.problem, budget=budget), budget, 2, lambda item: item.nodes > 0)
    assert result.status == "unknown" and result.reason == "cancelled" and result.nodes > 0
    assert after <= 1


def test_cancelled_hint_files_the_rest_as_unknown():
    budget = Budget(30, slice_seconds=0.001)
    found, after = _cancel_after(hint_steps(BIG.problem, budget), budget, 3)
    assert not found.good and found.unknown and after <= 2
    assert all(found.reasons[j] in ("cancelled", "budget spent") or "cancelled" in found.reasons[j]
               for j in found.unknown)


def test_cancelled_finishes_answers_with_what_it_has():
    budget = Budget(30, slice_seconds=0.001)
    found, after = _cancel_after(finishes_steps(BIG.board, BIG.position, budget=budget), budget, 3)
    assert found.impossible  # the position class settles many holes at once, before any search
    assert found.unknown and not found.possible and after <= 2


def test_count_and_fewest_take_a_budget():
    problem = default_problem("english")
    c = count(problem, budget=Budget(max_nodes=5_000))
    assert c.solutions is None and "budget spent" in c.reason
    f = drive(fewest_steps(default_problem("triangle5"), budget=Budget(10)))
    assert f.status == "solved" and f.proven


def test_portfolio_is_a_list_of_phases():
    phases = portfolio((300,) * 12, (128, 256, 256, 1024, 4096), True)
    kinds = [type(p) for p in phases]
    assert kinds[:12] == [Restart] * 12 and kinds[12:14] == [Beam, Beam] and kinds[14] is PagodaProgram
    assert [p.width for p in phases if isinstance(p, Beam)] == [128, 256, 256, 1024, 4096]
    assert [p.nodes for p in phases[15:] if isinstance(p, Restart)] == [4000, 16000, 64000]
    assert isinstance(phases[-1], Exhaustive)
    assert PagodaProgram not in [type(p) for p in portfolio((300,) * 12, (128, 256), False)]


_BIG = {"board": "square:" + "/".join(_ROWS12), "goal": "any"}


@pytest.mark.parametrize("fn, keys, args", [("hint", {"good", "bad", "unknown", "legal"}, _BIG),
                                            ("finishes", {"possible", "impossible", "unknown", "groups"}, _BIG),
                                            ("table", {"cells", "starts", "counts"}, {"board": "german"}),
                                            ("count_exact", {"status", "reason"}, {"board": "english"}),
                                            ("fewest_exact", {"status", "reason"}, {"board": "english"}),
                                            ("count", {"solutions", "positions", "reason"}, {"board": "english"}),
                                            ("fewest", {"status", "moves", "solution", "proven", "reason"},
                                             {"board": "english"})])
def test_worker_cancel_answers_in_the_result_shape_even_when_the_call_is_closed(fn, keys, args, monkeypatch):
    """The page reads a cancelled answer as it reads a finished one (a table's cells, an analysis's status), also
    when the call did not stop within the cancel's wait (``CANCEL_SECONDS``, a slow step under load) and was closed."""
    import json

    from pyapp.web import api as webapi
    from pyapp.web import job as webjob

    for drain in (webjob.CANCEL_SECONDS, 0.0):  # the call's own answer, then the closed-call fallback
        monkeypatch.setattr(webjob, "CANCEL_SECONDS", drain)
        job = webapi.start(fn, json.dumps(args))
        json.loads(job.step())
        out = json.loads(job.cancel())
        got = out["result"]
        said = got.get("cancelled") is True or "cancelled" in (got.get("reason") or "")  # the sweeps: by reason
        assert out["done"] and said and keys <= set(got), got
