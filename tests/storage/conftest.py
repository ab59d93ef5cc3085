"""Every storage test runs on SQLite and on PostgreSQL.

SQLite: a schema migrated once per session, copied into each test's tmp dir.
PostgreSQL: a uniquely named database per session on the test server (tests/storage/
postgres.py), migrated once and truncated before each test. The PostgreSQL variants skip, with the connection error as the
reason, only when no server answers.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
import pytest_asyncio

from bot.storage import Storage, upgrade_to_head
from bot.storage.models import Base

from .postgres import PostgresDatabases, asyncpg_dsn, find_server


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """URL of a reachable maintenance database, or skip with the reason."""
    url, why = find_server()
    if url is None:
        pytest.skip(why)
    return url


@pytest.fixture(scope="session")
def postgres_databases(postgres_server: str) -> Iterator[PostgresDatabases]:
    databases = PostgresDatabases(postgres_server)
    yield databases
    databases.drop_all()


@pytest.fixture(scope="session")
def postgres_url(postgres_databases: PostgresDatabases) -> str:
    url = postgres_databases.create("storage")
    asyncio.run(upgrade_to_head(url))
    return url


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "president.db"
    asyncio.run(upgrade_to_head(f"sqlite+aiosqlite:///{path}"))
    return path


async def _truncate(url: str) -> None:
    tables = ", ".join(table.name for table in Base.metadata.sorted_tables)
    connection = await asyncpg.connect(asyncpg_dsn(url))
    try:
        await connection.execute(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
    finally:
        await connection.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database at head with no rows, on each backend."""
    if request.param == "sqlite":
        template: Path = request.getfixturevalue("sqlite_template")
        path = tmp_path / "president.db"
        shutil.copyfile(template, path)
        return f"sqlite+aiosqlite:///{path}"
    url: str = request.getfixturevalue("postgres_url")
    asyncio.run(_truncate(url))
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database with no schema at all, on each backend (for migration tests)."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'nested' / 'dir' / 'president.db'}"
    databases: PostgresDatabases = request.getfixturevalue("postgres_databases")
    return databases.create("migrations")


@pytest_asyncio.fixture
async def storage(db_url: str) -> AsyncIterator[Storage]:
    opened = await Storage.open(db_url)
    try:
        yield opened
    finally:
        await opened.close()
