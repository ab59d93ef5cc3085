"""SHARD_COUNT=auto through the bot: it runs the count GET /gateway/bot recommends, and
restores the tables of every one of those shards, each table posting once its own shard
has described its server."""

import logging
from pathlib import Path

import discord
import pytest

from bot.client import IDENTIFY_INTERVAL, LOCK_CHECK_INTERVAL, PresidentBot, create_bot
from bot.config import Config
from bot.packages.president.listeners import ServerChanges
from bot.storage.shardlock import ShardLocks
from fakediscord import FakeDiscord
from tests.storage.test_shardlock import backend_of, end_session

from .conftest import LinkedClock
from .e2e import connect_bot, database_url, table_of, tick


async def test_shard_count_auto_runs_and_restores_discord_s_recommended_count(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    url = database_url(tmp_path)
    first = PresidentBot(Config(token=fake.token, database_url=url), clock=clock,
                         guild_ready_timeout=0)
    await fake.connect(first)
    alice = fake.add_user("alice")
    bob = fake.add_user("bob")
    await alice.slash("president create", preset="classic")
    await fake.disconnect(first)
    fake.gateway.recommended_shards = 3

    bot = create_bot(Config(token=fake.token, database_url=url, shard_auto=True), clock=clock,
                     guild_ready_timeout=0)
    assert isinstance(bot, discord.AutoShardedClient)
    # Its shards IDENTIFY 5 s apart on the bot's clock, as the fake requires (Discord's
    # max_concurrency): connect moves time through those waits.
    mark = len(fake.gateway.identifies)
    await fake.connect(bot, advance=clock.advance)
    assert fake.gateway.identifies[mark:] == [(0, 3), (1, 3), (2, 3)]
    assert fake.gateway.refused == []

    assert bot.shard_count == 3 and sorted(bot.shards) == [0, 1, 2]
    table = bot.service.registry.in_channel(alice.channel.id)
    assert table is not None
    await bob.click(bob.last_message(), "Join")
    assert len(table.seats) == 2

    # A restored table's posts wait for its server's shard to be ready, not for every
    # shard's: the server is on shard 0 ("shard_id = (guild_id >> 22) % num_shards").
    assert (fake.guild.id >> 22) % 3 == 0
    cog = next(c for c in bot.cogs.values() if isinstance(c, ServerChanges))
    assert bot.faces_sync is not None
    while not bot.faces_sync.done():  # the card faces' uploads hold the call budget
        await tick(fake, clock, 1)
    bot.publisher.servers.unseen({fake.guild.id})  # as just restored
    edits = f"/channels/{alice.channel.id}/messages/{table.lobby_message_id}"
    before = fake.mark()
    await bot.service.add_bot(table, alice.id)
    await tick(fake, clock, 2)
    await cog.on_shard_ready(1)
    await tick(fake, clock, 2)
    assert not [c for c in fake.calls_since(before) if c.path == edits]
    await cog.on_shard_ready(0)
    await tick(fake, clock, 2)
    assert [c.method for c in fake.calls_since(before) if c.path == edits] == ["PATCH"]
    await fake.disconnect(bot)


async def test_two_shards_start_five_seconds_apart_on_the_bot_s_clock(
    fake: FakeDiscord, clock: LinkedClock
) -> None:
    """The fake refuses an IDENTIFY sooner than Discord's max_concurrency allows (one per
    5 s); the bot spaces its shards' IDENTIFYs on its own clock and is never refused."""
    config = Config(token=fake.token, shard_count=2, shard_ids=(0, 1))
    bot = create_bot(config, clock=clock, with_storage=False, guild_ready_timeout=0)
    start = fake.clock.monotonic()

    await fake.connect(bot, advance=clock.advance)

    assert fake.gateway.identifies == [(0, 2), (1, 2)]
    assert fake.gateway.refused == []
    assert fake.clock.monotonic() == start + IDENTIFY_INTERVAL
    await fake.disconnect(bot)


@pytest.mark.parametrize("database_backend", ["postgresql"])  # the locks are PostgreSQL's
async def test_a_lost_shard_lock_is_taken_back_or_the_bot_stops(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, caplog: pytest.LogCaptureFixture,
    database_backend: str,
) -> None:
    """Play-test 14: the session holding the bot's shard lock ended and nothing noticed; a
    second process for the shard took it at once and both played the same tables. Now the
    bot checks every `LOCK_CHECK_INTERVAL` of its clock: it takes the lock back while it is
    free, and stops (as on SIGTERM, its last snapshots stored) once another process holds
    it. (`database_backend` puts this test on PostgreSQL, see conftest's `stored_to`.)"""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url)
    alice = fake.add_user("alice")
    bob = fake.add_user("bob")
    await alice.slash("president create", preset="classic")
    table = table_of(bot, alice)
    locks = bot.shard_locks
    assert locks is not None and locks.shard_ids == (0,)  # unsharded: shard 0 of 1

    await tick(fake, clock, LOCK_CHECK_INTERVAL)  # a check that finds the session alive
    assert not [r for r in caplog.records if r.name == "bot.storage.shardlock"]

    await end_session(url, await backend_of(locks))
    await tick(fake, clock, LOCK_CHECK_INTERVAL - 1)
    assert not [r for r in caplog.records if r.name == "bot.storage.shardlock"]
    await tick(fake, clock, 1)
    assert [r.levelno for r in caplog.records if r.name == "bot.storage.shardlock"] == [
        logging.ERROR, logging.WARNING]
    assert "took the lock of shard 0 back" in caplog.text
    caplog.clear()  # the error this test provokes, and asserts (conftest's no_logged_errors)
    await bob.click(bob.last_message(), "Join")  # the bot plays on
    assert len(table.seats) == 2

    await end_session(url, await backend_of(locks))
    waited: list[int] = []
    other = await ShardLocks.acquire(url, (0,), on_wait=waited.append)  # a second process
    assert other is not None and waited == []
    try:
        await tick(fake, clock, LOCK_CHECK_INTERVAL)
        assert bot.is_closed() and bot.shards_lost and bot.stopping
        assert [r.getMessage()[:40] for r in caplog.records if r.levelno >= logging.ERROR] == [
            "lost the lock of shard 0: the PostgreSQL",
            "another process took the lock of shard 0"]
        caplog.clear()
    finally:
        await fake.disconnect(bot)
        await other.release()
    # It stopped as on SIGTERM: the next process for the shard restores the latest state.
    again = await connect_bot(fake, clock, url)
    assert len(table_of(again, alice).seats) == 2
    await fake.disconnect(again)
