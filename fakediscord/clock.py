"""The fake's sense of time, moved by tests instead of by the wall clock."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from datetime import UTC, datetime, timedelta

DEFAULT_START = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)


class FakeClock:
    """Time as the fake judges it.

    Discord's deadlines (3 s to acknowledge, 15 min per interaction token) are judged on
    this clock so tests can cross them with :meth:`advance` instead of sleeping. It never
    moves by itself: a test that does not advance it runs at "zero latency".

    The fake's own waits (the modelled network latency, :mod:`fakediscord.latency`) sleep on
    it with :meth:`sleep`: a sleeper wakes when :meth:`advance` reaches its deadline, and
    :meth:`next_wake` tells ``FakeDiscord.settle`` where to jump when nothing else can run.
    A subclass that follows the wall clock sleeps for real instead.
    """

    def __init__(self, start: datetime = DEFAULT_START) -> None:
        if start.tzinfo is None:
            raise ValueError("start must be timezone-aware, Discord timestamps are UTC")
        self._start = start
        self._elapsed = 0.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def monotonic(self) -> float:
        """Seconds since the clock was created; deadlines are differences of this."""
        return self._elapsed

    def now(self) -> datetime:
        """Wall time for snowflakes and message timestamps."""
        return self._start + timedelta(seconds=self._elapsed)

    def advance(self, seconds: float) -> None:
        """Move time forward, e.g. past the 3-second acknowledgement deadline."""
        if seconds < 0:
            raise ValueError("time only moves forward")
        self._elapsed += seconds
        self._wake()

    def advance_to(self, when: float) -> None:
        """Move time forward to ``when`` (on :meth:`monotonic`) exactly, if it is ahead."""
        self._elapsed = max(self._elapsed, when)
        self._wake()

    async def sleep(self, seconds: float) -> None:
        """Return once the clock has moved ``seconds`` forward (never on its own)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        deadline = self.monotonic() + seconds
        heapq.heappush(self._sleepers, (deadline, next(self._order), future))
        await future

    def next_wake(self) -> float | None:
        """The earliest deadline (on :meth:`monotonic`) a sleeper waits for, or None."""
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)  # cancelled or released
        return self._sleepers[0][0] if self._sleepers else None

    def release(self) -> None:
        """Wake every sleeper now without moving time (the fake is shutting down)."""
        while self._sleepers:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)

    def _wake(self) -> None:
        now = self.monotonic()
        while self._sleepers and self._sleepers[0][0] <= now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)


class WallClock(FakeClock):
    """The fake's clock following the wall clock, from the real time now: for a run that
    measures real time, or a person playing. Its waits are real ones. It starts at the real
    date because the bot it serves reads the real time too: on another date, every message
    the fake mints would look hours old to the bot (its ids carry their time), which then
    reposts its table message at every move as it does near Discord's one-hour edit limit."""

    def __init__(self) -> None:
        super().__init__(datetime.now(UTC))
        self._origin = time.monotonic()

    def monotonic(self) -> float:
        return time.monotonic() - self._origin

    def now(self) -> datetime:
        return self._start + timedelta(seconds=self.monotonic())

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
