"""Engines, SQLite pragmas and programmatic migrations.

`DATABASE_URL` chooses the backend: SQLite (the default, one process) or PostgreSQL through
asyncpg (several processes). Everything backend-specific about connections lives here so the
repository can stay dialect-neutral apart from its upserts.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.storage import jsoncodec

DEFAULT_URL = "sqlite+aiosqlite:///data/president.db"
MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"

# Execution option marking read-only work: on SQLite it opens a DEFERRED transaction so
# readers never queue behind the writer; everything else opens IMMEDIATE (see below).
READ_ONLY = "president_read_only"

_POSTGRES_ALIASES = {"postgres", "postgresql", "postgresql+psycopg2", "postgresql+psycopg"}


def database_url(env: dict[str, str] | None = None) -> str:
    """The configured URL, normalised; SQLite under ./data when nothing is configured."""
    values = os.environ if env is None else env
    return normalize_url(values.get("DATABASE_URL", "").strip() or DEFAULT_URL)


def normalize_url(url: str | URL) -> str:
    """Accept the URL shapes hosting platforms hand out and pin the async drivers.

    Platforms commonly export `postgres://…?sslmode=require`; asyncpg needs the
    `postgresql+asyncpg` driver name and calls the TLS option `ssl`.
    """
    parsed = make_url(url)
    if parsed.drivername in _POSTGRES_ALIASES or parsed.drivername == "postgresql+asyncpg":
        parsed = parsed.set(drivername="postgresql+asyncpg")
        if "sslmode" in parsed.query:
            query = dict(parsed.query)
            query["ssl"] = query.pop("sslmode")
            parsed = parsed.set(query=query)
    elif parsed.drivername in ("sqlite", "sqlite+pysqlite"):
        parsed = parsed.set(drivername="sqlite+aiosqlite")
    elif parsed.drivername != "sqlite+aiosqlite":
        raise ValueError(
            f"unsupported DATABASE_URL driver {parsed.drivername!r}: "
            "use sqlite+aiosqlite:///path.db or postgresql+asyncpg://user@host/db"
        )
    return parsed.render_as_string(hide_password=False)


def ensure_sqlite_dir(url: str | URL) -> None:
    """Create the directory of a SQLite file (the default lives in ./data, absent on clones)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return
    if parsed.database == ":memory:" or parsed.database.startswith("file:"):
        return
    Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw else default


def _env_seconds(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    return float(raw) if raw else default


# How long a PostgreSQL connection attempt, a statement and a wait for a pooled connection
# may take (`DATABASE_CONNECT_TIMEOUT`, `DATABASE_COMMAND_TIMEOUT`, `DATABASE_POOL_TIMEOUT`,
# in seconds). Without them a database that goes silent (a failover's old primary, a network
# partition: no refusal, no reset) holds every query on its socket until the kernel gives
# up, about 15 minutes with Linux's defaults, and the results and snapshots queued behind it
# wait as long. With them each attempt fails within seconds as a `TimeoutError`, which the
# retry loops call transient (`bot.storage.failures`) and retry, and which a slash command
# answers with « try again in a moment ». The bot's statements take milliseconds, so 30 s is
# far above any of them; migrations, which may rewrite a large table, run without one.
CONNECT_TIMEOUT = 10.0
COMMAND_TIMEOUT = 30.0
POOL_TIMEOUT = 10.0


def create_engine(
    url: str | URL,
    *,
    pool_size: int | None = None,
    max_overflow: int | None = None,
    enforce_foreign_keys: bool = True,
    connect_timeout: float | None = None,
    command_timeout: float | None = None,
    pool_timeout: float | None = None,
) -> AsyncEngine:
    """An async engine with the project's JSON codec and per-backend connection settings.

    Pool sizes default to `DATABASE_POOL_SIZE` / `DATABASE_MAX_OVERFLOW` (5 / 5): every
    process holds its own pool, so PostgreSQL's `max_connections` must cover
    processes × (pool_size + max_overflow). Migrations pass `enforce_foreign_keys=False`
    because SQLite batch migrations recreate tables, and dropping the old copy with foreign
    keys enforced would cascade deletes into child tables.

    Timeouts (seconds) default to `DATABASE_CONNECT_TIMEOUT`, `DATABASE_COMMAND_TIMEOUT`
    and `DATABASE_POOL_TIMEOUT` (10 / 30 / 10, see `CONNECT_TIMEOUT`); a command timeout of
    0 sets none (migrations). The pool's applies to both backends; the connect and command
    ones are asyncpg's, PostgreSQL only: SQLite waits on its own lock (`busy_timeout`).
    """
    normalized = make_url(normalize_url(url))
    options: dict[str, Any] = {
        "json_serializer": jsoncodec.dumps,
        "json_deserializer": jsoncodec.loads,
        "pool_size": _env_int("DATABASE_POOL_SIZE", 5) if pool_size is None else pool_size,
        "max_overflow": (
            _env_int("DATABASE_MAX_OVERFLOW", 5) if max_overflow is None else max_overflow
        ),
        "pool_timeout": (
            _env_seconds("DATABASE_POOL_TIMEOUT", POOL_TIMEOUT)
            if pool_timeout is None else pool_timeout
        ),
    }
    if normalized.get_backend_name() == "sqlite":
        ensure_sqlite_dir(normalized)
        engine = create_async_engine(normalized, **options)
        _install_sqlite_hooks(engine, enforce_foreign_keys)
        return engine
    # A pre-ping costs one round trip per checkout but turns a PostgreSQL restart or a
    # failover into a reconnect instead of an error surfacing in a slash command.
    connect = _env_seconds("DATABASE_CONNECT_TIMEOUT", CONNECT_TIMEOUT) \
        if connect_timeout is None else connect_timeout
    command = _env_seconds("DATABASE_COMMAND_TIMEOUT", COMMAND_TIMEOUT) \
        if command_timeout is None else command_timeout
    # asyncpg's `timeout` bounds a connection attempt (its default is 60 s), its
    # `command_timeout` every statement, the pre-ping's included (its default is none).
    connect_args: dict[str, Any] = {"timeout": connect}
    if command > 0:
        connect_args["command_timeout"] = command
    # Read committed whatever the database's `default_transaction_isolation`: the writes
    # rely on it, a waiter on a row lock (`rating_update.lock`) or on a conflicting insert
    # (`start_game`, `record_round`) reading the row as the other transaction left it.
    # Under repeatable read each such waiter failed with « could not serialize access »
    # (tests/storage/test_server_defaults.py).
    return create_async_engine(normalized, pool_pre_ping=True, connect_args=connect_args,
                               isolation_level="READ COMMITTED", **options)


def _install_sqlite_hooks(engine: AsyncEngine, enforce_foreign_keys: bool) -> None:
    """WAL, foreign keys, busy timeout, and explicit BEGIN handling.

    WAL lets readers work while a snapshot is written; synchronous=NORMAL is durable across
    process crashes and restarts (only a power cut can drop the last commits, never corrupt).
    The sqlite3 driver's legacy mode does not BEGIN before SELECTs, which would make our
    read-modify-write rating updates racy between pooled connections, so BEGIN is emitted
    here: IMMEDIATE for writes (take the write lock up front, no upgrade deadlocks) and
    DEFERRED for reads marked with `READ_ONLY`.
    """
    sync_engine = engine.sync_engine

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA busy_timeout=5000")
        _enter_wal(cursor)
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA foreign_keys={'ON' if enforce_foreign_keys else 'OFF'}")
        cursor.close()

    @event.listens_for(sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        read_only = connection.get_execution_options().get(READ_ONLY, False)
        connection.exec_driver_sql("BEGIN DEFERRED" if read_only else "BEGIN IMMEDIATE")


_WAL_TRIES = 40  # about 8 s of back-off in all, past any other process's switch


def _enter_wal(cursor: Any) -> None:
    """Put a new database file in WAL mode (the mode is kept in the file: later connections
    find it set and take no lock). Switching needs an exclusive lock that SQLite does not
    wait for when another connection holds a shared one (a busy timeout does not help: the
    wait could deadlock), so several processes opening a new file at once, as a deploy's
    release command does, get « database is locked »: the switch is retried instead."""
    cursor.execute("PRAGMA journal_mode")
    if str(cursor.fetchone()[0]).lower() == "wal":
        return
    for attempt in range(_WAL_TRIES):
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or attempt == _WAL_TRIES - 1:
                raise
            time.sleep(0.01 * (attempt + 1))


def _alembic_config() -> Config:
    """Alembic configuration that does not depend on the working directory."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


# Alembic keeps its migration context in module globals, so two migrations interleaving in
# one process would trample each other; processes are kept apart by a database lock instead.
_alembic_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)


async def _run_alembic(url: str | URL, action: Callable[[Config], None]) -> None:
    """Run an alembic command on a connection we own (alembic's env.py would otherwise call
    `asyncio.run`, which cannot nest inside the bot's running event loop)."""
    lock = _alembic_locks.setdefault(asyncio.get_running_loop(), asyncio.Lock())
    engine = create_engine(url, pool_size=1, max_overflow=0, enforce_foreign_keys=False,
                           command_timeout=0)
    try:
        async with lock, engine.begin() as connection:

            def run(sync_connection: Connection) -> None:
                config = _alembic_config()
                config.attributes["connection"] = sync_connection
                action(config)

            await connection.run_sync(run)
    finally:
        await engine.dispose()


class NewerDatabase(Exception):
    """The database was migrated by a newer version of the bot: its revision is none of
    this version's migrations, so this version cannot know its schema."""


async def upgrade_to_head(url: str | URL | None = None) -> None:
    """`alembic upgrade head` from inside the bot; safe to run from several processes at once.
    Raises `NewerDatabase` for a database a newer version migrated (a rollback of the code
    alone): alembic's own « Can't locate revision » came as a traceback at every start."""

    def upgrade(config: Config) -> None:
        script = ScriptDirectory.from_config(config)
        known = {revision.revision for revision in script.walk_revisions()}
        current = MigrationContext.configure(config.attributes["connection"]).get_current_heads()
        unknown = sorted(set(current) - known)
        if unknown:
            head = script.get_current_head()
            raise NewerDatabase(
                f"the database is at revision {', '.join(unknown)}, which this version of the "
                f"bot does not know (its newest is {head}): a newer version migrated it. "
                f"Downgrade it with the newer version's code first, `alembic downgrade "
                f"{head}`, then start this one (docs/deploy.md, « Upgrading »)")
        command.upgrade(config, "head")

    await _run_alembic(url or database_url(), upgrade)


async def downgrade_to(url: str | URL, revision: str) -> None:
    """`alembic downgrade <revision>` (`"base"` drops every table): for rollbacks and tests."""
    await _run_alembic(url, lambda config: command.downgrade(config, revision))
