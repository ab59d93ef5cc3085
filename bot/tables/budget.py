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

When the bot stops (`close`), the limit still holds: a call goes if a place is free, and one
that would have to wait, or was waiting, is dropped (`BudgetClosed`) rather than sent later
or sent over the limit. The stop must not wait for places (the patience of a stop is short,
and a test's clock may not move), and a dropped refresh costs nothing lasting: the restart
posts every restored table afresh. Letting every waiting call go at once instead, as the
budget first did, sent a loaded bot's whole backlog in one burst: at 250 tables, 650-670
global 429s per stop and 64-65 table messages never posted after discord.py's retries
(docs/deploy.md, issue 8).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator

from bot.tables.clock import Clock

GLOBAL_LIMIT = 45
GLOBAL_WINDOW = 1.0


class BudgetClosed(Exception):
    """The bot is stopping and no place is free now: the call is dropped, not sent."""


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
        self._closing = asyncio.Event()  # set by close: wakes the calls waiting for a place
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
        moment it queued. Once closed, raise `BudgetClosed` instead of waiting."""
        if self._held() >= self.limit:
            self.waited += 1
        while self._held() >= self.limit:
            if self.closed:
                raise BudgetClosed
            if self._ended:
                await self._sleep_until(self._ended[0] + self.window)
            else:  # every place is held by a call still running
                self._answered.clear()
                await self._answered.wait()

    async def _sleep_until(self, when: float) -> None:
        """The clock's sleep, cut short by `close`."""
        sleep = asyncio.ensure_future(self.clock.sleep_until(when))
        closing = asyncio.ensure_future(self._closing.wait())
        try:
            await asyncio.wait((sleep, closing), return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleep.cancel()
            closing.cancel()

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
        """The bot is stopping: from now on a call goes only if a place is free, and the
        calls waiting for one are dropped (`BudgetClosed`), so the stop neither waits for
        places nor sends its backlog over Discord's limit."""
        self.closed = True
        self._answered.set()
        self._closing.set()
