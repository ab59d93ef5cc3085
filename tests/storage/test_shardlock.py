"""The per-shard advisory lock: a second process for a shard waits, says so, and takes
over when the first exits; SQLite (one process only) locks nothing."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.storage.shardlock import ShardLocks


async def test_sqlite_locks_nothing(tmp_path: Path) -> None:
    assert await ShardLocks.acquire(f"sqlite+aiosqlite:///{tmp_path / 'p.db'}", [0, 1]) is None


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
