"""One PostgreSQL advisory lock per shard, held by the process that runs the shard.

During an overlapping redeploy two processes can run the same shard: both would restore and
post the same tables, and clicks would reach either one. Each process therefore takes a
session-level `pg_advisory_lock` per shard on a connection of its own before it restores,
and keeps it until it exits; a second process for the same shard waits (and says so in its
log) and takes over once the first has stored its last snapshots and closed.

SQLite is for one process only, so nothing is locked there.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from bot.storage.db import normalize_url

log = logging.getLogger(__name__)

# First key of the two-key form pg_advisory_lock(int4, int4), so the shard number (the
# second key) cannot collide with advisory locks other applications take in the database.
LOCK_NAMESPACE = 0x50524553  # "PRES"

_TRY = text("SELECT pg_try_advisory_lock(:namespace, :shard)")
_WAIT = text("SELECT pg_advisory_lock(:namespace, :shard)")


class ShardLocks:
    """The locks of this process's shards; `release` (or the process's exit, which closes
    the connection) lets a waiting process take over."""

    def __init__(self, engine: AsyncEngine, connection: AsyncConnection,
                 shard_ids: tuple[int, ...]) -> None:
        self._engine = engine
        self._connection = connection
        self.shard_ids = shard_ids

    @classmethod
    async def acquire(
        cls, url: str, shard_ids: Collection[int],
        *, on_wait: Callable[[int], None] | None = None,
    ) -> ShardLocks | None:
        """Lock every shard of `shard_ids`, waiting for as long as another process holds
        one; None on SQLite. Shards are taken in ascending order so that two processes with
        overlapping shard lists cannot each hold a shard the other waits for. `on_wait` is
        called with a shard's number before waiting for it."""
        normalized = normalize_url(url)
        if make_url(normalized).get_backend_name() != "postgresql":
            return None
        # Not the storage's pool: the connection is held for the life of the process, and a
        # pooled one could be recycled (and the locks silently released) under it.
        engine = create_async_engine(normalized, poolclass=NullPool)
        connection: AsyncConnection | None = None
        try:
            connection = await engine.connect()
            ordered = tuple(sorted(set(shard_ids)))
            for shard in ordered:
                keys = {"namespace": LOCK_NAMESPACE, "shard": shard}
                if not (await connection.execute(_TRY, keys)).scalar_one():
                    log.warning("shard %d is run by another process (an overlapping deploy?): "
                                "waiting for it to exit before restoring its tables", shard)
                    if on_wait is not None:
                        on_wait(shard)
                    await connection.execute(_WAIT, keys)
                    log.warning("shard %d: the other process has exited, taking over", shard)
                # Session-level locks outlive the transaction; ending it keeps the
                # connection from sitting "idle in transaction" for the process's life.
                await connection.commit()
        except BaseException:
            # Cancelled while waiting (a stop during an overlapping deploy) or failed:
            # closing the session drops whatever was already locked.
            if connection is not None:
                await connection.close()
            await engine.dispose()
            raise
        return cls(engine, connection, ordered)

    async def release(self) -> None:
        """Close the connection, which ends the session and with it every lock."""
        try:
            await self._connection.close()
        finally:
            await self._engine.dispose()
