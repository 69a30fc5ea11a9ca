"""JSON text of the messages sent on every move, made by orjson (~10x faster than the
standard library on a move message): for strings, integers, booleans, null, lists and dicts
the same text as ``json.dumps(value, separators=(",", ":"), ensure_ascii=False)`` (a float
may be spelled otherwise: ``1e-7``, not ``1e-07``; NaN becomes null). What orjson refuses
(an integer beyond 64 bits, a lone surrogate, a key that is not a string...) gets the
standard library's text, or its error, as before."""

from __future__ import annotations

import json
from typing import Any

import orjson


def json_text(value: Any) -> str:
    try:
        return orjson.dumps(value).decode()
    except (orjson.JSONEncodeError, UnicodeDecodeError):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
