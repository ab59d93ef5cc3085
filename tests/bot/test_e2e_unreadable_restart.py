"""End-to-end: the word owed to the channel of a table found unreadable at start survives a
stop before its server was described (docs/bot.md, « Small fixes (stop 45) »)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.publisher.charts import RETRY_DELAYS
from bot.storage import Storage
from fakediscord import FakeDiscord, TestUser, errors
from fakediscord.state import Channel

from .conftest import LinkedClock
from .e2e import connect_bot, create_table, database_url, message, tick

LONG_AGO = datetime(2000, 1, 1, tzinfo=UTC)


async def start(fake: FakeDiscord, clock: LinkedClock, url: str) -> PresidentBot:
    """A new process on the database at `url`, up for a second."""
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    await fake.settle()
    await tick(fake, clock, 1)
    return bot


def channel_calls(fake: FakeDiscord, mark: int, channel_id: int) -> list[str]:
    """The posts and edits in the channel since `mark`."""
    return [f"{c.method} {c.path}" for c in fake.calls_since(mark)
            if c.path.startswith(f"/channels/{channel_id}/messages") and c.method != "GET"]


async def test_an_unreadable_table_s_word_survives_a_stop_before_its_server_was_described(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """marie's table is stored in a state the next version cannot read (a rollback), and
    that version starts while Discord has lost the server (an outage): the table is closed
    at once, its word owed until the server's GUILD_CREATE. The process stops before it
    (a redeploy, a crash). The word was kept in memory only: the next start found the
    table closed, nobody was told, and the lobby kept its dead buttons for good. It is
    stored as owed with the closing: the next start, the server described, says it on
    the lobby, once, and the start after that says nothing."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(bot, marie)
    lobby = table.lobby_message_id
    assert lobby is not None and message(marie, lobby).buttons
    await bot.service.drain()
    await fake.disconnect(bot)
    storage = await Storage.open(url)
    newer = {"locale": "fr", "lobby_message_id": lobby, "game": "a newer version's"}
    assert await storage.save_snapshot(table.id, table.seq + 1, newer)
    await storage.close()

    fake.start_outage(fake.guild)
    await fake.settle()
    mark = fake.mark()
    rolled_back = await start(fake, clock, url)
    assert [r.name for r in caplog.records if r.levelname == "ERROR"] == ["bot.tables.restore"]
    caplog.clear()
    assert rolled_back.storage is not None
    record = await rolled_back.storage.get_table(table.id)
    assert record is not None and record.status == "closed"
    assert channel_calls(fake, mark, marie.channel.id) == []
    await fake.disconnect(rolled_back)  # before the server was described
    fake.end_outage(fake.guild)
    await fake.settle()
    assert message(marie, lobby).buttons

    mark = fake.mark()
    again = await start(fake, clock, url)
    told = message(marie, lobby)
    assert told.content == t("fr", "table.unreadable") and not told.buttons
    assert channel_calls(fake, mark, marie.channel.id) == [
        f"PATCH /channels/{marie.channel.id}/messages/{lobby}"]
    assert again.storage is not None and await again.storage.unreadable_since(LONG_AGO) == []
    await fake.disconnect(again)

    mark = fake.mark()
    third = await start(fake, clock, url)
    assert channel_calls(fake, mark, marie.channel.id) == []
    await fake.disconnect(third)
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    fake.assert_no_errors()


async def test_a_long_429_on_an_unreadable_table_s_word_holds_neither_the_server_nor_it(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """marie's table cannot be read after a rollback, paul's, in another channel of the
    server, can. The word on marie's lobby meets a 429 of 40 s, past discord.py's
    `max_ratelimit_timeout`, which it raises at once (`discord.RateLimited`). It went up
    through the server's description, before its tables were let post: paul's table
    posted nothing until the server's next outage or the next start, and marie's word
    waited for that start too. paul's table goes on now, and marie's lobby is told once
    the 40 s are out."""
    url = database_url(tmp_path)
    marie, lobby = await rolled_back(fake, clock, url)
    fake.inject_429("/channels/{channel_id}/messages/{message_id}", method="PATCH",
                    retry_after=40.0)
    again = await start(fake, clock, url)
    assert [c.status for c in fake.calls if c.injected] == [429]
    caplog.clear()  # the rollback's table, logged once
    assert not again.publisher.servers.holds(fake.guild.id)
    assert message(marie, lobby).buttons
    await tick(fake, clock, 40)
    told = message(marie, lobby)
    assert told.content == t("fr", "table.unreadable") and not told.buttons
    assert again.storage is not None and await again.storage.unreadable_since(LONG_AGO) == []
    await fake.disconnect(again)
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    fake.assert_no_errors()


async def rolled_back(fake: FakeDiscord, clock: LinkedClock, url: str, *,
                      beside_paul: bool = True) -> tuple[TestUser, int]:
    """marie's table, stored in a state the next version cannot read (a rollback), and
    (`beside_paul`) paul's, readable, in another channel of the server; the process
    stopped. marie, and her lobby's id."""
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(bot, marie)
    if beside_paul:
        paul = fake.add_user("paul", locale="fr")
        paul.channel = fake.add_channel(fake.guild, "autre-table")
        await create_table(bot, paul)
    lobby = table.lobby_message_id
    assert lobby is not None
    await bot.service.drain()
    await fake.disconnect(bot)
    storage = await Storage.open(url)
    newer = {"locale": "fr", "lobby_message_id": lobby, "game": "a newer version's"}
    assert await storage.save_snapshot(table.id, table.seq + 1, newer)
    await storage.close()
    return marie, lobby


async def posted_then_killed(fake: FakeDiscord, clock: LinkedClock, url: str,
                             monkeypatch: pytest.MonkeyPatch,
                             caplog: pytest.LogCaptureFixture) -> tuple[Channel, str]:
    """marie's table stored in a state the next version cannot read, its lobby deleted:
    its word is a post, said by a start killed before storing it as told (that write
    failing as a kill leaves it unwritten). Her channel, and the word."""
    marie, lobby = await rolled_back(fake, clock, url, beside_paul=False)
    fake.delete_message(lobby)
    said = t("fr", "table.unreadable")

    async def killed(self: Storage, table_ids: object) -> None:
        raise ConnectionError("killed before the write")

    with monkeypatch.context() as kill:
        kill.setattr(Storage, "told_unreadable", killed)
        bot = await start(fake, clock, url)
        assert [m.content for m in fake.messages(marie.channel)] == [said]
        await fake.disconnect(bot)
    assert [r.name for r in caplog.records if r.levelname == "ERROR"] == ["bot.tables.restore"]
    caplog.clear()  # the rollback found, as it is at each start that closes the table
    fake.expect_error(errors.UNKNOWN_MESSAGE)  # the lobby, gone
    return marie.channel, said


def fail_the_word(fake: FakeDiscord, failure: str, times: int = 1) -> None:
    """The next `times` edits of a message meet `failure`: a 503, which discord.py
    raises at once (`DiscordServerError`, past its retries as a 502's five are), a
    dropped connection (aiohttp's `ServerDisconnectedError`, which it does not retry), or
    a timeout (aiohttp's `TimeoutError`, raised in the client: `FakeDiscord.inject_timeout`)."""
    route = "/channels/{channel_id}/messages/{message_id}"
    if failure == "503":
        fake.inject_error(route, 503, method="PATCH", times=times)
    elif failure == "timeout":
        fake.inject_timeout(route, method="PATCH", times=times)
    else:
        fake.inject_disconnect(route, method="PATCH", times=times)


@pytest.mark.parametrize("failure", ["503", "dropped connection", "timeout"])
async def test_a_passing_failure_of_an_unreadable_table_s_word_keeps_it_owed_and_tries_again(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, caplog: pytest.LogCaptureFixture,
    failure: str
) -> None:
    """The word on marie's lobby meets a server error ("5xx (SERVER ERROR)", HTTP
    Response Codes, https://discord.com/developers/docs/topics/opcodes-and-status-codes#http-http-response-codes)
    a dropped connection or a timeout. The 503 counted as told: the stored word was deleted
    and the lobby kept its dead buttons for good. The dropped connection (or the timeout),
    no `HTTPException`,
    went up through the server's description as a long 429 did: paul's table posted
    nothing until the next start. Now the server goes on, the word stays owed, and it is
    told 5 s later (`RETRY_DELAYS`)."""
    url = database_url(tmp_path)
    marie, lobby = await rolled_back(fake, clock, url)
    fail_the_word(fake, failure)
    again = await start(fake, clock, url)
    assert [c.status for c in fake.calls if c.injected] == [503 if failure == "503" else 0]
    caplog.clear()  # the rollback's table, logged once
    assert not again.publisher.servers.holds(fake.guild.id)
    assert message(marie, lobby).buttons
    assert again.storage is not None and await again.storage.unreadable_since(LONG_AGO) != []
    await tick(fake, clock, RETRY_DELAYS[0])
    told = message(marie, lobby)
    assert told.content == t("fr", "table.unreadable") and not told.buttons
    assert await again.storage.unreadable_since(LONG_AGO) == []
    await fake.disconnect(again)
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    fake.assert_no_errors()


async def test_an_unreadable_table_s_word_server_errors_keep_refusing_waits_for_the_next_start(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord answers the word on marie's lobby a 503 at its first try and at each of
    the `RETRY_DELAYS`' tries: no more tries in this process, but it stays owed in
    storage, and the next start tells it. (Alone on the server: another table's edits
    would take the injected answers.)"""
    url = database_url(tmp_path)
    marie, lobby = await rolled_back(fake, clock, url, beside_paul=False)
    fail_the_word(fake, "503", times=len(RETRY_DELAYS) + 1)
    again = await start(fake, clock, url)
    caplog.clear()  # the rollback's table, logged once
    assert not again.publisher.servers.holds(fake.guild.id)
    for delay in RETRY_DELAYS:
        await tick(fake, clock, delay)
    assert [c.status for c in fake.calls if c.injected] == [503] * (len(RETRY_DELAYS) + 1)
    mark = fake.mark()
    await tick(fake, clock, 600)
    assert channel_calls(fake, mark, marie.channel.id) == []
    assert message(marie, lobby).buttons
    assert again.storage is not None and await again.storage.unreadable_since(LONG_AGO) != []
    await fake.disconnect(again)

    third = await start(fake, clock, url)
    told = message(marie, lobby)
    assert told.content == t("fr", "table.unreadable") and not told.buttons
    assert third.storage is not None and await third.storage.unreadable_since(LONG_AGO) == []
    await fake.disconnect(third)
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    fake.assert_no_errors()


@pytest.mark.parametrize("refusal", ["403", "404"])
async def test_an_unreadable_table_s_word_refused_for_good_is_no_longer_owed(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, caplog: pytest.LogCaptureFixture,
    refusal: str
) -> None:
    """A refusal that will not go away (the channel closed to the bot: Missing Access; or
    gone: Unknown Channel) ends the word as before: nothing is tried again, nor stored."""
    url = database_url(tmp_path)
    marie, _ = await rolled_back(fake, clock, url)
    route = "/channels/{channel_id}/messages/{message_id}"
    if refusal == "403":  # the edit is refused
        fake.inject_error(route, errors.missing_access(), method="PATCH")
    else:  # the edit finds no message, and the post says it where none is left
        fake.inject_error(route, errors.unknown_channel(), method="PATCH")
        fake.inject_error("/channels/{channel_id}/messages", errors.unknown_channel(),
                          method="POST")
    again = await start(fake, clock, url)
    assert [c.status for c in fake.calls if c.injected] == (
        [403] if refusal == "403" else [404, 404])
    caplog.clear()  # the rollback's table, logged once
    assert not again.publisher.servers.holds(fake.guild.id)
    assert again.storage is not None and await again.storage.unreadable_since(LONG_AGO) == []
    mark = fake.mark()
    await tick(fake, clock, sum(RETRY_DELAYS))
    assert channel_calls(fake, mark, marie.channel.id) == []
    await fake.disconnect(again)
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    fake.assert_no_errors()
