"""The bot under Discord's rate limits (issue 8, part 2): the fake enforces the global limit
(50/s) on its clock, the bot's budget keeps channel calls at 45 a second or fewer without a
single 429, refreshes stretch and still end on the latest state, and a long 429 postpones a
table's refresh instead of holding it.

Per-route buckets are set wide here: this is about the global limit, and discord.py waits
out an exhausted bucket on the wall clock, which a test on the fake clock must not do."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import AsyncIterator

import pytest

from bot.client import PresidentBot
from bot.config import Config
from bot.packages.game.table_message import table_screen
from bot.tables.table import Table
from engine import Phase
from fakediscord import CallRecord, FakeDiscord, RateLimitConfig, TestUser, Window

from .conftest import BOT_PAUSE, LinkedClock
from .e2e import Player, cid, host_against_three_bots, message, table_of, tick

WIDE = Window(1000, 1.0)
LIMITS = RateLimitConfig(channel_messages=WIDE, webhooks=WIDE)


@pytest.fixture
async def president(fake: FakeDiscord, clock: LinkedClock) -> AsyncIterator[PresidentBot]:
    """The usual bot, except that its stop does not wait for refreshes on their way: these
    tests end with refreshes parked on the call budget, on a fake clock that no longer moves
    at teardown, so waiting would only spend the stop's patience in wall time."""
    bot = PresidentBot(Config(token=fake.token, bot_pause=BOT_PAUSE), clock=clock,
                       with_storage=False, guild_ready_timeout=0, shutdown_wait=0)
    await fake.connect(bot)
    yield bot
    await fake.disconnect(bot)


def channel_calls(calls: list[CallRecord]) -> list[CallRecord]:
    return [c for c in calls if c.route.startswith("/channels/")]


def per_second(calls: list[CallRecord]) -> Counter[int]:
    return Counter(int(c.time) for c in channel_calls(calls))


async def limited(fake: FakeDiscord, bot: PresidentBot, clock: LinkedClock) -> None:
    """Enforce the limits once the start-up calls are over: the card faces' upload (103
    calls through the budget, so a few seconds) would share the tables' first seconds."""
    await fake.settle()
    while bot.faces_sync is not None and not bot.faces_sync.done():
        await tick(fake, clock, 1)
    fake.enable_rate_limits(LIMITS)


def hosts(fake: FakeDiscord, count: int) -> list[TestUser]:
    """One host per channel, as tables are: one table per channel."""
    users = []
    for index in range(count):
        user = fake.add_user(f"host{index}")
        user.channel = fake.add_channel(fake.guild, f"table-{index}")
        users.append(user)
    return users


async def test_sixty_tables_started_at_once_are_posted_at_45_a_second(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Sixty Start clicks at one instant each want a table message posted and the lobby
    edited: 45 calls go now, the rest in the next seconds, none refused (the fake's global
    limit is 50)."""
    lobbies = []
    for host in hosts(fake, 60):
        await host.slash("president create", preset="classic")
        table = table_of(president, host)
        lobby = message(host, table.lobby_message_id)
        for _ in range(3):
            await host.click(lobby, cid(table, "addbot"))
        lobbies.append((host, table, message(host, table.lobby_message_id)))
    await limited(fake, president, clock)
    for _ in range(2):  # the lobbies' trailing redraw, then a quiet second
        await tick(fake, clock)
    mark = fake.mark()
    for host, table, lobby in lobbies:
        await host.click(lobby, cid(table, "start"), settle=False)
    await fake.settle()
    assert len(channel_calls(fake.calls_since(mark))) == 45
    assert president.budget.waited > 0
    for _ in range(2):  # each Start also edits its lobby: 120 calls take three seconds
        await tick(fake, clock)
    assert all(table.table_message_id is not None for _, table, _ in lobbies)
    assert max(per_second(fake.calls_since(mark)).values()) <= 45


async def test_busy_tables_stretch_their_refreshes_and_end_on_their_latest_state(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    """Sixty tables where bots answer at once want ~60 table edits a second: the budget
    holds 45, no 429, and once play stops every table message shows its last state."""
    await limited(fake, instant, clock)
    tables: list[tuple[Table, Player]] = []
    for host in hosts(fake, 60):
        table = await host_against_three_bots(instant, host, "rounds:1")
        tables.append((table, Player(host)))
    await tick(fake, clock)
    await tick(fake, clock)
    for _, player in tables:
        await player.open_hand(instant)
    mark = fake.mark()
    for _ in range(6):
        for table, player in tables:
            game = table.game
            if game is not None and game.phase is not Phase.GAME_OVER \
                    and game.to_act == table.seat_of(player.user.id):
                await player.act()
        await tick(fake, clock)
    seconds = per_second(fake.calls_since(mark))
    assert max(seconds.values()) <= 45, seconds
    assert instant.budget.waited > 0  # the budget, not luck, kept it there
    for _ in range(4):
        await tick(fake, clock)
    now = clock.now()
    for table, player in tables:
        shown = message(player.user, table.table_message_id)
        assert shown.content == table_screen(table, now).content


async def test_a_long_429_does_not_hold_the_tables_refreshes(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """discord.py would sleep 40 s inside the refresh, and the table would show nothing new
    meanwhile; past `max_ratelimit_timeout` it raises instead, and the next change is shown
    within the second (the wall clock says no 40 s sleep happened)."""
    (host,) = hosts(fake, 1)
    table = await host_against_three_bots(president, host, "rounds:1")
    player = Player(host)
    await tick(fake, clock)
    await player.open_hand(president)
    game = table.game
    assert game is not None
    started = time.monotonic()
    fake.inject_429("/channels/{channel_id}/messages/{message_id}", method="PATCH",
                    retry_after=40.0)
    for _ in range(60):
        if game.to_act == table.seat_of(host.id):
            break
        await tick(fake, clock)
    assert await player.act()
    for _ in range(60):
        await tick(fake, clock)
        if game.to_act == table.seat_of(host.id):
            break
    await tick(fake, clock)
    assert [c.status for c in fake.calls if c.injected] == [429]
    assert message(host, table.table_message_id).content \
        == table_screen(table, clock.now()).content
    assert time.monotonic() - started < 30
