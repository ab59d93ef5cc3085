"""Where a hard bot searches: a pool of worker processes, shared by the whole process.

The hard level is a pure-Python Monte-Carlo search of 80 ms (engine/bots/hard.py). In a
thread it holds the GIL: the interpreter hands the GIL over only every switch interval
(5 ms), and the event loop, which lets go of it at every socket call, waits up to that long
to get it back, each time. One search in a thread cut the loop's round trips on a local
socket sevenfold, four searches 24-fold (docs/deploy.md, « Hard bots under load »); under
the load benchmark at 100 hard tables, ack p99 went from 162 ms to 2.7 s. In another
process the search competes for the CPU only through the OS scheduler, which does not
starve the loop, and at a lower priority (`WORKER_NICENESS`), so that on contended cores the
loop comes first.

A decision's 80 ms count from when the table asked for it, not from when a worker took it
up: when more decisions are asked than the workers can search, the late ones search for
what is left of their time (one sample at least) instead of queueing ever longer, so the
bots' pace holds and an overloaded host degrades hard's play, never the tables.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
import weakref
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from functools import partial
from typing import TypeVar

from engine.actions import Action
from engine.bots import Bot, endsearch, normal
from engine.bots.hard import HardBot
from engine.rules import Rules
from engine.view import PlayerView

log = logging.getLogger(__name__)

T = TypeVar("T")

def workers() -> int:
    """One worker per core but one, which the event loop keeps; at least one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


def searches(bot: Bot, view: PlayerView) -> bool:
    """Whether this decision is a search, decided in a worker: every hard one, and the
    normal level's at the end of its hand (engine/bots/endsearch.py: 8 sampled deals, a p99
    of tens of ms, which in place would hold the loop as long). The rest are well under a
    millisecond."""
    return bot.level == "hard" or (bot.level == "normal" and endsearch.searching(view))


def may_search(level: str, rules: Rules) -> bool:
    """Whether a bot of this level may search at a table with these rules (its workers
    start with the game)."""
    return level == "hard" or (level == "normal" and endsearch.searches(rules))


#: How much lower than the bot's process the workers run (`os.nice`): where the host's cores
#: are contended, the event loop, which every click and timer waits for, gets the CPU first;
#: a search is timed, so a worker given less CPU samples fewer deals instead of running late.
WORKER_NICENESS = 5


def lower_priority() -> None:
    """In each worker, as it starts: below the bot's process (`WORKER_NICENESS`)."""
    os.nice(WORKER_NICENESS)


class Workers:
    """The table service's pool of worker processes, started at its first decision and shut
    down with the service. "spawn": the bot's process has threads (the database's,
    discord.py's), which a fork would copy mid-state."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        # Pools already reported dead: every decision in flight on a pool fails with it, and
        # each would otherwise log the same error again (thirty times over a game).
        self._dead: weakref.WeakSet[Executor] = weakref.WeakSet()
        self.fallbacks = 0  # decisions moved to a thread since the last death was logged

    def pool(self) -> Executor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=workers(),
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=lower_priority)
        return self._pool

    @property
    def started(self) -> bool:
        return self._pool is not None

    def warm(self) -> None:
        """Start every worker now: a spawn takes about a second, which the first decision
        would otherwise spend out of its 80 ms (it searches for what is left, one sample)."""
        pool = self.pool()
        try:
            for _ in range(workers()):
                pool.submit(int)
        except BrokenExecutor as err:  # the first decision will fall back to a thread
            self.discard(pool, err)

    def discard(self, broken: Executor, err: BrokenExecutor) -> None:
        """A worker died: the next decision starts a new pool. The death is logged as an
        error once per pool; the other decisions it fails (those in flight with it, or a
        pool that keeps failing) each add a debug line."""
        if self._pool is broken:
            self._pool = None
        if broken in self._dead:
            self.fallbacks += 1
            log.debug("a bot's worker pool is broken: deciding in a thread (%d since it died)",
                      self.fallbacks)
        else:
            self._dead.add(broken)
            self.fallbacks = 0
            log.error("a bot's worker process died: deciding in a thread", exc_info=err)
        broken.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers; decisions still searching are abandoned (the service has
        drained the moves it waits for before it closes)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def decide(bot: Bot, view: PlayerView, deadline: float) -> tuple[Action, int]:
    """In a worker: `bot`'s decision, a timed search ending at `deadline` (time.monotonic,
    the same clock in every process of the machine) rather than a full budget from now, and
    how many deals it sampled (0: not a hard search)."""
    if not isinstance(bot, HardBot):
        return bot.choose(view), 0
    if bot.samples is None:
        bot.budget = max(0.0, deadline - time.monotonic())
    return bot.choose(view), bot.sampled


class Thinker:
    """Where and for how long the table service's bots decide. A search (`searches`: hard's,
    normal's end) runs in the pool of worker processes, or (`in_processes` False: tests,
    which watch and hold a decision) in a worker thread; the others are well under a
    millisecond and are decided in place by the service."""

    def __init__(self) -> None:
        # The hard bot searches for `budget` seconds of real time per decision, or, when
        # `samples` is set (tests), exactly that many sampled deals.
        self.budget = 0.08
        self.samples: int | None = None
        self.in_processes = True
        self.workers = Workers()
        self.running = 0  # decisions in workers now
        # When a list (the load benchmark), each decision taken off the loop appends how
        # long it took from the asking to its answer: its search and its wait for a worker.
        self.took: list[float] | None = None
        # When a list (the load benchmark), each hard search appends how many deals it
        # sampled: what the time it was given bought.
        self.sampled: list[int] | None = None

    async def think(self, bot: Bot, view: PlayerView) -> Action:
        """One decision, its time budget counted from now."""
        deadline = time.monotonic() + self.budget
        decision = partial(decide, bot, view, deadline)
        action, sampled = await self._off_loop(decision, decision)
        if self.sampled is not None and sampled:
            self.sampled.append(sampled)
        return action

    async def advise(self, view: PlayerView) -> tuple[Action, str]:
        """The normal level's decision in this view and its reason (the « Conseil »), where
        it searches (`endsearch.searching`): off the loop, as a bot's search is. Normal's
        search counts samples, not time: no deadline."""
        return await self._off_loop(partial(normal.decided, view), partial(normal.decided, view))

    async def _off_loop(self, in_worker: Callable[[], T], in_thread: Callable[[], T]) -> T:
        """`in_worker` in the pool of worker processes (or, `in_processes` False or the pool
        broken, `in_thread` in a thread). `running` counts those in flight: the bot reports
        them as work outside the event loop (`PresidentBot.busy`), which the loop cannot
        see."""
        self.running += 1
        asked = time.monotonic()
        try:
            if self.in_processes:
                pool = self.workers.pool()
                try:
                    return await asyncio.get_running_loop().run_in_executor(pool, in_worker)
                except BrokenExecutor as err:
                    self.workers.discard(pool, err)
            return await asyncio.to_thread(in_thread)
        finally:
            self.running -= 1
            if self.took is not None:
                self.took.append(time.monotonic() - asked)
