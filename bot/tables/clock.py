"""Time source for every timer of the bot, injectable so tests drive time by hand."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from datetime import datetime
from typing import Protocol, TypeVar

T = TypeVar("T")


class Clock(Protocol):
    def now(self) -> float:
        """Unix time in seconds (also what `<t:unix:R>` countdowns show)."""
        ...

    async def sleep_until(self, when: float) -> None: ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        delay = when - time.time()
        if delay > 0:
            await asyncio.sleep(delay)


class ManualClock:
    """A clock that only moves when `advance` is called; sleepers wake in deadline order."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()
        # Sleepers cancelled before their deadline (a timer re-armed: every move re-arms a
        # table's turn and idle timers) still in the heap. Left there until their deadline,
        # an hour-long idle close's among them, they held their coroutines and closures: one
        # table's long evening grew the heap by some 380 entries a round (play-test 31), and
        # the load bench's memory with it. Past half the heap they are swept out.
        self._cancelled = 0

    def now(self) -> float:
        return self._now

    async def sleep_until(self, when: float) -> None:
        if when <= self.now():
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._seq), future))
        try:
            await future
        finally:
            if future.cancelled():
                self._cancelled += 1
                if self._cancelled * 2 > len(self._sleepers):
                    self._sleepers = [s for s in self._sleepers if not s[2].done()]
                    heapq.heapify(self._sleepers)
                    self._cancelled = 0

    def advance(self, seconds: float) -> None:
        self._now += seconds
        self.wake()

    def wake(self) -> None:
        """Release every sleeper whose deadline has passed."""
        now = self.now()
        while self._sleepers and self._sleepers[0][0] <= now:
            _, _, future = heapq.heappop(self._sleepers)
            if future.cancelled():
                self._cancelled -= 1
            elif not future.done():
                future.set_result(None)


class Source(Protocol):
    """A clock kept by someone else (the fake Discord's): wall time, moved by `advance`."""

    def now(self) -> datetime: ...

    def advance(self, seconds: float) -> None: ...


class FollowingClock(ManualClock):
    """The bot's clock is another's (the fake Discord's): one `advance` moves both, so the
    bot's timers and Discord's deadlines stay on one time line in tests and benchmarks."""

    def __init__(self, source: Source) -> None:
        super().__init__()
        self.source = source

    def now(self) -> float:
        return self.source.now().timestamp()

    def advance(self, seconds: float) -> None:
        self.source.advance(seconds)
        self.wake()


async def done_by(clock: Clock, when: float, task: asyncio.Future[T]) -> bool:
    """Wait for `task` until `when` on `clock`; whether it was done by then. Bounded on
    the bot's clock, not by `asyncio.wait_for`'s real time: what a test shows must not hang
    on how fast a loaded machine answers. A task still running is cancelled (its caller may
    wait until it has stopped)."""
    bound = asyncio.ensure_future(clock.sleep_until(when))
    try:
        await asyncio.wait((task, bound), return_when=asyncio.FIRST_COMPLETED)
    finally:
        bound.cancel()
        late = not task.done()
        if late:
            task.cancel()
    return not late
