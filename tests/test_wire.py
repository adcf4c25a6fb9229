"""Big ints reach the page exactly: every int beyond JavaScript's 2**53 - 1 crosses as its decimal string
(pyapp.web.wire), in one-shot replies and in the streaming jobs' results alike; the page's formatter
(static/numbers.mjs, run under Node) groups those digits without passing through a double."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path

import pytest

from pyapp.web import api as webapi
from pyapp.web.wire import SAFE_INTEGER, dumps, exact

ROOT = Path(__file__).resolve().parent.parent
ROWS = "/".join(["oo.o oo.o oo.o", " " * 14] * 3 + ["oo.o oo.o oo.o"])
TARGET = "/".join([".o.. .o.. .o..", " " * 14] * 3 + [".o.. .o.. .o.."])


def test_only_unsafe_ints_become_strings():
    assert exact(SAFE_INTEGER) == SAFE_INTEGER and exact(SAFE_INTEGER + 1) == str(SAFE_INTEGER + 1)
    assert exact(-(SAFE_INTEGER + 1)) == str(-(SAFE_INTEGER + 1))
    assert exact({"a": [True, 1.5, None, (2**64,)]}) == {"a": [True, 1.5, None, [str(2**64)]]}
    assert json.loads(dumps({"n": 10**30}))["n"] == "1" + "0" * 30


def _run(job) -> dict:
    while True:
        out = json.loads(job.step())
        if out["done"]:
            return out


def test_exact_count_job_sends_the_solutions_as_text():
    args = {"board": f"square:{ROWS}", "goal": f"target:{TARGET}", "analysis": "count"}
    out = _run(webapi.start("count_exact", json.dumps(args)))
    assert out["result"]["solutions"] == str(math.factorial(24) // 2**12)  # independent rows interleave freely
    small = _run(webapi.start("count_exact", json.dumps({"board": "triangle5", "start": "1", "goal": "any"})))
    assert small["result"]["solutions"] == 29760  # safe ints stay numbers


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
def test_the_page_formatter_keeps_every_digit():
    script = ("import('./static/numbers.mjs').then(({formatCount: f}) => console.log(JSON.stringify("
              "[f('40861647040079968'), f(40861647040079968n), f(1234), f(-1234567), f(null), f(2.5), f('n/a')])))")
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, cwd=ROOT,
                         check=True)
    assert json.loads(out.stdout) == ["40,861,647,040,079,968", "40,861,647,040,079,968", "1,234", "-1,234,567",
                                      "-", "2.5", "n/a"]
