"""The web API answers every malformed request with a clear error naming the field, never
"internal error", an OverflowError or a hang (pyapp.fields)."""

from __future__ import annotations

import json

import pytest

from pyapp import webapi

NOT_OBJECTS = ["[]", "[1, 2]", "5", '"english"', "true", "Infinity"]


def one_shot(fn: str, raw: str) -> dict:
    out = json.loads(webapi.call(fn, raw))
    assert set(out) in ({"ok"}, {"error"}), out
    return out


def streaming(fn: str, raw: str) -> dict:
    job = webapi.start(fn, raw)
    out = json.loads(job.step())
    assert out["done"], "a bad request must end at the first step"
    return out


@pytest.mark.parametrize("raw", NOT_OBJECTS)
@pytest.mark.parametrize("fn", sorted(set(webapi.ONE_SHOT) - {"boards", "warm"}))
def test_arguments_that_are_not_an_object_are_refused_by_name(fn, raw):
    out = one_shot(fn, raw)
    assert "internal error" not in out["error"]
    assert "must be an object" in out["error"], out


@pytest.mark.parametrize("raw", NOT_OBJECTS)
@pytest.mark.parametrize("fn", sorted(webapi.STREAMING))
def test_long_requests_refuse_non_objects_too(fn, raw):
    out = streaming(fn, raw)
    assert "must be an object" in out["error"], out


@pytest.mark.parametrize("fn, args, field", [
    ("solve", '{"seed": Infinity}', "'seed'"),
    ("solve", '{"seed": NaN}', "'seed'"),
    ("solve", '{"seed": 1.5}', "'seed'"),
    ("solve", '{"seed": "7"}', "'seed'"),
    ("solve", '{"seed": 1e400}', "'seed'"),
    ("solve", '{"max_seconds": Infinity}', "'max_seconds'"),
    ("solve", '{"max_seconds": -1}', "'max_seconds'"),
    ("solve", '{"max_seconds": "10"}', "'max_seconds'"),
    ("solve", '{"max_seconds": [1]}', "'max_seconds'"),
    ("bench", '{"repeat": Infinity}', "'repeat'"),
    ("bench", '{"repeat": 0}', "'repeat'"),
    ("bench", '{"quick": "yes"}', "'quick'"),
    ("bench", '{"only": "sprint"}', "'only'"),
])
def test_streaming_fields_are_checked_by_name(fn, args, field):
    out = streaming(fn, args)
    assert field in out["error"] and "internal error" not in out["error"], out


@pytest.mark.parametrize("fn, args, field", [
    ("state", {"board": 5}, "'board'"),
    ("state", {"board": ["english"]}, "'board'"),
    ("state", {"position": {"a": 1}}, "'position'"),
    ("state", {"start": 4}, "'start'"),
    ("state", {"goal": []}, "'goal'"),
    ("state", {"moves": 5}, "'moves'"),
    ("state", {"moves": [1, 2]}, "'moves'"),
    ("apply", {"move": 5}, "'move'"),
    ("hint", {"max_seconds": float("inf")}, "'max_seconds'"),
    ("finishes", {"max_seconds": "soon"}, "'max_seconds'"),
    ("custom_board", {"cells": {"0": 1}}, "'cells'"),
    ("custom_board", {"cells": [[0, 0, 1], [0, 1, 1], [True, 2, 1]]}, "editor cell"),
    ("custom_board", {"cells": [[0, 0, 1], [0, 1.5, 1], [0, 2, 1]]}, "editor cell"),
    ("custom_board", {"cells": [[0, 0, 1], [0, 1, 1], [0, 2, 1]], "lattice": "hex"}, "'lattice'"),
    ("custom_board", {"cells": [[0, 0, 1], [0, 1, 1], [0, 2, 1]], "lattice": 3}, "'lattice'"),
])
def test_one_shot_fields_are_checked_by_name(fn, args, field):
    raw = json.dumps(args, allow_nan=True)
    out = one_shot(fn, raw)
    assert field in out["error"] and "internal error" not in out["error"], out


def test_good_requests_still_work():
    assert "ok" in one_shot("state", json.dumps({"board": "english", "moves": "d2-d4, b3-d3"}))
    assert "ok" in one_shot("custom_board", json.dumps({"cells": [[0, 0, 1], [0, 1, 1], [0, 2, 0]]}))
    job = webapi.start("solve", json.dumps({"board": "triangle5", "start": "1", "seed": 3.0, "max_seconds": 30}))
    while True:
        out = json.loads(job.step())
        if out["done"]:
            break
    assert out["result"]["status"] == "solved"
