"""A moderator pins, unpins and renames: what Discord sends the bot (discord-api-docs,
developers/resources/message.mdx « Pin Message », « Unpin Message », Message Object « Pin
messages »; developers/events/gateway-events.mdx « Channel Pins Update », « Channel Update »,
« Thread Update »)."""

from __future__ import annotations

import asyncio
from datetime import datetime

import discord

from fakediscord import FakeDiscord, TestUser
from fakediscord.messages import CHANNEL_PINNED_MESSAGE

from .tinybot import TinyBot


async def test_a_pin_posts_its_notice_and_both_send_channel_pins_update(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    modo = fake.add_user("modo")
    said = alice.say("à toi !")
    await fake.settle()
    created = asyncio.ensure_future(bot.wait_for("message"))
    pins = asyncio.ensure_future(bot.wait_for("guild_channel_pins_update"))
    await asyncio.sleep(0)  # listening
    fake.pin(said, modo)
    await fake.settle()
    notice: discord.Message = created.result()
    assert notice.type is discord.MessageType.pins_add and notice.author.id == modo.id
    assert notice.reference is not None and notice.reference.message_id == said.id
    channel, last = pins.result()
    assert channel.id == fake.channel.id and isinstance(last, datetime)
    shown = {m.id: m for m in fake.messages(fake.channel)}
    assert shown[said.id].pinned and shown[notice.id].type == CHANNEL_PINNED_MESSAGE

    unpinned = asyncio.ensure_future(bot.wait_for("guild_channel_pins_update"))
    await asyncio.sleep(0)
    fake.pin(said, modo, pinned=False)
    await fake.settle()
    assert unpinned.result()[1] is None  # no pin left
    assert not {m.id: m for m in fake.messages(fake.channel)}[said.id].pinned
    assert fake.messages(fake.channel)[-1].id == notice.id  # an unpin posts nothing


async def test_a_renamed_channel_and_thread_reach_the_cache(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    thread = fake.add_thread(fake.channel, "partie", alice)
    await fake.settle()
    fake.rename_channel(fake.channel, "cartes-du-soir")
    fake.rename_channel(thread, "finale")
    await fake.settle()
    assert getattr(bot.get_channel(fake.channel.id), "name", None) == "cartes-du-soir"
    assert getattr(bot.get_channel(thread.id), "name", None) == "finale"
