"""A PostgreSQL server that goes silent (a failover's old primary, a network partition: no
refusal, no reset) must not hold the bot's queries for the kernel's ~15 minutes (play-test
14): connection attempts, statements and waits for a pooled connection are bounded, and
what they raise is transient, so the retry loops go on and the commands say « try again »."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.storage import Storage
from bot.storage import db as storage_db
from bot.storage.db import create_engine
from bot.storage.failures import transient

from .pgproxy import PgProxy


@pytest.fixture
def engines(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The options each engine is created with (nothing connects)."""
    made: list[dict[str, Any]] = []

    def capture(url: Any, **options: Any) -> AsyncEngine:
        made.append(options)
        return create_async_engine(url, **options)

    monkeypatch.setattr(storage_db, "create_async_engine", capture)
    for name in ("DATABASE_CONNECT_TIMEOUT", "DATABASE_COMMAND_TIMEOUT",
                 "DATABASE_POOL_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    return made


def test_postgresql_connections_and_statements_are_bounded(
        engines: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    create_engine("postgres://bot@db.internal/president")
    assert engines[-1]["connect_args"] == {"timeout": 10.0, "command_timeout": 30.0}
    assert engines[-1]["pool_timeout"] == 10.0
    create_engine("postgresql://bot@db/president", connect_timeout=3, command_timeout=4,
                  pool_timeout=5)
    assert engines[-1]["connect_args"] == {"timeout": 3, "command_timeout": 4}
    assert engines[-1]["pool_timeout"] == 5
    monkeypatch.setenv("DATABASE_COMMAND_TIMEOUT", "12.5")
    monkeypatch.setenv("DATABASE_POOL_TIMEOUT", "7")
    create_engine("postgresql://bot@db/president")
    assert engines[-1]["connect_args"]["command_timeout"] == 12.5
    assert engines[-1]["pool_timeout"] == 7.0


def test_migrations_run_without_a_statement_timeout(engines: list[dict[str, Any]]) -> None:
    """A migration may rewrite a large table: cutting it at 30 s would fail the deploy."""
    create_engine("postgresql://bot@db/president", command_timeout=0)
    assert engines[-1]["connect_args"] == {"timeout": 10.0}


def test_sqlite_gets_no_driver_timeouts(engines: list[dict[str, Any]], tmp_path: Path) -> None:
    """aiosqlite knows neither option; SQLite waits on its lock with busy_timeout."""
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'p.db'}")
    assert "connect_args" not in engines[-1]
    assert engine.pool.timeout() == 10.0  # type: ignore[attr-defined]


async def test_a_silent_server_fails_a_statement_in_time_and_recovers(
        postgres_url: str) -> None:
    """The one test here that waits on a real socket: a black-holed server, with a
    command timeout of a fraction of a second. Before, the statement hung until the kernel
    reset the connection (play-test 14: ~15 minutes)."""
    proxy = PgProxy()
    await proxy.start()
    storage = await Storage.open(proxy.url(postgres_url), pool_size=1, max_overflow=0,
                                 connect_timeout=0.5, command_timeout=0.3, pool_timeout=0.5)
    try:
        table_id = await storage.create_table(1, 10, 2, {"preset": "classic", "set": {}})
        proxy.blackhole()
        started = time.monotonic()
        with pytest.raises(TimeoutError) as silent:
            await storage.update_table(table_id, status="lobby")
        assert time.monotonic() - started < 5 and transient(silent.value)
        await proxy.restore()
        await storage.update_table(table_id, status="lobby")  # the pool recovers by itself
        stored = await storage.get_table(table_id)
        assert stored is not None and stored.status == "lobby"
    finally:
        await proxy.restore()
        await storage.close()
        await proxy.cut()
