"""SHARD_COUNT=auto through the bot: it runs the count GET /gateway/bot recommends, and
restores the tables of every one of those shards."""

from pathlib import Path

import discord

from bot.client import PresidentBot, create_bot
from bot.config import Config
from fakediscord import FakeDiscord

from .conftest import LinkedClock


async def identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
    """discord.py waits 5 real seconds between two shards' IDENTIFYs by default (Discord's
    identify concurrency), which the fake does not enforce."""


async def test_shard_count_auto_runs_and_restores_discord_s_recommended_count(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'president.db'}"
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
    bot.before_identify_hook = identify_at_once  # type: ignore[method-assign]
    await fake.connect(bot)

    assert bot.shard_count == 3 and sorted(bot.shards) == [0, 1, 2]
    table = bot.service.registry.in_channel(alice.channel.id)
    assert table is not None
    await bob.click(bob.last_message(), "Join")
    assert len(table.seats) == 2
    await fake.disconnect(bot)
