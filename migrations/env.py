"""Alembic environment: async engines, batch mode on SQLite, one migrator at a time.

Two entry points share this file: the `alembic` command line (opens its own async engine
from DATABASE_URL, in the environment or `.env` as the bot reads it, else alembic.ini) and
`bot.storage.db.upgrade_to_head`, which hands over a connection in
`config.attributes["connection"]` because it already runs inside an event loop.
"""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy.engine import Connection

from bot.config import settings
from bot.storage.db import DEFAULT_URL, create_engine, normalize_url
from bot.storage.models import Base

config = context.config
if config.config_file_name is not None and not config.attributes.get("connection"):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata

# Any constant works; it only has to be the same for every process migrating this database.
_MIGRATION_LOCK_ID = 0x50524553


def _url() -> str:
    return normalize_url(
        settings().get("DATABASE_URL", "").strip()
        or config.get_main_option("sqlalchemy.url")
        or DEFAULT_URL
    )


def _run(connection: Connection) -> None:
    is_sqlite = connection.dialect.name == "sqlite"
    if connection.dialect.name == "postgresql":
        # Several shards start together on deploy; the lock makes the others wait and then
        # find the schema already at head. SQLite gets the same from BEGIN IMMEDIATE.
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK_ID})")
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=is_sqlite,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_online() -> None:
    engine = create_engine(_url(), pool_size=1, max_overflow=0, enforce_foreign_keys=False)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(_run)
    finally:
        await engine.dispose()


def _run_offline() -> None:
    url = _url()
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=url.startswith("sqlite"),
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    _run_offline()
elif (shared := config.attributes.get("connection")) is not None:
    _run(shared)
else:
    asyncio.run(_run_online())
