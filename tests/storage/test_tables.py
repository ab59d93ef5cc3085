"""Guild settings, users, tables and live snapshots."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.storage import ChannelBusy, Storage, UnknownTable, shard_of
from bot.storage.db import database_url, normalize_url
from engine.rules import RulesDict

GUILD = 1_100_000_000_000_000_000
CLASSIC: RulesDict = {"preset": "classic", "set": {}}


async def test_guild_settings_default_then_set(storage: Storage) -> None:
    assert (await storage.get_guild_settings(GUILD)).language is None
    await storage.set_guild_language(GUILD, "fr")
    assert (await storage.get_guild_settings(GUILD)).language == "fr"
    await storage.set_guild_language(GUILD, None)
    assert (await storage.get_guild_settings(GUILD)).language is None


async def test_table_lifecycle(storage: Storage) -> None:
    table_id = await storage.create_table(GUILD, 10, 500, CLASSIC)
    table = await storage.get_table_by_channel(10)
    assert table is not None
    assert (table.table_id, table.guild_id, table.host_id, table.status) == (
        table_id,
        GUILD,
        500,
        "lobby",
    )
    assert table.rules == CLASSIC
    assert table.created_at.tzinfo is not None

    rules: RulesDict = {"preset": "classic", "set": {"revolution": False}}
    updated = await storage.update_table(table_id, host_id=501, rules=rules, status="playing")
    assert (updated.host_id, updated.rules, updated.status) == (501, rules, "playing")
    assert updated.updated_at >= table.updated_at

    await storage.update_table(table_id, status="closed")
    assert await storage.get_table_by_channel(10) is None
    closed = await storage.get_table(table_id)
    assert closed is not None and closed.status == "closed"


async def test_one_open_table_per_channel(storage: Storage) -> None:
    first = await storage.create_table(GUILD, 10, 500, CLASSIC)
    with pytest.raises(ChannelBusy) as busy:
        await storage.create_table(GUILD, 10, 501, CLASSIC)
    assert busy.value.table_id == first

    await storage.update_table(first, status="closed")
    second = await storage.create_table(GUILD, 10, 501, CLASSIC)
    assert second != first


async def test_concurrent_creates_in_one_channel(storage: Storage) -> None:
    results = await asyncio.gather(
        *(storage.create_table(GUILD, 10, 500 + n, CLASSIC) for n in range(4)),
        return_exceptions=True,
    )
    created = [result for result in results if isinstance(result, int)]
    assert len(created) == 1
    assert all(isinstance(result, ChannelBusy) for result in results if result not in created)


async def test_unknown_table(storage: Storage) -> None:
    with pytest.raises(UnknownTable):
        await storage.update_table(999, status="playing")
    with pytest.raises(ValueError):
        await storage.update_table(999, status="paused")  # type: ignore[arg-type]
    assert await storage.get_table(999) is None


async def test_finished_is_no_stored_status(storage: Storage) -> None:
    """« finished », allowed by the first schema, was written by nothing: a table plays
    (« playing ») from a game's start until it goes back to its lobby."""
    table_id = await storage.create_table(GUILD, 10, 500, CLASSIC, status="playing")
    with pytest.raises(ValueError, match="lobby, playing, closed"):
        await storage.update_table(table_id, status="finished")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        await storage.create_table(GUILD, 11, 500, CLASSIC,
                                   status="finished")  # type: ignore[arg-type]
    stored = await storage.get_table(table_id)
    assert stored is not None and stored.status == "playing"


async def test_active_tables_by_guild_and_shard(storage: Storage) -> None:
    guilds = [((4000 + n) << 22) + 12345 for n in range(4)]  # guild n is on shard n of 4
    assert [shard_of(guild, 4) for guild in guilds] == [0, 1, 2, 3]
    ids = [await storage.create_table(guild, 100 + n, 1, CLASSIC) for n, guild in enumerate(guilds)]
    await storage.update_table(ids[3], status="closed")

    everything = await storage.active_tables()
    assert [table.table_id for table in everything] == ids[:3]
    mine = await storage.active_tables({guilds[0], guilds[3]})
    assert [table.table_id for table in mine] == [ids[0]]
    for shard in range(4):
        owned = await storage.active_tables(shard_ids={shard}, shard_count=4)
        assert all(shard_of(table.guild_id, 4) == shard for table in owned)
    owned = await storage.active_tables(shard_ids={0, 1}, shard_count=4)
    assert [table.table_id for table in owned] == ids[:2]
    with pytest.raises(ValueError):
        await storage.active_tables(shard_ids={0})


async def test_snapshot_only_moves_forward(storage: Storage) -> None:
    table_id = await storage.create_table(GUILD, 10, 500, CLASSIC)
    assert await storage.load_snapshot(table_id) is None

    assert await storage.save_snapshot(table_id, 5, {"v": 5})
    assert not await storage.save_snapshot(table_id, 5, {"v": "again"})
    assert not await storage.save_snapshot(table_id, 4, {"v": 4})
    assert await storage.save_snapshot(table_id, 9, {"v": 9})
    snapshot = await storage.load_snapshot(table_id)
    assert snapshot is not None
    assert (snapshot.seq, snapshot.state) == (9, {"v": 9})

    await storage.delete_snapshot(table_id)
    assert await storage.load_snapshot(table_id) is None
    assert await storage.save_snapshot(table_id, 1, {"v": 1})


async def test_snapshot_round_trips_runtime_state(storage: Storage) -> None:
    """Deadlines and token times come back as equal aware UTC datetimes."""
    table_id = await storage.create_table(GUILD, 10, 500, CLASSIC)
    paris = timezone(timedelta(hours=1))
    deadline = datetime(2030, 1, 2, 3, 4, 5, 678901, tzinfo=paris)
    state = {
        "engine": {"phase": "play", "hands": [["3H", "QS"], ["2C"]], "trick": []},
        "seats": [{"user_id": 2**63 - 1, "bot": False}, {"user_id": None, "bot": True}],
        "table_message_id": 1_234_567_890_123_456_789,
        "hand_tokens": {"0": {"token": "abc", "created": datetime.now(UTC)}},
        "timer": {"kind": "turn", "deadline": deadline, "epoch": 1893553445.5},
        "unicode": "Président — « Trou du cul »",
    }
    await storage.save_snapshot(table_id, 1, state)
    snapshot = await storage.load_snapshot(table_id)
    assert snapshot is not None
    assert snapshot.state == state
    timer = snapshot.state["timer"]
    assert isinstance(timer, dict) and isinstance(timer["deadline"], datetime)
    assert timer["deadline"].tzinfo is not None and timer["deadline"] == deadline


async def test_closing_a_table_deletes_its_snapshot(storage: Storage) -> None:
    table_id = await storage.create_table(GUILD, 10, 500, CLASSIC)
    await storage.save_snapshot(table_id, 1, {"v": 1})
    await storage.update_table(table_id, status="playing")
    assert await storage.load_snapshot(table_id) is not None
    await storage.update_table(table_id, status="closed")
    assert await storage.load_snapshot(table_id) is None


async def test_naive_datetimes_are_refused(storage: Storage) -> None:
    table_id = await storage.create_table(GUILD, 10, 500, CLASSIC)
    with pytest.raises(TypeError, match="naive datetime"):  # refused before the database
        await storage.save_snapshot(table_id, 1, {"deadline": datetime(2030, 1, 1)})
    assert await storage.load_snapshot(table_id) is None


def test_url_normalisation() -> None:
    assert normalize_url("postgres://u:p@h:5432/db?sslmode=require") == (
        "postgresql+asyncpg://u:p@h:5432/db?ssl=require"
    )
    assert normalize_url("sqlite:///data/x.db") == "sqlite+aiosqlite:///data/x.db"
    with pytest.raises(ValueError):
        normalize_url("mysql://h/db")
    assert database_url({}) == "sqlite+aiosqlite:///data/president.db"
    assert database_url({"DATABASE_URL": " postgres://h/db "}) == "postgresql+asyncpg://h/db"


async def test_vanished_tables_are_owed_until_paid_a_week_at_most_per_shard(
    storage: Storage,
) -> None:
    """What players of a table whose channel was deleted are owed (`bot.tables.vanished`):
    read back by shard, oldest first, deleted once told or a week old."""
    guilds = [((5000 + n) << 22) + 1 for n in range(2)]  # guild n is on shard n of 2
    now = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)
    await storage.owe_vanished(guilds[0], [7, 8], "x" * 150, now - timedelta(days=8))
    await storage.owe_vanished(guilds[0], [7, 8], "cartes", now)
    await storage.owe_vanished(guilds[1], [7], None, now)
    since = now - timedelta(days=7)

    owed = await storage.vanished_since(since, shard_ids=[0], shard_count=2)
    assert [(r.guild_id, r.user_id, r.channel) for r in owed] == [
        (guilds[0], 7, "cartes"), (guilds[0], 8, "cartes")]
    assert owed[0].at == now
    await storage.paid_vanished(guilds[0], 7)
    everyone = await storage.vanished_since(since)
    assert [(r.guild_id, r.user_id, r.channel) for r in everyone] == [
        (guilds[0], 8, "cartes"), (guilds[1], 7, None)]
    await storage.owe_vanished(guilds[1], [9], "x" * 150, now)
    assert (await storage.vanished_since(since, shard_ids=[1], shard_count=2))[-1].channel \
        == "x" * 100


async def test_edits_an_archived_thread_owes_are_kept_until_paid_a_week_at_most_per_shard(
    storage: Storage,
) -> None:
    """What a table's messages in an archived thread are owed once it wakes
    (`bot.tables.asleep`): one edit per message, the latest refused replacing the one
    before, read back by shard, oldest first, deleted once sent or a week old."""
    guilds = [((5000 + n) << 22) + 1 for n in range(2)]  # guild n is on shard n of 2
    now = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
    await storage.owe_edit(guilds[0], 30, 301, "old", [7], now - timedelta(days=8))
    await storage.owe_edit(guilds[0], 30, 302, "live", [7, 8], now - timedelta(minutes=1))
    await storage.owe_edit(guilds[0], 30, 302, "closed", [8, 7], now)
    await storage.owe_edit(guilds[1], 40, 401, None, [], now)
    since = now - timedelta(days=7)

    owed = await storage.asleep_since(since, shard_ids=[0], shard_count=2)
    assert [(r.guild_id, r.channel_id, r.message_id, r.text, r.people, r.at) for r in owed] \
        == [(guilds[0], 30, 302, "closed", (7, 8), now)]
    await storage.paid_edits([302])
    assert [(r.channel_id, r.message_id, r.text) for r in await storage.asleep_since(since)] \
        == [(40, 401, None)]


async def test_an_edit_owed_to_a_message_naming_a_u0000_is_kept_without_it(
    storage: Storage,
) -> None:
    """A member whose name carries a U+0000 (Discord draws nothing for it) named in a
    message of an archived thread: the edit owed to it was refused on PostgreSQL alone
    (« invalid byte sequence for encoding "UTF8": 0x00 »), a warning logged, and once the
    thread woke the message only lost its buttons, its text not sent (storage did not hold
    it: `OwedEdits.take`). It is kept without the character on both, as names are."""
    now = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
    await storage.owe_edit(GUILD, 30, 301, "Zoé 🐉\x00 : fermée", [7], now)
    owed = await storage.asleep_since(now - timedelta(days=7))
    assert [(record.message_id, record.text) for record in owed] == [(301, "Zoé 🐉 : fermée")]


async def test_an_unreadable_table_is_closed_and_its_word_owed_until_told_a_week_at_most(
    storage: Storage,
) -> None:
    """A table whose stored state cannot be read is closed, its snapshot gone, and its
    channel owed the word in the same transaction (`bot.tables.restore`): read back by
    shard, oldest first, owed once however often it is closed so, deleted once told or a
    week old."""
    guilds = [((5000 + n) << 22) + 1 for n in range(2)]  # guild n is on shard n of 2
    tables = [await storage.create_table(guild, 10 + n, 500, CLASSIC)
              for n, guild in enumerate(guilds)]
    assert await storage.save_snapshot(tables[0], 3, {"from": "a newer version"})
    await storage.close_unreadable(tables[0], guilds[0], 10, "fr", [101, 102])
    await storage.close_unreadable(tables[0], guilds[0], 10, "fr", [101, 102])
    await storage.close_unreadable(tables[1], guilds[1], 11, "en", [])
    assert await storage.active_tables() == []
    assert await storage.load_snapshot(tables[0]) is None
    since = datetime.now(UTC) - timedelta(days=7)

    owed = await storage.unreadable_since(since, shard_ids=[0], shard_count=2)
    assert [(r.table_id, r.guild_id, r.channel_id, r.locale, r.message_ids) for r in owed] \
        == [(tables[0], guilds[0], 10, "fr", (101, 102))]
    assert owed[0].at >= since
    await storage.told_unreadable([tables[0]])
    assert [r.table_id for r in await storage.unreadable_since(since)] == [tables[1]]
    assert await storage.unreadable_since(datetime.now(UTC) + timedelta(seconds=1)) == []
    assert await storage.unreadable_since(since) == []
