"""Holding one transaction open until another waits on it: how the storage tests make two
writers meet at the moment that matters, on either backend."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import asyncpg
import pytest
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import Storage

from .postgres import asyncpg_dsn


async def someone_waits(storage: Storage, db_url: str) -> bool:
    """Whether a transaction waits on another's: on PostgreSQL a backend of the database
    waiting on a lock (`pg_stat_activity`), on SQLite a writer queued on the process's
    writer lock (its writes queue whole)."""
    if storage._sqlite_writer is not None:
        return bool(getattr(storage._sqlite_writer, "_waiters", None))
    connection = await asyncpg.connect(asyncpg_dsn(db_url))
    try:
        return bool(await connection.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock'"))
    finally:
        await connection.close()


async def hold_until_met(storage: Storage, db_url: str,
                         other: Callable[[], asyncio.Future[Any] | None]) -> None:
    """Wait, inside the transaction that holds its locks, until the other transaction, the
    one that is to meet it (`other()`: None until it is started), waits on one of them or
    is over; 10 s of the wall clock bound a failing test."""
    for _ in range(2000):
        started = other()
        if started is not None and (started.done() or await someone_waits(storage, db_url)):
            return
        await asyncio.sleep(0.005)


def hold_after(monkeypatch: pytest.MonkeyPatch, storage: Storage, db_url: str,
               matches: Callable[[object], bool],
               other: Callable[[], asyncio.Future[Any] | None]) -> asyncio.Event:
    """Make the first statement that `matches` hold its transaction, once executed, until
    `other()` meets it (`hold_until_met`); the event is set as it starts holding. Undo with
    `monkeypatch.undo()` once both writers are done."""
    original = AsyncConnection.execute
    holding = asyncio.Event()

    async def execute(self: AsyncConnection, statement: Any, *args: Any, **kwargs: Any) -> Any:
        result = await original(self, statement, *args, **kwargs)
        if not holding.is_set() and matches(statement):
            holding.set()
            await hold_until_met(storage, db_url, other)
        return result

    monkeypatch.setattr(AsyncConnection, "execute", execute)
    return holding
