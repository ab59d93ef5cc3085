"""How the repository reaches the database: one engine, short read and write
transactions (reads through a read-only engine, `db.READ_ONLY`), and a count of the
queries in flight.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.storage.db import READ_ONLY
from bot.storage.models import Base


def wall_clock() -> datetime:
    return datetime.now(UTC)


class Access:
    """The connection side of `Storage` (bot/storage/repository.py)."""

    def __init__(self, engine: AsyncEngine, *, now: Callable[[], datetime] = wall_clock) -> None:
        self._engine = engine
        self._reader = engine.execution_options(**{READ_ONLY: True})
        self._postgres = engine.dialect.name == "postgresql"
        # SQLite has a single writer and its busy handler polls with sleeps of up to 100 ms,
        # so concurrent writers in this process would wait unfairly and far longer than the
        # write itself; they queue on this lock instead, in FIFO order.
        self._sqlite_writer = None if self._postgres else asyncio.Lock()
        self._in_flight = 0
        self._now = now

    @property
    def busy(self) -> bool:
        """Whether a query is running or waiting for a connection. The work happens outside
        the event loop (aiosqlite's thread, PostgreSQL's socket), so nothing else can tell;
        a shutdown or a test that waits for the bot to be idle asks here."""
        return self._in_flight > 0

    @asynccontextmanager
    async def _counted(self) -> AsyncIterator[None]:
        self._in_flight += 1
        try:
            yield
        finally:
            self._in_flight -= 1

    async def close(self) -> None:
        """Close the pool. Counted as a query: closing PostgreSQL's sessions is socket work
        the loop cannot see, and a test waiting for the bot to be idle (the shard locks'
        stop, `PresidentBot.busy`) must not take that wait for the end of the stop."""
        async with self._counted():
            await self._engine.dispose()

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncConnection]:
        if self._sqlite_writer is None:
            async with self._counted(), self._engine.begin() as connection:
                yield connection
        else:
            async with self._counted(), self._sqlite_writer, self._engine.begin() as connection:
                yield connection

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncConnection]:
        async with self._counted(), self._reader.begin() as connection:
            yield connection

    def _insert(self, model: type[Base]) -> Any:
        """INSERT with ON CONFLICT support: both dialects spell it the same way in SQLAlchemy,
        but through their own `insert` constructs."""
        return postgresql.insert(model) if self._postgres else sqlite.insert(model)
