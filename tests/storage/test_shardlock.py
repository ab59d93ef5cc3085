"""The per-shard advisory lock: a second process for a shard waits, says so, and takes
over when the first exits, or dies without closing its session; a holder whose session
ended takes its locks back, or learns it must stop when another process took one; SQLite
(one process only) locks nothing."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import text

from bot.storage.shardlock import ShardLocks

from .pgproxy import PgProxy
from .postgres import asyncpg_dsn


async def test_sqlite_locks_nothing(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'p.db'}"
    assert await ShardLocks.acquire(url, [0, 1]) is None
    assert await ShardLocks.acquire(url, [0, 1], idle_timeout=120.0) is None


async def test_a_second_process_for_a_shard_waits_then_takes_over(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    first = await ShardLocks.acquire(postgres_url, [1, 0])
    assert first is not None and first.shard_ids == (0, 1)
    waiting = asyncio.Event()
    waited: list[int] = []

    def on_wait(shard: int) -> None:
        waited.append(shard)
        waiting.set()

    with caplog.at_level(logging.WARNING, logger="bot.storage.shardlock"):
        second = asyncio.create_task(ShardLocks.acquire(postgres_url, [1], on_wait=on_wait))
        await waiting.wait()
        other = await ShardLocks.acquire(postgres_url, [2])  # another shard is free
        assert other is not None
        await other.release()
        assert not second.done()

        await first.release()
        taken = await asyncio.wait_for(second, timeout=30)

    assert taken is not None and taken.shard_ids == (1,) and waited == [1]
    assert "shard 1 is run by another process" in caplog.text
    assert "taking over" in caplog.text
    # Now the second holds shard 1: a third would wait in turn; shard 0 is free again.
    third = await ShardLocks.acquire(postgres_url, [0])
    assert third is not None
    await third.release()
    await taken.release()


async def backend_of(locks: ShardLocks) -> int:
    """The PostgreSQL backend of the lock's session, asked on that session itself."""
    connection = locks._connection
    assert connection is not None
    pid: int = (await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one()
    await connection.commit()
    return pid


async def end_session(url: str, pid: int) -> None:
    """What `pg_terminate_backend`, `idle_session_timeout` or a server restart does to the
    lock's session; returns once the backend is gone (the timeout form waits for it)."""
    admin = await asyncpg.connect(asyncpg_dsn(url))
    try:
        assert await admin.fetchval("SELECT pg_terminate_backend($1, 5000)", pid)
    finally:
        await admin.close()


def lines(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records
            if r.name == "bot.storage.shardlock"]


async def test_a_session_that_answers_keeps_its_locks_and_logs_nothing(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    locks = await ShardLocks.acquire(postgres_url, [0])
    assert locks is not None
    pid = await backend_of(locks)
    with caplog.at_level(logging.DEBUG, logger="bot.storage.shardlock"):
        assert await locks.keep() and await locks.keep()
    assert lines(caplog) == [] and await backend_of(locks) == pid
    await locks.release()
    await locks.release()  # a second release (a second close of the bot) does nothing


async def test_a_lost_session_is_told_and_its_locks_taken_back(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    locks = await ShardLocks.acquire(postgres_url, [0, 1])
    assert locks is not None
    lost = await backend_of(locks)
    await end_session(postgres_url, lost)

    with caplog.at_level(logging.WARNING, logger="bot.storage.shardlock"):
        assert await locks.keep()

    (error, _), (warning, retaken) = lines(caplog)
    assert (error, warning) == (logging.ERROR, logging.WARNING)
    assert "lost the locks of shards 0, 1: the PostgreSQL session holding them" in caplog.text
    assert retaken.startswith("took the locks of shards 0, 1 back")
    assert await backend_of(locks) != lost
    # Held again: another process for shard 1 waits, as on an overlapping deploy.
    waiting = asyncio.Event()
    second = asyncio.create_task(
        ShardLocks.acquire(postgres_url, [1], on_wait=lambda _: waiting.set()))
    await waiting.wait()
    await locks.release()
    taken = await asyncio.wait_for(second, timeout=30)
    assert taken is not None
    await taken.release()


async def test_a_lock_another_process_took_meanwhile_says_stop(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Play-test 14: the session ended, a second process for shard 1 took it at once."""
    first = await ShardLocks.acquire(postgres_url, [0, 1])
    assert first is not None
    await end_session(postgres_url, await backend_of(first))
    waited: list[int] = []
    second = await ShardLocks.acquire(postgres_url, [1], on_wait=waited.append)
    assert second is not None and waited == []

    with caplog.at_level(logging.WARNING, logger="bot.storage.shardlock"):
        assert not await first.keep()

    assert [level for level, _ in lines(caplog)] == [logging.ERROR, logging.ERROR]
    assert lines(caplog)[1][1].startswith("another process took the lock of shard 1 meanwhile: stopping")
    # The stopping process kept none of the locks it took back: shard 0 is free at once.
    third = await ShardLocks.acquire(postgres_url, [0], on_wait=waited.append)
    assert third is not None and waited == []
    await first.release()
    await third.release()
    await second.release()


async def test_while_postgresql_is_unreachable_it_plays_on_and_retakes_when_back(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Nobody can take a lock from a server nobody reaches: the process goes on, says once
    that it cannot take its locks back yet, and takes them back once the server answers."""
    proxy = PgProxy()
    await proxy.start()
    locks = await ShardLocks.acquire(proxy.url(postgres_url), [2])
    assert locks is not None
    try:
        await proxy.cut()
        with caplog.at_level(logging.WARNING, logger="bot.storage.shardlock"):
            assert await locks.keep() and await locks.keep() and await locks.keep()
            assert [level for level, _ in lines(caplog)] == [logging.ERROR, logging.WARNING]
            assert lines(caplog)[1][1].startswith("cannot take the lock of shard 2 back yet")
            caplog.clear()
            await proxy.restore()
            assert await locks.keep()
        assert [(level, message[:29]) for level, message in lines(caplog)] == [
            (logging.WARNING, "took the lock of shard 2 back")]
        assert await locks.keep()
    finally:
        await locks.release()
        await proxy.cut()


async def test_a_holder_that_died_with_its_session_open_frees_its_shard(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The holder's host dies, or the network to it is cut, its connection left open: the
    server kept the session, and the lock, until TCP keepalive ended it (about two hours),
    the process started in its place waiting all that time (stop 47). With an idle
    timeout the server ends the session nobody checks any more, and the waiter takes over
    (one second here, PostgreSQL's own timer: a real wait, bounded)."""
    proxy = PgProxy()
    await proxy.start()
    dead = await ShardLocks.acquire(proxy.url(postgres_url), [3], idle_timeout=1.0)
    assert dead is not None
    waiting = asyncio.Event()
    try:
        proxy.blackhole()  # its packets go nowhere, the server hears nothing more
        with caplog.at_level(logging.WARNING, logger="bot.storage.shardlock"):
            second = await asyncio.wait_for(ShardLocks.acquire(
                postgres_url, [3], on_wait=lambda _: waiting.set(), idle_timeout=1.0), 30)
        assert second is not None and waiting.is_set()
        assert "shard 3: the other process has exited, taking over" in caplog.text
        # The waiter's own session, checked, stays: a third process waits in turn.
        assert await second.keep()
        third_waits = asyncio.Event()
        third = asyncio.create_task(ShardLocks.acquire(
            postgres_url, [3], on_wait=lambda _: third_waits.set()))
        await asyncio.wait_for(third_waits.wait(), 30)
        assert not third.done()
        await second.release()
        taken = await asyncio.wait_for(third, 30)
        assert taken is not None
        await taken.release()
    finally:
        await proxy.cut()
        await dead.release()
