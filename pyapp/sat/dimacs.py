"""DIMACS CNF text with a comment header naming the problem and the variable layout."""

from __future__ import annotations

from ..core.position import format_position
from ..core.wording import plural
from .encode import Encoding


def goal_description(enc: Encoding) -> str:
    """The goal in words, for headers and messages."""
    goal = enc.problem.goal
    if not goal.definite:
        return f"{plural(enc.pegs_left, 'peg')} left anywhere (one try of the 'min' goal)"
    return goal.describe(enc.problem.board)


def header_lines(enc: Encoding) -> list[str]:
    """The comment lines (without the ``c`` prefix) describing the problem and the variables."""
    p = enc.problem
    board = p.board
    n, nl, t = len(enc.holes), len(enc.lines), enc.steps
    lines = [
        "Peg Solitaire Lab: rule-based SAT encoding of a peg solitaire problem",
        f"board: {board.id} ({board.title}), {board.lattice.name} lattice, {n} holes, {nl} lines of three holes",
        f"start: {plural(p.start.bit_count(), 'peg')}",
        *("  " + row for row in format_position(board, p.start).split("\n")),
        f"goal: {goal_description(enc)}",
    ]
    if p.goal.exact is not None and p.goal.hole_name(board) is None:  # a target position: draw it
        lines += ["  " + row for row in format_position(board, p.goal.target).split("\n")]
    lines += [
        f"jumps: T = {t} (pegs at the start minus pegs at the end); states after 0..{t} jumps",
        f"exactly one jump per step: at-least-one clause + '{enc.amo}' at-most-one",
        f"variables: {enc.num_vars}, clauses: {len(enc.clauses)}",
        "variable mapping:",
        f"  peg(t, k) = {n}*t + k + 1  for t = 0..{t}, hole k = 0..{n - 1}: hole k holds a peg after t jumps",
        f"  line(t, j) = {enc.line_base} + {nl}*(t - 1) + j  for t = 1..{t}, line j = 0..{nl - 1}: "
        "jump t is made along line j (either direction: the peg comes from the full end)",
    ]
    if enc.num_vars >= enc.aux_base:
        lines.append(f"  seq(t, i) = {enc.aux_base} + {nl - 1}*(t - 1) + i  for t = 1..{t}, i = 0..{nl - 2}: "
                     "sequential-counter auxiliary 'one of lines 0..i is active at step t'")
    lines.append("holes (k:name):")
    names = [f"{k}:{board.name_of[bit]}" for k, bit in enumerate(enc.holes)]
    lines += _wrap(names)
    lines.append("lines (j:a-b-c):")
    lines += _wrap([f"{j}:{board.name_of[a]}-{board.name_of[b]}-{board.name_of[c]}"
                    for j, (a, b, c) in enumerate(enc.lines)])
    return lines


def _wrap(items: list[str], width: int = 76) -> list[str]:
    out, cur = [], "  "
    for item in items:
        if len(cur) + len(item) + 2 > width and cur.strip():
            out.append(cur.rstrip())
            cur = "  "
        cur += item + ", "
    if cur.strip():
        out.append(cur.rstrip(", "))
    return out


def write_dimacs(enc: Encoding) -> str:
    """The encoding as DIMACS CNF text (comment header, ``p cnf V C``, one clause a line)."""
    parts = ["c " + line if line else "c" for line in header_lines(enc)]
    parts.append(f"p cnf {enc.num_vars} {len(enc.clauses)}")
    parts.extend(" ".join(map(str, clause)) + " 0" for clause in enc.clauses)
    return "\n".join(parts) + "\n"


def parse_dimacs(text: str) -> tuple[int, list[list[int]]]:
    """``(variables, clauses)`` from DIMACS CNF text; checks the ``p cnf`` counts."""
    num_vars = num_clauses = None
    clauses: list[list[int]] = []
    current: list[int] = []
    for raw in text.split("\n"):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        if line.startswith("p"):
            fields = line.split()
            if len(fields) != 4 or fields[1] != "cnf":
                raise ValueError(f"bad problem line {line!r}: expected 'p cnf VARIABLES CLAUSES'")
            num_vars, num_clauses = int(fields[2]), int(fields[3])
            continue
        for lit in map(int, line.split()):
            if lit == 0:
                clauses.append(current)
                current = []
            else:
                current.append(lit)
    if num_vars is None or num_clauses is None:
        raise ValueError("no 'p cnf' line")
    if current:
        raise ValueError("last clause is not terminated by 0")
    if len(clauses) != num_clauses:
        raise ValueError(f"'p cnf' says {num_clauses} clauses, found {len(clauses)}")
    if any(abs(lit) > num_vars for c in clauses for lit in c):
        raise ValueError(f"a literal exceeds the {num_vars} declared variables")
    return num_vars, clauses
