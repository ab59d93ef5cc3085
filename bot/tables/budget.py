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
        # Every waiter parks on one future, resolved when a place may have come free: one
        # timer for the oldest place's window, else (every place held by a running call)
        # the next answer; and by close. A future and a sleep per waiter and wake-up, as a
        # first version of close had, cost a loaded bot its event loop: at 250 tables,
        # hundreds of refreshes wait here, and ack p99 went from 375 ms to 1.5 s.
        self._change: asyncio.Future[None] | None = None
        self._timer: asyncio.Task[None] | None = None
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
            await asyncio.shield(self._next_change())  # a waiter's cancel spares the others

    def _next_change(self) -> asyncio.Future[None]:
        if self._change is None or self._change.done():
            self._change = asyncio.get_running_loop().create_future()
        if self._ended and self._timer is None:
            self._timer = asyncio.ensure_future(self._expire(self._ended[0] + self.window))
        return self._change

    async def _expire(self, when: float) -> None:
        try:
            await self.clock.sleep_until(when)
        finally:
            self._timer = None
        self._changed()

    def _changed(self) -> None:
        if self._change is not None and not self._change.done():
            self._change.set_result(None)

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
            if self._timer is None:  # waiters wait for an answer, not for a window's end
                self._changed()

    def close(self) -> None:
        """The bot is stopping: from now on a call goes only if a place is free, and the
        calls waiting for one are dropped (`BudgetClosed`), so the stop neither waits for
        places nor sends its backlog over Discord's limit."""
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
        self._changed()
