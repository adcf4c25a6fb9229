"""The beam search (pyapp.search.beam) on its own: solutions that replay, node limits, dead positions."""

from pyapp.core.goal import Goal
from pyapp.core.moves import legal_jumps
from pyapp.core.problem import default_problem
from pyapp.proofs.pagoda import pagodas_for
from pyapp.search.beam import beam
from pyapp.search.compiled import build_tables, reseed
from pyapp.search.dfs import Stats
from pyapp.search.solver import jumps_of
from pyapp.search.table import BoundedTable


def _setup(problem):
    board, goal = problem.board, problem.goal
    finishes = goal.pagoda_targets(board, problem.start)
    tables = build_tables(board, pagodas_for(board, finishes), list(goal.symmetries(board)), None)
    reseed(tables, None)
    return tables, BoundedTable(100_000, tables.images), Stats(slice_seconds=10.0)


def _run(gen):
    pauses = 0
    try:
        while True:
            next(gen)
            pauses += 1
    except StopIteration as stop:
        return stop.value, pauses


def _replays(problem, path):
    pos = problem.start
    for a, b, c in jumps_of(path):
        assert (a, b, c) in legal_jumps(problem.board, pos) or (c, b, a) in legal_jumps(problem.board, pos)
        pos ^= (1 << a) | (1 << b) | (1 << c)
    return pos


def test_beam_solves_the_english_central_game_and_the_path_replays():
    problem = default_problem("english")
    tables, table, st = _setup(problem)
    path, _ = _run(beam(tables, problem.start, table, st, 128, final_pegs=1, target=problem.goal.exact))
    assert path is not None and path[0] == problem.start and len(path) == 32
    assert _replays(problem, path) == problem.goal.exact and st.nodes > 0


def test_beam_pauses_at_its_node_limit_and_says_so():
    problem = default_problem("german")
    tables, table, st = _setup(problem)
    gen = beam(tables, problem.start, table, st, 256, final_pegs=1, target=problem.goal.exact, stop_at=50)
    next(gen)
    assert st.at_limit and st.nodes == 50
    next(gen)  # resumed, it goes on; the flag is only set during a pause at the limit
    gen.close()


def test_beam_for_fewest_pegs_returns_a_path_to_its_fewest():
    problem = default_problem("triangle5")
    tables, table, st = _setup(problem)
    path, _ = _run(beam(tables, problem.start, table, st, 64, final_pegs=None, target=None))
    assert path[0] == problem.start and path[-1].bit_count() == problem.start.bit_count() - (len(path) - 1)
    _replays(problem, path)


def test_beam_skips_positions_known_dead():
    problem = default_problem("english")
    tables, table, st = _setup(problem)
    for a, b, c in legal_jumps(problem.board, problem.start):  # every first jump leads to a "dead" position
        table.add(problem.start ^ ((1 << a) | (1 << b) | (1 << c)))
    path, _ = _run(beam(tables, problem.start, table, st, 128, final_pegs=1, target=Goal("any").exact))
    assert path is None
