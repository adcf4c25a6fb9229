"""The one JSON encoding of every reply that crosses to JavaScript.

JavaScript's ``JSON.parse`` reads every number as a double, exact only up to ``2**53 - 1``: the English
central game's 40,861,647,040,079,968 solutions would arrive as ...079,970.  So every int beyond that
range travels as its decimal string (the page formats strings and numbers alike, exactly, in
``static/numbers.mjs``); smaller ints stay numbers, so nothing else in the protocol changes.

>>> dumps({"solutions": 40861647040079968, "positions": 9568755, "levels": [[2**53, -2**60]]})
'{"solutions": "40861647040079968", "positions": 9568755, "levels": [["9007199254740992", "-1152921504606846976"]]}'
"""

from __future__ import annotations

import json
from typing import Any

SAFE_INTEGER = 2**53 - 1
"""JavaScript's ``Number.MAX_SAFE_INTEGER``: the largest int a double holds with every smaller one."""


_LEAVES = (str, float, bool, type(None))


def exact(value: Any) -> Any:
    """``value`` with every int outside JavaScript's safe range turned into its decimal string.  A reply is
    mostly strings (moves, hole names), so the exact built-in types are told apart first by ``type``; their
    subclasses (an ``IntEnum``, a ``bool``) go through the ``isinstance`` checks below."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is int:
        return str(value) if abs(value) > SAFE_INTEGER else value
    if kind is list:
        return [exact(v) for v in value]
    if kind is dict:
        return {k: exact(v) for k, v in value.items()}
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value) if abs(value) > SAFE_INTEGER else value
    if isinstance(value, dict):
        return {k: exact(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [exact(v) for v in value]
    return value


def dumps(value: Any) -> str:
    """The JSON text of a reply, big ints exact (see the module docstring)."""
    return json.dumps(exact(value), default=str)
