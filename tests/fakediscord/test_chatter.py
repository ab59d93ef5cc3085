"""Members chatting in a channel (`TestUser.say`, `edit_said`): a bot gets MESSAGE_CREATE and
MESSAGE_UPDATE only if it asked for GUILD_MESSAGES, and their content only with the
MESSAGE_CONTENT intent or when the message mentions it, as Discord sends them."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from fakediscord import FakeDiscord, TestUser, UserActionError
from fakediscord.payloads import gateway_message_payload

from .tinybot import TinyBot


async def test_a_members_message_reaches_a_bot_with_guild_messages_without_its_content(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    created = asyncio.ensure_future(bot.wait_for("message"))
    await asyncio.sleep(0)  # listening
    said = alice.say("anyone up for a game?")
    await fake.settle()
    message = created.result()
    assert (message.id, message.author.id, message.channel.id) == (
        said.id, alice.id, alice.channel.id)
    assert message.content == "" and message.embeds == [] and message.attachments == []
    assert said.content == "anyone up for a game?"  # the channel shows it

    edited = asyncio.ensure_future(bot.wait_for("raw_message_edit"))
    await asyncio.sleep(0)
    alice.edit_said(said, "anyone up for two games?")
    await fake.settle()
    update = edited.result()
    data: dict[str, Any] = dict(update.data)  # the event's fields, channel_type included
    assert update.message_id == said.id and data["content"] == ""
    assert data["edited_timestamp"] is not None and data["tts"] is False
    assert data["channel_type"] == discord.ChannelType.text.value


async def test_a_message_mentioning_the_bot_keeps_its_content(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    created = asyncio.ensure_future(bot.wait_for("message"))
    await asyncio.sleep(0)
    alice.say(f"{fake.world.bot.mention} hello")
    await fake.settle()
    assert created.result().content == f"{fake.world.bot.mention} hello"


async def test_with_the_message_content_intent_the_content_arrives(
    fake: FakeDiscord, alice: TestUser
) -> None:
    intents = discord.Intents.default()
    intents.message_content = True
    client = discord.Client(intents=intents, guild_ready_timeout=0)
    await fake.connect(client)
    created = asyncio.ensure_future(client.wait_for("message"))
    await asyncio.sleep(0)
    alice.say("gg")
    await fake.settle()
    assert created.result().content == "gg"
    await fake.disconnect(client)


async def test_a_bot_without_guild_messages_hears_no_chatter(
    fake: FakeDiscord, alice: TestUser
) -> None:
    # enable_debug_events: discord.py reports every event it receives.
    client = discord.Client(intents=discord.Intents(guilds=True), guild_ready_timeout=0,
                            enable_debug_events=True)
    events: list[str] = []

    async def on_socket_event_type(event: str) -> None:
        events.append(event)

    client.event(on_socket_event_type)
    await fake.connect(client)
    said = alice.say("hello")
    alice.edit_said(said, "hello again")
    await fake.settle()
    assert (fake.gateway.sent("MESSAGE_CREATE"), fake.gateway.sent("MESSAGE_UPDATE")) == (0, 0)
    assert "READY" in events  # the client does hear events
    assert "MESSAGE_CREATE" not in events and "MESSAGE_UPDATE" not in events
    await fake.disconnect(client)


async def test_only_the_author_may_edit_a_member_message(
    fake: FakeDiscord, alice: TestUser, bob: TestUser
) -> None:
    said = alice.say("mine")
    with pytest.raises(UserActionError):
        bob.edit_said(said, "yours")
    assert fake.world.messages[said.id].content == "mine"


async def test_a_webhooks_post_reaches_the_bot_as_discord_sends_it(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    """A channel webhook's post: its id as both ``webhook_id`` and the author's, the
    author a bot, no ``member`` and no ``application_id``; the same webhook posts again
    under the same id."""
    created = asyncio.ensure_future(bot.wait_for("message"))
    await asyncio.sleep(0)
    said = fake.webhook_says(alice.channel, "RSS", "patch notes are out")
    await fake.settle()
    message = created.result()
    assert message.webhook_id is not None and message.author.id == message.webhook_id
    assert message.author.bot and message.author.name == "RSS"
    assert not isinstance(message.author, discord.Member)  # no member: a webhook's
    assert message.content == "" and said.content == "patch notes are out"
    again = fake.webhook_says(alice.channel, "RSS", "and a hotfix")
    assert again.author_id == message.webhook_id
    payload = gateway_message_payload(fake.world, fake.world.messages[said.id])
    assert payload["webhook_id"] == str(message.webhook_id)
    assert "member" not in payload and "application_id" not in payload


async def test_another_bots_post_says_its_author_is_a_bot(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    music = fake.add_user("DJ", bot=True)
    created = asyncio.ensure_future(bot.wait_for("message"))
    await asyncio.sleep(0)
    music.say("Now playing: Président, the theme")
    await fake.settle()
    message = created.result()
    assert message.author.id == music.id and message.author.bot
    assert message.webhook_id is None
    assert not alice.user.bot
