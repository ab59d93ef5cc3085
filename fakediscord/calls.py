"""The log of every REST call the bot made, its refusals, and injected rate limits."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CallRecord:
    """One REST request as the fake answered it.

    ``route`` is the template discord.py rate-limits by (``/channels/{channel_id}/messages``)
    so calls per action can be counted per route; ``time`` is on the fake clock; ``user``
    is who caused it when the call used their interaction's token.
    """

    method: str
    route: str
    path: str
    time: float
    caller: str
    status: int
    user: str | None = None
    code: int | None = None
    error: dict[str, Any] | None = None
    injected: bool = False
    note: str | None = None

    @property
    def failed(self) -> bool:
        return self.status >= 400 and not self.injected

    def __str__(self) -> str:
        text = f"{self.method} {self.path} -> {self.status}"
        if self.error is not None:
            text += f" {self.error.get('code')} {self.error.get('message')}"
            if "errors" in self.error:
                text += " " + json.dumps(self.error["errors"])
        if self.note:
            text += f" ({self.note})"
        return text


@dataclass
class RateLimit:
    """A pending 429 for a route, answered ``times`` more times before the route recovers."""

    method: str | None
    route: str
    times: int
    retry_after: float
    is_global: bool


class CallLog:
    """Calls in arrival order; errors a test already expected are not reported again."""

    def __init__(self) -> None:
        self.records: list[CallRecord] = []
        self._expected: set[int] = set()
        self._rate_limits: list[RateLimit] = []

    def add(self, record: CallRecord) -> None:
        self.records.append(record)

    def errors(self) -> list[CallRecord]:
        return [r for i, r in enumerate(self.records) if r.failed and i not in self._expected]

    def expect_error(self, code: int) -> CallRecord:
        for index, record in enumerate(self.records):
            if record.failed and record.code == code and index not in self._expected:
                self._expected.add(index)
                return record
        seen = "\n".join(str(r) for r in self.errors()) or "no errors"
        raise AssertionError(f"expected a Discord error {code}, got:\n{seen}")

    def add_rate_limit(self, limit: RateLimit) -> None:
        self._rate_limits.append(limit)

    def take_rate_limit(self, method: str, route: str) -> RateLimit | None:
        for limit in self._rate_limits:
            if limit.route == route and limit.method in (None, method) and limit.times > 0:
                limit.times -= 1
                return limit
        return None
