"""Requests that time out in the bot's own HTTP client, injected (`FakeDiscord.inject_timeout`).

A timeout is the client's: aiohttp raises `TimeoutError` (`ServerTimeoutError` among them)
when an answer does not come within its `ClientTimeout`, on the wall clock; Discord sends
nothing that says so. A fake that only answered late would make a test sleep for real, or
depend on the machine's speed. So the fake raises it in the client, as the request leaves:
through discord.py's `http_trace` (an aiohttp `TraceConfig` its `HTTPClient` hands to its
session), whose `on_request_start` callbacks are awaited before the request is sent and
whose exceptions propagate to the caller. discord.py's `HTTPClient.request` retries an
`OSError` only for connection resets (errno 54, 10054); a `TimeoutError` (an `OSError`
with no errno) reaches the bot as aiohttp's timeout does. The request never reaches the
fake: a timeout tells the sender nothing of whether it was carried out, and this is the
case where it was not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING

import aiohttp

from .calls import CallLog, CallRecord
from .clock import FakeClock
from .rest import API

if TYPE_CHECKING:
    import discord


@dataclass
class Timeout:
    """The next ``times`` calls to ``route`` (a template) time out; ``method`` None: any."""

    method: str | None
    route: str
    times: int

    def matches(self, method: str, path: str) -> bool:
        pattern = re.sub(r"\{[a-z_]+\}", "[^/]+", re.escape(self.route).replace(r"\{", "{")
                         .replace(r"\}", "}"))
        return self.times > 0 and self.method in (None, method) \
            and re.fullmatch(pattern, path) is not None


class Timeouts:
    """The timeouts injected and not yet spent, raised in each client `watch`ed."""

    def __init__(self, log: CallLog, clock: FakeClock, caller: str) -> None:
        self._log = log
        self._clock = clock
        self._caller = caller
        self._pending: list[Timeout] = []

    def add(self, timeout: Timeout) -> None:
        self._pending.append(timeout)

    def watch(self, client: discord.Client) -> None:
        """Time out the client's requests as injected: before its login, which creates the
        session that freezes its trace config."""
        http = client.http
        trace: aiohttp.TraceConfig | None = http.http_trace
        if trace is None:
            trace = http.http_trace = aiohttp.TraceConfig()
        if self._on_request_start not in trace.on_request_start:
            trace.on_request_start.append(self._on_request_start)

    async def _on_request_start(self, session: aiohttp.ClientSession, context: SimpleNamespace,
                                params: aiohttp.TraceRequestStartParams) -> None:
        path = params.url.path.removeprefix(API)
        timeout = next((t for t in self._pending if t.matches(params.method, path)), None)
        if timeout is None:
            return
        timeout.times -= 1
        self._log.add(CallRecord(method=params.method, route=timeout.route, path=path,
                                 time=self._clock.monotonic(), caller=self._caller, status=0,
                                 injected=True, note="timed out"))
        raise TimeoutError(f"{params.method} {path}: timed out (injected)")
