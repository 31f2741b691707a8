"""JSON helpers the generated types share (not for bots)."""

import json
from typing import Any

_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)


def encode(value: Any) -> Any:
    """The JSON value of a generated type (its `to_json`), or the value itself."""
    to_json = getattr(value, "to_json", None)
    return value if to_json is None else to_json()


def dumps(value: Any) -> str:
    """The JSON text of a value as serde_json writes it: compact, not ASCII-escaped."""
    return _encoder.encode(encode(value))
