"""The SAT encoding: CNF export, a real SAT solver on generated CNFs, decoding, the CLI.

The solver is pycosat (pinned in requirements-dev.txt), so these tests run a real SAT
solver in CI; the python-sat back-ends are exercised too when that package is installed.
Every decoded solution is replayed independently through the notation and
:func:`pyapp.core.game.replay`.
"""

import json
import re

import pytest

from pyapp.bench.sat_compare import PATTERNS, pattern_problem
from pyapp.cli.main import main
from pyapp.core.catalogue import ENTRIES, get_board
from pyapp.core.game import replay
from pyapp.core.notation import format_jump
from pyapp.core.problem import Goal, Problem, default_problem, make_problem
from pyapp.core.spec import resolve_board
from pyapp.sat import (
    AMO_METHODS,
    EncodingError,
    available_solvers,
    decode,
    encode,
    parse_dimacs,
    run_solver,
    solve_sat,
    to_dimacs,
    verify,
)
from pyapp.sat import solvers as sat_solvers
from pyapp.search.solver import solve

pycosat = pytest.importorskip("pycosat")


def replay_ok(problem, jumps):
    """Replay from the start through notation strings; return the final position."""
    board = problem.board
    r = replay(board, problem.start, [format_jump(board, j) for j in jumps])
    assert r.valid, r.error
    return r.final


def sat_solution(problem, amo="sequential", solver="pycosat"):
    enc = encode(problem, amo=amo)
    ans = run_solver(enc.num_vars, enc.clauses, solver=solver)
    assert ans.status == "sat", (problem, ans.status)
    jumps = decode(enc, ans.model)
    assert len(jumps) == enc.steps
    final = replay_ok(problem, jumps)
    assert problem.goal.reached(final)
    assert verify(enc, jumps) == final
    return jumps


class TestSatisfiable:
    def test_every_15_hole_triangle_start(self):
        # Every single-vacancy start of the 15-hole triangle can be reduced to one peg
        # (G. Bell, "Triangular peg solitaire", arXiv:0711.0486): 13 jumps each.
        b = get_board("triangle5")
        for hole in b.names:
            jumps = sat_solution(make_problem(b, start=hole, goal="any"))
            assert len(jumps) == 13

    def test_triangle_corner_complement(self):
        # vacancy at the corner 1, last peg back in 1 (Bell, arXiv:0711.0486)
        b = get_board("triangle5")
        sat_solution(make_problem(b, start="1", goal="1"))

    def test_cross_ends_at_the_centre(self):
        # The 6-peg cross d2 c3 d3 e3 d4 d5 (the "Cross" of Pegged, Microsoft Entertainment
        # Pack, 1989-90; layout read in github.com/andyvand/wxpegged) to one peg at the centre;
        # the search engine agrees (TestUnsatisfiable checks both engines on other finishes).
        problem = pattern_problem("cross")
        assert problem.start.bit_count() == 6
        jumps = sat_solution(problem)
        assert len(jumps) == 5
        anywhere = Problem(problem.board, problem.start, Goal("any"))
        assert replay_ok(anywhere, sat_solution(anywhere)).bit_count() == 1

    @pytest.mark.parametrize("name", ["plus", "fireplace", "pyramid"])
    def test_small_english_patterns(self, name):
        sat_solution(pattern_problem(name))

    def test_english_target_position(self):
        b = get_board("english")
        start = b.start("d4")
        # a target 4 jumps away: found by the search, then asked of the SAT solver
        target = start
        for j in solve(make_problem(b, start="d4", goal="d4"), max_seconds=30).jumps[:4]:
            target ^= (1 << j[0]) | (1 << j[1]) | (1 << j[2])
        jumps = sat_solution(Problem(b, start, Goal("target", target)))
        assert len(jumps) == 4

    @pytest.mark.parametrize("amo", AMO_METHODS)
    def test_every_at_most_one_encoding_decodes(self, amo):
        sat_solution(default_problem("triangle5"), amo=amo)
        sat_solution(pattern_problem("plus"), amo=amo)

    def test_zero_jumps(self):
        b = get_board("english")
        p = Problem(b, 1 << b.hole("d4"), Goal("hole", 1 << b.hole("d4")))
        enc = encode(p)
        assert enc.steps == 0
        assert solve_sat(p, solver="pycosat").status == "solved"

    @pytest.mark.skipif(not any(n != "pycosat" for n in available_solvers()), reason="python-sat not installed")
    def test_pysat_backend(self):
        name = next(n for n in available_solvers() if n != "pycosat")
        sat_solution(pattern_problem("fireplace"), solver=name)


class TestUnsatisfiable:
    @pytest.mark.parametrize("goal", ["d7", "a4", "g4"])
    def test_cross_cannot_end_on_the_far_edge(self, goal):
        # Same position class as d4, so only the solver can tell; the search agrees.
        problem = pattern_problem("cross", goal)
        assert problem.board.position_class(problem.start) == problem.board.position_class(problem.goal.target)
        enc = encode(problem)
        assert run_solver(enc.num_vars, enc.clauses, solver="pycosat").status == "unsat"
        assert solve(problem).status == "impossible"
        r = solve_sat(problem, solver="pycosat", precheck=False)
        assert r.status == "impossible"
        assert "SAT solver pycosat proved that no 5-jump solution exists" in r.reason

    def test_ten_hole_triangle_corner(self):
        # No single survivor from a corner vacancy of the 10-hole triangle (Bell, arXiv:0711.0486)
        p = make_problem(get_board("triangle4"), start="1", goal="any")
        enc = encode(p)
        assert run_solver(enc.num_vars, enc.clauses, solver="pycosat").status == "unsat"

    def test_sat_agrees_with_search_on_small_problems(self):
        for name in ("cross", "plus"):
            for goal in ("d4", "d1", "d3", "c3", "e5", "a4"):
                p = pattern_problem(name, goal)
                assert solve_sat(p, solver="pycosat", precheck=False).status == solve(p).status, (name, goal)


class TestEncoding:
    def test_sizes_follow_the_formulas(self):
        # N holes, L lines, T jumps: pegs (T+1)N, rules TL, sequential counter T(L-1) variables;
        # clauses: N start units (+N goal units), per step 8L rule + 2N frame + 1 + (3L-4) counter.
        for e in ENTRIES:
            p = default_problem(e.id)
            n, nl = len(p.board), len(p.board.lines)
            enc = encode(p, amo="sequential")
            t = enc.steps
            assert t == p.start.bit_count() - 1
            assert enc.num_vars == (t + 1) * n + t * nl + t * (nl - 1)
            goal_units = n if p.goal.hole_name(p.board) is not None else 0
            assert len(enc.clauses) == n + goal_units + t * (8 * nl + 2 * n + 1 + 3 * nl - 4)
            pw = encode(p, amo="pairwise")
            assert pw.num_vars == (t + 1) * n + t * nl
            assert len(pw.clauses) == n + goal_units + t * (8 * nl + 2 * n + 1 + nl * (nl - 1) // 2)

    def test_dimacs_for_every_catalogue_board(self):
        for e in ENTRIES:
            p = default_problem(e.id)
            text = to_dimacs(p)
            enc = encode(p)
            nv, clauses = parse_dimacs(text)
            assert (nv, clauses) == (enc.num_vars, enc.clauses), e.id
            assert f"c board: {e.id} " in text
            assert f"c variables: {enc.num_vars}, clauses: {len(enc.clauses)}" in text

    def test_header_names_problem_and_mapping(self):
        p = default_problem("english")
        text = to_dimacs(p)
        header = [line[2:] for line in text.splitlines() if line.startswith("c ")]
        joined = "\n".join(header)
        assert "start: 32 pegs" in joined
        assert "goal: one peg at d4" in joined
        assert "T = 31" in joined
        enc = encode(p)
        # the stated formulas give the encoder's variable numbers
        m = re.search(r"peg\(t, k\) = (\d+)\*t \+ k \+ 1", joined)
        assert m and int(m.group(1)) == 33
        assert enc.peg(5, 16) == 33 * 5 + 16 + 1
        m = re.search(r"line\(t, j\) = (\d+) \+ (\d+)\*\(t - 1\) \+ j", joined)
        assert m and enc.line(7, 3) == int(m.group(1)) + int(m.group(2)) * 6 + 3
        # holes and lines are listed by number
        assert "16:d4" in joined
        assert "0:c1-d1-e1" in joined
        holes = re.findall(r"(\d+):([a-g]\d)\b(?!-)", joined)
        assert len(holes) == 33 and all(p.board.names[int(k)] == name for k, name in holes)
        # the start's units are the first clauses
        nv, clauses = parse_dimacs(text)
        assert clauses[enc.peg(0, 16) - 1] == [-enc.peg(0, 16)]

    def test_min_goal_needs_a_number_of_pegs(self):
        b = get_board("english")
        p = Problem(b, b.start("d4"), Goal("min"))
        with pytest.raises(EncodingError, match="fixed number of jumps"):
            encode(p)
        assert encode(p, pegs_left=2).steps == 30

    def test_min_goal_by_sat_matches_search(self):
        for text in ("ooo/o.o/ooo", "oooo/o..o/oooo", "oo.o/oooo/.ooo"):
            spec = resolve_board(f"square:{text}")
            p = Problem(spec.board, spec.start, Goal("min"))
            r = solve_sat(p, solver="pycosat")
            assert r.status == "solved"
            assert r.pegs_left == solve(p).pegs_left
            assert replay_ok(p, r.jumps).bit_count() == r.pegs_left


class TestCli:
    def test_cnf_to_stdout(self, capsys):
        assert main(["cnf", "triangle5"]) == 0
        out = capsys.readouterr().out
        nv, clauses = parse_dimacs(out)
        assert (nv, clauses) == (encode(default_problem("triangle5")).num_vars,
                                 encode(default_problem("triangle5")).clauses)

    def test_cnf_to_file_json(self, capsys, tmp_path):
        path = tmp_path / "cross.cnf"
        code = main(["cnf", "english", "--position", ".../.o./..ooo../...o.../...o.../.../...", "--goal", "d4",
                     "-o", str(path), "--json"])
        assert code == 0
        obj = json.loads(capsys.readouterr().out)
        assert obj["file"] == str(path) and obj["jumps"] == 5 and obj["goal"] == "d4"
        nv, clauses = parse_dimacs(path.read_text())
        assert (nv, len(clauses)) == (obj["variables"], obj["clauses"])
        assert pycosat.solve(clauses, vars=nv) != "UNSAT"

    def test_cnf_errors(self, capsys):
        assert main(["cnf", "square:ooo/o.o/ooo"]) == 2
        assert "fixed number of jumps" in capsys.readouterr().err
        assert main(["cnf", "english", "-o", "/nonexistent-dir/x.cnf"]) == 2
        assert "cannot write CNF" in capsys.readouterr().err

    def test_solve_engine_sat_same_keys(self, capsys):
        assert main(["solve", "triangle5", "--json"]) == 0
        search = json.loads(capsys.readouterr().out)
        assert main(["solve", "triangle5", "--engine", "sat", "--json"]) == 0
        sat = json.loads(capsys.readouterr().out)
        assert set(sat) == set(search)
        assert sat["status"] == "solved" and sat["pegs_left"] == 1 and sat["jumps"] == 13

    def test_solve_engine_sat_impossible(self, capsys):
        code = main(["solve", "english", "--position", ".../.o./..ooo../...o.../...o.../.../...", "--goal", "d7",
                     "--engine", "sat", "--json"])
        assert code == 0
        obj = json.loads(capsys.readouterr().out)
        assert obj["status"] == "impossible" and "no 5-jump solution" in obj["reason"]

    def test_no_sat_package(self, capsys, monkeypatch):
        monkeypatch.setattr(sat_solvers, "_has", lambda module: False)
        assert main(["solve", "triangle5", "--engine", "sat"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "no SAT solver installed" in err and "pycosat" in err
        # exporting CNF needs no SAT package
        assert main(["cnf", "triangle5", "--json"]) == 0


def test_patterns_have_their_published_sizes():
    # Pegged's patterns (Microsoft Entertainment Pack): cross 6, plus 9, fireplace 11,
    # up arrow 17, pyramid 16, diamond 24 pegs.
    sizes = {name: len(set(holes)) for name, holes in PATTERNS.items()}
    assert sizes == {"cross": 6, "plus": 9, "fireplace": 11, "up-arrow": 17, "pyramid": 16, "diamond": 24}


def test_compare_script_prints_checked_rows(capsys):
    # the script behind the "SAT vs search" table of BENCHMARKS.md (it replays every answer)
    from pyapp.bench import sat_compare as compare

    assert compare.main(["--runs", "2", "--max-seconds", "20", "--solvers", "pycosat", "--only", "cross"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("| english cross"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1:5] == ["6", "5", "573", "2471"]
    assert re.fullmatch(r"[\d.]+ / [\d.]+( \(.*\))?", cells[6]) and re.fullmatch(r"[\d.]+ / [\d.]+( \(.*\))?", cells[7])
    # shuffling keeps the CNF: same clauses as multisets
    enc = encode(pattern_problem("plus"))
    mixed = compare.shuffled(enc.clauses, 3)
    assert mixed != enc.clauses
    assert sorted(sorted(c) for c in mixed) == sorted(sorted(c) for c in enc.clauses)


class TestBudget:
    """The SAT engine takes the same :class:`~pyapp.core.budget.Budget` as the search."""

    def test_cancelled_budget_answers_unknown_saying_so(self):
        from pyapp.core.budget import Budget

        b = Budget(max_seconds=30)
        b.cancel()
        r = solve_sat(default_problem("english"), solver="pycosat", budget=b)
        assert r.status == "unknown" and r.reason.startswith("cancelled")

    def test_time_budget_stops_a_hard_instance(self):
        from pyapp.core.budget import Budget

        # the central game needs 31 jumps: pycosat takes far more than 0.2 s on it
        r = solve_sat(default_problem("english"), solver="pycosat", budget=Budget(max_seconds=0.2))
        assert r.status == "unknown" and r.reason.startswith("budget spent")
        assert r.seconds < 5

    def test_node_budget_counts_conflicts(self):
        from pyapp.core.budget import Budget

        names = [n for n in available_solvers() if n != "pycosat"]
        if not names:
            pytest.skip("python-sat not installed")
        b = Budget(max_nodes=50)
        r = solve_sat(default_problem("english"), solver=names[0], budget=b)
        assert r.status == "unknown" and b.nodes >= 50 and r.nodes == b.nodes

    def test_pycosat_refuses_a_node_budget(self):
        from pyapp.core.budget import Budget
        from pyapp.core.errors import PegError

        enc = encode(default_problem("triangle5"))
        with pytest.raises(PegError, match="node budget"):
            run_solver(enc.num_vars, enc.clauses, solver="pycosat", budget=Budget(max_nodes=10))

    def test_cli_passes_the_node_budget_to_the_sat_engine(self, capsys):
        names = [n for n in available_solvers() if n != "pycosat"]
        if not names:
            pytest.skip("python-sat not installed")
        code = main(["solve", "english", "--engine", "sat", "--max-nodes", "20", "--json"])
        out = json.loads(capsys.readouterr().out)
        assert out["status"] == "unknown" and out["nodes"] >= 20 and code == 0
