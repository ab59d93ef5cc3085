"""Which storage failures are the database being away, not a bug.

One classifier serves every caller that must tell them apart: the table's result queue
(`bot.tables.persistence`), which retries a transient failure and drops a permanent one for
good, and the slash commands (`bot.packages.president`), which answer a transient failure
with « database busy, try again » instead of an internal error. Two copies would drift, and
a failure one calls transient and the other permanent would both lose a round and tell the
player it was a bug.
"""

from __future__ import annotations

import errno
import logging
import socket
import ssl
import time
from collections.abc import Callable

from sqlalchemy.exc import (
    DBAPIError,
    DisconnectionError,
    InterfaceError,
    OperationalError,
    StatementError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout

from bot.storage.errors import StorageError

# PostgreSQL errors worth retrying, by SQLSTATE (PostgreSQL, Appendix A « Error Codes »):
# the classes 08 connection exception, 40 transaction rollback (serialization failure,
# deadlock), 53 insufficient resources (too many connections), 57 operator intervention
# (shutdown, « the database system is starting up », statement timeout), 58 system error,
# and 55P03 lock not available (lock_timeout). asyncpg reports them through SQLAlchemy as a
# plain DBAPIError, not the OperationalError that SQLite's « database is locked » is.
RETRYABLE_CLASSES = frozenset({"08", "40", "53", "57", "58"})
RETRYABLE_STATES = frozenset({"55P03"})

# What the kernel says when the database's host cannot be reached or stops answering: no
# route (a failover moving the address), network down, connection refused, reset or timed
# out. asyncpg raises these from its socket as plain OSError, and SQLAlchemy lets them
# through unwrapped, since they are no DB-API error.
NETWORK_ERRNOS = frozenset({
    errno.ECONNREFUSED, errno.ECONNRESET, errno.ECONNABORTED, errno.EPIPE, errno.ETIMEDOUT,
    errno.EHOSTUNREACH, errno.EHOSTDOWN, errno.ENETUNREACH, errno.ENETDOWN, errno.ENETRESET,
    errno.ENOTCONN, errno.EADDRNOTAVAIL,
})

# asyncio's `create_connection` tried every address of the host name (IPv6 then IPv4, say)
# and each failed differently: it raises one OSError without an errno whose message lists
# them (Python 3.11, `BaseEventLoop.create_connection`). Every address failing to connect is
# the host being away.
_EVERY_ADDRESS_FAILED = "Multiple exceptions: "


def network_failure(err: BaseException) -> bool:
    """Whether `err` is the network failing to reach the database: a host name that does not
    resolve for a moment (docker restarting the `db` service, a failover switching DNS:
    `socket.gaierror`), no route to the host, a refused, reset or timed-out connection, or a
    TLS session cut short by the server going away. A certificate refused or a wrong TLS
    setting is no outage: it fails the same way every time."""
    if isinstance(err, ssl.SSLError):
        return isinstance(err, ssl.SSLEOFError | ssl.SSLZeroReturnError)
    if isinstance(err, ConnectionError | TimeoutError | socket.gaierror | socket.herror):
        return True
    if isinstance(err, OSError):
        if err.errno is None:
            return str(err).startswith(_EVERY_ADDRESS_FAILED)
        return err.errno in NETWORK_ERRNOS
    return False


def transient(err: BaseException) -> bool:
    """Whether retrying can succeed: the connection or the server failed (lost connection,
    unreachable or unresolvable host, restart, deadlock, lock timeout, exhausted pool).
    Anything else (a row that is gone, a value the column cannot hold, a bug) fails the same
    way every time, and retrying it for ever would stall every later result of the table
    behind it. SQLAlchemy wraps what the driver raised in `orig` (a `StatementError` for a
    failure before the statement reached the driver): the wrapped error is judged too."""
    if isinstance(err, StorageError):
        return False
    if isinstance(err, DBAPIError):
        state = str(getattr(err.orig, "sqlstate", None) or "")
        return err.connection_invalidated or isinstance(err, OperationalError | InterfaceError) \
            or state[:2] in RETRYABLE_CLASSES or state in RETRYABLE_STATES \
            or (err.orig is not None and network_failure(err.orig))
    if isinstance(err, StatementError):
        return err.orig is not None and network_failure(err.orig)
    return isinstance(err, PoolTimeout | DisconnectionError) or network_failure(err)


def describe(err: BaseException) -> str:
    """One line for the operator's log: what the driver said, without SQLAlchemy's
    statement, parameters and documentation link (the line a transient failure gets instead
    of a traceback, which would say nothing more about a database that is away)."""
    cause = err.orig if isinstance(err, StatementError) and err.orig is not None else err
    text = " ".join(str(cause).split())
    return f"{type(cause).__name__}: {text}" if text else type(cause).__name__


def _tables(ids: set[int], most: int = 20) -> str:
    shown = sorted(ids)
    more = f" and {len(shown) - most} more" if len(shown) > most else ""
    return ("table " if len(shown) == 1 else "tables ") + ", ".join(map(str, shown[:most])) + more


class OutageLog:
    """What the operator's log says while storage work is retried through transient
    failures (`transient`): one WARNING when the database stops answering, a reminder every
    `remind_every` seconds (on `now`'s clock) while it stays so, with how many writes of
    which tables wait, and one WARNING when a write succeeds again, naming every table that
    waited. Each failed attempt is a DEBUG line. Before, each table logged each retry: a
    5-minute outage with 50 tables wrote ~3,300 warnings (play-test 14), which buried
    anything else. Permanent failures are not this log's: their callers log them as errors,
    per table, with their traceback.

    One is shared by the snapshot writer and the table's result queue (`StorageStore`
    takes its writer's), so an outage is told once for both."""

    def __init__(self, logger: logging.Logger, now: Callable[[], float] = time.monotonic,
                 remind_every: float = 60.0) -> None:
        self._log = logger
        self._now = now
        self._remind_every = remind_every
        self._down_since: float | None = None
        self._reminded = 0.0
        self._waiting: dict[tuple[int, str], int] = {}  # (table, what) -> failed attempts
        self._tables: set[int] = set()  # every table that waited during this outage
        self._attempts = 0

    @property
    def down(self) -> bool:
        """Whether the last storage attempt failed transiently and none succeeded since."""
        return self._down_since is not None

    def failed(self, table_id: int, what: str, err: BaseException, retry_in: float) -> None:
        """A transient failure of `what` for the table; it is retried in `retry_in` s."""
        key = (table_id, what)
        self._waiting[key] = self._waiting.get(key, 0) + 1
        self._tables.add(table_id)
        self._attempts += 1
        now = self._now()
        if self._down_since is None:
            self._down_since = self._reminded = now
            self._log.warning("database unavailable (%s): table %s's %s and every write "
                              "after it are retried until it answers", describe(err),
                              table_id, what)
        elif now - self._reminded >= self._remind_every:
            self._reminded = now
            self._log.warning("database still unavailable after %.0fs (%s): %d writes "
                              "waiting, of %s", now - self._down_since, describe(err),
                              len(self._waiting), _tables({t for t, _ in self._waiting}))
        self._log.debug("table %s: storing %s failed (attempt %d, %s), retrying in %.1fs",
                        table_id, what, self._waiting[key], describe(err), retry_in)

    def stored(self, table_id: int, what: str) -> bool:
        """`what` was stored for the table; False if it had not waited here."""
        failures = self._waiting.pop((table_id, what), None)
        if failures is None:
            return False
        if self._down_since is not None:
            self._log.warning("database answering again after %.0fs: %d failed attempts; "
                              "the writes of %s are being stored",
                              self._now() - self._down_since, self._attempts,
                              _tables(self._tables))
            self._down_since = None
            self._attempts = 0
            self._tables = set()
        self._log.debug("table %s: %s stored after %d failures", table_id, what, failures)
        return True
