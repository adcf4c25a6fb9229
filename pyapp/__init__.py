"""Peg Solitaire Lab: a pure-Python peg solitaire engine (boards, moves, solver, analyses, SVG).

Runs unchanged under CPython and Pyodide; no compiled extensions.  The few entry points a notebook
needs are importable from here (they live in :mod:`pyapp.analysis.facade`; this package only
re-exports them, and loads them on first use, so ``import pyapp.web.api`` in the page pays nothing):

>>> import pyapp
>>> p = pyapp.problem("english", start="d4", goal="d4")
>>> r = pyapp.solve(p, max_seconds=30)
>>> r.status, pyapp.notation(p.board, r.jumps)[:3]
('solved', ['d6-d4', 'f5-d5', 'e7-e5'])
>>> pyapp.replay(p.board, p.start, pyapp.notation(p.board, r.jumps)).final == 1 << p.board.bit_of["d4"]
True
>>> pyapp.count(pyapp.problem("triangle5", start="1", goal="any")).solutions
29760
>>> pyapp.render_svg(p.board, p.start)[:4]
'<svg'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"
"""The one version number: the package metadata, ``--version`` and the page's footer read it."""

_EXPORTS = {
    "board": "pyapp.analysis.facade", "problem": "pyapp.analysis.facade", "position": "pyapp.analysis.facade",
    "position_text": "pyapp.analysis.facade", "solve": "pyapp.analysis.facade", "notation": "pyapp.analysis.facade",
    "replay": "pyapp.analysis.facade", "hint": "pyapp.analysis.facade", "finishes": "pyapp.analysis.facade",
    "count": "pyapp.analysis.facade", "fewest": "pyapp.analysis.facade", "render_svg": "pyapp.core.render",
    "Board": "pyapp.core.board", "Problem": "pyapp.core.problem", "Result": "pyapp.core.problem",
    "PegError": "pyapp.core.errors",
}
"""Name -> the module that defines it."""

__all__ = ["Board", "PegError", "Problem", "Result", "__version__", "board", "count", "fewest", "finishes", "hint",
           "notation", "position", "position_text", "problem", "render_svg", "replay", "solve"]

if TYPE_CHECKING:  # what type checkers and editors see; at run time __getattr__ imports on first use
    from .analysis.facade import (
        board,
        count,
        fewest,
        finishes,
        hint,
        notation,
        position,
        position_text,
        problem,
        replay,
        solve,
    )
    from .core.board import Board
    from .core.errors import PegError
    from .core.problem import Problem, Result
    from .core.render import render_svg


def __getattr__(name: str) -> Any:
    """Import a re-exported name on first use (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'pyapp' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
