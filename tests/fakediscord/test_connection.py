"""Bot restarts, rate limits, and the plumbing a bot process relies on."""

from __future__ import annotations

import asyncio
import io
import logging

import aiohttp
import discord
import pytest

from fakediscord import FakeDiscord, TestUser, errors

from .tinybot import ShardedTinyBot, TinyBot


async def test_restarted_bot_handles_old_dynamic_buttons(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser, bob: TestUser
) -> None:
    await alice.slash("president create", preset="classic")
    table = bob.last_message()
    await fake.disconnect(bot)

    with pytest.raises(AssertionError, match="no bot is connected"):
        await bob.click(table, "Join")

    reborn = TinyBot()
    await fake.connect(reborn)
    await bob.click(table, "Join")

    assert reborn.joins and reborn.joins[0][1] == bob.id
    assert bot.joins == []
    assert bob.last_message().content.endswith("bob joined")


async def test_dropped_gateway_resumes_the_session(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    resumed = asyncio.create_task(bot.wait_for("resumed", timeout=5))

    await fake.drop_gateway()
    await resumed
    await alice.slash("president hand")

    assert alice.last_ephemeral().content.startswith("Your hand")


async def test_members_are_chunked_at_startup(
    fake: FakeDiscord, alice: TestUser, bob: TestUser
) -> None:
    bot = TinyBot()
    await fake.connect(bot)

    guild = bot.get_guild(fake.guild.id)
    assert guild is not None and guild.chunked
    assert sorted(m.name for m in guild.members) == ["Président", "alice", "bob"]
    assert guild.get_member(alice.id) is not None


async def test_auto_sharded_client(fake: FakeDiscord, alice: TestUser) -> None:
    bot = ShardedTinyBot(fake.clock)
    await fake.connect(bot)

    await alice.slash("president hand")

    assert alice.last_ephemeral().content.startswith("Your hand")
    assert "/gateway/bot" in [c.route for c in fake.calls]


async def test_injected_429_is_retried_by_discord_py(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser, caplog: pytest.LogCaptureFixture
) -> None:
    route = "/channels/{channel_id}/messages"
    callback = "/interactions/{webhook_id}/{webhook_token}/callback"
    fake.inject_429(route, method="POST", times=2)
    fake.inject_429(callback)
    mark = fake.mark()

    with caplog.at_level(logging.WARNING, logger="discord"):
        await alice.slash("post")

    assert [c.status for c in fake.calls_since(mark, route)] == [429, 429, 200, 200]
    assert [c.status for c in fake.calls_since(mark, callback)] == [429, 200]
    assert "rate limited" in caplog.text
    assert alice.last_ephemeral().content == "ok"
    assert fake.errors == []


async def test_unknown_routes_are_reported(fake: FakeDiscord, bot: TinyBot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(
            discord.http.Route("POST", "/channels/{channel_id}/typing", channel_id=fake.channel.id)
        )

    refused = fake.expect_error(0)
    assert refused.note == "route not implemented by fakediscord"


async def test_fetches_and_history(fake: FakeDiscord, bot: TinyBot, alice: TestUser) -> None:
    await alice.slash("president create", preset="classic")
    await alice.slash("post")

    channel = await bot.fetch_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    history = [m.content async for m in channel.history(limit=10)]
    assert history[0] == "posted and edited"
    assert len(history) == 2  # ephemeral messages are not in the channel history
    member = await channel.guild.fetch_member(alice.id)
    assert member.name == "alice"
    user = await bot.fetch_user(alice.id)
    assert user.name == "alice"
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(alice.last_ephemeral().id)
    fake.expect_error(10008)


async def test_history_after_pages_from_the_oldest_newest_first(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    """Get Channel Messages "Returns an array of message objects from newest to oldest"
    (https://discord.com/developers/docs/resources/message#get-channel-messages); with
    `after`, the page is the `limit` messages right after that id, so the next page is
    `after` the newest of it ("Snowflake IDs in Pagination",
    https://discord.com/developers/docs/reference), as discord.py's `history` pages."""
    said = [alice.say(f"mdr {n}").id for n in range(150)]
    await fake.settle()
    first = await bot.http.logs_from(fake.channel.id, 100, after=said[0] - 1)
    assert [int(m["id"]) for m in first] == said[99::-1]
    second = await bot.http.logs_from(fake.channel.id, 100, after=int(first[0]["id"]))
    assert [int(m["id"]) for m in second] == said[:99:-1]
    newest = await bot.http.logs_from(fake.channel.id, 100)
    assert [int(m["id"]) for m in newest][:3] == said[:-4:-1]
    channel = bot.get_partial_messageable(fake.channel.id)
    paged = [m.id async for m in channel.history(
        limit=None, after=discord.Object(said[0] - 1), oldest_first=True)]
    assert paged == said


async def test_wrong_token_is_refused(fake: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(discord.LoginFailure):
        await client.login("not-the-token")
    await client.close()
    fake.expect_error(0)


async def test_injected_failures_answer_only_uploads_when_asked(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    """`inject_error` answers Discord's error (or a bare status as Discord words one) and
    `inject_disconnect` drops the call; with ``uploads``, an edit without files goes by."""
    route = "/channels/{channel_id}/messages/{message_id}"
    sent = await bot.get_partial_messageable(fake.channel.id, guild_id=fake.guild.id).send("hi")

    def chart() -> discord.File:
        return discord.File(io.BytesIO(b"\x89PNG"), filename="chart.png")

    fake.inject_error(route, errors.request_entity_too_large(), method="PATCH", uploads=True)
    fake.inject_disconnect(route, method="PATCH", uploads=True)
    fake.inject_error(route, 503, method="PATCH", uploads=True)
    await sent.edit(content="no file")
    with pytest.raises(discord.HTTPException) as too_large:
        await sent.edit(attachments=[chart()])
    assert (too_large.value.status, too_large.value.code) == (413, 40005)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await sent.edit(attachments=[chart()])
    with pytest.raises(discord.DiscordServerError) as unavailable:
        await sent.edit(attachments=[chart()])
    assert (unavailable.value.status, unavailable.value.text) == (503, "503: Service Unavailable")
    edited = await sent.edit(attachments=[chart()])
    assert [a.filename for a in edited.attachments] == ["chart.png"]
    assert [(c.status, c.injected) for c in fake.calls_since(0, route)] == [
        (200, False), (413, True), (0, True), (503, True), (200, False)]
    assert fake.errors == [] and fake.invalid_requests() == 0


async def test_a_member_who_leaves_is_gone_with_no_ban_nor_audit_log_entry(
    fake: FakeDiscord, alice: TestUser, bob: TestUser
) -> None:
    """`FakeDiscord.leave`: a bot with the members intent sees bob leave (GUILD_MEMBER_REMOVE);
    Get Guild Member answers 404 Unknown Member for him, and no ban nor audit log entry is
    sent, even to a bot that may view the audit log."""
    bot = TinyBot()
    await fake.connect(bot)
    fake.set_bot_guild_permissions(fake.guild, view_audit_log=True)
    guild = bot.get_guild(fake.guild.id)
    assert guild is not None and guild.get_member(bob.id) is not None
    sent = {event: fake.gateway.sent(event) for event in (
        "GUILD_MEMBER_REMOVE", "GUILD_BAN_ADD", "GUILD_AUDIT_LOG_ENTRY_CREATE")}
    fake.leave(fake.guild, bob)
    await fake.settle()
    assert guild.get_member(bob.id) is None
    assert {event: fake.gateway.sent(event) - before for event, before in sent.items()} == {
        "GUILD_MEMBER_REMOVE": 1, "GUILD_BAN_ADD": 0, "GUILD_AUDIT_LOG_ENTRY_CREATE": 0}
    with pytest.raises(discord.NotFound):
        await guild.fetch_member(bob.id)
    assert (await guild.fetch_member(alice.id)).id == alice.id
    fake.expect_error(errors.UNKNOWN_MEMBER)
