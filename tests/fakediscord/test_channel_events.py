"""Channel and thread changes reach the bot as Discord sends them: CHANNEL_UPDATE with the
channel's permission overwrites, THREAD_UPDATE with the thread's metadata, GUILD_ROLE_UPDATE
with its role, GUILD_ROLE_CREATE and GUILD_ROLE_DELETE, all under the GUILDS intent, and the
bot's own member's roles (GUILD_MEMBER_UPDATE, sent whatever the intents); discord.py then computes from its cache the
permissions the fake enforces."""

from __future__ import annotations

from collections import Counter

import discord
import pytest

from fakediscord import FakeDiscord, TestUser, UserActionError
from tests.fresh import fresh

from .tinybot import TinyBot


def computed(bot: discord.Client, channel_id: int) -> discord.Permissions:
    """The bot's permissions in a channel or thread, as discord.py computes them from its
    cache (roles, overwrites, its member)."""
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel | discord.Thread)
    return channel.permissions_for(channel.guild.me)


async def test_an_overwrite_comes_as_channel_update_and_the_cache_computes_it(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    before = fake.gateway.sent("CHANNEL_UPDATE")
    assert computed(bot, fake.channel.id).send_messages
    fake.set_bot_permissions(fake.channel, send_messages=False)
    await fake.settle()
    assert fake.gateway.sent("CHANNEL_UPDATE") == before + 1
    permissions = computed(bot, fake.channel.id)
    assert not permissions.send_messages and permissions.view_channel
    assert not permissions.administrator  # else Discord would ignore the overwrite
    fake.set_bot_permissions(fake.channel, send_messages=True, view_channel=False)
    await fake.settle()
    permissions = computed(bot, fake.channel.id)
    assert not permissions.view_channel and not permissions.send_messages  # implicitly
    assert permissions.ban_members  # the role's server-wide ones stay


async def test_a_role_change_comes_as_guild_role_update(fake: FakeDiscord, bot: TinyBot) -> None:
    fake.set_bot_guild_permissions(fake.guild, view_audit_log=False)
    await fake.settle()
    guild = bot.get_guild(fake.guild.id)
    assert guild is not None and not guild.me.guild_permissions.view_audit_log
    fake.set_bot_guild_permissions(fake.guild, view_audit_log=True)
    await fake.settle()
    assert guild.me.guild_permissions.view_audit_log


async def test_the_bots_permissions_are_everyones_and_its_roles_as_discord_computes_them(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    """@everyone's permissions, the bot's own role's and a role an admin gives it add up,
    in the fake's REST checks as in discord.py's cache; a role taken from the bot or deleted
    takes what it alone granted."""
    fake.set_everyone_permissions(fake.guild, send_messages=False)
    await fake.settle()
    assert computed(bot, fake.channel.id).send_messages  # the bot's role still grants it
    fake.set_bot_guild_permissions(fake.guild, send_messages=False)
    await fake.settle()
    assert not computed(bot, fake.channel.id).send_messages
    with pytest.raises(discord.Forbidden):
        await bot.http.send_message(fake.channel.id, params=discord.http.handle_message_parameters(
            content="?"))
    fake.expect_error(50013)

    croupier = fake.add_role(fake.guild, "Croupier", send_messages=True)
    fake.give_bot_role(fake.guild, croupier)
    await fake.settle()
    assert computed(bot, fake.channel.id).send_messages
    await bot.http.send_message(fake.channel.id, params=discord.http.handle_message_parameters(
        content="ok"))
    fake.give_bot_role(fake.guild, croupier, given=False)
    await fake.settle()
    assert not computed(bot, fake.channel.id).send_messages
    fake.give_bot_role(fake.guild, croupier)
    await fake.settle()
    fake.delete_role(fake.guild, croupier)
    await fake.settle()
    assert not computed(bot, fake.channel.id).send_messages
    guild = bot.get_guild(fake.guild.id)
    assert guild is not None and guild.get_role(croupier) is None
    fake.assert_no_errors()


async def test_locking_and_archiving_come_as_thread_update(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    thread = fake.add_thread(fake.channel, "partie", alice)
    await fake.settle()
    fake.lock_thread(thread)
    await fake.settle()
    cached = bot.get_channel(thread.id)
    assert isinstance(cached, discord.Thread) and cached.locked and not cached.archived
    fake.lock_thread(thread, locked=False)
    await fake.settle()
    assert not fresh(cached).locked
    fake.archive_thread(thread)
    await fake.settle()
    assert bot.get_channel(thread.id) is None  # discord.py keeps no archived thread
    assert fake.gateway.sent("THREAD_UPDATE") == 3


async def test_commands_cannot_be_used_in_an_archived_thread(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    thread = fake.add_thread(fake.channel, "partie", alice)
    fake.archive_thread(thread)
    with pytest.raises(UserActionError, match="archived"):
        await alice.slash("hand", channel=thread)


class Watcher(discord.Client):
    """A client that asked for some intents only, counting the events it receives."""

    def __init__(self, intents: discord.Intents) -> None:
        super().__init__(intents=intents, guild_ready_timeout=0, enable_debug_events=True)
        self.events: Counter[str] = Counter()

    async def on_socket_event_type(self, event: str) -> None:
        self.events[event] += 1


async def test_without_the_guilds_intent_no_channel_or_thread_change_is_sent(
    fake: FakeDiscord, alice: TestUser
) -> None:
    """« GUILDS (1 << 0) - [...] CHANNEL_UPDATE [...] THREAD_UPDATE », and GUILD_ROLE_UPDATE
    (List of Intents, https://discord.com/developers/docs/events/gateway#list-of-intents)."""
    watcher = Watcher(discord.Intents(guild_messages=True))
    await fake.connect(watcher)
    thread = fake.add_thread(fake.channel, "partie", alice)
    fake.lock_thread(thread)
    fake.set_bot_permissions(fake.channel, send_messages=False)
    fake.set_bot_guild_permissions(fake.guild, view_audit_log=False)
    await fake.settle()
    assert not {"CHANNEL_UPDATE", "THREAD_UPDATE", "GUILD_ROLE_UPDATE"} & set(watcher.events)
    await fake.disconnect(watcher)
