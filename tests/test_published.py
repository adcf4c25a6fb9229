"""Published results reproduced by the analyses, each test naming its source.

Hole names: triangles are numbered 1..N row by row from the top (so the 15-hole board is
1 / 2 3 / 4 5 6 / 7 8 9 10 / 11 12 13 14 15); square boards use a column letter from the
left and a row number from the top (the English centre is d4).
"""

import pytest

from pyapp.analysis import finishes
from pyapp.core.catalogue import get_board
from pyapp.core.game import replay
from pyapp.core.problem import Goal, Problem
from pyapp.exact.count import count_solutions
from pyapp.exact.fewest import fewest_moves

T5 = get_board("triangle5")
T4 = get_board("triangle4")
ENGLISH = get_board("english")

# The two generators of the 15-hole triangle's symmetry group, written out by hand as hole
# permutations: a rotation by 120 degrees (corner 1 -> 11 -> 15) and the left-right mirror.
ROTATE = {1: 11, 2: 12, 4: 13, 7: 14, 11: 15, 12: 10, 13: 6, 14: 3, 15: 1, 10: 2, 6: 4, 3: 7,
          5: 8, 8: 9, 9: 5}
MIRROR = {1: 1, 2: 3, 3: 2, 4: 6, 6: 4, 5: 5, 7: 10, 10: 7, 8: 9, 9: 8, 11: 15, 15: 11, 12: 14, 14: 12,
          13: 13}


def _group():
    """All six symmetries of the triangle, as dicts, from the two generators above."""
    found = [{h: h for h in range(1, 16)}]
    frontier = list(found)
    while frontier:
        new = []
        for g in frontier:
            for gen in (ROTATE, MIRROR):
                h = {k: gen[v] for k, v in g.items()}
                if h not in found:
                    found.append(h)
                    new.append(h)
        frontier = new
    return found


def _spread(table: dict[int, object], combine) -> dict[int, object]:
    """Extend a table given for one start per symmetry class to every start."""
    out: dict[int, object] = {}
    for g in _group():
        for start, value in table.items():
            image = combine(g, value)
            assert out.setdefault(g[start], image) == image, "published rows must agree under symmetry"
    return out


def _finish_holes(board, start: str) -> set[int]:
    f = finishes(board, board.start(start))
    return {int(board.name_of[h]) for h in f.possible}


class TestTriangle15Finishes:
    """Jaap Scherphuis, "Triangular Solitaire", https://jaapsch.net/puzzles/trisolit.htm: a table
    of the positions reachable from each start (one per symmetry class) by number of jumps, and
    the holes where the final peg can be.  Jaap names rows 1-5 from the top and columns a-e from
    the left edge, so a1 = 1, a4 = 7, d4 = 10, b3 = 5, c5 = 13.  The same four classes of
    single-vacancy to single-survivor problems are listed in G. Bell's catalogue of the 15-hole
    board, http://gibell.net/pegsolitaire/Catalogs/Triangular15/index.htm."""

    PUBLISHED = {1: {1, 7, 10, 13},       # start a1: final peg a1, a4, c5, d4
                 7: {1, 7, 10, 13},       # start a4 (or d4): a1, a4, c5, d4
                 13: {1, 5, 7, 10, 13},   # start c5: a1, a4, b3, c5, d4
                 5: {13}}                 # start b3: c5 only

    def test_published_rows(self):
        for start, holes in self.PUBLISHED.items():
            assert _finish_holes(T5, str(start)) == holes

    def test_every_start(self):
        expected = _spread(self.PUBLISHED, lambda g, holes: {g[h] for h in holes})
        assert set(expected) == set(range(1, 16))
        for start in range(1, 16):
            assert _finish_holes(T5, str(start)) == expected[start], f"start {start}"

    def test_reachable_positions_per_jump(self):
        # Jaap's table, column a1: distinct positions after 0..13 jumps, 3016 in all.
        f = finishes(T5, T5.start("1"))
        assert f.layer_sizes == [1, 2, 8, 35, 122, 293, 530, 679, 623, 414, 212, 75, 18, 4]
        totals = {"7": 2377, "13": 4237, "5": 1651}  # columns a4/d4, c5, b3
        for start, total in totals.items():
            assert sum(finishes(T5, T5.start(start)).layer_sizes) == total

    def test_feasible_and_solvable_pairs_up_to_symmetry(self):
        # OEIS A130515 (G. Bell): on the side-5 triangle, 17 (start, finish) pairs up to symmetry
        # pass the position-class test; Bell's catalogue (above) lists 12 of them as solvable and
        # marks the other 5 impossible.
        perms = [{T5.bits[i]: img for i, img in enumerate(p)} for p in T5.symmetries]
        feasible, solvable = set(), set()
        for s in T5.bits:
            f = finishes(T5, T5.mask & ~(1 << s))
            for h in T5.bits:
                pair = min((p[s], p[h]) for p in perms)
                if not (f.impossible.get(h, "").startswith("position class")):
                    feasible.add(pair)
                if h in f.possible:
                    solvable.add(pair)
        assert (len(feasible), len(solvable)) == (17, 12)


class TestTriangle15Counts:
    """Bill Butler (Durango Bill), "Peg Solitaire" (15 holes), http://www.durangobill.com/PegSolitaire.html:
    for each initial hole, the total number of solutions (jump sequences leaving one peg), and how
    many leave the last peg at the initial hole.  The page lists holes 1-12 in full; 13-15 follow
    by the board's symmetry (13 ~ 4, 14 ~ 2, 15 ~ 1), as the listed rows themselves show."""

    TOTAL = {1: 29_760, 2: 14_880, 3: 14_880, 4: 85_258, 5: 1_550, 6: 85_258, 7: 14_880, 8: 1_550,
             9: 1_550, 10: 14_880, 11: 29_760, 12: 14_880, 13: 85_258, 14: 14_880, 15: 29_760}
    AT_START = {1: 6_816, 2: 720, 4: 51_452, 5: 0}

    @pytest.mark.parametrize("start", range(1, 16))
    def test_total_solutions(self, start):
        assert count_solutions(Problem(T5, T5.start(str(start)), Goal("any"))) == self.TOTAL[start]

    @pytest.mark.parametrize("start", [1, 2, 4, 5])
    def test_last_peg_at_initial_hole(self, start):
        hole = str(start)
        goal = Goal("hole", 1 << T5.hole(hole))
        assert count_solutions(Problem(T5, T5.start(hole), goal)) == self.AT_START[start]

    def test_last_peg_in_the_centre(self):
        # The same table: from hole 4, 1,550 solutions leave the last peg in a centre hole (5, 8, 9).
        total = sum(count_solutions(Problem(T5, T5.start("4"), Goal("hole", 1 << T5.hole(h))))
                    for h in ("5", "8", "9"))
        assert total == 1_550


class TestTriangleShortest:
    """Shortest solutions in moves (a move is one or more jumps by one peg)."""

    # G. Bell's catalogue of the 15-hole board (URL above), "Length of Shortest Solution" for the
    # 12 solvable problems up to symmetry, (vacate, finish) in Bell's names: a1 = 1, b3 = 5,
    # a4 = 7, d4 = 10, c5 = 13.
    BELL = [(1, 1, 10), (7, 1, 10), (13, 1, 9), (13, 5, 10), (1, 13, 10), (5, 13, 11), (7, 13, 10),
            (13, 13, 9), (1, 7, 11), (7, 7, 11), (10, 7, 11), (13, 7, 10)]

    @pytest.mark.parametrize("vacate,finish,moves", BELL)
    def test_bell_catalogue(self, vacate, finish, moves):
        problem = Problem(T5, T5.start(str(vacate)), Goal("hole", 1 << T5.hole(str(finish))))
        f = fewest_moves(problem)
        assert (f.status, f.moves, f.proven) == ("solved", moves, True)
        r = replay(T5, problem.start, [f"{T5.name_of[a]}-{T5.name_of[c]}" for a, _, c in f.jumps])
        assert r.valid and r.final == problem.goal.target and r.moves == moves

    @pytest.mark.parametrize("board,shortest", [(T4, 5), (T5, 9)])
    def test_oeis_a127500(self, board, shortest):
        # OEIS A127500 (G. Bell): the shortest solution of any single-vacancy to single-survivor
        # problem on the triangle of side n: a(4) = 5, a(5) = 9.
        best = []
        for hole in board.names:
            f = fewest_moves(Problem(board, board.start(hole), Goal("any")))
            if f.status == "solved":
                assert f.proven
                best.append(f.moves)
        assert min(best) == shortest

    def test_side_six_default_in_nine_moves(self):
        # OEIS A127500 gives a(6) = 9 for the 21-hole triangle.  Checked here for the catalogue's
        # start (hole 4): 9 moves, proven minimal from that start.  (That no other start does better
        # would need every start searched, about half a minute more; not done here.)
        t6 = get_board("triangle6")
        f = fewest_moves(Problem(t6, t6.start("4"), Goal("any")), max_seconds=60)
        assert (f.status, f.moves, f.proven) == ("solved", 9, True)

    def test_ten_hole_triangle_corner_start_fails(self):
        # G. Bell, "Solving Triangular Peg Solitaire", JIS 11 (2008), arXiv:math/0703865: on the
        # 10-hole triangle no single-vacancy problem starting at a corner can be solved.
        for corner in ("1", "7", "10"):
            f = finishes(T4, T4.start(corner))
            assert f.possible == {} and set(f.impossible) == set(T4.bits)


# E. Bergholt's 18-move solution of the central game (1912), as printed e.g. on
# http://www.marblecollecting.com/marble-reference/marble-games/marble-solitaire-solution/ and in
# D. Darling's Encyclopedia (https://daviddarling.info/encyclopedia/P/peg_solitaire.html), both citing
# J. D. Beasley, "The Ins and Outs of Peg Solitaire" (1985) and Winning Ways ch. 23.  They write a hole
# as row then column, both 1-7 from the top left ("46*44" is f4-d4); here in our notation.
BERGHOLT = ["f4-d4", "e6-e4", "g5-e5", "d5-f5", "b5-d5", "c7-c5", "c4-c6", "e7-c7-c5", "e3-e5", "e1-e3",
            "c2-c4-c6-e6-e4-e2", "g3-g5-e5-c5", "a3-c3", "d3-b3", "a5-a3-c3", "c1-e1-e3",
            "f3-d3-b3-b5-d5-d3", "d2-d4"]


class TestEnglishCentralGame:
    def test_bergholt_replays(self):
        r = replay(ENGLISH, ENGLISH.start("d4"), BERGHOLT)
        assert r.valid and r.error is None
        assert (r.moves, len(r.jumps)) == (18, 31)
        assert r.final == 1 << ENGLISH.hole("d4")

    def test_bergholt_tail_is_shortest(self):
        # Beasley (1964; "The Ins and Outs of Peg Solitaire", 1985) proved 18 moves minimal.  A
        # consequence we can check exhaustively in well under a second: from the position after
        # Bergholt's 11th move, d4 cannot be reached in fewer than his remaining 7 moves (else the
        # whole game would take fewer than 18).  This proves the tail minimal, not the whole game.
        mid = replay(ENGLISH, ENGLISH.start("d4"), BERGHOLT[:11]).final
        f = fewest_moves(Problem(ENGLISH, mid, Goal("hole", 1 << ENGLISH.hole("d4"))), max_seconds=60)
        assert (f.status, f.moves, f.proven) == ("solved", 7, True)

    def test_fewest_never_claims_fewer_than_18(self):
        # With a second (or four: the same kind of answer, a 29-move solution, unproven, a bound of 8 or
        # 9), fewest cannot prove 18 in pure Python (Bell's move-by-move search of the central game needs
        # millions of positions).  What it must do: never return a solution shorter than the proven
        # minimum, never claim a proof it does not have, and report a lower bound (at least the 8 corner
        # pegs, each of which must move) that is <= 18.
        problem = Problem(ENGLISH, ENGLISH.start("d4"), Goal("hole", 1 << ENGLISH.hole("d4")))
        f = fewest_moves(problem, max_seconds=1)
        assert f.status in ("solved", "unknown")
        assert 8 <= f.lower_bound <= 18
        if f.status == "solved":
            assert f.moves >= 18 and f.proven == (f.moves == 18)
        if not f.proven:
            assert f.reason and ("not proven" in f.reason or "gave up" in f.reason)


def test_dudeney_nineteen_move_solution():
    # H. E. Dudeney, "Amusements in Mathematics" (1917), "Central Solitaire" (solution as given on
    # https://bookofproofs.github.io/branches/fun/dudeney/moving-counter-problems/central-solitaire-solution.html,
    # from Project Gutenberg): 19 moves, bracketed jumps by one counter counting as one move; Dudeney
    # numbers the 33 holes 1-33 row by row from the top (17 is the centre), our reading order too.
    text = ("19-17, 16-18, (29-17, 17-19), 30-18, 27-25, (22-24, 24-26), 31-23, (4-16, 16-28), 7-9, 10-8, "
            "12-10, 3-11, 18-6, (1-3, 3-11), (13-27, 27-25), (21-7, 7-9), (33-31, 31-23), "
            "(10-8, 8-22, 22-24, 24-26, 26-12, 12-10), 5-17")
    name = dict(enumerate(ENGLISH.names, 1))
    # a bracketed group is one move; elsewhere each jump is its own move
    groups = []
    for token in text.replace(" ", "").replace("),", ")|").replace(",(", "|(").split("|"):
        if token.startswith("("):
            groups.append(token.strip("()").split(","))
        else:
            groups.extend([j] for j in token.split(",") if j)
    notation = ["-".join([name[int(g[0].split("-")[0])]] + [name[int(j.split("-")[1])] for j in g]) for g in groups]
    r = replay(ENGLISH, ENGLISH.start("d4"), notation)
    assert r.valid, r.error
    assert (r.moves, len(r.jumps), len(notation)) == (19, 31, 19)
    assert r.final == 1 << ENGLISH.hole("d4")


def test_french_centre_start_cannot_end_with_one_peg():
    # Berlekamp, Conway & Guy, Winning Ways vol. 4 ch. 23, and Beasley (1985) ch. 3: on the
    # 37-hole French board the centre vacancy is in a position class with no single peg.
    french = get_board("french")
    f = finishes(french, french.start("d4"))
    assert f.possible == {} and f.unknown == {}
    assert set(f.impossible) == set(french.bits)
    assert all(why.startswith("position class") for why in f.impossible.values())
    f2 = fewest_moves(Problem(french, french.start("d4"), Goal("any")))
    assert f2.status == "impossible" and "position class" in f2.reason
