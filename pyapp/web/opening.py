"""The first never-lose verdict without waiting for Python: every catalogue game's start, decided at build time.

``build.py`` writes ``opening.json`` with :func:`opening_book`: for the default problem of each catalogue
board, the never-lose answer at its start and after each first jump (the page's ``never_lose`` JSON,
:func:`pyapp.web.play.never_lose_json`: the position's verdict and every jump filed good, with a line to the
goal, or bad, with its proof).
The build loads the shipped winnable sets first, so the games whose sets ship are answered by lookup (with
their solution counts); the others are decided by the same search the page runs (in a few tenths of a
second each).  Only decided answers are written: a verdict still unknown within the budget is left out, and
the page asks the engine as before.  The page reads the file when never-lose is first switched on and
answers the start of a default game, and the position after its first jump, from it before the engine is
ready; ``method`` says ``book`` and
``proof`` what decided it (``exact``: the winnable set; ``search``: the solver and its proofs).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.board import Board
from ..core.budget import drive
from ..core.catalogue import ENTRIES
from ..core.moves import apply_jump, legal_jumps
from ..core.problem import Problem, default_problem
from .play import never_lose_job

FORMAT = 1
BOOK_SECONDS = 30.0
"""The budget of each start's check (the same check as the page's, whose budget is Hint's 10 s)."""


def _decided(problem: Problem, history: list[int], seconds: float) -> dict | None:
    """The page's never-lose answer for the last of ``history``, marked as the book's, or None if not decided."""
    result = drive(never_lose_job(Problem(problem.board, history[-1], problem.goal), seconds, history))
    if result["status"] == "unknown" or result["unknown"]:
        return None
    return {**result, "method": "book", "proof": result["method"]}


def _fixing(problem: Problem) -> list[int]:
    """The board's symmetries that fix the start and the goal."""
    board, goal = problem.board, problem.goal
    return [g for g in range(len(board.symmetries)) if board.transform(problem.start, g) == problem.start
            and board.transform(goal.target, g) == goal.target]


def _mapped(board: Board, answer: dict, g: int) -> dict:
    """A never-lose answer (the page's JSON, holes by name) moved by the symmetry ``g``."""
    perm = board.permutation(g)

    def name(hole: str) -> str:
        return board.name_of[perm[board.bit_of[hole]]]

    def move(text: str) -> str:
        return "-".join(name(h) for h in text.split("-"))

    return {**answer, "line": [move(m) for m in answer["line"]],
            "good": [[name(h) for h in j] for j in answer["good"]],
            "bad": [{**b, "jump": [name(h) for h in b["jump"]]} for b in answer["bad"]],
            "unknown": [{**u, "jump": [name(h) for h in u["jump"]]} for u in answer["unknown"]],
            "through": [{**t, "jump": [name(h) for h in t["jump"]]} for t in answer["through"]]}


def opening_book(seconds: float = BOOK_SECONDS, boards: Sequence[str] | None = None) -> dict:
    """``{"format", "games": {board id: {"start", "goal", "result", "after"}}}`` for every catalogue board whose
    default game's start and first jumps are all decided within ``seconds``; ``after`` holds the answers
    after each first jump (``"a-c"``: its first and last holes) that were decided too (a jump symmetric to one
    answered already gets that answer mapped).  ``boards``: only these catalogue boards."""
    games = {}
    for entry in ENTRIES:
        if boards is not None and entry.id not in boards:
            continue
        problem = default_problem(entry.id)
        board = problem.board
        result = _decided(problem, [problem.start], seconds)
        if result is None:
            continue
        after: dict[str, dict] = {}
        done: list[tuple[int, dict | None]] = []  # (position after a first jump, its answer)
        for jump in legal_jumps(board, problem.start):
            pos = apply_jump(problem.start, jump)
            image = next(((g, answer) for prev, answer in done for g in _fixing(problem)
                          if board.transform(prev, g) == pos), None)
            if image is None:
                answer = _decided(problem, [problem.start, pos], seconds)
                done.append((pos, answer))
            else:  # a symmetric twin of a jump answered already: its answer mapped
                answer = None if image[1] is None else _mapped(board, image[1], image[0])
            if answer is not None:
                after[f"{board.name_of[jump[0]]}-{board.name_of[jump[2]]}"] = answer
        games[entry.id] = {"start": entry.start, "goal": entry.goal, "result": result, "after": after}
    return {"format": FORMAT, "games": games}
