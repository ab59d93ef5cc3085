"""The bot's channel permissions, the invalid-request count, edits of old messages, and
command scopes: the fake is as strict as Discord on each (issue 8, parts 1, 3 and 6)."""

from __future__ import annotations

import io

import discord
import pytest

from fakediscord import FakeDiscord, TestUser, UserActionError
from fakediscord.payloads import CHANNEL_PERMISSIONS, interaction_payload

from .tinybot import TinyBot


async def posted_then_denied(
    fake: FakeDiscord, bot: TinyBot, text: str, **denied: bool
) -> tuple[discord.PartialMessageable, discord.Message]:
    """The bot posts ``text`` in the channel, then is denied the ``denied`` permissions there."""
    channel = bot.get_partial_messageable(fake.channel.id)
    posted = await channel.send(text)
    fake.set_bot_permissions(fake.channel, **denied)
    return channel, posted


async def test_a_channel_without_send_messages_refuses_posts_with_50013(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    channel, posted = await posted_then_denied(fake, bot, "before", send_messages=False)

    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("after")
    assert refused.value.code == 50013
    fake.expect_error(50013)
    # Editing its own message needs no SEND_MESSAGES: still fine.
    await channel.get_partial_message(posted.id).edit(content="edited")
    assert fake.invalid_requests() == 1


async def test_a_channel_the_bot_cannot_see_refuses_everything_with_50001(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    channel, posted = await posted_then_denied(fake, bot, "before", view_channel=False)

    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("after")
    assert refused.value.code == 50001
    with pytest.raises(discord.Forbidden) as refused:
        await channel.get_partial_message(posted.id).edit(content="x")
    assert refused.value.code == 50001
    fake.expect_error(50001)
    fake.expect_error(50001)
    assert fake.invalid_requests() == 2
    fake.clock.advance(601)
    assert fake.invalid_requests() == 0  # Cloudflare's window is 10 minutes


async def test_embeds_need_embed_links_and_history_needs_read_message_history(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    channel, _ = await posted_then_denied(fake, bot, "plain", embed_links=False,
                                          read_message_history=False)

    with pytest.raises(discord.Forbidden):
        await channel.send(embed=discord.Embed(title="t"))
    fake.expect_error(50013)
    assert [m async for m in channel.history(limit=10)] == []


async def test_files_need_attach_files_in_posts_and_in_edits(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    channel, posted = await posted_then_denied(fake, bot, "results", attach_files=False)
    message = channel.get_partial_message(posted.id)

    with pytest.raises(discord.Forbidden) as refused:
        await message.edit(attachments=[discord.File(io.BytesIO(b"png"), "chart.png")])
    assert refused.value.code == 50013
    with pytest.raises(discord.Forbidden):
        await channel.send(file=discord.File(io.BytesIO(b"png"), "chart.png"))
    fake.expect_error(50013)
    fake.expect_error(50013)
    await message.edit(content="text only")  # no file: still fine
    assert fake.world.messages[posted.id].attachments == []
    assert fake.world.messages[posted.id].content == "text only"


async def test_without_send_messages_an_edit_attaches_no_file(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    channel, posted = await posted_then_denied(fake, bot, "results", send_messages=False)

    with pytest.raises(discord.Forbidden) as refused:
        await channel.get_partial_message(posted.id).edit(
            attachments=[discord.File(io.BytesIO(b"png"), "chart.png")])
    assert refused.value.code == 50013  # ATTACH_FILES is implicitly denied with it
    fake.expect_error(50013)
    fake.set_bot_permissions(fake.channel, send_messages=True)
    await channel.get_partial_message(posted.id).edit(
        attachments=[discord.File(io.BytesIO(b"png"), "chart.png")])
    assert [a["filename"] for a in fake.world.messages[posted.id].attachments] == ["chart.png"]


async def test_app_permissions_report_the_channel_permissions(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    fake.set_bot_permissions(fake.channel, send_messages=False, attach_files=False)
    record = await alice.slash("slow", settle=False)
    bot.gate.set()
    await fake.settle()
    granted = int(interaction_payload(fake.world, record)["app_permissions"])

    assert not granted & CHANNEL_PERMISSIONS["send_messages"]
    assert not granted & CHANNEL_PERMISSIONS["attach_files"]
    assert granted & CHANNEL_PERMISSIONS["view_channel"]
    with pytest.raises(ValueError):
        fake.set_bot_permissions(fake.channel, administrator=False)


async def test_a_server_without_the_bot_user_reports_only_the_response_permissions(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    """A server that authorized the app's commands alone: its interactions reach the bot
    with @everyone's permissions limited to those of a response (change log, June 29,
    2022), no GUILD_CREATE tells the bot of it, and every channel route refuses it, until
    the bot is invited."""
    guild = fake.add_guild("Commands only", bot=False)
    channel = fake.add_channel(guild, "games")
    carol = fake.add_user("carol", guilds=[guild])
    await fake.settle()
    assert bot.get_guild(guild.id) is None
    record = await carol.slash("slow", settle=False)
    bot.gate.set()
    await fake.settle()
    granted = int(interaction_payload(fake.world, record)["app_permissions"])
    assert granted == sum(CHANNEL_PERMISSIONS[name] for name in
                          ("attach_files", "embed_links", "use_external_emojis"))
    with pytest.raises(discord.Forbidden) as refused:
        await bot.get_partial_messageable(channel.id).send("hello")
    assert refused.value.code == 50001
    fake.expect_error(50001)

    fake.invite_bot(guild)
    await fake.settle()
    assert bot.get_guild(guild.id) is not None
    await bot.get_partial_messageable(channel.id).send("hello")


async def test_edits_of_a_message_older_than_an_hour_run_out_with_30046(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    fake.writer.old_edit_limit = 2
    channel = bot.get_partial_messageable(fake.channel.id)
    posted = await channel.send("old")
    edit = channel.get_partial_message(posted.id).edit
    for _ in range(5):
        await edit(content="young")  # under an hour: no limit
    fake.clock.advance(3601)
    await edit(content="1")
    await edit(content="2")

    with pytest.raises(discord.HTTPException) as refused:
        await edit(content="3")
    assert (refused.value.status, refused.value.code) == (400, 30046)
    fake.expect_error(30046)


async def test_guild_commands_do_not_hide_global_ones(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    bot.tree.copy_global_to(guild=discord.Object(fake.guild.id))
    await bot.tree.sync(guild=discord.Object(fake.guild.id))

    with pytest.raises(UserActionError, match="listed twice"):
        await alice.slash("slow")
    bot.tree.clear_commands(guild=discord.Object(fake.guild.id))
    await bot.tree.sync(guild=discord.Object(fake.guild.id))
    bot.gate.set()
    assert (await alice.slash("slow")).response_type == 4
