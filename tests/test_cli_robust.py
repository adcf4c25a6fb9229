"""The command line never prints a traceback: closed pipes, full disks, out of memory, Ctrl+C, internal
failures and hostile arguments each end with one line and a documented exit code (see pyapp.cli.main)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pyapp.cli import main as cli

ROOT = Path(__file__).resolve().parents[1]


def pyapp(*args: str, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pyapp", *args], cwd=ROOT, stdout=stdout, stderr=subprocess.PIPE,
                          text=True, timeout=120)


def one_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def test_a_closed_pipe_ends_quietly():
    # `python -m pyapp cnf german | head -1`: the reader stops after one line
    proc = subprocess.Popen([sys.executable, "-m", "pyapp", "cnf", "german"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=120) == 0 and first.startswith(b"c ")
    assert err == ""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_disk_gives_one_line_and_exit_2():
    with open("/dev/full", "w") as full:
        proc = pyapp("cnf", "german", "--json", stdout=full)
    assert proc.returncode == 2
    assert "No space left on device" in one_line(proc.stderr)


def default_sigint() -> None:
    """In the child: Ctrl+C acts as in a terminal, whatever the test process's own SIGINT disposition (a child
    inherits "ignore"; once, in a loaded full run, these commands ignored Ctrl+C and ran on)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_exits_130_with_one_line():
    proc = subprocess.Popen([sys.executable, "-m", "pyapp", "count", "english", "--max-seconds", "100"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert one_line(err) == "error: interrupted" and out == ""


def _raiser(exc: BaseException):
    def run(args):
        raise exc
    return run


def test_memory_error_gives_one_line_and_exit_2(monkeypatch, capsys):
    from pyapp.cli.commands import show

    monkeypatch.setattr(show, "run", _raiser(MemoryError()))
    assert cli.main(["show", "english"]) == 2
    assert "out of memory" in one_line(capsys.readouterr().err)


def test_an_internal_failure_gives_one_line_and_exit_1(monkeypatch, capsys):
    from pyapp.cli.commands import show

    monkeypatch.setattr(show, "run", _raiser(ZeroDivisionError("a bug")))
    monkeypatch.delenv("PEG_DEBUG", raising=False)
    assert cli.main(["show", "english", "--json"]) == 1
    out = capsys.readouterr()
    assert one_line(out.err) == "error: internal error (ZeroDivisionError): a bug"
    assert out.out.strip() == '{"error": "internal error (ZeroDivisionError): a bug"}'


def test_an_os_error_while_answering_gives_one_line_and_exit_2(monkeypatch, capsys):
    from pyapp.cli.commands import show

    monkeypatch.setattr(show, "run", _raiser(PermissionError(13, "Permission denied")))
    assert cli.main(["show", "english"]) == 2
    assert "Permission denied" in one_line(capsys.readouterr().err)


@pytest.mark.parametrize("budget", ["inf", "Infinity", "nan", "1e400", "-1", "0", "1e9"])
@pytest.mark.parametrize("command", [["solve", "english"], ["hint", "english"], ["count", "triangle5"],
                                     ["fewest", "triangle4"], ["finishes", "triangle5"]])
def test_budgets_must_be_finite_and_positive(command, budget, capsys):
    assert cli.main([*command, "--max-seconds", budget]) == 2
    assert "--max-seconds" in one_line(capsys.readouterr().err)


def test_bench_budget_is_checked_too(capsys):
    assert cli.main(["bench", "--budget", "inf"]) == 2
    assert "--budget" in one_line(capsys.readouterr().err)


@pytest.mark.parametrize("args", [
    ["solve", "\x1b[31mred\x1b[0m"],
    ["solve", "english", "--bogus", "\x1b]0;title\x07"],
    ["replay", "english", "\x1b[2J"],
    ["show", "english", "--start", "\u202ed4"],
])
def test_control_characters_are_shown_escaped(args, capsys):
    cli.main(args)
    out = capsys.readouterr()
    for text in (out.out, out.err):
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "\\x1b" in out.out + out.err or "\\u202e" in out.out + out.err


def test_oversized_boards_are_refused_at_once():
    # the issue: `show` on a 200-row triangle ran 39 s and ended in a MemoryError traceback
    proc = pyapp("show", "triangle:" + "/".join(["o"] * 200))
    assert proc.returncode == 2 and "200 rows" in one_line(proc.stderr)
