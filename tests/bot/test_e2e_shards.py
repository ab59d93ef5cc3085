"""SHARD_COUNT=auto through the bot: it runs the count GET /gateway/bot recommends, and
restores the tables of every one of those shards, each table posting once its own shard
has described its server."""

from pathlib import Path

import discord

from bot.client import IDENTIFY_INTERVAL, PresidentBot, create_bot
from bot.config import Config
from bot.packages.president.cog import President
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import database_url, tick


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
    cog = next(c for c in bot.cogs.values() if isinstance(c, President))
    assert bot.faces_sync is not None
    while not bot.faces_sync.done():  # the card faces' uploads hold the call budget
        await tick(fake, clock, 1)
    bot.publisher.unseen({fake.guild.id})  # as just restored
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
