"""One bot-wide budget for the REST calls bound by Discord's global rate limit.

"All bots can make up to 50 requests per second to our API [...] independent of any
individual rate limit on a route", while "Interaction endpoints are not bound to the bot's
Global Rate Limit" (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit).
Past ~60 busy tables the table messages alone would exceed it, and discord.py only learns of
the global limit from a 429 (each one counts toward Cloudflare's invalid-request ban). So
every channel call (posts, edits) holds a place here while it runs, on the bot's clock.

A call holds its place from the moment it is allowed until one `window` after its answer
came back. Discord counts a request when it arrives, which is somewhere in between, so no
`window` of arrivals can hold more than `limit` calls, however late the event loop or the
network delivers them (counting from the moment a call is allowed is not enough: under load
the calls allowed at the end of one second arrive in the next, beside that second's own).
A burst of up to `limit` calls goes at once, as when a restarted bot posts its restored
tables; past it, calls wait for the oldest places to come free.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator

from bot.tables.clock import Clock

GLOBAL_LIMIT = 45
GLOBAL_WINDOW = 1.0


class CallBudget:
    def __init__(self, clock: Clock, limit: int = GLOBAL_LIMIT,
                 window: float = GLOBAL_WINDOW) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("a budget needs at least one call per positive window")
        self.clock = clock
        self.limit = limit
        self.window = window
        self._running = 0
        self._ended: deque[float] = deque()  # answers of the last `window`, oldest first
        self._answered = asyncio.Event()  # set when a running call's answer arrives
        self.taken = 0  # calls allowed since start, for metrics and the load benchmark
        self.waited = 0  # times a refresh or a call had to wait for a place
        self.closed = False

    def _held(self) -> int:
        horizon = self.clock.now() - self.window
        while self._ended and self._ended[0] <= horizon:
            self._ended.popleft()
        return self._running + len(self._ended)

    async def wait_free(self) -> None:
        """Wait until a call could go now, without taking its place: a refresh waits here
        before it renders, so what it then sends is the latest state, not the state of the
        moment it queued."""
        if not self.closed and self._held() >= self.limit:
            self.waited += 1
        while not self.closed and self._held() >= self.limit:
            if self._ended:
                await self.clock.sleep_until(self._ended[0] + self.window)
            else:  # every place is held by a call still running
                self._answered.clear()
                await self._answered.wait()

    @contextlib.asynccontextmanager
    async def call(self) -> AsyncIterator[None]:
        """Hold a place around one REST call (``async with budget.call(): await ...``)."""
        await self.wait_free()
        self.taken += 1
        self._running += 1
        try:
            yield
        finally:
            self._running -= 1
            self._ended.append(self.clock.now())
            self._answered.set()

    def close(self) -> None:
        """From now on calls go at once: at shutdown the last states must reach Discord
        before the process ends, not wait for a clock that may not move (a test's), and
        discord.py still waits out any 429 this burst earns."""
        self.closed = True
        self._answered.set()
