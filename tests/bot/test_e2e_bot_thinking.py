"""A hard bot's decision runs in a worker (issue 12, « In the bot »): the event loop, the
table's timers and other tables go on while it searches. The bot's workers are processes
(bot/tables/thinking.py: a search in a thread holds the GIL); most tests here use a thread
(`Thinker.in_processes` False), where they can watch and hold a decision. Decisions use a
fixed number of samples here, so nothing depends on the machine's speed."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import BrokenExecutor, Executor, Future
from types import SimpleNamespace
from typing import Any

import pytest

from bot.client import PresidentBot
from bot.tables import thinking
from bot.tables.table import Table
from bot.tables.thinking import Plan
from engine import Game, Phase, Rules
from engine.actions import Action
from engine.bots import make_bot
from engine.bots.hard import HardBot
from engine.view import PlayerView, player_view
from fakediscord import FakeDiscord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import cid, let_timers_play, message, table_of, tick

SAMPLES = 3


@pytest.fixture
def threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The name of the thread each hard decision ran in."""
    seen: list[str] = []
    choose = HardBot.choose

    def recording(self: HardBot, view: PlayerView) -> Action:
        seen.append(threading.current_thread().name)
        return choose(self, view)

    monkeypatch.setattr(HardBot, "choose", recording)
    yield seen


async def a_game_against_hard_bots(fake: FakeDiscord, instant: PresidentBot,
                                   clock: LinkedClock) -> None:
    """marie and three hard bots play a one-round game to its end."""
    marie = fake.add_user("marie", locale="fr")
    await marie.slash("president create", preset="classic")
    table = table_of(instant, marie)
    await instant.service.set_options(table, marie.id, bot_level="hard")
    await instant.service.set_rules(table, marie.id, table.rules.replace(game_end="rounds:1"))
    lobby = message(marie, table.lobby_message_id)
    for _ in range(3):
        await marie.click(lobby, cid(table, "addbot"))
    await marie.click(lobby, cid(table, "start"))
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)


class Counting(Executor):
    """The process pool, counting what is submitted to it."""

    def __init__(self, pool: Executor) -> None:
        self.pool = pool
        self.submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.submitted += 1
        return self.pool.submit(fn, *args, **kwargs)


async def test_a_game_against_hard_bots_runs_their_search_in_worker_processes(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, threads: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bot's default: the hard decisions go to the pool of worker processes, and none
    runs in this process (`threads` records those that do)."""
    instant.service.thinker.samples = SAMPLES
    assert instant.service.thinker.in_processes
    counting = Counting(instant.service.thinker.workers.pool())
    monkeypatch.setattr(instant.service.thinker.workers, "pool", lambda: counting)
    await a_game_against_hard_bots(fake, instant, clock)
    # The start warmed the workers up (one no-op each), then the decisions went there.
    assert counting.submitted > thinking.workers(), "no hard decision was made"
    assert threads == [], "a hard decision ran in the bot's own process"
    assert instant.service.thinker.running == 0
    fake.assert_no_errors()


async def test_in_threads_the_search_runs_in_worker_threads(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, threads: list[str]
) -> None:
    instant.service.thinker.samples = SAMPLES
    instant.service.thinker.in_processes = False
    await a_game_against_hard_bots(fake, instant, clock)
    assert threads, "no hard decision was made"
    assert threading.main_thread().name not in threads
    assert not instant.service.thinker.workers.started  # no process was started for nothing
    assert instant.service.thinker.running == 0
    fake.assert_no_errors()


class BrokenPool(Executor):
    """A pool whose worker died: every submission fails."""

    def __init__(self) -> None:
        self.shut = False

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        raise BrokenExecutor("a worker died")

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.shut = True


async def test_when_the_worker_process_dies_the_bots_decide_in_a_thread(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, threads: list[str],
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """One death is one error in the log, however many decisions it sends to a thread:
    the pool here stays broken all game (more than thirty decisions), and each decision
    after the first failure adds only a debug line."""
    caplog.set_level(logging.DEBUG, logger=thinking.__name__)
    instant.service.thinker.samples = SAMPLES
    broken = BrokenPool()
    monkeypatch.setattr(instant.service.thinker.workers, "pool", lambda: broken)
    await a_game_against_hard_bots(fake, instant, clock)
    assert threads and threading.main_thread().name not in threads
    instant.service.thinker.workers.close()  # (a dead pool is shut down in a thread)
    assert broken.shut
    assert [r.getMessage() for r in logged_errors(caplog)] == [
        "a bot's worker process died: deciding in a thread"]
    fallbacks = [r for r in caplog.get_records("call") if r.levelno == logging.DEBUG
                 and r.name == thinking.__name__]
    assert len(fallbacks) == len(threads) >= 30  # every decision fell back, none re-logged
    caplog.clear()  # the error this test provokes, and asserts (conftest's no_logged_errors)
    fake.assert_no_errors()


async def test_each_death_of_a_pool_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    """A new pool started after a death is a new death when it breaks, logged again."""
    thinker = thinking.Thinker()
    thinker.samples = SAMPLES
    first, second = BrokenPool(), BrokenPool()
    pools = iter([first, first, second, second, second])
    thinker.workers.pool = lambda: next(pools)  # type: ignore[method-assign]
    game = Game.new(Rules.preset("classic"), 4, seed=5)
    assert game.to_act is not None
    view = player_view(game, game.to_act)
    for _ in range(5):
        await thinker.think(make_bot("normal", 1), view)
    thinker.workers.close()  # (a dead pool is shut down in a thread)
    assert len(logged_errors(caplog)) == 2 and first.shut and second.shut
    assert thinker.workers.fallbacks == 2  # the second pool's two decisions after its death
    caplog.clear()  # the errors this test provokes, and asserts (conftest's no_logged_errors)


def logged_errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """The errors conftest's `no_logged_errors` would fail the test for."""
    return [r for r in caplog.get_records("call")
            if r.levelno >= logging.ERROR and r.name.startswith("bot")]


def test_a_decision_searches_only_for_what_is_left_of_its_time(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """A decision that waited for a worker past its deadline still decides, on one sample
    (the engine's least), instead of searching a full budget more. The workers' clock is
    held still: how long the machine takes between two lines must not matter."""
    monkeypatch.setattr(thinking, "time", SimpleNamespace(monotonic=lambda: 100.0))
    game = Game.new(Rules.preset("classic"), 4, seed=5)
    assert game.to_act is not None
    view = player_view(game, game.to_act)
    late = make_bot("hard", 1, clock=time.perf_counter)
    assert isinstance(late, HardBot) and late.budget == 0.08
    assert thinking.decide(late, view, Plan(99.0, 0.08, 1)).sampled == 1
    assert late.budget == 0.0
    on_time = make_bot("hard", 1, clock=time.perf_counter)
    assert isinstance(on_time, HardBot)
    thinking.decide(on_time, view, Plan(100.05, 0.08, 1))
    assert on_time.budget == pytest.approx(0.05)
    fixed = make_bot("hard", 1, samples=2)
    assert isinstance(fixed, HardBot)
    assert thinking.decide(fixed, view, Plan(99.0, 0.08, 1)).sampled == 2
    assert fixed.budget == 0.08  # a fixed sample count is not timed


async def a_bot_thinking(fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
                         monkeypatch: pytest.MonkeyPatch) -> tuple[Table, threading.Event]:
    """alice and three hard bots; a bot's search has started and waits, in its thread, for
    the returned event."""
    service = president.service
    service.thinker.samples = SAMPLES
    service.thinker.in_processes = False  # a thread, which the test holds
    release = threading.Event()
    choose = HardBot.choose

    def slow(self: HardBot, view: PlayerView) -> Action:
        release.wait(timeout=60)  # bounds a failing run only; the test releases it
        return choose(self, view)

    monkeypatch.setattr(HardBot, "choose", slow)
    alice = fake.add_user("alice")
    await alice.slash("president create", preset="classic")
    table = table_of(president, alice)
    await service.set_options(table, alice.id, bot_level="hard")
    lobby = message(alice, table.lobby_message_id)
    for _ in range(3):
        await alice.click(lobby, cid(table, "addbot"))
    await alice.click(lobby, cid(table, "start"))
    game = table.game
    assert game is not None
    mine = table.seat_of(alice.id)
    assert mine is not None
    while game.to_act == mine:  # let a bot have the turn
        option = game.legal_plays(mine)[0]
        await service.moves.play(table, alice.id, option.cards, option.announce, game.version)
    await fake.settle()
    bot_seat = game.to_act
    assert bot_seat is not None and table.seats[bot_seat].level == "hard"

    clock.advance(1.0)  # the bot's pause: its search starts, and blocks in its thread
    for _ in range(1000):
        if service.thinker.running:
            break
        await asyncio.sleep(0)
    assert service.thinker.running == 1 and president.busy
    return table, release


async def test_timers_and_other_tables_go_on_while_a_hard_bot_thinks(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    service = president.service
    table, release = await a_bot_thinking(fake, president, clock, monkeypatch)
    game = table.game
    assert game is not None
    bot_seat = game.to_act
    assert bot_seat is not None
    alice = next(p.user_id for p in table.seats if p.user_id is not None)
    mine = table.seat_of(alice)

    # The loop still serves other tables...
    other = await service.create(fake.add_channel(fake.guild, "second").id, fake.guild.id,
                                 alice, "alice", "en", post=False)
    await service.add_bot(other, alice, "easy")
    assert [p.level for p in other.seats if p.is_bot] == ["easy"]
    # ...and this table's turn timer: it runs out and plays for the thinking bot.
    version = game.version
    assert table.timer_deadline is not None
    clock.advance(table.timer_deadline - clock.now())
    for _ in range(1000):
        if game.version != version:
            break
        await asyncio.sleep(0)
    assert game.version > version and game.timeouts[bot_seat] == 1
    moved = game.version

    release.set()
    await fake.settle()  # waits for the thread: the bot reports it as busy
    assert service.thinker.running == 0 and not president.busy
    assert game.version == moved  # the search's answer was for a state that has gone
    if game.to_act != mine:  # the deal is random: a bot may be next, or alice
        await tick(fake, clock, 1.0)
        assert game.version > moved  # the next bot plays on
    fake.assert_no_errors()


async def test_a_shutdown_waits_for_the_move_being_thought(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`drain` (called before the snapshot writer closes) returns only once the move in
    flight is applied: it is stored like any other, not lost nor logged as a failure."""
    table, release = await a_bot_thinking(fake, president, clock, monkeypatch)
    game = table.game
    assert game is not None
    version = game.version
    drained = asyncio.ensure_future(president.service.drain())
    for _ in range(100):
        await asyncio.sleep(0)
    assert not drained.done()
    release.set()
    await drained
    assert game.version > version and president.service.thinker.running == 0
    await fake.settle()
    fake.assert_no_errors()


def test_the_service_s_workers_start_on_demand_and_close_with_it() -> None:
    workers = thinking.Workers()
    assert not workers.started
    first = workers.pool()
    assert fresh(workers).started
    assert workers.pool() is first  # one pool while it lives
    workers.close()
    assert not workers.started
    with pytest.raises(RuntimeError):  # shut down: it takes no more work
        first.submit(print)
    with pytest.raises(RuntimeError):  # and no new pool that nothing would shut down
        workers.pool()
    workers.warm()  # (a table starting as the bot stops: nothing)
    assert not workers.started
    workers.close()


async def test_a_decision_asked_once_the_workers_closed_is_taken_in_a_thread() -> None:
    """A « Conseil » clicked as the bot stops asked for a decision after `close`: it
    started a new pool of workers that nothing shut down, alive until the bot's process
    ended (and in tests, failing the session's check for processes left behind)."""
    thinker = thinking.Thinker()
    thinker.workers.close()
    game = Game.new(Rules.preset("classic"), seats=4, seed=1)
    assert game.to_act is not None
    action, reason = await thinker.advise(player_view(game, game.to_act))
    assert action in game.legal_actions(game.to_act) and reason
    assert not thinker.workers.started  # decided in a thread


def test_the_workers_run_below_the_bot_s_process() -> None:
    """Where the cores are contended, the event loop gets the CPU before a search does: the
    workers start `WORKER_NICENESS` below the bot's process (a timed search given less CPU
    samples fewer deals; a late loop delays every click and timer)."""
    workers = thinking.Workers()
    try:
        own = os.nice(0)
        assert workers.pool().submit(os.nice, 0).result(timeout=60) \
            == min(19, own + thinking.WORKER_NICENESS)
    finally:
        workers.close()
