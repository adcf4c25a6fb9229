"""The JSON form of the exact analyses' answers, shared by the command line and the web worker."""

from __future__ import annotations

from ..core.notation import format_moves
from ..core.problem import Problem
from .count.sweep import ExactCount
from .fewest.levels import ExactFewest
from .fewest.table import FewestRow, FewestTable
from .levels import LevelTable


def count_json(problem: Problem, c: ExactCount) -> dict:
    return {
        "solutions": c.solutions,
        "status": c.status,
        "reason": c.reason,
        "goal": problem.goal.text(problem.board),
        "positions": c.positions,
        "meet": c.meet,
        "symmetries": c.symmetries,
        "peak_memory": c.peak_bytes,
        "seconds": round(c.seconds, 6),
    }


def levels_json(problem: Problem, t: LevelTable) -> dict:
    return {"status": t.status, "reason": t.reason, "goal": problem.goal.text(problem.board), "levels": t.rows,
            "reachable": t.reachable, "winnable": t.winnable, "symmetries": t.symmetries,
            "peak_memory": t.peak_bytes, "seconds": round(t.seconds, 6)}


def fewest_json(problem: Problem, f: ExactFewest) -> dict:
    """``proven`` is True for 'solved' and 'impossible' (both come from an exhaustive search)."""
    return {
        "status": f.status,
        "moves": f.moves,
        "solution": format_moves(problem.board, f.jumps),
        "jumps": len(f.jumps),
        "jump_list": [[problem.board.name_of[b] for b in j] for j in f.jumps],
        "proven": f.status != "unknown",
        "lower_bound": f.lower_bound,
        "reason": f.reason,
        "positions": f.positions,
        "winnable": f.winnable,
        "seconds": round(f.seconds, 6),
    }


def fewest_row_json(row: FewestRow) -> dict:
    """One row of ``fewest --all``: its start, finish, class size and CPU time with its :func:`fewest_json`."""
    return {"start": row.start, "finish": row.finish, "problems": row.problems,
            "cpu_seconds": round(row.cpu_seconds, 3), **fewest_json(row.problem, row.answer),
            "reverse_of": " -> ".join(row.reverse_of) if row.reverse_of else None}


def fewest_table_json(t: FewestTable) -> dict:
    """``fewest --all``: one :func:`fewest_json` per problem, with its start, finish, class size and CPU time."""
    rows = [fewest_row_json(row) for row in t.rows]
    return {"board": t.board.id, "rows": rows, "pending": [list(p) for p in t.pending],
            "solved": sum(r["status"] == "solved" for r in rows),
            "impossible": sum(r["status"] == "impossible" for r in rows),
            "unknown": sum(r["status"] == "unknown" for r in rows), "seconds": round(t.seconds, 3)}
