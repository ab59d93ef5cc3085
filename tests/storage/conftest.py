"""Every storage test runs on SQLite and on PostgreSQL.

SQLite: a schema migrated once per session, copied into each test's tmp dir.
PostgreSQL: a uniquely named database per session on 127.0.0.1:5432 (trust auth, users
`postgres` then `root`; `STORAGE_TEST_POSTGRES_URL` overrides), migrated once and
truncated before each test. The PostgreSQL variants skip, with the connection error as the
reason, only when no server answers.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
import pytest_asyncio
from sqlalchemy.engine import make_url

from bot.storage import Storage, upgrade_to_head
from bot.storage.models import Base

SERVER_URLS = (
    "postgresql+asyncpg://postgres@127.0.0.1:5432/test",
    "postgresql+asyncpg://root@127.0.0.1:5432/test",
)


def _asyncpg_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _probe(url: str) -> None:
    connection = await asyncpg.connect(_asyncpg_dsn(url), timeout=3)
    await connection.close()


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """URL of a reachable maintenance database, or skip with the reason."""
    override = os.environ.get("STORAGE_TEST_POSTGRES_URL")
    errors = []
    for url in (override,) if override else SERVER_URLS:
        try:
            asyncio.run(_probe(url))
        except (OSError, asyncpg.PostgresError, TimeoutError) as error:
            errors.append(f"{make_url(url).username}: {error}")
            continue
        return url
    pytest.skip("no PostgreSQL server answers at 127.0.0.1:5432 (" + "; ".join(errors) + ")")


class PostgresDatabases:
    """Creates uniquely named databases on the test server and drops them at the end."""

    def __init__(self, server_url: str) -> None:
        self.server_url = server_url
        self.created: list[str] = []

    def create(self, label: str) -> str:
        name = f"president_{label}_{os.getpid()}_{secrets.token_hex(4)}"
        asyncio.run(self._execute(f'CREATE DATABASE "{name}"'))
        self.created.append(name)
        return make_url(self.server_url).set(database=name).render_as_string(hide_password=False)

    def drop_all(self) -> None:
        for name in self.created:
            asyncio.run(self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    async def _execute(self, sql: str) -> None:
        connection = await asyncpg.connect(_asyncpg_dsn(self.server_url))
        try:
            await connection.execute(sql)
        finally:
            await connection.close()


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
    connection = await asyncpg.connect(_asyncpg_dsn(url))
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
