"""The gateway routes each guild's events to the session of its shard, as Discord does:
``shard_id = (guild_id >> 22) % num_shards`` (discord-api-docs, topics/gateway.md,
"Sharding"), with the shard a session runs taken from IDENTIFY's ``shard`` field."""

from __future__ import annotations

from fakediscord import FakeDiscord, TestUser
from fakediscord.state import Guild

from .tinybot import ShardedTinyBot, TinyBot


def shard_of(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


def guild_on_the_other_shard(fake: FakeDiscord) -> Guild:
    """A second guild whose shard (of two) is not the default guild's: a snowflake's shard
    follows its millisecond, so one fake millisecond later is the other shard."""
    fake.clock.advance(0.001)
    guild = fake.add_guild("Other Guild")
    fake.add_channel(guild, "other")
    assert shard_of(guild.id, 2) != shard_of(fake.guild.id, 2)
    return guild


async def test_each_guild_reaches_only_the_session_of_its_shard(
    fake: FakeDiscord, alice: TestUser, bob: TestUser
) -> None:
    other = guild_on_the_other_shard(fake)
    carol = fake.add_user("carol", guilds=[other])
    dave = fake.add_user("dave", guilds=[other])
    bots = [TinyBot(shard_id=shard, shard_count=2) for shard in (0, 1)]
    for bot in bots:
        await fake.connect(bot)
    home, away = bots[shard_of(fake.guild.id, 2)], bots[shard_of(other.id, 2)]

    # READY lists, and GUILD_CREATE sends, only the session's own guilds.
    assert [g.id for g in home.guilds] == [fake.guild.id]
    assert [g.id for g in away.guilds] == [other.id]

    await alice.slash("president create", preset="classic")
    await bob.click(bob.last_message(), "Join")
    await carol.slash("president create", preset="classic")
    await dave.click(dave.last_message(), "Join")

    assert [user for _, user in home.joins] == [bob.id]
    assert [user for _, user in away.joins] == [dave.id]
    assert fake.errors == []


async def test_a_channel_created_later_reaches_only_its_shard(fake: FakeDiscord) -> None:
    other = guild_on_the_other_shard(fake)
    bots = [TinyBot(shard_id=shard, shard_count=2) for shard in (0, 1)]
    for bot in bots:
        await fake.connect(bot)
    away = bots[shard_of(other.id, 2)]

    channel = fake.add_channel(other, "later")
    await fake.settle()

    assert away.get_channel(channel.id) is not None
    assert bots[1 - shard_of(other.id, 2)].get_channel(channel.id) is None


async def test_an_auto_sharded_client_runs_the_recommended_count(
    fake: FakeDiscord, alice: TestUser, bob: TestUser
) -> None:
    other = guild_on_the_other_shard(fake)
    fake.add_user("carol", guilds=[other])
    fake.gateway.recommended_shards = 2
    bot = ShardedTinyBot(fake.clock)
    await fake.connect(bot, advance=fake.clock.advance)

    assert bot.shard_count == 2
    assert sorted(g.id for g in bot.guilds) == sorted([fake.guild.id, other.id])
    assert {g.id: g.shard_id for g in bot.guilds} == {
        fake.guild.id: shard_of(fake.guild.id, 2), other.id: shard_of(other.id, 2)
    }
    await alice.slash("president create", preset="classic")
    await bob.click(bob.last_message(), "Join")
    assert [user for _, user in bot.joins] == [bob.id]
