"""The real bot against the fake Discord at load: ``python -m bot.loadbench``.

    python -m bot.loadbench --tables 100 --seconds 60 [--seed 1] [--latency-ms 80 --jitter-ms 40]
        [--database URL | --no-storage] [--bot-level easy|normal|hard|mixed [--think-threads]]
        [--search-workers N]
        [--preset classic|presi|proletario|wild7] [--hints]
        [--chatter 500 [--no-message-intent]] [--table-chatter 5]

One process runs the fake Discord (with Discord's rate limits switched on) and the real
bot (discord.py, the table service, the publisher, the call budget, and storage: by default
a new SQLite file in a temporary folder, as the bot's own default; ``--database`` takes any
URL the bot takes, PostgreSQL included). It opens N tables of mixed presets (or all of the
one ``--preset`` names), each with one to three
simulated humans and bots in the other seats, at the table's default level (normal) or
the one ``--bot-level`` names (``mixed``: easy, normal and hard tables in turn; issue 12,
a hard decision searches for 80 ms in a worker process, or with ``--think-threads`` in a
worker thread as before, to measure what the GIL costs). A human looks at their hand every 3–8 s and
plays the first thing offered; one human in four never does, so their turn timer plays for
them. It prints one line (issue 8):

    tables=N ack_p50_ms=… ack_p99_ms=… ack_max_ms=… calls_per_s=… calls_per_s_peak=… r429=…
    invalid=… calls_per_action=… stale_p99_s=… cpu_ms_per_action=… kb_per_table=…
    snapshot_lag_p99_ms=… cpu_ms_per_s=… chatter_per_s=… messages_received_per_s=…
    [hints=… hint_ack_p50_ms=… hint_ack_p99_ms=… hint_ack_max_ms=…] searches=… search_p50_ms=…
    search_p99_ms=… search_max_ms=… samples_p50=… samples_mean=… one_sample_pct=…
    wait_p50_ms=… wait_p99_ms=… loop_lag_p50_ms=… loop_lag_p99_ms=… loop_lag_max_ms=…

With ``--latency-ms`` (and ``--jitter-ms``) every REST call, callbacks included, takes that
long once the tables are open (fakediscord/latency.py; Discord publishes no latency figure,
80 ± 40 ms is our assumption); off by default.

ack: from the fake dispatching an INTERACTION_CREATE to the bot's callback arriving (with
latency, the callback's own delay included); calls: REST calls
outside interaction endpoints (peak: the busiest second); stale: from an accepted action to
the table message showing it; cpu: the process's CPU time (fake included) per action;
kb_per_table: resident memory growth per table (the database's own memory included for
SQLite, which runs in the process); snapshot_lag: from a table's change to the snapshot
holding it being committed (what a crash at that moment would lose), ``na`` without storage;
cpu_ms_per_s: the same CPU time per second of the window. loop_lag: how late the event loop
wakes a task sleeping 10 ms, probed all through the window: what a click or timer waits
behind whatever holds the loop (a decision taken in place, say). searches: the decisions
taken off the loop in the window (hard's, normal's end search, a searched « Conseil »), and
how long each took from the asking to its answer, its wait for a worker included: what shows
whether they queue up. samples: how many deals each hard search sampled (one_sample_pct: the
share cut to the engine's least, one). wait: how long each waited for a worker
(`bot.tables.thinking.Thinker`, the queue's wait).

With ``--chatter R``, members post and edit R messages a second in channels of four other
guilds (`bot.loadchatter`): what the GUILD_MESSAGES intent brings from busy servers.
messages_received: the MESSAGE_CREATE and MESSAGE_UPDATE the bot was sent, chatter and its
own posts and edits; ``--no-message-intent`` runs the bot without that intent (the chatter
then costs the fake alone). With ``--table-chatter R``, the tables' own humans post and edit
R messages a second in the tables' channels, which buries table messages and lobbies
(`bot.packages.publisher.buried`); the line then ends with ``table_chatter_per_s=…
returns=…``, the times a buried message was posted anew at the bottom in the window.

The command runs on the wall clock, as it measures; `run` also runs on the fake clock,
advanced by hand, which makes the small run in the test suite deterministic and fast.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import resource
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from bot.client import PresidentBot
from bot.config import Config
from bot.loadchatter import Chatter
from bot.packages.game.table_message import table_screen
from bot.packages.publisher.messages import Publisher
from bot.tables.clock import Clock, FollowingClock, SystemClock
from bot.tables.house import DEFAULT_LEVEL
from bot.tables.table import Table
from engine import Game
from engine.bots import LEVELS
from fakediscord import (
    FakeClock,
    FakeDiscord,
    InteractionRecord,
    LatencyConfig,
    Message,
    TestUser,
    UserActionError,
    WallClock,
)
from fakediscord.calls import CallRecord
from fakediscord.state import Channel

PRESETS = ("classic", "presi", "proletario", "wild7")
PROBE = 0.01  # seconds between the event loop probe's wake-ups (wall clock only)
SEATS = 4
STEP = 0.1  # seconds between two looks at the humans and the tables
INTERACTION_ROUTES = ("/interactions/", "/webhooks/")
BOT_LEVELS = (*LEVELS, "mixed")  # what --bot-level takes


class BenchBot(PresidentBot):
    """The bot, recording every snapshot write lag (the metrics keep only a histogram);
    without `message_intent`, not asking for GUILD_MESSAGES (to measure what the chatter
    costs the fake alone)."""

    def __init__(self, *args: Any, message_intent: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lags: list[float] = []
        self._connection._intents.guild_messages = message_intent

    def snapshot_written(self, lag: float) -> None:
        super().snapshot_written(lag)
        self.lags.append(lag)


@dataclass
class Tracker:
    """Accepted actions and when each table message caught up with them."""

    now: Callable[[], float]
    actions: int = 0
    closed: bool = False  # past the measured window: new versions are seen, not counted
    stale: list[float] = field(default_factory=list)
    _seen: dict[int, tuple[Game, int]] = field(default_factory=dict)
    _pending: dict[int, list[tuple[int, float]]] = field(default_factory=dict)

    def look(self, table: Table, showing: Callable[[Table], bool]) -> None:
        """Note the game's new versions (one per accepted action) since the last look; one
        whose table message would look the same (`showing`) is shown already."""
        game = table.game
        if game is None:
            return
        before = self._seen.get(table.id)
        if before is None or before[0] is not game:
            self._seen[table.id] = (game, game.version)
            self._pending[table.id] = []
            return
        if game.version > before[1]:
            self._seen[table.id] = (game, game.version)
            if self.closed:
                return
            self.actions += game.version - before[1]
            if showing(table):
                self.stale.append(0.0)
            else:
                self._pending[table.id].append((game.version, self.now()))

    def shown(self, table: Table, version: int) -> None:
        """The table message now shows `version` of the game or later."""
        pending = self._pending.get(table.id, [])
        while pending and pending[0][0] <= version:
            self.stale.append(self.now() - pending.pop(0)[1])


class TrackedPublisher(Publisher):
    """The publisher, telling the tracker which version each table message shows."""

    def __init__(self, bot: PresidentBot, tracker: Tracker) -> None:
        super().__init__(bot)
        self.tracker = tracker

    async def _table(self, table: Table) -> None:
        game = table.game
        version = game.version if game is not None else None
        await super()._table(table)
        if game is not None and version is not None and table.game is game:
            self.tracker.shown(table, version)

    def showing(self, table: Table) -> bool:
        """Whether the table message already looks as the table's state would be drawn."""
        screen = table_screen(table, self.bot.service.clock.now())
        return self._shown.get((table.id, "table")) == screen.fingerprint


@dataclass
class Human:
    user: TestUser
    table: Table
    idle: bool
    due: float
    hand_id: int | None = None
    opening: InteractionRecord | None = None  # the « My hand » click, until it is answered
    hinted: str = ""  # the last « Conseil » button clicked (its custom_id holds the version)

    def hand(self) -> Message | None:
        found = [m for m in self.user.visible() if m.id == self.hand_id]
        return found[0] if found else None

    async def open_hand(self) -> None:
        """Press « My hand » on the table message; its answer is the hand from then on."""
        board = next((m for m in self.user.visible() if m.id == self.table.table_message_id),
                     None)
        if board is not None:
            self.opening = await self.user.click(board, f"pz:{self.table.id}:hand:0:",
                                                 settle=False)

    async def act(self) -> bool:
        """One decision as the hand shows it: confirm or pick gifts, else « Conseil » once
        per turn where the hand offers it (`--hints`), else the first play offered, else
        pass. False when the hand offers nothing (not their turn)."""
        shown = self.hand()
        if shown is None:
            return False
        selects, buttons = list(shown.selects), list(shown.buttons)
        confirm = next((b.custom_id for b in buttons
                        if b.custom_id and ":give_ok:" in b.custom_id), None)
        gifts = [m for m in selects if ":give:" in m.custom_id]
        if confirm is not None and not confirm.endswith(":"):
            await self.user.click(shown, confirm, settle=False)
            return True
        if gifts:
            first = gifts[0]
            count = first.max_values if confirm is not None else first.min_values
            await self.user.select(shown, [o.value for o in first.options[:count]],
                                   select=first.custom_id, settle=False)
            return True
        hint = next((b.custom_id for b in buttons
                     if b.custom_id and ":hint:" in b.custom_id), None)
        if hint is not None and hint != self.hinted:  # asks first, then plays as before
            self.hinted = hint
            await self.user.click(shown, hint, settle=False)
            return True
        for menu in selects:
            if ":play:" in menu.custom_id:
                await self.user.select(shown, [menu.options[0].value],
                                       select=menu.custom_id, settle=False)
                return True
        for button in buttons:
            if button.custom_id and ":pass:" in button.custom_id:
                await self.user.click(shown, button.custom_id, settle=False)
                return True
        return False


@dataclass
class Result:
    tables: int
    acks: list[float]
    calls: list[CallRecord]
    seconds: float
    actions: int
    stale: list[float]
    cpu: float
    rss_kb: float
    invalid: int
    unanswered: int
    errors: int
    lags: list[float] | None = None  # snapshot write lags; None: storage was off
    chatter: int = 0  # members' messages posted or edited in the window
    received: int = 0  # MESSAGE_CREATE and MESSAGE_UPDATE the bot received in it
    table_chatter: int | None = None  # the tables' humans' messages; None: not asked for
    returns: int = 0  # buried table messages and lobbies posted anew at the bottom
    window: tuple[float, float] = (0.0, 0.0)  # the measured window, on the fake's clock
    bot_levels: list[list[str]] = field(default_factory=list)  # per table, opening order
    hint_acks: list[float] | None = None  # the « Conseil » clicks' acks; None: hints off
    loop_lags: list[float] | None = None  # the loop's probe (`_probe_loop`); None: fake clock
    searches: list[float] = field(default_factory=list)  # off-loop decisions' times (`Thinker.took`)
    sampled: list[int] = field(default_factory=list)  # hard searches' deals (`Thinker.sampled`)
    waits: list[float] = field(default_factory=list)  # searches' waits for a worker (`Thinker.waited`)

    @property
    def r429(self) -> int:
        return sum(1 for c in self.calls if c.status == 429)

    def line(self) -> str:
        outside = [c for c in self.calls if not c.route.startswith(INTERACTION_ROUTES)]
        per_second: dict[int, int] = {}
        for call in outside:
            per_second[int(call.time)] = per_second.get(int(call.time), 0) + 1
        acks = sorted(self.acks) or [0.0]
        stale = sorted(self.stale) or [0.0]
        lag = "na" if self.lags is None else f"{_p99(sorted(self.lags) or [0.0]) * 1000:.0f}"
        actions = max(self.actions, 1)
        return (
            f"tables={self.tables} ack_p50_ms={statistics.median(acks) * 1000:.1f} "
            f"ack_p99_ms={_p99(acks) * 1000:.1f} ack_max_ms={acks[-1] * 1000:.1f} "
            f"calls_per_s={len(outside) / self.seconds:.1f} "
            f"calls_per_s_peak={max(per_second.values(), default=0)} r429={self.r429} "
            f"invalid={self.invalid} calls_per_action={len(outside) / actions:.2f} "
            f"stale_p99_s={_p99(stale):.2f} cpu_ms_per_action={self.cpu * 1000 / actions:.2f} "
            f"kb_per_table={self.rss_kb / max(self.tables, 1):.0f} snapshot_lag_p99_ms={lag} "
            f"cpu_ms_per_s={self.cpu * 1000 / self.seconds:.0f} "
            f"chatter_per_s={self.chatter / self.seconds:.0f} "
            f"messages_received_per_s={self.received / self.seconds:.0f}"
            + ("" if self.table_chatter is None else
               f" table_chatter_per_s={self.table_chatter / self.seconds:.1f}"
               f" returns={self.returns}")
            + ("" if self.hint_acks is None else self._hint_figures(sorted(self.hint_acks)))
            + self._search_figures(sorted(self.searches))
            + self._sample_figures(sorted(self.sampled))
            + self._wait_figures(sorted(self.waits))
            + ("" if self.loop_lags is None else
               f" loop_lag_p50_ms={statistics.median(self.loop_lags or [0.0]) * 1000:.1f}"
               f" loop_lag_p99_ms={_p99(sorted(self.loop_lags) or [0.0]) * 1000:.1f}"
               f" loop_lag_max_ms={max(self.loop_lags, default=0.0) * 1000:.1f}")
        )

    @staticmethod
    def _sample_figures(sampled: list[int]) -> str:
        """Deals per hard search: its median, mean and the share of searches cut to one."""
        shown = sampled or [0]
        one = sum(1 for n in sampled if n <= 1)
        return (f" samples_p50={statistics.median(shown):.0f}"
                f" samples_mean={statistics.mean(shown):.1f}"
                f" one_sample_pct={100 * one / max(len(sampled), 1):.1f}")

    @staticmethod
    def _wait_figures(waits: list[float]) -> str:
        shown = waits or [0.0]
        return (f" wait_p50_ms={statistics.median(shown) * 1000:.1f}"
                f" wait_p99_ms={_p99(shown) * 1000:.1f}")

    @staticmethod
    def _search_figures(took: list[float]) -> str:
        shown = took or [0.0]
        return (f" searches={len(took)} search_p50_ms={statistics.median(shown) * 1000:.1f}"
                f" search_p99_ms={_p99(shown) * 1000:.1f} search_max_ms={shown[-1] * 1000:.1f}")

    @staticmethod
    def _hint_figures(acks: list[float]) -> str:
        shown = acks or [0.0]
        return (f" hints={len(acks)} hint_ack_p50_ms={statistics.median(shown) * 1000:.1f}"
                f" hint_ack_p99_ms={_p99(shown) * 1000:.1f}"
                f" hint_ack_max_ms={shown[-1] * 1000:.1f}")


def _messages_received(fake: FakeDiscord) -> int:
    return fake.gateway.sent("MESSAGE_CREATE") + fake.gateway.sent("MESSAGE_UPDATE")


async def _probe_loop(lags: list[float]) -> None:
    """Every `PROBE` seconds, how late the event loop woke this task: how long any callback
    (a click's, a timer's) waited behind what held the loop then."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(PROBE)
        lags.append(max(0.0, time.perf_counter() - asked - PROBE))


def _p99(ordered: list[float]) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _rss_kb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return float(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def table_level(bot_level: str, index: int) -> str:
    """The level of the bots at the `index`-th table: `bot_level`, or for ``mixed`` each
    level in turn (one table in three of each)."""
    return LEVELS[index % len(LEVELS)] if bot_level == "mixed" else bot_level


async def _open_table(fake: FakeDiscord, bot: PresidentBot, index: int,
                      rng: random.Random, level: str,
                      presets: tuple[str, ...], hints: bool) -> list[tuple[TestUser, bool]]:
    """A table in its own channel: a host, zero to two more humans, bots in the rest, at
    `level`: « Ajouter un bot » for the table's default, else the lobby's level select."""
    channel = fake.add_channel(fake.guild, f"table-{index}")
    humans = []
    for seat in range(rng.randint(1, 3)):
        user = fake.add_user(f"p{index}-{seat}")
        user.channel = channel
        humans.append(user)
    host = humans[0]
    await host.slash("president create", preset=presets[index % len(presets)])
    table = bot.service.registry.in_channel(channel.id)
    assert table is not None
    if hints:  # the host's settings toggle, from the service: the bench measures the game
        await bot.service.set_options(table, host.id, hints=True)
    for other in humans[1:]:
        await other.click(_lobby(host, table), f"pz:{table.id}:join:0:")
    for _ in range(SEATS - len(humans)):
        if level == table.bot_level:
            await host.click(_lobby(host, table), f"pz:{table.id}:addbot:0:")
        else:
            await host.select(_lobby(host, table), [level],
                              select=f"pz:{table.id}:addbot_level:0:")
    await host.click(_lobby(host, table), f"pz:{table.id}:start:0:")
    return [(user, rng.random() < 0.25) for user in humans]


def _lobby(user: TestUser, table: Table) -> Message:
    return next(m for m in user.visible() if m.id == table.lobby_message_id)


async def run(tables: int, seconds: float, *, seed: int = 1, wall: bool = True,
              step: float = STEP, latency: LatencyConfig | None = None,
              database: str | None = None, bot_level: str = DEFAULT_LEVEL,
              think_samples: int | None = None, think_threads: bool = False,
              chatter: float = 0.0, message_intent: bool = True,
              table_chatter: float = 0.0, presets: tuple[str, ...] = PRESETS,
              hints: bool = False, search_workers: int | None = None) -> Result:
    """Open `tables` tables, play `seconds` seconds, measure. `wall` False: on the fake
    clock, each step advanced by hand and settled (deterministic, for tests). `latency`:
    every REST call takes that long (fakediscord/latency.py) once the tables are open (a
    real sleep on the wall clock, fake time otherwise). `database`: the URL of a database
    to store tables and results in (migrated first); None runs without storage.
    `bot_level`: one of `BOT_LEVELS`, the level of the seated bots (see `table_level`).
    `think_samples`: a hard decision samples that many deals instead of searching for its
    80 ms of real time (tests, so that no result depends on the machine's speed).
    `think_threads`: hard decisions in worker threads instead of processes. `chatter`:
    members' messages posted or edited a second in other guilds' channels (`Chatter`).
    `message_intent` False: the bot does not ask for GUILD_MESSAGES. `table_chatter`:
    messages posted or edited a second by the tables' humans in the tables' channels.
    `presets`: the tables' presets, in turn (default: the four). `hints`: the tables have
    « Conseil » on, and each human asks for it once a turn before playing.
    `search_workers`: the bot's SEARCH_WORKERS (None: its default, the cores but one)."""
    if bot_level not in BOT_LEVELS:
        raise ValueError(f"unknown bot level {bot_level!r}: one of {', '.join(BOT_LEVELS)}")
    rng = random.Random(seed)
    fake_clock: FakeClock = WallClock() if wall else FakeClock()
    async with FakeDiscord.running(clock=fake_clock) as fake:
        clock: Clock = SystemClock() if wall else FollowingClock(fake_clock)
        config = Config(token=fake.token, bot_pause=1.5, search_workers=search_workers)
        if database is not None:
            config = replace(config, database_url=database)
        bot = BenchBot(config, clock=clock, with_storage=database is not None,
                       guild_ready_timeout=0, message_intent=message_intent)
        bot.service.thinker.samples = think_samples
        bot.service.thinker.in_processes = not think_threads
        tracker = Tracker(fake_clock.monotonic)
        publisher = bot.publisher = TrackedPublisher(bot, tracker)
        bot.service.display = publisher

        async def tick(span: float) -> None:
            if isinstance(clock, FollowingClock):
                await fake.settle()  # what is due now is answered now
                clock.advance(span)
                await fake.settle()
            else:
                await asyncio.sleep(span)

        await fake.connect(bot)
        # Its own generator: the tables play the same whatever the chatter.
        talk = Chatter.open(fake, chatter, random.Random(f"chatter-{seed}")) if chatter else None
        await fake.settle()
        fake.enable_rate_limits()
        rss = _rss_kb()
        seated: list[tuple[TestUser, bool, Table]] = []
        opened: list[Table] = []
        for index in range(tables):
            level = table_level(bot_level, index)
            for user, idle in await _open_table(fake, bot, index, rng, level, presets, hints):
                table = bot.service.registry.in_channel(user.channel.id)
                assert table is not None
                seated.append((user, idle, table))
            opened.append(seated[-1][2])
        if latency is not None:  # not while opening: 100 tables would take minutes
            fake.enable_latency(latency)
        for _ in range(int(2 / step) + 1):  # the table messages are posted
            await tick(step)
        humans = [Human(user, table, idle, fake_clock.monotonic() + rng.uniform(0, 3))
                  for user, idle, table in seated]
        at_tables: dict[int, tuple[Channel, list[TestUser]]] = {}
        for user, _, table in seated:
            at_tables.setdefault(table.id, (user.channel, []))[1].append(user)
        table_talk = Chatter(fake, table_chatter, random.Random(f"table-chatter-{seed}"),
                             list(at_tables.values())) if table_chatter else None
        rss_grown = _rss_kb() - rss
        mark = fake.mark()
        first_interaction = len(fake.interactions)
        started = fake_clock.monotonic()
        cpu = time.process_time()
        lags: list[float] = []
        probe = asyncio.ensure_future(_probe_loop(lags)) if wall else None
        took = bot.service.thinker.took = []
        sampled = bot.service.thinker.sampled = []
        waits: list[float] = []
        watched = bot.service.thinker.waited
        bot.service.thinker.waited = waits.append
        received = _messages_received(fake)
        returns = bot.publisher.buried.returns
        all_tables = [table for _, _, table in seated]
        while fake_clock.monotonic() - started < seconds:
            now = fake_clock.monotonic()
            if talk is not None:
                talk.emit(now)
            if table_talk is not None:
                table_talk.emit(now)
            for human in humans:
                if human.due <= now:
                    human.due = now + rng.uniform(3, 8)
                    # A hand that changed under the player's finger refuses the pick.
                    with contextlib.suppress(UserActionError):
                        if human.hand_id is None and human.opening is not None:
                            human.hand_id = human.opening.original_message_id
                        if human.hand_id is None:
                            await human.open_hand()
                        elif not human.idle:
                            await human.act()
            for table in all_tables:
                tracker.look(table, publisher.showing)
            await tick(step)
        cpu = time.process_time() - cpu
        bot.service.thinker.took = bot.service.thinker.sampled = None
        bot.service.thinker.waited = watched
        if probe is not None:
            probe.cancel()
        elapsed = fake_clock.monotonic() - started
        received = _messages_received(fake) - received
        returns = bot.publisher.buried.returns - returns
        # Calls and actions are those of the window; the next 3 s only let the table
        # messages catch up with the window's actions (stale).
        calls = fake.calls_since(mark)
        tracker.closed = True
        for _ in range(int(3 / step)):
            await tick(step)
            for table in all_tables:
                tracker.look(table, publisher.showing)
        answered = fake.interactions[first_interaction:]
        acks = [r.answered_at - r.created_at for r in answered if r.answered_at is not None]
        hint_acks = [r.answered_at - r.created_at for r in answered
                     if r.answered_at is not None and ":hint:" in r.data.get("custom_id", "")]
        result = Result(
            tables=tables, acks=acks, calls=calls, seconds=elapsed,
            actions=tracker.actions, stale=tracker.stale, cpu=cpu, rss_kb=rss_grown,
            invalid=fake.invalid_requests(), unanswered=len(fake.hub.unanswered()),
            errors=len(fake.errors), lags=bot.lags if database is not None else None,
            bot_levels=[[p.level for p in t.seats if p.is_bot] for t in opened],
            window=(started, started + elapsed),
            chatter=talk.events if talk is not None else 0, received=received,
            table_chatter=table_talk.events if table_talk is not None else None,
            returns=returns, hint_acks=hint_acks if hints else None,
            loop_lags=lags if wall else None, searches=took, sampled=sampled,
            waits=waits,
        )
        # Let the calls on their way arrive before the bot closes its session.
        fake.disable_latency()
        for _ in range(1000):
            if not fake.latency.waiting:
                break
            await (asyncio.sleep(0.001) if wall else fake.settle(require_answers=False))
        await fake.disconnect(bot)
        return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--latency-ms", type=float, default=0.0,
                        help="mean time per REST call, callbacks included (0: none); "
                             "Discord publishes no figure, 80 is our assumption")
    parser.add_argument("--jitter-ms", type=float, default=0.0,
                        help="each call's latency is uniform within mean ± this")
    storage = parser.add_mutually_exclusive_group()
    storage.add_argument("--database", help="database URL (default: a new SQLite file in a "
                         "temporary folder)")
    storage.add_argument("--no-storage", action="store_true",
                         help="run without storage (snapshot_lag_p99_ms prints na)")
    parser.add_argument("--bot-level", choices=BOT_LEVELS, default=DEFAULT_LEVEL,
                        help="level of the seated bots (default: normal, the tables' "
                             "default); mixed: easy, normal and hard tables in turn")
    parser.add_argument("--think-threads", action="store_true",
                        help="hard decisions in worker threads, not processes (they then "
                             "hold the GIL: to measure what that costs)")
    parser.add_argument("--search-workers", type=int,
                        help="worker processes the bots search in, as SEARCH_WORKERS "
                             "(default: one per core but one)")
    parser.add_argument("--preset", choices=PRESETS,
                        help="every table plays this preset (default: the four in turn); "
                             "presi: the normal bots search their last cards, in the workers")
    parser.add_argument("--hints", action="store_true",
                        help="the tables have « Conseil » on and each human asks for it "
                             "once a turn before playing (hint_ack_*_ms: those clicks' acks)")
    parser.add_argument("--chatter", type=float, default=0.0,
                        help="members' messages posted or edited a second, in channels of "
                             "four other guilds (0: none)")
    parser.add_argument("--table-chatter", type=float, default=0.0,
                        help="messages posted or edited a second by the tables' humans in "
                             "the tables' channels, burying their messages (0: none)")
    parser.add_argument("--no-message-intent", action="store_true",
                        help="the bot does not ask for GUILD_MESSAGES: the chatter costs "
                             "the fake alone")
    args = parser.parse_args()
    latency = None
    if args.latency_ms > 0 or args.jitter_ms > 0:
        latency = LatencyConfig(mean=args.latency_ms / 1000, jitter=args.jitter_ms / 1000,
                                seed=args.seed)
    with tempfile.TemporaryDirectory() as folder:
        database = None if args.no_storage else (
            args.database or f"sqlite+aiosqlite:///{folder}/loadbench.sqlite3")
        result = asyncio.run(run(args.tables, args.seconds, seed=args.seed, latency=latency,
                                 database=database, bot_level=args.bot_level,
                                 think_threads=args.think_threads, chatter=args.chatter,
                                 message_intent=not args.no_message_intent,
                                 table_chatter=args.table_chatter,
                                 presets=(args.preset,) if args.preset else PRESETS,
                                 hints=args.hints, search_workers=args.search_workers))
    print(result.line())
    if result.errors or result.unanswered:
        print(f"errors={result.errors} unanswered={result.unanswered}")


if __name__ == "__main__":
    main()
