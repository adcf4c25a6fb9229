"""The command line, ``python -m pyapp COMMAND ...``.

Each command lives in its own module under :mod:`pyapp.commands` with two functions:
``register(subparsers)`` adds its parser (and sets ``run`` and optionally ``text``
defaults) and ``run(args) -> dict`` answers.  ``--json`` prints that dict as one JSON
object; otherwise ``text(result)`` (or a plain key/value listing) is printed.

Exit codes: 0 when the question was answered (whatever the answer), 2 on unusable input
with a one-line error on stderr (and ``{"error": ...}`` on stdout with ``--json``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
from collections.abc import Sequence

from . import commands
from .errors import PegError


class UsageError(PegError):
    """Command-line arguments that argparse rejects."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    """The parser with every command module found in :mod:`pyapp.commands`."""
    parser = _Parser(prog="python -m pyapp", description="Peg Solitaire Lab: boards, solver and analyses.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    for choice in sub.choices.values():
        choice.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    return parser


def _plain(result: dict) -> str:
    lines = []
    for key, value in result.items():
        if isinstance(value, list):
            value = " ".join(str(v) for v in value)
        lines.append(f"{key}: {value}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    want_json = "--json" in argv
    try:
        parser = build_parser()
        args, extra = parser.parse_known_args(argv)
        if extra:
            # positional lists (replay's moves) may be interrupted by options: collect the rest
            if not hasattr(args, "moves") or any(x.startswith("--") for x in extra):
                parser.error(f"unrecognized arguments: {' '.join(extra)}")
            args.moves = list(args.moves) + extra
        result = args.run(args)
    except PegError as err:
        message = str(err).replace("\n", " ")
        if want_json:
            print(json.dumps({"error": message}))
        print(f"error: {message}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result))
    else:
        text = getattr(args, "text", None)
        print(text(result) if text else _plain(result))
    return 0
