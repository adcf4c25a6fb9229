"""``cnf``: export a problem as DIMACS CNF (the rule-based SAT encoding of :mod:`pyapp.sat`)."""

from __future__ import annotations

from ...core.errors import PegError
from ...sat import AMO_METHODS, DEFAULT_AMO, encode, write_dimacs
from ._common import add_problem_args, problem_from_args


def register(sub) -> None:
    p = sub.add_parser("cnf", help="export a problem as DIMACS CNF for a SAT solver")
    add_problem_args(p)
    p.add_argument("-o", "--output", metavar="FILE", help="write the CNF to FILE (default: standard output)")
    p.add_argument("--amo", choices=AMO_METHODS, default=DEFAULT_AMO,
                   help=f"at-most-one encoding of the one-jump-per-step rule (default: {DEFAULT_AMO})")
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    problem = problem_from_args(args)
    enc = encode(problem, amo=args.amo)
    cnf = write_dimacs(enc)
    out = {"board": problem.board.id, "goal": problem.goal.text(problem.board), "jumps": enc.steps, "amo": enc.amo,
           "variables": enc.num_vars, "clauses": len(enc.clauses)}
    if args.output:
        try:
            with open(args.output, "w", encoding="ascii") as f:
                f.write(cnf)
        except OSError as err:
            raise PegError(f"cannot write CNF to {args.output!r}: {err.strerror or err}") from None
        out["file"] = args.output
    else:
        out["cnf"] = cnf
    return out


def text(r: dict) -> str:
    if "cnf" in r:
        return r["cnf"].rstrip("\n")
    return (f"wrote {r['file']}: {r['variables']} variables, {r['clauses']} clauses "
            f"({r['board']}, {r['jumps']} jumps, goal {r['goal']})")
