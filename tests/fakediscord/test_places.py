"""Where communities play: a voice channel's text chat, an announcement channel, a forum and
its posts, private threads, threads that archive themselves, slowmode. The fake is as
strict as Discord's docs on each (play-test 15)."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

from fakediscord import (
    GUILD_ANNOUNCEMENT,
    GUILD_FORUM,
    GUILD_STAGE_VOICE,
    GUILD_VOICE,
    FakeDiscord,
    TestUser,
    UserActionError,
)
from tests.fresh import fresh

from .tinybot import TinyBot


async def post(bot: TinyBot, channel_id: int, text: str) -> discord.Message:
    return await bot.get_partial_messageable(channel_id).send(text)


async def test_each_place_reaches_discordpy_as_its_own_kind_of_channel(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    voice = fake.add_channel(fake.guild, "salon-vocal", kind=GUILD_VOICE)
    stage = fake.add_channel(fake.guild, "scène", kind=GUILD_STAGE_VOICE)
    news = fake.add_channel(fake.guild, "annonces", kind=GUILD_ANNOUNCEMENT)
    forum = fake.add_channel(fake.guild, "forum", kind=GUILD_FORUM)
    await fake.settle()
    post_ = fake.add_thread(forum, "soirée", alice)
    news_thread = fake.add_thread(news, "suite", alice)
    await fake.settle()
    assert isinstance(bot.get_channel(voice.id), discord.VoiceChannel)
    assert isinstance(bot.get_channel(stage.id), discord.StageChannel)
    announcement = bot.get_channel(news.id)
    assert isinstance(announcement, discord.TextChannel) and announcement.is_news()
    assert isinstance(bot.get_channel(forum.id), discord.ForumChannel)
    cached = bot.get_channel(post_.id)
    assert isinstance(cached, discord.Thread) and cached.type is discord.ChannelType.public_thread
    assert isinstance(cached.parent, discord.ForumChannel)
    assert getattr(bot.get_channel(news_thread.id), "type", None) \
        is discord.ChannelType.news_thread
    for place in (voice, stage, news, post_, news_thread):
        await post(bot, place.id, "ok")
    fake.assert_no_errors()


async def test_a_voice_channels_text_chat_needs_connect(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    """Without Connect a voice channel is out of reach as without View Channel: 50001."""
    voice = fake.add_channel(fake.guild, "salon-vocal", kind=GUILD_VOICE)
    fake.set_bot_permissions(voice, connect=False)
    await fake.settle()
    with pytest.raises(discord.Forbidden) as refused:
        await post(bot, voice.id, "?")
    assert refused.value.code == 50001
    fake.expect_error(50001)


async def test_commands_are_typed_in_a_forums_posts_not_in_the_forum(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    forum = fake.add_channel(fake.guild, "forum", kind=GUILD_FORUM)
    with pytest.raises(UserActionError, match="forum"):
        await alice.slash("president hand", channel=forum)
    with pytest.raises(UserActionError, match="forum"):
        alice.say("hello", channel=forum)
    post_ = fake.add_thread(forum, "soirée", alice)
    await alice.slash("president hand", channel=post_)
    fake.assert_no_errors()


async def test_a_private_thread_is_the_bots_only_once_it_is_added(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser, bob: TestUser
) -> None:
    """Not a member and no moderator, the bot hears nothing of a private thread and may not
    post there (50001); its members may; added, it gets THREAD_CREATE then
    THREAD_MEMBERS_UPDATE; removed, it is out again."""
    fake.set_bot_permissions(fake.channel, manage_threads=False)
    created = fake.gateway.sent("THREAD_CREATE")
    thread = fake.add_thread(fake.channel, "entre nous", alice, private=True)
    await fake.settle()
    assert fake.gateway.sent("THREAD_CREATE") == created
    assert bot.get_channel(thread.id) is None
    with pytest.raises(UserActionError, match="private thread"):
        await bob.slash("president hand", channel=thread)
    await alice.slash("president hand", channel=thread)
    with pytest.raises(discord.Forbidden) as refused:
        await post(bot, thread.id, "?")
    assert refused.value.code == 50001
    fake.expect_error(50001)

    fake.add_bot_to_thread(thread)
    await fake.settle()
    cached = bot.get_channel(thread.id)
    assert isinstance(cached, discord.Thread) and cached.is_private() and cached.me is not None
    await post(bot, thread.id, "ok")
    fake.remove_bot_from_thread(thread)
    await fake.settle()
    with pytest.raises(discord.Forbidden):
        await post(bot, thread.id, "?")
    fake.expect_error(50001)


async def test_a_moderator_bot_sees_every_private_thread(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    thread = fake.add_thread(fake.channel, "entre nous", alice, private=True)
    await fake.settle()
    assert isinstance(bot.get_channel(thread.id), discord.Thread)
    await post(bot, thread.id, "ok")
    fake.assert_no_errors()


async def test_a_thread_archives_itself_after_its_inactivity_and_edits_do_not_count(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    thread = fake.add_thread(fake.channel, "partie", alice, auto_archive=60)
    await fake.settle()
    posted = await post(bot, thread.id, "table")
    message = bot.get_partial_messageable(thread.id).get_partial_message(posted.id)
    for _ in range(3):  # edits every 15 minutes: no activity
        fake.clock.advance(15 * 60)
        await message.edit(content="edited")
    fake.clock.advance(15 * 60)
    with pytest.raises(discord.HTTPException) as refused:
        await message.edit(content="late")
    assert refused.value.code == 50083 and thread.archived
    await fake.settle()
    assert bot.get_channel(thread.id) is None  # THREAD_UPDATE: discord.py drops it
    fake.expect_error(50083)
    await post(bot, thread.id, "again")  # a post unarchives it, and is activity
    assert not fresh(thread).archived
    fake.clock.advance(59 * 60)
    fake.archive_idle_threads()
    assert not fresh(thread).archived
    fake.clock.advance(60)
    fake.archive_idle_threads()
    assert thread.archived
    fake.assert_no_errors()


async def test_an_archived_thread_is_not_in_guild_create(
    fake: FakeDiscord, alice: TestUser
) -> None:
    """GUILD_CREATE's `threads` are "all active threads in the guild that the current user
    is able to view" (Threads, Gateway Events)."""
    thread = fake.add_thread(fake.channel, "partie", alice)
    fake.archive_thread(thread)
    bot = TinyBot()
    await fake.connect(bot)
    assert bot.get_channel(thread.id) is None


async def test_get_channel_finds_an_archived_thread_not_a_deleted_one(
    fake: FakeDiscord, alice: TestUser
) -> None:
    """Get Channel (« Get a channel by ID », Channel, Get Channel) answers for an archived
    thread, which GUILD_CREATE leaves out, with its channel and `thread_metadata`; a deleted
    channel or thread is 404 Unknown Channel (10003), one the bot may not view 403 Missing
    Access (50001): what the start-up sweep tells apart (stop 56)."""
    archived = fake.add_thread(fake.channel, "partie", alice)
    deleted = fake.add_thread(fake.channel, "supprimée", alice)
    hidden = fake.add_thread(fake.channel, "cachée", alice)
    fake.archive_thread(archived)
    fake.delete_channel(deleted)
    fake.set_bot_permissions(hidden, view_channel=False)
    bot = TinyBot()
    await fake.connect(bot)
    assert bot.get_channel(archived.id) is None
    found = await bot.http.get_channel(archived.id)
    assert (found["type"], found.get("parent_id")) == (11, str(fake.channel.id))
    metadata = found.get("thread_metadata")
    assert isinstance(metadata, dict) and metadata["archived"] is True
    with pytest.raises(discord.NotFound) as gone:
        await bot.http.get_channel(deleted.id)
    assert gone.value.code == 10003
    fake.expect_error(10003)
    with pytest.raises(discord.Forbidden) as hid:
        await bot.http.get_channel(hidden.id)
    assert hid.value.code == 50001
    fake.expect_error(50001)
    fake.assert_no_errors()
    await fake.disconnect(bot)


async def test_slowmode_holds_members_not_the_bot(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    fake.set_slowmode(fake.channel, 60)
    await fake.settle()
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel) and channel.slowmode_delay == 60
    alice.say("un")
    with pytest.raises(UserActionError, match="slowmode"):
        alice.say("deux")
    for text in ("a", "b", "c"):
        await post(bot, fake.channel.id, text)
    fake.clock.advance(timedelta(seconds=60).total_seconds())
    alice.say("trois")
    fake.assert_no_errors()
