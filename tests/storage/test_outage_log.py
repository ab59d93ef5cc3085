"""What the operator's log holds for a database outage (play-test 14: a 5-minute PostgreSQL
outage with 50 busy tables wrote ~3,300 warnings, one per table per retry). Now: one line
when it starts, a reminder a minute while it lasts, one when it ends, naming the tables
that waited; a bug is still logged per table, with its traceback. On virtual clocks."""

from __future__ import annotations

import asyncio
import errno
import logging
from collections.abc import Sequence

import pytest

from bot.storage.failures import OutageLog
from bot.storage.writer import SnapshotWriter

OUTAGE = 300.0
TABLES = 50


class Clocks:
    """Each writer task sleeps on a virtual clock of its own; `now` is the furthest."""

    def __init__(self) -> None:
        self.elapsed: dict[object, float] = {}

    async def sleep(self, seconds: float) -> None:
        task = asyncio.current_task()
        self.elapsed[task] = self.elapsed.get(task, 0.0) + seconds
        await asyncio.sleep(0)

    def now(self) -> float:
        return max(self.elapsed.values(), default=0.0)

    def passed(self, seconds: float) -> bool:
        return min(self.elapsed.values(), default=0.0) >= seconds


class DownSink:
    """The database refuses connections until every table's clock passed the outage."""

    def __init__(self, clocks: Clocks, error: Exception) -> None:
        self.clocks = clocks
        self.error = error
        self.stored: set[int] = set()

    async def save_snapshots_json(self, rows: Sequence[tuple[int, int, str]]) -> int:
        if not self.clocks.passed(OUTAGE):
            raise self.error
        self.stored.update(row[0] for row in rows)
        return len(rows)

    async def delete_snapshot(self, table_id: int) -> None:
        return None


async def test_a_five_minute_outage_of_fifty_tables_is_a_handful_of_lines(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    clocks = Clocks()
    sink = DownSink(clocks, ConnectionRefusedError(errno.ECONNREFUSED, "Connect call failed"))
    writer = SnapshotWriter(sink, sleep=clocks.sleep, now=clocks.now)
    for table_id in range(1, TABLES + 1):
        writer.submit(table_id, 1, {"x": table_id})
    await asyncio.wait_for(writer.flush(), 60)
    assert sink.stored == set(range(1, TABLES + 1)) and not writer.outage.down
    records = [r for r in caplog.records if r.name.startswith("bot")]
    said = [r.getMessage() for r in records]
    assert not any(r.exc_info for r in records)
    assert said[0] == ("database unavailable (ConnectionRefusedError: [Errno 111] Connect "
                       "call failed): table 1's snapshot and every write after it are "
                       "retried until it answers")
    reminders = [m for m in said if m.startswith("database still unavailable")]
    assert 3 <= len(reminders) <= OUTAGE / 60 + 1, said
    assert "50 writes waiting, of tables 1, 2, 3" in reminders[0]
    assert "and 30 more" in reminders[0]  # the ids shown are capped at 20
    assert said[-1].startswith("database answering again after ")
    assert len(said) == 2 + len(reminders)


async def test_a_bug_while_writing_is_still_told_per_table_with_its_traceback(
        caplog: pytest.LogCaptureFixture) -> None:
    clocks = Clocks()
    sink = DownSink(clocks, TypeError("not JSON"))
    writer = SnapshotWriter(sink, sleep=clocks.sleep, now=clocks.now, max_delay=100.0)
    writer.submit(7, 1, {})
    await asyncio.wait_for(writer.flush(), 60)
    failed = [r for r in caplog.records if "snapshot write failed" in r.getMessage()]
    assert failed and failed[0].getMessage().startswith("table 7:")
    assert failed[0].exc_info is not None and not writer.outage.down


def test_the_results_queue_and_the_writer_tell_one_outage_once(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="bot")
    now = [0.0]
    outage = OutageLog(logging.getLogger("bot.test"), lambda: now[0], remind_every=60)
    refused = ConnectionRefusedError(errno.ECONNREFUSED, "refused")
    outage.failed(1, "snapshot", refused, 0.1)
    outage.failed(2, "round 3", refused, 0.5)
    now[0] = 59
    outage.failed(1, "snapshot", refused, 0.2)
    now[0] = 61
    outage.failed(2, "round 3", refused, 1.0)
    assert outage.stored(2, "round 3") and not outage.down
    assert outage.stored(1, "snapshot")
    assert not outage.stored(3, "snapshot")  # never waited
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [
        "database unavailable (ConnectionRefusedError: [Errno 111] refused): table 1's "
        "snapshot and every write after it are retried until it answers",
        "database still unavailable after 61s (ConnectionRefusedError: [Errno 111] "
        "refused): 2 writes waiting, of tables 1, 2",
        "database answering again after 61s: 4 failed attempts; the writes of tables 1, 2 "
        "are being stored",
    ]
    debug = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert "table 2: storing round 3 failed (attempt 2, ConnectionRefusedError: [Errno 111] " \
           "refused), retrying in 1.0s" in debug
    assert "table 1: snapshot stored after 2 failures" in debug
