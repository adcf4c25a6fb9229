"""The first never-lose verdict without waiting for Python: every catalogue game's start, decided at build time.

``build.py`` writes ``opening.json`` with :func:`opening_book`: for the default problem of each catalogue
board, the never-lose answer at its start (the page's ``never_lose`` JSON, :func:`pyapp.web.play.never_lose_json`:
the position's verdict and every first jump filed good, with a line to the goal, or bad, with its proof).
The build loads the shipped winnable sets first, so the games whose sets ship are answered by lookup (with
their solution counts); the others are decided by the same search the page runs (in a few tenths of a
second each).  Only decided answers are written: a verdict still unknown within the budget is left out, and
the page asks the engine as before.  The page reads the file when never-lose is first switched on and
answers the start of a default game from it before the engine is ready; ``method`` says ``book`` and
``proof`` what decided it (``exact``: the winnable set; ``search``: the solver and its proofs).
"""

from __future__ import annotations

from ..core.budget import drive
from ..core.catalogue import ENTRIES
from ..core.problem import default_problem
from .play import never_lose_job

FORMAT = 1
BOOK_SECONDS = 30.0
"""The budget of each start's check (the same check as the page's, whose budget is Hint's 10 s)."""


def opening_book(seconds: float = BOOK_SECONDS) -> dict:
    """``{"format", "games": {board id: {"start", "goal", "result"}}}`` for every catalogue board whose default
    game's start and first jumps are all decided within ``seconds``."""
    games = {}
    for entry in ENTRIES:
        problem = default_problem(entry.id)
        result = drive(never_lose_job(problem, seconds, [problem.start]))
        if result["status"] == "unknown" or result["unknown"]:
            continue
        games[entry.id] = {"start": entry.start, "goal": entry.goal,
                           "result": {**result, "method": "book", "proof": result["method"]}}
    return {"format": FORMAT, "games": games}
