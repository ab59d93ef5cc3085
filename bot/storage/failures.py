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
import socket
import ssl

from sqlalchemy.exc import (
    DBAPIError,
    DisconnectionError,
    InterfaceError,
    OperationalError,
    StatementError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout

from bot.storage.repository import StorageError

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
