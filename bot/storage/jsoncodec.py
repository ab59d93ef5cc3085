"""JSON for every JSON column and for snapshots queued in memory.

The table runtime keeps timer deadlines and hand-token creation times as aware datetimes;
plain `json` would refuse them, and strings would come back as strings. Datetimes are
therefore tagged on the way in (`{"$dt": "<ISO-8601 UTC>"}`) and turned back into aware UTC
datetimes on the way out, so a restored state compares equal to the one that was saved.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

_TAG = "$dt"


def _default(value: object) -> object:
    if isinstance(value, datetime):
        if value.tzinfo is None:
            # A naive datetime would silently shift by the host's offset on another machine.
            raise TypeError("naive datetime in JSON state; use an aware (UTC) datetime")
        return {_TAG: value.astimezone(UTC).isoformat()}
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def _hook(obj: dict[str, Any]) -> Any:
    if len(obj) == 1 and _TAG in obj and isinstance(obj[_TAG], str):
        return datetime.fromisoformat(obj[_TAG]).astimezone(UTC)
    return obj


def dumps(value: Any) -> str:
    """Compact JSON; raises TypeError for anything that would not survive a round trip."""
    return json.dumps(value, default=_default, separators=(",", ":"), allow_nan=False)


def loads(text: str | bytes) -> Any:
    """Inverse of `dumps`, restoring tagged datetimes."""
    return json.loads(text, object_hook=_hook)
