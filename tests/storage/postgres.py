"""The PostgreSQL test server: finding it and handing out throwaway databases on it.

Shared by the storage tests (tests/storage/conftest.py) and the bot tests that run on
PostgreSQL (tests/bot/databases.py). The server is 127.0.0.1:5432 with trust auth, users
`postgres` then `root`; `STORAGE_TEST_POSTGRES_URL` overrides.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import asyncpg
from sqlalchemy.engine import make_url

SERVER_URLS = (
    "postgresql+asyncpg://postgres@127.0.0.1:5432/test",
    "postgresql+asyncpg://root@127.0.0.1:5432/test",
)


def asyncpg_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def run_blocking(coroutine: Coroutine[Any, Any, None]) -> None:
    """Run ``coroutine`` to the end from sync code, even inside a running event loop (an async
    test asking for a database): on a loop of its own in a worker thread."""
    with ThreadPoolExecutor(max_workers=1) as worker:
        worker.submit(asyncio.run, coroutine).result()


async def _probe(url: str) -> None:
    connection = await asyncpg.connect(asyncpg_dsn(url), timeout=3)
    await connection.close()


def find_server() -> tuple[str | None, str]:
    """The URL of a reachable maintenance database, or None and why none answers."""
    override = os.environ.get("STORAGE_TEST_POSTGRES_URL")
    errors = []
    for url in (override,) if override else SERVER_URLS:
        try:
            run_blocking(_probe(url))
        except (OSError, asyncpg.PostgresError, TimeoutError) as error:
            errors.append(f"{make_url(url).username}: {error}")
            continue
        return url, ""
    return None, "no PostgreSQL server answers at 127.0.0.1:5432 (" + "; ".join(errors) + ")"


class PostgresDatabases:
    """Creates uniquely named databases on the test server and drops them at the end."""

    def __init__(self, server_url: str) -> None:
        self.server_url = server_url
        self.created: list[str] = []

    def create(self, label: str, template: str | None = None) -> str:
        """A new database, empty or a copy of the database named ``template``."""
        name = f"president_{label}_{os.getpid()}_{secrets.token_hex(4)}"
        copy = f' TEMPLATE "{template}"' if template else ""
        run_blocking(self._execute(f'CREATE DATABASE "{name}"{copy}'))
        self.created.append(name)
        return self.url_of(name)

    def url_of(self, name: str) -> str:
        return make_url(self.server_url).set(database=name).render_as_string(hide_password=False)

    def drop_all(self) -> None:
        while self.created:
            name = self.created.pop()
            run_blocking(self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    async def _execute(self, sql: str) -> None:
        connection = await asyncpg.connect(asyncpg_dsn(self.server_url))
        try:
            await connection.execute(sql)
        finally:
            await connection.close()
