"""Which storage errors are worth retrying (`bot.storage.failures.transient`).

A result whose error is judged permanent is dropped from the table's outbox, so a transient
error judged permanent loses a round for good. asyncpg reports PostgreSQL's errors through
SQLAlchemy as a plain DBAPIError whatever their cause: the SQLSTATE tells them apart.
"""

from __future__ import annotations

import errno
import socket
import ssl

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, IntegrityError, ProgrammingError, StatementError
from sqlalchemy.ext.asyncio import create_async_engine

from bot.storage.failures import transient


class ServerError(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


@pytest.mark.parametrize(("sqlstate", "retried"), [
    ("40P01", True),   # deadlock detected
    ("40001", True),   # serialization failure
    ("55P03", True),   # lock not available (lock_timeout)
    ("57P03", True),   # cannot connect now: the database system is starting up
    ("57014", True),   # query canceled (statement_timeout)
    ("53300", True),   # too many connections
    ("08006", True),   # connection failure
    ("23505", False),  # unique violation: the same every time
    ("22003", False),  # numeric value out of range
    ("42P01", False),  # undefined table: a bug or a missing migration
])
def test_a_postgresql_error_is_retried_by_its_sqlstate(sqlstate: str, retried: bool) -> None:
    err = DBAPIError("INSERT INTO rounds", {}, ServerError(sqlstate))
    assert transient(err) is retried


# What a PostgreSQL outage raises from the socket: asyncpg lets these through as plain
# OSError (its own connect), and SQLAlchemy passes them on unwrapped.
NETWORK_FAILURES = [
    ConnectionRefusedError(errno.ECONNREFUSED, "Connect call failed ('10.0.0.5', 5432)"),
    ConnectionResetError(errno.ECONNRESET, "Connection reset by peer"),
    TimeoutError(),
    socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution"),
    socket.gaierror(socket.EAI_NONAME, "Name or service not known"),
    OSError(errno.EHOSTUNREACH, "No route to host"),
    OSError(errno.ENETUNREACH, "Network is unreachable"),
    OSError("Multiple exceptions: [Errno 111] Connect call failed ('::1', 5432, 0, 0), "
            "[Errno 111] Connect call failed ('127.0.0.1', 5432)"),
    ssl.SSLEOFError(8, "EOF occurred in violation of protocol"),
]


@pytest.mark.parametrize("err", NETWORK_FAILURES, ids=repr)
def test_the_database_out_of_reach_is_transient_raw_or_wrapped(err: Exception) -> None:
    assert transient(err)
    assert transient(DBAPIError("SELECT 1", {}, err))
    assert transient(StatementError("connecting", "SELECT 1", {}, err))


@pytest.mark.parametrize("err", [
    IntegrityError("INSERT INTO rounds", {}, Exception("duplicate key")),
    ProgrammingError("SELECT nope", {}, Exception("syntax error")),
    StatementError("bind", "SELECT 1", {}, TypeError("not a number")),
    OSError(errno.ENOSPC, "No space left on device"),
    PermissionError(errno.EACCES, "Permission denied"),
    FileNotFoundError(errno.ENOENT, "data/president.db"),
    OSError("some unnumbered failure"),
    ssl.SSLCertVerificationError(1, "certificate verify failed"),
    OverflowError("Python int too large to convert to SQLite INTEGER"),
    KeyError("seat"),
], ids=repr)
def test_a_bug_or_a_refusal_stays_permanent(err: Exception) -> None:
    assert not transient(err)


async def test_a_real_lock_timeout_is_retried_and_a_duplicate_is_not(postgres_url: str) -> None:
    engine = create_async_engine(postgres_url)
    try:
        async with engine.connect() as holder, engine.connect() as waiter:
            await waiter.execute(text("CREATE TABLE IF NOT EXISTS transient_probe "
                                      "(id int PRIMARY KEY)"))
            await waiter.commit()
            await holder.execute(text("LOCK TABLE transient_probe IN ACCESS EXCLUSIVE MODE"))
            await waiter.execute(text("SET lock_timeout = '1ms'"))
            with pytest.raises(DBAPIError) as locked:
                await waiter.execute(text("INSERT INTO transient_probe VALUES (1)"))
            assert transient(locked.value)
            await waiter.rollback()
            await holder.rollback()
            await waiter.execute(text("INSERT INTO transient_probe VALUES (1)"))
            with pytest.raises(DBAPIError) as duplicate:
                await waiter.execute(text("INSERT INTO transient_probe VALUES (1)"))
            assert not transient(duplicate.value)
            await waiter.rollback()
            await waiter.execute(text("DROP TABLE transient_probe"))
            await waiter.commit()
    finally:
        await engine.dispose()
