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
up, and the decisions waiting behind it share that time with it: the service hands a
worker one decision at a time (`Thinker`), and one that starts while others wait searches
only its share (`share`), so that they too answer by their deadlines, on fewer samples,
rather than the first taking its whole budget and the next ones one sample each, late. When
more is asked than the workers can search, the searches shorten instead of the queue
growing: the bots' pace holds and an overloaded host degrades hard's play, never the tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import time
import weakref
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
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
    """One worker per core but one, which the event loop keeps; at least one. The default
    of `SEARCH_WORKERS` (bot/config.py)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


#: The share of the workers' time the timed searches may fill on average: at this load a
#: search asked finds its worker free often enough that the waits do not compound. Above it
#: each search shortens (`share`) instead of the queue growing.
BUSY = 0.75
#: Over how many seconds `Thinker` counts the decisions asked, for their rate.
RATE_WINDOW = 5.0


def share(full: float, left: float, behind: Sequence[float], workers: int,
          asked_per_second: float) -> float:
    """How long a timed search starting now may take: its `full` budget, cut

    - so that it ends by its own deadline (`left`: seconds to it);
    - so that every decision waiting behind it (`behind`: their seconds left, in the order
      they will start) can still search as long before its own deadline: the i-th (from 1)
      starts after about i / `workers` searches of this length (`workers` side by side), so
      it ends after (1 + i / workers) of them. One already past its deadline cannot be
      helped (it samples once, the engine's least) and cuts no one;
    - and so that the decisions asked lately (`asked_per_second`), each searching as long,
      would keep the workers busy `BUSY` of the time, not more: the queue stays short
      whatever the load, where full searches would make it grow.

    Zero: one sample."""
    fits = [later / (1 + i / workers) for i, later in enumerate(behind, 1) if later > 0]
    paced = BUSY * workers / asked_per_second if asked_per_second > 0 else full
    return max(0.0, min(full, left, paced, *fits))


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

    def __init__(self, count: int | None = None) -> None:
        self.count = workers() if count is None else count
        self._pool: ProcessPoolExecutor | None = None
        # Pools already reported dead: every decision in flight on a pool fails with it, and
        # each would otherwise log the same error again (thirty times over a game).
        self._dead: weakref.WeakSet[Executor] = weakref.WeakSet()
        self.fallbacks = 0  # decisions moved to a thread since the last death was logged

    def pool(self) -> Executor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.count,
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
            for _ in range(self.count):
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


class _Waiting:
    """A decision waiting for a worker: its deadline, and the future its turn sets."""

    def __init__(self, deadline: float | None, turn: asyncio.Future[None]) -> None:
        self.deadline = deadline
        self.turn = turn


class Thinker:
    """Where and for how long the table service's bots decide. A search (`searches`: hard's,
    normal's end) runs in the pool of worker processes, or (`in_processes` False: tests,
    which watch and hold a decision) in a worker thread; the others are well under a
    millisecond and are decided in place by the service.

    The service hands the workers one search each (`workers.count` at a time); the others
    wait here, first asked first served, so that the one whose turn comes knows what waits
    behind it and searches its `share` of the time. `clock` must be `time.monotonic`, the
    workers' clock, outside tests."""

    def __init__(self, workers: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        # The hard bot searches for `budget` seconds of real time per decision, or, when
        # `samples` is set (tests), exactly that many sampled deals.
        self.budget = 0.08
        self.samples: int | None = None
        self.in_processes = True
        self.workers = Workers(workers)
        self.clock = clock
        self.running = 0  # decisions asked and not answered: searching or waiting
        self.searching = 0  # of those, decisions a worker has
        self._waiting: deque[_Waiting] = deque()
        self._asked: deque[float] = deque()  # when decisions were asked, `RATE_WINDOW` back
        self.started = 0  # decisions handed to a worker since the start (metrics)
        self.shortened = 0  # of those, timed searches given less than their full budget
        # Called with each decision's wait for a worker, in seconds (bot.metrics).
        self.waited: Callable[[float], None] = _ignore
        # When a list (the load benchmark), each decision taken off the loop appends how
        # long it took from the asking to its answer: its search and its wait for a worker.
        self.took: list[float] | None = None
        # When a list (the load benchmark), each hard search appends how many deals it
        # sampled: what the time it was given bought.
        self.sampled: list[int] | None = None

    @property
    def waiting(self) -> int:
        """Decisions waiting for a worker now (metrics: the queue's depth)."""
        return len(self._waiting)

    async def think(self, bot: Bot, view: PlayerView) -> Action:
        """One decision, its time budget counted from now (if it is timed: hard's, when no
        fixed sample count is set)."""
        timed = isinstance(bot, HardBot) and bot.samples is None
        async with self._turn(timed) as until:
            decision = partial(decide, bot, view, until)
            action, sampled = await self._off_loop(decision, decision)
        if self.sampled is not None and sampled:
            self.sampled.append(sampled)
        return action

    async def advise(self, view: PlayerView) -> tuple[Action, str]:
        """The normal level's decision in this view and its reason (the « Conseil »), where
        it searches (`endsearch.searching`): off the loop, as a bot's search is. Normal's
        search counts samples, not time: no deadline."""
        async with self._turn(timed=False):
            return await self._off_loop(partial(normal.decided, view),
                                        partial(normal.decided, view))

    @contextlib.asynccontextmanager
    async def _turn(self, timed: bool) -> AsyncIterator[float]:
        """Waits for a worker; then yields when the search must end: now plus its `share`
        of its budget if `timed` (the others have no deadline to share). `running` counts
        the decisions from asking to answer: the bot reports them as work outside the event
        loop (`PresidentBot.busy`), which the loop cannot see."""
        self.running += 1
        asked = self.clock()
        deadline = asked + self.budget if timed else None
        self._asked.append(asked)
        while self._asked[0] < asked - RATE_WINDOW:
            self._asked.popleft()
        try:
            if self.searching < self.workers.count and not self._waiting:
                self.searching += 1
            else:
                await self._wait(deadline)
            try:
                yield self._until(asked, deadline)
            finally:
                self.searching -= 1
                self._hand_over()
        finally:
            self.running -= 1
            if self.took is not None:
                self.took.append(self.clock() - asked)

    async def _wait(self, deadline: float | None) -> None:
        """In line until `_hand_over` gives this decision a worker (and counts it in
        `searching`). Cancelled in line, it leaves; cancelled as its turn came, it passes
        the turn on."""
        waiting = _Waiting(deadline, asyncio.get_running_loop().create_future())
        self._waiting.append(waiting)
        try:
            await waiting.turn
        except asyncio.CancelledError:
            if waiting.turn.done() and not waiting.turn.cancelled():
                self.searching -= 1
                self._hand_over()
            else:
                self._waiting.remove(waiting)
            raise

    def _hand_over(self) -> None:
        """A worker is free: the first decision waiting gets it."""
        while self._waiting and self.searching < self.workers.count:
            turn = self._waiting.popleft().turn
            if not turn.done():
                self.searching += 1
                turn.set_result(None)

    def _until(self, asked: float, deadline: float | None) -> float:
        """When the search starting now must end: its `share` of the time."""
        now = self.clock()
        waited = now - asked
        self.started += 1
        self.waited(waited)
        if deadline is None:
            return now
        behind = [w.deadline - now for w in self._waiting if w.deadline is not None]
        given = share(self.budget, self.budget - waited, behind, self.workers.count,
                      len(self._asked) / RATE_WINDOW)
        if given < self.budget:
            self.shortened += 1
        return now + given

    async def _off_loop(self, in_worker: Callable[[], T], in_thread: Callable[[], T]) -> T:
        """`in_worker` in the pool of worker processes (or, `in_processes` False or the pool
        broken, `in_thread` in a thread)."""
        if self.in_processes:
            pool = self.workers.pool()
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, in_worker)
            except BrokenExecutor as err:
                self.workers.discard(pool, err)
        return await asyncio.to_thread(in_thread)


def _ignore(waited: float) -> None:
    """`Thinker.waited` where no metrics watch."""
