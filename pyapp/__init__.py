"""Peg Solitaire Lab: a pure-Python peg solitaire engine (boards, moves, solver, analyses, SVG).

Runs unchanged under CPython and Pyodide; no compiled extensions.
"""

__version__ = "0.1.0"
