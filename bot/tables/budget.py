"""One bot-wide budget for the REST calls bound by Discord's global rate limit.

"All bots can make up to 50 requests per second to our API [...] independent of any
individual rate limit on a route", while "Interaction endpoints are not bound to the bot's
Global Rate Limit" (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit).
Past ~60 busy tables the table messages alone would exceed it, and discord.py only learns of
the global limit from a 429 (each one counts toward Cloudflare's invalid-request ban). So
every channel call (posts, edits) takes a slot here first, on the bot's injectable clock.

The slots are spaced so that no window of ``window`` seconds holds more than ``limit`` of
them (45 per second, under Discord's 50 whatever window Discord counts in). Unlike a token
bucket of rate r and capacity c, which lets c + r calls through some second (so it must
throttle the sustained rate to stay under 45), this lets a burst of up to 45 calls through
at once, as when a restarted bot posts its restored tables, and still holds 45 in every
second. Slots are handed out in request order, so a busy table cannot starve the others.
"""

from __future__ import annotations

from collections import deque

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
        self._slots: deque[float] = deque(maxlen=limit)  # the latest `limit` slots given
        self.taken = 0  # slots given since start, for metrics and the load benchmark
        self.waited = 0  # of which had to wait for a later second
        self.closed = False

    def free_at(self) -> float:
        """When the next slot would be: now, or once the oldest of the last `limit` slots
        leaves the window (never before the last slot given, so order is kept)."""
        now = self.clock.now()
        if not self._slots or self.closed:
            return now
        when = max(now, self._slots[-1])
        if len(self._slots) == self.limit:
            when = max(when, self._slots[0] + self.window)
        return when

    async def wait_free(self) -> None:
        """Wait until a call could go now, without taking its slot: a refresh waits here
        before it renders, so what it then sends is the latest state, not the state of the
        moment it queued."""
        await self.clock.sleep_until(self.free_at())

    def close(self) -> None:
        """From now on calls go at once: at shutdown the last states must reach Discord
        before the process ends, not wait for a clock that may not move (a test's), and
        discord.py still waits out any 429 this burst earns."""
        self.closed = True

    async def take(self) -> None:
        """Reserve the next slot and wait for it; call right before the REST call."""
        when = self.free_at()
        self._slots.append(when)
        self.taken += 1
        if when > self.clock.now():
            self.waited += 1
            await self.clock.sleep_until(when)
