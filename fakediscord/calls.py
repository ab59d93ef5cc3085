"""The log of every REST call the bot made, its refusals, and injected rate limits and
failures."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

# "An invalid request is one that results in 401, 403, or 429 statuses"; Cloudflare bans an
# IP after 10,000 of them per 10 minutes (Invalid Request Limit aka Cloudflare bans,
# https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans).
INVALID_STATUSES = (401, 403, 429)
INVALID_REQUEST_WINDOW = 10 * 60.0


@dataclass(frozen=True)
class CallRecord:
    """One REST request as the fake answered it.

    ``route`` is the template discord.py rate-limits by (``/channels/{channel_id}/messages``)
    so calls per action can be counted per route; ``time`` is on the fake clock, when the
    call arrived (after its ``latency``, see :mod:`fakediscord.latency`); ``user`` is who
    caused it when the call used their interaction's token.
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
    latency: float = 0.0

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
    """A pending 429 for a route, answered ``times`` more times before the route recovers;
    with ``user``, only to calls made with that user's interaction tokens."""

    method: str | None
    route: str
    times: int
    retry_after: float
    is_global: bool
    user: str | None = None
    uploads: bool = False  # only to calls that upload files (a multipart body)

    def matches(self, method: str, route: str, user: str | None, uploads: bool) -> bool:
        return self.route == route and self.method in (None, method) and self.times > 0 \
            and self.user in (None, user) and (uploads or not self.uploads)


@dataclass
class Failure:
    """A pending failure for a route, answered ``times`` more times before it recovers:
    an HTTP error with Discord's JSON error body, or (``status`` None) a connection dropped
    without an answer; either after the call was carried out where ``handled``; with
    ``uploads``, only to calls that upload files."""

    method: str | None
    route: str
    times: int
    status: int | None
    body: dict[str, Any] | None
    uploads: bool = False
    handled: bool = False

    def matches(self, method: str, route: str, uploads: bool) -> bool:
        return self.route == route and self.method in (None, method) and self.times > 0 \
            and (uploads or not self.uploads)


class CallLog:
    """Calls in arrival order; errors a test already expected are not reported again."""

    def __init__(self) -> None:
        self.records: list[CallRecord] = []
        self._expected: set[int] = set()
        self._rate_limits: list[RateLimit] = []
        self._failures: list[Failure] = []

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

    def expect_status(self, status: int) -> CallRecord:
        """Claim one refused call answered ``status`` (a rate limit's 429 has no code)."""
        for index, record in enumerate(self.records):
            if record.failed and record.status == status and index not in self._expected:
                self._expected.add(index)
                return record
        raise AssertionError(f"expected a {status} answer, none is left unclaimed")

    def invalid_requests(self, since: float) -> int:
        """Answers with an invalid status at or after ``since`` (fake clock), injected 429s
        included: Discord counts every 429 but those of the ``shared`` scope, which the fake
        never sends."""
        return sum(1 for r in self.records if r.status in INVALID_STATUSES and r.time >= since)

    def add_rate_limit(self, limit: RateLimit) -> None:
        self._rate_limits.append(limit)

    def take_rate_limit(self, method: str, route: str, user: str | None,
                        uploads: bool = False) -> RateLimit | None:
        for limit in self._rate_limits:
            if limit.matches(method, route, user, uploads):
                limit.times -= 1
                return limit
        return None

    def add_failure(self, failure: Failure) -> None:
        self._failures.append(failure)

    def take_failure(self, method: str, route: str, uploads: bool) -> Failure | None:
        for failure in self._failures:
            if failure.matches(method, route, uploads):
                failure.times -= 1
                return failure
        return None
