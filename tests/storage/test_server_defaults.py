"""A PostgreSQL server's own defaults do not change what the storage does: an operator's
(or a host's) `default_transaction_isolation` and `timezone`, set on the database, which
every new session takes. The test server runs with read committed and UTC, so the other
storage tests never see anything else. On SQLite neither exists: the same checks run."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from bot.storage import SeatRef, Storage
from engine.rules import RulesDict

from .postgres import asyncpg_dsn

GUILD = 7 << 22
CLASSIC: RulesDict = {"preset": "classic", "set": {}}
NOW = datetime(2026, 12, 6, 23, 30, tzinfo=UTC)


async def _alter(url: str, setting: str, value: str | None) -> None:
    """Set the database's default for new sessions (None: back to the server's)."""
    name = make_url(url).database
    connection = await asyncpg.connect(asyncpg_dsn(url))
    try:
        change = f"RESET {setting}" if value is None else f"SET {setting} TO '{value}'"
        await connection.execute(f'ALTER DATABASE "{name}" {change}')
    finally:
        await connection.close()


@contextmanager
def database_default(url: str, setting: str, value: str) -> Iterator[None]:
    """`ALTER DATABASE … SET` for the storage opened inside, reset after (the PostgreSQL
    database is the session's, shared by every storage test); nothing on SQLite."""
    if make_url(url).get_backend_name() != "postgresql":
        yield
        return
    asyncio.run(_alter(url, setting, value))
    try:
        yield
    finally:
        asyncio.run(_alter(url, setting, None))


@pytest.fixture
def repeatable_read(db_url: str) -> Iterator[str]:
    with database_default(db_url, "default_transaction_isolation", "repeatable read"):
        yield db_url


@pytest.fixture
def far_time_zone(db_url: str) -> Iterator[str]:
    # UTC+13:45 in December: no hour's shift would hide it.
    with database_default(db_url, "timezone", "Pacific/Chatham"):
        yield db_url


@asynccontextmanager
async def _opened(url: str) -> AsyncIterator[Storage]:
    storage = await Storage.open(url, now=lambda: NOW)
    try:
        yield storage
    finally:
        await storage.close()


async def _game(storage: Storage, channel: int) -> int:
    table_id = await storage.create_table(GUILD, channel, 1, CLASSIC)
    return await storage.start_game(table_id, game_no=1, preset="classic", rules=CLASSIC,
                                    seats=[])


async def test_rounds_sharing_a_player_are_all_stored_whatever_the_default_isolation(
    repeatable_read: str,
) -> None:
    """Tables ending rounds at once with the same player wait on each other's rating rows
    (`rating_update.lock`), which is only right under read committed: there the waiter
    reads the row as the other left it. A database whose default is repeatable read
    failed every waiter (« could not serialize access due to concurrent update », retried
    by the result queue after a « database unavailable » warning). The engine now asks
    for read committed itself."""
    async with _opened(repeatable_read) as storage:
        games = [await _game(storage, channel=10 + n) for n in range(4)]
        outcomes = await asyncio.gather(*(
            storage.record_round(game_id, 1, ranking=[0, 1], roles=["P", "L"],
                                 points=[3, 0], seats=[SeatRef(1, False, "Ann"),
                                                       SeatRef(100 + n, False, f"U{n}")])
            for n, game_id in enumerate(games)))
        assert all(outcome.inserted for outcome in outcomes)
        (rating,) = (await storage.player_stats(GUILD, 1)).ratings
        assert rating.rounds == len(games)


async def test_times_read_back_as_stored_whatever_the_database_s_time_zone(
    far_time_zone: str,
) -> None:
    """Every time column is `timestamp with time zone` bound and read as aware UTC
    datetimes (`models.UTCDateTime`): the session's time zone changes neither what is read
    back nor the comparisons that drop what is owed too long."""
    async with _opened(far_time_zone) as storage:
        table_id = await storage.create_table(GUILD, 10, 1, CLASSIC)
        table = await storage.get_table(table_id)
        assert table is not None and table.created_at == NOW
        assert table.created_at.utcoffset() == timedelta(0)
        await storage.owe_vanished(GUILD, [1], "old", NOW - timedelta(days=8))
        await storage.owe_vanished(GUILD, [2], "new", NOW - timedelta(hours=1))
        owed = await storage.vanished_since(NOW - timedelta(days=7))
        assert [(record.user_id, record.at) for record in owed] == \
            [(2, NOW - timedelta(hours=1))]
