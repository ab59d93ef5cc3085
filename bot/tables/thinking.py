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
up, and a search that starts while others wait in the pool's queue shares that time with
them (`share`): the service counts the searches queued (`Workers.queued`, shared with the
workers), and the worker taking one up reads how many still wait behind it. So that they
too answer by their deadlines, on fewer samples, rather than the first taking its whole
budget and the next ones one sample each, late; the more are asked, the shorter each
search, instead of the queue growing. The bots' pace holds and an overloaded host degrades
hard's play, never the tables. The count lives with the workers, not in the event loop: a worker finishing one
search starts the next at once (a queue held by the loop cost, on a loaded machine, the
loop's lag between any two searches: docs/deploy.md, « Hard bots' queue (stop 56) »).
"""

from __future__ import annotations

import asyncio
import ctypes
import logging
import multiprocessing
import os
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from multiprocessing.process import BaseProcess
from multiprocessing.sharedctypes import Synchronized
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


def share(full: float, left: float, behind: int, workers: int) -> float:
    """How long a timed search starting now may take: its `full` budget, cut so that it ends
    by its own deadline (`left`: seconds to it), and so that the `behind` decisions waiting
    in the queue behind it can still search as long before their deadlines: the last starts
    after about behind / `workers` searches of this length (`workers` side by side) and
    ends after (1 + behind / workers) of them. They were asked after this one: their
    deadlines are no earlier than its own. The deeper the queue, the shorter each search,
    so that the queue drains by the deadlines instead of growing. Zero: one sample, the
    engine's least."""
    return max(0.0, min(full, left / (1 + behind / workers)))


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


#: In a worker process: the pool's count of searches queued (`Workers.queued`), set as the
#: worker starts; None in the bot's own process, where a decision in a thread never queues.
_queued: Synchronized[int] | None = None


def start_worker(queued: Synchronized[int]) -> None:
    """In each worker, as it starts: below the bot's process (`WORKER_NICENESS`), holding
    the pool's count of queued searches, and leaving with the bot's process (`_exit_with`)."""
    global _queued
    os.nice(WORKER_NICENESS)
    _queued = queued
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent,), name="exit-with-parent",
                         daemon=True).start()


def _exit_with(parent: BaseProcess) -> None:
    """In a worker's thread of its own: exit once the bot's process is gone. Killed outright
    (SIGKILL: the OOM killer, a container stopped), that process runs no shutdown, and a
    worker waiting for work would wait for ever, reparented to pid 1: it holds both ends
    of its queue's pipe, so no end of file comes. `join` waits on the parent's sentinel,
    the pipe the parent spawned the worker through, whose end the parent alone holds: no
    polling, no cost meanwhile, portable, and the parent's death is seen even if it came
    before this thread started. (Linux's PR_SET_PDEATHSIG would follow the death of the
    thread that spawned the worker, not of the process.)"""
    parent.join()
    os._exit(1)


def _unqueue_cancelled(queued: Synchronized[int], future: Future[T]) -> None:
    """A search cancelled before a worker took it up leaves the count (a worker's
    `take_turn` would otherwise never come for it)."""
    if future.cancelled():
        with queued.get_lock():
            queued.value -= 1


def take_turn() -> int:
    """In a worker taking a search up: it leaves the queue; how many still wait behind."""
    if _queued is None:
        return 0
    with _queued.get_lock():
        _queued.value -= 1
        return max(0, _queued.value)


class Workers:
    """The table service's pool of worker processes, started at its first decision and shut
    down with the service. "spawn": the bot's process has threads (the database's,
    discord.py's), which a fork would copy mid-state."""

    def __init__(self, count: int | None = None) -> None:
        self.count = workers() if count is None else count
        self._pool: ProcessPoolExecutor | None = None
        # Searches submitted to the pool and not yet taken up by a worker (`take_turn`).
        # Each pool has its own, which it holds (its initializer's argument) for as long as
        # it lives, and a pool shut down lives until its workers are gone (`_retire`).
        self._queued: Synchronized[int] | None = None
        # The pools shut down before the current one, each in the thread that waits for its
        # workers to exit: `close` joins them.
        self._retired: list[threading.Thread] = []
        # Pools already reported dead: every decision in flight on a pool fails with it, and
        # each would otherwise log the same error again (thirty times over a game).
        self._dead: weakref.WeakSet[Executor] = weakref.WeakSet()
        self.fallbacks = 0  # decisions moved to a thread since the last death was logged
        # Set by `close`: a pool started after it (a « Conseil » clicked as the bot stops)
        # would have no one to shut it down, and its workers would outlive their owner.
        self.closed = False

    def pool(self) -> Executor:
        """The live pool, started at the first call; RuntimeError once closed."""
        if self.closed:
            raise RuntimeError("the bot's search workers are closed")
        if self._pool is None:
            spawn = multiprocessing.get_context("spawn")
            self._queued = spawn.Value(ctypes.c_int, 0)
            self._pool = ProcessPoolExecutor(max_workers=self.count, mp_context=spawn,
                                             initializer=start_worker,
                                             initargs=(self._queued,))
        return self._pool

    @property
    def queued(self) -> int:
        """Searches waiting in the pool's queue now (metrics: the queue's depth)."""
        if self._pool is None or self._queued is None:
            return 0
        return max(0, self._queued.value)

    def submit(self, pool: Executor, search: Callable[[], T]) -> Future[T]:
        """`search` in `pool`, counted as queued until a worker takes it up (`take_turn`),
        or until it is cancelled before one does (its table closed, the bot stopping)."""
        queued = self._queued if pool is self._pool else None
        if queued is not None:
            with queued.get_lock():
                queued.value += 1
        future = pool.submit(search)
        if queued is not None:
            future.add_done_callback(partial(_unqueue_cancelled, queued))
        return future

    @property
    def started(self) -> bool:
        return self._pool is not None

    def warm(self) -> None:
        """Start every worker now: a spawn takes about a second, which the first decision
        would otherwise spend out of its 80 ms (it searches for what is left, one sample)."""
        if self.closed:
            return
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
            self._retire(broken)

    def _retire(self, pool: Executor) -> None:
        """Shut `pool` down, its queued searches cancelled, in a thread that waits for its
        workers to exit: the event loop does not wait, and the pool is held until then, and
        with it its count's lock, which a worker still starting has yet to open. Freed
        sooner (the next pool replacing the count), the lock was unlinked under it and the
        worker failed as it unpickled it (FileNotFoundError)."""
        shutdown = partial(pool.shutdown, wait=True, cancel_futures=True)
        retiring = threading.Thread(target=shutdown, name="search-pool-shutdown")
        retiring.start()
        self._retired = [*(t for t in self._retired if t.is_alive()), retiring]

    def close(self) -> None:
        """Stop the workers, and return once every worker of every pool has exited: none
        outlives its owner. Decisions queued are cancelled; those searching finish (within
        their budget; the service has drained the moves it waits for before it closes), and
        a worker still starting starts first (about a second, more on a loaded host), so
        the bot calls this off the event loop. Once closed, the workers start no new pool:
        a decision still asked is taken in a thread (`Thinker._off_loop`)."""
        self.closed = True
        if self._pool is not None:
            self._retire(self._pool)
            self._pool = None
        for retiring in self._retired:
            retiring.join()
        self._retired.clear()


@dataclass(frozen=True)
class Plan:
    """What a worker needs to time a hard search: its `deadline` (time.monotonic, the same
    clock in every process of the machine), its `full` budget, and the pool's size."""

    deadline: float
    full: float
    workers: int


@dataclass(frozen=True)
class Thought:
    """A worker's answer: the action, the deals it sampled (0: not a hard search), the
    budget it was given, and when (time.monotonic) the worker took it up."""

    action: Action
    sampled: int
    budget: float
    started: float


def decide(bot: Bot, view: PlayerView, plan: Plan) -> Thought:
    """In a worker: `bot`'s decision; a timed search gets its `share` of what is left
    before its deadline, given the searches still queued behind it."""
    started = time.monotonic()
    behind = take_turn()
    if isinstance(bot, HardBot) and bot.samples is None:
        bot.budget = share(plan.full, plan.deadline - started, behind, plan.workers)
    action = bot.choose(view)
    return Thought(action, bot.sampled if isinstance(bot, HardBot) else 0,
                   bot.budget if isinstance(bot, HardBot) else 0.0, started)


def advised(view: PlayerView) -> tuple[tuple[Action, str], float]:
    """In a worker: the normal level's decision and its reason (`Thinker.advise`), and
    when the worker took it up."""
    started = time.monotonic()
    take_turn()
    return normal.decided(view), started


class Thinker:
    """Where and for how long the table service's bots decide. A search (`searches`: hard's,
    normal's end) runs in the pool of worker processes, or (`in_processes` False: tests,
    which watch and hold a decision) in a worker thread; the others are well under a
    millisecond and are decided in place by the service. Its times are `time.monotonic`,
    the workers' clock."""

    def __init__(self, workers: int | None = None) -> None:
        # The hard bot searches for `budget` seconds of real time per decision, or, when
        # `samples` is set (tests), exactly that many sampled deals.
        self.budget = 0.08
        self.samples: int | None = None
        self.in_processes = True
        self.workers = Workers(workers)
        self.running = 0  # decisions in workers now, or queued for one
        self.started = 0  # searches a worker took up since the start (metrics)
        self.shortened = 0  # of those, timed searches given less than their full budget
        # Called with each search's wait for a worker, in seconds (bot.metrics).
        self.waited: Callable[[float], None] = _ignore
        # When a list (the load benchmark), each decision taken off the loop appends how
        # long it took from the asking to its answer: its search and its wait for a worker.
        self.took: list[float] | None = None
        # When a list (the load benchmark), each hard search appends how many deals it
        # sampled: what the time it was given bought.
        self.sampled: list[int] | None = None

    async def think(self, bot: Bot, view: PlayerView) -> Action:
        """One decision, its time budget counted from now."""
        asked = time.monotonic()
        plan = Plan(asked + self.budget, self.budget, self.workers.count)
        thought = await self._off_loop(partial(decide, bot, view, plan))
        self._began(asked, thought.started)
        if isinstance(bot, HardBot) and bot.samples is None and thought.budget < self.budget:
            self.shortened += 1
        if self.sampled is not None and thought.sampled:
            self.sampled.append(thought.sampled)
        return thought.action

    async def advise(self, view: PlayerView) -> tuple[Action, str]:
        """The normal level's decision in this view and its reason (the « Conseil »), where
        it searches (`endsearch.searching`): off the loop, as a bot's search is. Normal's
        search counts samples, not time: no deadline."""
        asked = time.monotonic()
        advice, started = await self._off_loop(partial(advised, view))
        self._began(asked, started)
        return advice

    def _began(self, asked: float, started: float) -> None:
        self.started += 1
        self.waited(max(0.0, started - asked))

    async def _off_loop(self, decision: Callable[[], T]) -> T:
        """`decision` in the pool of worker processes (or, `in_processes` False or the pool
        broken or closed, in a thread: the same function, which reads no queue there, `take_turn`). `running` counts those in flight: the bot reports
        them as work outside the event loop (`PresidentBot.busy`), which the loop cannot
        see."""
        self.running += 1
        asked = time.monotonic()
        try:
            if self.in_processes and not self.workers.closed:
                pool = self.workers.pool()
                try:
                    return await asyncio.wrap_future(self.workers.submit(pool, decision))
                except BrokenExecutor as err:
                    self.workers.discard(pool, err)
            return await asyncio.to_thread(decision)
        finally:
            self.running -= 1
            if self.took is not None:
                self.took.append(time.monotonic() - asked)


def _ignore(waited: float) -> None:
    """`Thinker.waited` where no metrics watch."""
