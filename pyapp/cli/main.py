"""The command line, ``python -m pyapp COMMAND ...``.

Each command lives in its own module under :mod:`pyapp.cli.commands` with two functions:
``register(subparsers)`` adds its parser (and sets ``run`` and optionally ``text``
defaults) and ``run(args) -> dict`` answers.  ``--json`` prints that dict as one JSON
object; otherwise ``text(result)`` (or a plain key/value listing) is printed.

Exit codes: 0 when the question was answered (whatever the answer), 2 on unusable input
with a one-line error on stderr (and ``{"error": ...}`` on stdout with ``--json``), and also
when the output cannot be written (full disk, other OS errors) or memory runs out; 1 for an
internal failure (a bug: one line naming the exception; ``PEG_DEBUG=1`` shows the traceback);
130 when interrupted (Ctrl+C).  A closed pipe (``... | head -1``) ends quietly with 0: the reader
has all it wanted.  No traceback is ever printed, and control characters from the input are
shown escaped (``\x1b``), never sent to the terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import pkgutil
import sys
import unicodedata
from collections.abc import Sequence
from typing import NoReturn

from ..core.errors import PegError
from . import commands


class UsageError(PegError):
    """Command-line arguments that argparse rejects."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def build_parser(prog: str = "python -m pyapp") -> argparse.ArgumentParser:
    """The parser with every command module found in :mod:`pyapp.cli.commands`."""
    from .. import __version__

    parser = _Parser(prog=prog, description="Peg Solitaire Lab: boards, solver and analyses.")
    parser.add_argument("--version", action="version", version=f"Peg Solitaire Lab {__version__}")
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


def printable(text: str, *, keep: str = "") -> str:
    """``text`` with control and other invisible format characters escaped (``\\x1b``, ``\\u202e``),
    except those in ``keep``: input echoed in a message can never drive the terminal."""
    out = []
    for ch in text:
        if ch not in keep and unicodedata.category(ch)[0] == "C":
            out.append(ch.encode("unicode_escape").decode("ascii"))
        else:
            out.append(ch)
    return "".join(out)


def _answer(argv: list[str], prog: str) -> tuple[argparse.Namespace, dict]:
    parser = build_parser(prog)
    args, extra = parser.parse_known_args(argv)
    if extra:
        # positional lists (replay's moves) may be interrupted by options: collect the rest
        if not hasattr(args, "moves") or any(x.startswith("--") for x in extra):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.moves = list(args.moves) + extra
    return args, args.run(args)


def _write(stream, text: str) -> None:
    stream.write(text + "\n")
    stream.flush()


def _quiet_stdout() -> None:
    """Point standard output at the null device, so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _fail(message: str, code: int, want_json: bool) -> int:
    """Report one line on stderr (and ``{"error"}`` on stdout with ``--json``); return ``code``."""
    message = printable(" ".join(str(message).split()))
    try:
        if want_json:
            _write(sys.stdout, json.dumps({"error": message}))
    except OSError:
        _quiet_stdout()
    with contextlib.suppress(OSError, ValueError):
        _write(sys.stderr, f"error: {message}")
    return code


def main(argv: Sequence[str] | None = None, prog: str = "python -m pyapp") -> int:
    """Run one command; return the exit code (see the module docstring)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    want_json = "--json" in argv
    try:
        args, result = _answer(argv, prog)
        # a command answers one dict, or a stream of them (``solve --batch``): one line (or block) each
        for item in [result] if isinstance(result, dict) else result:
            if args.json:
                out = json.dumps(item)
            else:
                text = getattr(args, "text", None)
                out = printable(text(item) if text else _plain(item), keep="\n\t")
            _write(sys.stdout, out)
    except PegError as err:
        return _fail(str(err), 2, want_json)
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except KeyboardInterrupt:
        return _fail("interrupted", 130, want_json)
    except MemoryError:
        return _fail("out of memory: try a smaller board or a smaller budget (--max-seconds)", 2, want_json)
    except OSError as err:
        _quiet_stdout()
        return _fail(f"cannot write the output: {err.strerror or err}", 2, False)
    except Exception as err:  # a bug, not bad input: one line, never a traceback (unless asked for)
        if os.environ.get("PEG_DEBUG") == "1":
            raise
        return _fail(f"internal error ({type(err).__name__}): {err}", 1, want_json)
    return 0


def console() -> int:
    """The ``pegsol`` console script (the same command as ``python -m pyapp``)."""
    return main(prog="pegsol")
