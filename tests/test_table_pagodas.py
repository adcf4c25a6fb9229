"""The pagodas that prune the goal's endgame table's search (pyapp.exact.pagoda_prune, pyapp.proofs.table_pagodas):
the packed test says what testing each pagoda says; a library line that is not a pagoda is refused; on French
d2 -> d6's shipped table the verdicts with the learned library equal those without it, for far fewer classes; and so
do they on every other board with a library."""

from __future__ import annotations

import copy
import random

import pytest
from test_shipped_sets import _shipped

from pyapp.core.budget import Budget
from pyapp.core.catalogue import get_board
from pyapp.core.moves import apply_jump, legal_jumps
from pyapp.exact.pagoda_prune import pack
from pyapp.exact.winnable import Winnable
from pyapp.proofs.table_pagoda_library import LIBRARY
from pyapp.proofs.table_pagodas import parse, table_pagodas
from pyapp.search.solver import solve
from pyapp.web.sets import SHIPPED


def test_the_packed_test_says_what_each_pagoda_says():
    board = get_board("french")
    rng = random.Random(5)
    pagodas = [({b: rng.randint(-3, 4) for b in board.bits}, rng.randint(-2, 12)) for _ in range(4)]
    packed = pack(board, pagodas)
    lane = (packed.tops & -packed.tops).bit_length()  # a lane's width: its top bit is the lowest bit of tops
    seen = set()
    for _ in range(2_000):
        pos = sum(1 << b for b in board.bits if rng.random() < rng.random())
        pegs = pos.bit_count()
        proving = {k for k, (weights, t) in enumerate(pagodas)
                   if sum(w for b, w in weights.items() if pos >> b & 1) < t}
        lost = bool(proving)
        assert packed.lost(packed.sum(pos), pegs) == lost
        lanes = packed.proving(packed.sum(pos), pegs)  # which pagodas prove it, one lane's top bit each
        assert {k for k in range(len(pagodas)) if lanes >> (lane * k + lane - 1) & 1} == proving
        assert packed.provers(packed.sum(pos), pegs) == sorted(proving)  # the same lanes, by number
        seen.add(lost)
        for i, direction in enumerate(board.directions):  # a jump's step adds its delta
            m = direction.src & pos & (pos >> direction.shift if direction.shift > 0 else pos << -direction.shift)
            m &= ~(pos >> 2 * direction.shift if direction.shift > 0 else pos << -2 * direction.shift)
            if m:
                bit = (m & -m).bit_length() - 1
                child = pos ^ (1 << bit | 1 << bit + direction.shift | 1 << bit + 2 * direction.shift)
                assert packed.sum(pos) + packed.deltas[f"G{i}"][bit + 1] == packed.sum(child)
    assert seen == {True, False}


def test_a_library_line_that_is_not_a_pagoda_is_refused():
    board = get_board("french")
    rows = list(LIBRARY["french"])
    assert len(parse(board, tuple(rows))) == len(rows) > 100
    broken = [int(v) for v in rows[0].split()]
    broken[board.bits.index(board.bit_of["d4"])] = 50  # a jump into d4 now raises it
    with pytest.raises(ValueError, match="not a pagoda function"):
        parse(board, (" ".join(map(str, broken)),))


@pytest.mark.usefixtures("sets_ready")
def test_the_french_tables_verdicts_are_the_same_with_the_library_for_far_fewer_classes(monkeypatch):
    game = next(g for g in SHIPPED if g.endgame and g.board == "french")
    table = _shipped(game, monkeypatch)
    assert table_pagodas(table.problem.board, tuple(sorted(table.ends))) and table.pagodas() is not None
    plain = copy.copy(table)
    plain.memo, plain._subtree = {}, None
    plain.pagodas = lambda: None  # type: ignore[method-assign]
    table.memo, table._subtree = {}, None
    for t in (table, plain):
        t.limit = 10_000_000
    rng, verdicts, pruned, plain_classes = random.Random(3), set(), 0, 0
    french = next(g for g in SHIPPED if g.over_table and g.board == "french")
    held = _shipped(french, monkeypatch)
    board = french.problem().board

    def same(pos: int) -> bool:
        nonlocal pruned, plain_classes
        before = (table.searched, plain.searched)
        table.question(), plain.question()
        got, want = table.can_win(pos), plain.can_win(pos)
        assert got == want, board.pegs(pos)
        verdicts.add(want)
        pruned += table.searched - before[0]
        plain_classes += plain.searched - before[1]
        return want

    table.ceiling = held.floor - 1  # as the set asks of the table (pyapp.exact.overtable.LIFT)
    for _ in range(1):  # a winnable game down to the set's floor and one jump more (the table with its pagodas
        pos = french.problem().start  # finds a winnable one), then every position after each jump down to 17
        while pos.bit_count() > held.floor:
            pos = rng.choice([c for c in (apply_jump(pos, j) for j in legal_jumps(board, pos))
                              if Winnable.can_win(held, c)])
        table.question()
        pos = rng.choice([c for c in (apply_jump(pos, j) for j in legal_jumps(board, pos)) if table.can_win(c)])
        while pos.bit_count() > 17:
            afters = [apply_jump(pos, j) for j in legal_jumps(board, pos)]
            good = [a for a in afters if same(a)]
            pos = rng.choice(good or afters)
    assert verdicts == {True, False} and table.subtree().pagodas == len(LIBRARY["french"])
    assert pruned * 5 < plain_classes, (pruned, plain_classes)


@pytest.mark.usefixtures("sets_ready")
@pytest.mark.parametrize("board_id", sorted(set(LIBRARY) - {"french"}))
def test_other_boards_tables_give_the_same_verdicts_with_their_library(board_id, monkeypatch):
    """The other boards' libraries (learned on random games; asymmetric's on winnable games down to its set's floor,
    then any jump): the same verdicts with and without it on the positions of seeded games that follow winnable jumps
    from a position of a solution 6 pegs above the table's held level down to 2 above it, until both verdicts are
    met."""
    game = next(g for g in SHIPPED if g.endgame and g.board == board_id)
    table = _shipped(game, monkeypatch)
    assert table.pagodas() is not None
    plain = copy.copy(table)
    plain.memo, plain._subtree = {}, None
    plain.pagodas = lambda: None  # type: ignore[method-assign]
    table.memo, table._subtree = {}, None
    problem, rng, verdicts, asked = game.problem(), random.Random(7), set(), 0
    board = problem.board
    solved = solve(problem, budget=Budget(60))
    assert solved.status == "solved"
    top = problem.start
    for jump in solved.jumps:  # a winnable position 6 pegs above the held level, then random winnable games from it
        if top.bit_count() == table.low + 6:
            break
        top = apply_jump(top, jump)
    while verdicts != {True, False} and asked < 2_000:
        pos = top
        while pos.bit_count() > table.low + 2 and (afters := [apply_jump(pos, j) for j in legal_jumps(board, pos)]):
            table.question(), plain.question()
            good = []
            for after in afters:
                wins = plain.can_win(after)
                assert table.can_win(after) == wins, board.pegs(after)
                verdicts.add(wins)
                asked += 1
                good += [after] if wins else []
            pos = rng.choice(good or afters)
    assert verdicts == {True, False}
