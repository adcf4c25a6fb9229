"""Reading the fields of a web-API request, each check naming the field it refuses.

The worker hands :mod:`pyapp.web.api` JSON it did not write itself (a share link, a page
script, a fuzzer): any field may be missing, of the wrong type, huge or not finite
(Python's ``json`` reads ``Infinity`` and ``NaN``).  These helpers turn each such case into
a :class:`~pyapp.core.errors.PegError` whose message names the field and says what was expected,
so no request ever ends in an ``OverflowError`` or an "internal error".

>>> number({"max_seconds": 2}, "max_seconds", 10.0)
2.0
>>> integer({"seed": float("inf")}, "seed", None)
Traceback (most recent call last):
...
pyapp.core.errors.PegError: 'seed' must be a whole number, got inf
"""

from __future__ import annotations

import math
from typing import Any

from .errors import PegError
from .limits import MAX_SECONDS, check_text

MAX_INT = 2**63 - 1
"""The largest whole number a field may hold (seeds, repeats): beyond it a value is a mistake."""


def request(args: Any, what: str = "request arguments") -> dict:
    """The request's arguments, which must be a JSON object (``None`` reads as ``{}``)."""
    if args is None:
        return {}
    if not isinstance(args, dict):
        raise PegError(f"{what} must be an object like {{\"board\": \"english\"}}, not {kind(args)}")
    return args


def text(args: dict, key: str, limit: int, default: str | None = None) -> str | None:
    """A text field of at most ``limit`` characters; missing, null or empty gives ``default``."""
    value = args.get(key)
    if value is None or value == "":
        return default
    if not isinstance(value, str):
        raise PegError(f"{key!r} must be text, not {kind(value)}")
    return check_text(value, repr(key), limit)


def number(args: dict, key: str, default: float, *, low: float = 0.0, high: float = MAX_SECONDS) -> float:
    """A finite number in ``(low, high]``; missing or null gives ``default``."""
    value = args.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PegError(f"{key!r} must be a number, not {kind(value)}")
    if not math.isfinite(value) or not low < value <= high:
        raise PegError(f"{key!r} must be a finite number above {low:g} and at most {high:g}, got {value!r}")
    return float(value)


def integer(args: dict, key: str, default: int | None, *, low: int = 0, high: int = MAX_INT) -> int | None:
    """A whole number in ``[low, high]`` (``3.0`` counts as 3); missing or null gives ``default``."""
    value = args.get(key)
    if value is None:
        return default
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        shown = repr(value) if isinstance(value, float) else kind(value)
        raise PegError(f"{key!r} must be a whole number, got {shown}")
    if not low <= value <= high:
        raise PegError(f"{key!r} must be between {low} and {high}, got {value}")
    return value


def flag(args: dict, key: str, default: bool) -> bool:
    """A true/false field; missing or null gives ``default``."""
    value = args.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise PegError(f"{key!r} must be true or false, not {kind(value)}")
    return value


def text_list(args: dict, key: str, *, limit: int = 100, item_chars: int = 100) -> list[str] | None:
    """A list of short texts (names); missing or null gives None."""
    value = args.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PegError(f"{key!r} must be a list of names, not {kind(value)}")
    if len(value) > limit:
        raise PegError(f"{key!r} lists {len(value)} names, at most {limit}")
    return [check_text(v, f"a name in {key!r}", item_chars) for v in value]


def kind(value: Any) -> str:
    """How a JSON value is called in messages: 'a list', 'a number', 'text', ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
