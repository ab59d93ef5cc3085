"""Coalesced message edits: bursts of actions cost one edit per interval, never a stale screen.

Discord rate-limits message edits per channel; a table where bots answer within milliseconds
would otherwise queue a dozen edits. The first change after a quiet period is shown at once;
changes during the following `interval` are folded into one trailing edit that renders the
state as it is when it runs, so the latest state is always on screen within `interval`.

A request may be `urgent` (`Coalescer.request`): the screen of the player whose turn it now
is, whom the interval would keep waiting to play (stop 57).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass

from bot.tables.timers import STOP_PATIENCE, Scheduler

log = logging.getLogger(__name__)

Flush = Callable[[], Awaitable[None]]

# drain's passes over the tables: a flush that finds its state changed again runs once more;
# more passes than this mean the tables keep changing during shutdown, which must not hold it.
DRAIN_PASSES = 3


@dataclass
class _State:
    last: float = float("-inf")
    scheduled: bool = False
    running: bool = False
    dirty: bool = False
    done: asyncio.Event | None = None  # set when the running flush ends (drain waits on it)
    urgent: Hashable = None  # the last `urgent` mark run without waiting (`request`)
    hurry: bool = False  # the flush after the running one goes at once


class Coalescer:
    def __init__(self, scheduler: Scheduler, interval: float = 1.0) -> None:
        self.scheduler = scheduler
        self.interval = interval
        self._states: dict[Hashable, _State] = {}
        self._flushes: dict[Hashable, Flush] = {}

    def request(self, key: Hashable, flush: Flush, *, urgent: Hashable = None) -> None:
        """Ask for `flush` to run soon; the most recent `flush` given for `key` is the one run.

        `urgent`, when not None and not the mark of the last urgent run of `key`, runs it at
        once, not after the interval (after the flush running, if one is): a mark per turn
        (the player to act and the game's version) lets a turn through once and keeps the
        interval for every other change. Each urgent run costs at most one call more than
        the interval would have: at eight people a move every half second left the next
        player without their controls for 0.66 s on average, up to 1.1 s, on top of the
        call's own latency (`tests/bot/test_e2e_eight_under_limits.py`)."""
        self._flushes[key] = flush
        state = self._states.setdefault(key, _State())
        hurry = urgent is not None and urgent != state.urgent
        if hurry:
            state.urgent = urgent
        if state.running:
            state.dirty = True
            state.hurry = state.hurry or hurry
            return
        if hurry:
            self._hurry(key, state)
        elif not state.scheduled:
            self._schedule(key, state)

    def _schedule(self, key: Hashable, state: _State) -> None:
        state.scheduled = True
        now = self.scheduler.clock.now()
        when = state.last + self.interval
        if when - now < 1e-3:  # clocks built from datetimes drift by float rounding
            when = now
        self.scheduler.at(("refresh", key), when, lambda: self._run(key))

    def _hurry(self, key: Hashable, state: _State) -> None:
        """Run `key` at once. Its interval keeps its beat (`_run`'s `urgent`): the table's
        hands flush and each hand's lane run on one beat, the lane right after the flush
        that draws for it; a lane moved off it by a turn ran its next time just before the
        flush, with the drawing before, and showed the new state a second late (an
        exchange's hands read « La manche est terminée » two seconds on)."""
        state.hurry = False
        state.scheduled = True
        self.scheduler.at(("refresh", key), self.scheduler.clock.now(),
                          lambda: self._run(key, urgent=True))

    async def _run(self, key: Hashable, *, urgent: bool = False) -> None:
        state = self._states.get(key)
        if state is None:  # forgotten since `drain` listed it (its table closed meanwhile)
            return
        state.scheduled = False
        state.running = True
        state.done = done = asyncio.Event()
        if not urgent:
            state.last = self.scheduler.clock.now()
        try:
            await self._flushes[key]()
        except Exception:
            log.exception("refresh of %r failed", key)
        finally:
            state.running = False
            done.set()
        # A key forgotten meanwhile (its table closed during the flush) is not run again.
        if state.dirty and self._states.get(key) is state:
            state.dirty = False
            if state.hurry:
                self._hurry(key, state)
            else:
                self._schedule(key, state)

    def hurried(self, key: Hashable) -> Hashable:
        """The mark of the last urgent request of `key` (`request`), None before any."""
        state = self._states.get(key)
        return None if state is None else state.urgent

    def idle(self, key: Hashable) -> bool:
        """Whether no flush for `key` is waiting or running: what it shows is the latest."""
        state = self._states.get(key)
        return state is None or not (state.scheduled or state.running or state.dirty)

    async def ran(self, key: Hashable) -> None:
        """Until the flush of `key` running now, if any, has ended (one waiting is not)."""
        state = self._states.get(key)
        if state is not None and state.running and state.done is not None:
            await state.done.wait()

    def forget(self, key: Hashable) -> None:
        self.scheduler.cancel(("refresh", key))
        self._states.pop(key, None)
        self._flushes.pop(key, None)

    def forget_where(self, predicate: Callable[[Hashable], bool]) -> None:
        """Forget every key `predicate` accepts (a closed table's hands, each its own key)."""
        for key in [k for k in self._states if predicate(k)]:
            self.forget(key)

    async def drain(self, patience: float = STOP_PATIENCE) -> None:
        """Run every pending flush now and wait for those already running (used at shutdown
        so the last state reaches Discord before the HTTP session closes).

        A flush that was running when the state changed again is run once more. With Discord's
        latency a flush can take longer than shutdown's first pass; returning while one is
        still in flight closed the session under it (issue 8, « Session is closed »). The wait
        is bounded by `patience`, wall-clock seconds in all: a flush held by a rate limit
        must not hold the shutdown. The flushes that were only waiting run side by side: a
        hand whose token discord.py holds on a 429 must not keep the others' last edits
        from Discord."""
        for _ in range(DRAIN_PASSES):
            running = [state.done for state in self._states.values()
                       if state.running and state.done is not None]
            if running and patience > 0:
                started = time.monotonic()
                waits = [asyncio.ensure_future(done.wait()) for done in running]
                _, late = await asyncio.wait(waits, timeout=patience)
                for wait in late:
                    wait.cancel()
                patience = 0.0 if late else patience - (time.monotonic() - started)
            scheduled = [key for key, state in self._states.items() if state.scheduled]
            for key in scheduled:
                self.scheduler.cancel(("refresh", key))
            await asyncio.gather(*(self._run(key) for key in scheduled))
            if not scheduled and not any(state.running for state in self._states.values()):
                break
        await asyncio.sleep(0)
