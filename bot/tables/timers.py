"""One scheduler for every deadline of every table: turn timers, bot pauses, refreshes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable

from bot.tables.clock import Clock

log = logging.getLogger(__name__)

# Wall-clock seconds a stop waits for work already on its way to Discord (one call takes tens
# to hundreds of milliseconds), but not for a call waiting out a 429.
STOP_PATIENCE = 2.0

Callback = Callable[[], Awaitable[None]]


class Scheduler:
    """Runs callbacks at clock deadlines; re-arming a key replaces its previous deadline.

    A callback that is already running is never cancelled by a re-arm of its own key, so
    a timer handler may safely re-arm the next timer of the same kind.
    """

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._tasks: dict[Hashable, asyncio.Task[None]] = {}
        self._deadlines: dict[Hashable, float] = {}
        self._running: set[asyncio.Task[None]] = set()
        self.closed = False

    def at(self, key: Hashable, when: float, callback: Callback) -> None:
        """Run ``callback`` at ``when``; ignored once the scheduler is closed (shutdown)."""
        self.cancel(key)
        if self.closed:
            return
        task = asyncio.get_running_loop().create_task(self._run(key, when, callback))
        self._tasks[key] = task
        self._deadlines[key] = when

    def after(self, key: Hashable, seconds: float, callback: Callback) -> None:
        self.at(key, self.clock.now() + seconds, callback)

    def cancel(self, key: Hashable) -> None:
        task = self._tasks.pop(key, None)
        self._deadlines.pop(key, None)
        if task is not None and task not in self._running:
            task.cancel()

    def cancel_where(self, predicate: Callable[[Hashable], bool]) -> None:
        for key in [k for k in self._tasks if predicate(k)]:
            self.cancel(key)

    def deadline(self, key: Hashable) -> float | None:
        return self._deadlines.get(key)

    def pending(self) -> list[Hashable]:
        return list(self._tasks)

    async def _run(self, key: Hashable, when: float, callback: Callback) -> None:
        await self.clock.sleep_until(when)
        task = asyncio.current_task()
        assert task is not None
        if self._tasks.get(key) is task:
            del self._tasks[key]
            del self._deadlines[key]
        self._running.add(task)
        try:
            await callback()
        except Exception:
            log.exception("timer %r failed", key)
        finally:
            self._running.discard(task)

    async def close(self, patience: float = STOP_PATIENCE) -> None:
        """Cancel the timers still waiting and wait up to `patience` wall-clock seconds for
        the callbacks already running.

        A running callback is a refresh on its way to Discord or a bot's move: returning
        before it ends let it call Discord after the bot had closed its HTTP session (issue 8,
        « Session is closed » at the end of every load benchmark run with latency)."""
        self.closed = True
        tasks = list(self._tasks.values())
        self._tasks.clear()
        self._deadlines.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        running = [task for task in self._running if task is not asyncio.current_task()]
        if running:
            await asyncio.wait(running, timeout=patience)
