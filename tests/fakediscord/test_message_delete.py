"""A moderator deletes channel messages: the bot gets MESSAGE_DELETE, or one
MESSAGE_DELETE_BULK, when it asked for GUILD_MESSAGES (see `FakeDiscord.delete_message`)."""

from __future__ import annotations

import asyncio

import discord

from fakediscord import FakeDiscord, TestUser

from .tinybot import TinyBot


async def test_deleting_one_message_sends_message_delete(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("president create", preset="classic")
    (table,) = [m for m in alice.visible() if not m.ephemeral]
    deleted = asyncio.ensure_future(bot.wait_for("raw_message_delete"))
    await asyncio.sleep(0)  # listening
    fake.delete_message(table)
    await fake.settle()
    payload = deleted.result()
    assert isinstance(payload, discord.RawMessageDeleteEvent)
    assert (payload.message_id, payload.channel_id) == (table.id, alice.channel.id)
    assert table.id not in [m.id for m in alice.visible()]


async def test_deleting_several_messages_sends_one_message_delete_bulk(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("president create", preset="classic")
    await alice.slash("president create", preset="presi")
    tables = [m for m in alice.visible() if not m.ephemeral]
    single = asyncio.ensure_future(bot.wait_for("raw_message_delete"))
    bulk = asyncio.ensure_future(bot.wait_for("raw_bulk_message_delete"))
    await asyncio.sleep(0)  # listening
    fake.delete_messages(alice.channel, tables)
    await fake.settle()
    assert bulk.result().message_ids == {m.id for m in tables}
    assert not single.done()
    single.cancel()
