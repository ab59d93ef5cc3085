"""One PostgreSQL advisory lock per shard, held by the process that runs the shard.

During an overlapping redeploy two processes can run the same shard: both would restore and
post the same tables, and clicks would reach either one. Each process therefore takes a
session-level `pg_advisory_lock` per shard on a connection of its own before it restores,
and keeps it until it exits; a second process for the same shard waits (and says so in its
log) and takes over once the first has stored its last snapshots and closed.

The lock lives only as long as its session ("Once acquired at session level, an advisory
lock is held until explicitly released or the session ends", PostgreSQL, 13.3.5 Advisory
Locks, https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS): a
killed backend (`pg_terminate_backend`), `idle_session_timeout` or a server restart frees it
while the process plays on, and a second process for the shard would take it at once
(play-test 14). So the holder checks its session now and then (`ShardLocks.keep`, every
30 s of the bot's clock, `bot.client`) and, when it has ended, takes the locks back on a new
connection or, if another process got one first, stops.

The other way round, a holder that dies without closing its connection (its host gone, a
network cut) left the server a session that looked alive until TCP keepalive ended it,
about two hours with Linux's defaults, and the process started in its place waited for the
lock all that time. The lock's session is therefore given an `idle_session_timeout`
(`idle_timeout`, PostgreSQL 14 and later: "Terminate any session that has been idle (that
is, waiting for a client query), but not within an open transaction, for longer than the
specified amount of time", 20.11 Client Connection Defaults,
https://www.postgresql.org/docs/current/runtime-config-client.html#GUC-IDLE-SESSION-TIMEOUT):
the holder's checks keep it busy well within it, and the server ends a session nobody
checks any more, freeing its locks. A session waiting for a lock runs a query, and is not
idle.

SQLite is for one process only, so nothing is locked there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Collection

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from bot.storage.db import normalize_url
from bot.storage.failures import describe

log = logging.getLogger(__name__)

# First key of the two-key form pg_advisory_lock(int4, int4), so the shard number (the
# second key) cannot collide with advisory locks other applications take in the database.
LOCK_NAMESPACE = 0x50524553  # "PRES"

_TRY = text("SELECT pg_try_advisory_lock(:namespace, :shard)")
_WAIT = text("SELECT pg_advisory_lock(:namespace, :shard)")
_PING = text("SELECT 1")
# Only where the setting exists (PostgreSQL 14): older servers keep waiting for TCP.
_IDLE = text("SELECT set_config('idle_session_timeout', :ms, false) "
             "WHERE current_setting('server_version_num')::int >= 140000")

# Wall-clock seconds a check (or a retake) may take: past that the server is gone silent, and
# a session we cannot reach is one we cannot vouch for.
CHECK_TIMEOUT = 10.0


def _locks(ids: Collection[int]) -> tuple[str, str]:
    """How the log names the locks of `ids`, and the pronoun for them."""
    numbers = ", ".join(map(str, sorted(ids)))
    if len(ids) == 1:
        return f"the lock of shard {numbers}", "it"
    return f"the locks of shards {numbers}", "them"


async def _idle_ends(connection: AsyncConnection, idle_timeout: float | None) -> None:
    """The server ends this session once idle for `idle_timeout` seconds (None: never)."""
    if idle_timeout is not None:
        await connection.execute(_IDLE, {"ms": str(max(1, round(idle_timeout * 1000)))})
        await connection.commit()


class ShardLocks:
    """The locks of this process's shards; `release` (or the process's exit, which closes
    the connection) lets a waiting process take over."""

    def __init__(self, engine: AsyncEngine, connection: AsyncConnection,
                 shard_ids: tuple[int, ...], *, timeout: float = CHECK_TIMEOUT,
                 idle_timeout: float | None = None) -> None:
        self._engine = engine
        self._idle_timeout = idle_timeout
        # None from a lost session until the locks are taken back (or released).
        self._connection: AsyncConnection | None = connection
        self.shard_ids = shard_ids
        self.timeout = timeout
        # A check and the release never overlap: a retake finishing after the release would
        # hold the shards of a process that has stopped.
        self._guard = asyncio.Lock()
        self._released = False
        self._unreachable_told = False

    @classmethod
    async def acquire(
        cls, url: str, shard_ids: Collection[int],
        *, on_wait: Callable[[int], None] | None = None, idle_timeout: float | None = None,
    ) -> ShardLocks | None:
        """Lock every shard of `shard_ids`, waiting for as long as another process holds
        one; None on SQLite. Shards are taken in ascending order so that two processes with
        overlapping shard lists cannot each hold a shard the other waits for. `on_wait` is
        called with a shard's number before waiting for it. `idle_timeout`: the seconds the
        server lets the lock's session go unchecked before ending it (see the module's
        docstring), well above the interval of `keep`; None: no limit."""
        normalized = normalize_url(url)
        if make_url(normalized).get_backend_name() != "postgresql":
            return None
        # Not the storage's pool: the connection is held for the life of the process, and a
        # pooled one could be recycled (and the locks silently released) under it.
        engine = create_async_engine(normalized, poolclass=NullPool)
        connection: AsyncConnection | None = None
        try:
            connection = await engine.connect()
            await _idle_ends(connection, idle_timeout)
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
        return cls(engine, connection, ordered, idle_timeout=idle_timeout)

    @property
    def busy(self) -> bool:
        """Whether a check or the release is talking to PostgreSQL (see `PresidentBot.busy`)."""
        return self._guard.locked()

    async def keep(self) -> bool:
        """Whether this process may go on running its shards: its lock session answers, or
        it had ended (one ERROR line) and every lock was taken back on a new connection
        (WARNING). False when another process holds one of them meanwhile: the caller must
        stop, since two processes must never play the same shard. While PostgreSQL cannot
        be reached the locks cannot be taken back, nor by anyone else: True, and the next
        check tries again."""
        async with self._guard:
            if self._released:
                return True
            connection = self._connection
            if connection is not None:
                try:
                    async with asyncio.timeout(self.timeout):
                        await connection.execute(_PING)
                        await connection.commit()
                    return True
                except Exception as err:  # whatever failed, the session is lost to us
                    locks, them = _locks(self.shard_ids)
                    log.error("lost %s: the PostgreSQL session holding %s failed (%s), and "
                              "its end frees %s for any other process; taking %s back",
                              locks, them, describe(err), them, them)
                    self._connection = None
                    await self._discard(connection)
            return await self._retake()

    async def _retake(self) -> bool:
        """Take every lock again with `pg_try_advisory_lock` on a new connection (never
        waiting: a holder is another process, already playing the shard)."""
        connection: AsyncConnection | None = None
        try:
            async with asyncio.timeout(self.timeout):
                connection = await self._engine.connect()
                await _idle_ends(connection, self._idle_timeout)
                refused = []
                for shard in self.shard_ids:
                    keys = {"namespace": LOCK_NAMESPACE, "shard": shard}
                    if not (await connection.execute(_TRY, keys)).scalar_one():
                        refused.append(shard)
                await connection.commit()
        except BaseException as err:  # unreachable: try again at the next check
            if connection is not None:
                await self._discard(connection)
            if not isinstance(err, Exception):
                raise  # cancelled (the process stops): the locks taken so far went with it
            if not self._unreachable_told:
                log.warning("cannot take %s back yet (%s): playing on, trying again at the "
                            "next check", _locks(self.shard_ids)[0], describe(err))
                self._unreachable_told = True
            return True
        self._unreachable_told = False
        if refused:
            await self._discard(connection)  # and with it the locks it did get
            log.error("another process took %s meanwhile: stopping this process so that no "
                      "shard is played twice (restarted, it waits for the lock)",
                      _locks(refused)[0])
            return False
        self._connection = connection
        log.warning("took %s back on a new connection: no other process had taken one "
                    "meanwhile", _locks(self.shard_ids)[0])
        return True

    @staticmethod
    async def _discard(connection: AsyncConnection) -> None:
        """Drop a connection that failed or is no longer wanted: its session, if the server
        still has it, ends with its locks."""
        with contextlib.suppress(Exception):
            await connection.invalidate()
        with contextlib.suppress(Exception):
            await connection.close()

    async def release(self) -> None:
        """Close the connection, which ends the session and with it every lock. A second
        call does nothing."""
        async with self._guard:
            self._released = True
            connection, self._connection = self._connection, None
            try:
                if connection is not None:
                    await connection.close()
            finally:
                await self._engine.dispose()
