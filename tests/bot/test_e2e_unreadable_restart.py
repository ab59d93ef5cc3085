"""End-to-end: the word owed to the channel of a table found unreadable at start survives a
stop before its server was described (docs/bot.md, « Small fixes (stop 45) »)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.storage import Storage
from fakediscord import FakeDiscord

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
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    paul = fake.add_user("paul", locale="fr")
    paul.channel = fake.add_channel(fake.guild, "autre-table")
    table = await create_table(bot, marie)
    await create_table(bot, paul)
    lobby = table.lobby_message_id
    assert lobby is not None
    await bot.service.drain()
    await fake.disconnect(bot)
    storage = await Storage.open(url)
    newer = {"locale": "fr", "lobby_message_id": lobby, "game": "a newer version's"}
    assert await storage.save_snapshot(table.id, table.seq + 1, newer)
    await storage.close()

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
