"""Peg solitaire as SAT: the rule-based CNF encoding, DIMACS export, decoding, solver adapters.

* :func:`encode` builds the CNF of a problem with a fixed number of jumps
  (:mod:`pyapp.sat.encode` explains the variables and clauses);
* :func:`to_dimacs` writes it as DIMACS text with a header naming the board, the start,
  the goal and the variable mapping (pure Python: the web app's "Download CNF" uses it);
* :func:`decode` turns a model back into jumps and :func:`verify` replays them;
* :func:`solve_sat` runs an optional SAT package (python-sat or pycosat) and answers
  ``solved``/``impossible``/``unknown`` like :func:`pyapp.search.solver.solve`.

>>> from pyapp.core.problem import default_problem
>>> enc = encode(default_problem("triangle5"))
>>> enc.steps, enc.num_vars, len(enc.clauses)
(13, 665, 2940)
>>> to_dimacs(default_problem("triangle5")).count("\\np cnf 665 2940\\n")
1
"""

from __future__ import annotations

from ..core.problem import Problem
from .decode import ModelError, decode, verify
from .dimacs import parse_dimacs, write_dimacs
from .encode import AMO_METHODS, DEFAULT_AMO, Encoding, EncodingError, encode
from .engine import solve_sat
from .solvers import SatAnswer, SatUnavailableError, available_solvers, default_solver, run_solver

__all__ = [
    "AMO_METHODS", "DEFAULT_AMO", "Encoding", "EncodingError", "ModelError", "SatAnswer", "SatUnavailableError",
    "available_solvers", "decode", "default_solver", "encode", "parse_dimacs", "run_solver", "solve_sat",
    "to_dimacs", "verify", "write_dimacs",
]


def to_dimacs(problem: Problem) -> str:
    """The problem as DIMACS CNF text (default encoding); raises ``EncodingError`` for a 'min' goal."""
    return write_dimacs(encode(problem))
