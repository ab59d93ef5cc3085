"""SnapshotWriter: ordering, coalescing, retries, discard; no real sleeping anywhere."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import SnapshotWriter, Storage, jsoncodec

GUILD = 9 << 22


def transient() -> OperationalError:
    return OperationalError("INSERT INTO table_snapshots", {}, Exception("database is locked"))


class FakeSleep:
    """Records backoff delays and only yields to the loop; `hold()` makes it block."""

    def __init__(self) -> None:
        self.delays: list[float] = []
        self.release: asyncio.Event | None = None

    def hold(self) -> None:
        self.release = asyncio.Event()

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)
        if self.release is not None:
            await self.release.wait()
        await asyncio.sleep(0)


class MemorySink:
    """An in-memory stand-in for Storage with the same forward-only upsert rule."""

    def __init__(self) -> None:
        self.stored: dict[int, tuple[int, Any]] = {}
        self.calls: list[tuple[str, int, int | None]] = []
        self.gates: dict[int, asyncio.Event] = {}
        self.failures = 0
        self.error: Callable[[], Exception] = transient
        self.on_failure: Callable[[], None] | None = None
        self.transactions: list[int] = []  # rows in each
        self.gone: set[int] = set()  # tables whose row was deleted: their saves are refused

    def block(self, table_id: int) -> asyncio.Event:
        self.gates[table_id] = asyncio.Event()
        return self.gates[table_id]

    async def save_snapshots_json(self, rows: Sequence[tuple[int, int, str]]) -> int:
        """One transaction, as Storage's: all rows are written or none; a failure counts once."""
        self.transactions.append(len(rows))
        for table_id, seq, _ in rows:
            self.calls.append(("save", table_id, seq))
        for table_id, _, _ in rows:
            if table_id in self.gates:
                await self.gates.pop(table_id).wait()
        if self.failures:
            self.failures -= 1
            if self.on_failure is not None:
                self.on_failure()
            raise self.error()
        if any(table_id in self.gone for table_id, _, _ in rows):
            raise IntegrityError("INSERT", {}, Exception("FOREIGN KEY constraint failed"))
        written = 0
        for table_id, seq, payload in rows:
            stored = self.stored.get(table_id)
            if stored is None or stored[0] < seq:
                self.stored[table_id] = (seq, jsoncodec.loads(payload))
                written += 1
        return written

    async def delete_snapshot(self, table_id: int) -> None:
        self.calls.append(("delete", table_id, None))
        self.stored.pop(table_id, None)


def saves(sink: MemorySink, table_id: int) -> list[int | None]:
    return [seq for kind, table, seq in sink.calls if kind == "save" and table == table_id]


async def test_submit_returns_at_once_and_coalesces() -> None:
    sink = MemorySink()
    writer = SnapshotWriter(sink, sleep=FakeSleep())
    for seq in (1, 2, 3):
        writer.submit(1, seq, {"seq": seq})
    assert sink.calls == [] and writer.pending == 1
    await writer.flush()
    assert saves(sink, 1) == [3]
    assert sink.stored[1] == (3, {"seq": 3})
    assert (writer.stats.submitted, writer.stats.written, writer.stats.coalesced) == (3, 1, 2)
    assert writer.pending == 0


async def test_lagging_writes_stay_in_order_and_skip_to_latest() -> None:
    sink = MemorySink()
    gate = sink.block(1)
    writer = SnapshotWriter(sink, sleep=FakeSleep())
    writer.submit(1, 1, {"seq": 1})
    await asyncio.sleep(0)  # the write of seq 1 is now in flight and stuck
    for seq in (2, 3, 4):
        writer.submit(1, seq, {"seq": seq})
        await asyncio.sleep(0)
    gate.set()
    await writer.flush()
    assert saves(sink, 1) == [1, 4]
    assert sink.stored[1] == (4, {"seq": 4})


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_stuck_table_does_not_hold_up_others() -> None:
    """A write stuck in flight holds its commit slot only: later saves take another one.
    (Saves queued together share a transaction, and so its fate.)"""
    sink = MemorySink()
    gate = sink.block(1)
    writer = SnapshotWriter(sink, sleep=FakeSleep())
    writer.submit(1, 1, {})
    await settle()
    writer.submit(2, 1, {})
    await settle()
    assert 2 in sink.stored and 1 not in sink.stored
    gate.set()
    await writer.flush()
    assert 1 in sink.stored


async def test_saves_queued_during_a_commit_share_the_next_transaction() -> None:
    sink = MemorySink()
    gate = sink.block(1)
    writer = SnapshotWriter(sink, sleep=FakeSleep(), max_concurrency=1)
    writer.submit(1, 1, {"v": 1})
    await settle()  # in flight, stuck
    for table_id in (2, 3, 4):
        writer.submit(table_id, 1, {"v": table_id})
    writer.submit(1, 2, {"v": 2})  # waits for its table's write in flight, as ever
    await settle()
    assert sink.transactions == [1]
    gate.set()
    await writer.flush()
    assert sink.transactions == [1, 3, 1]
    assert {t: seq for t, (seq, _) in sink.stored.items()} == {1: 2, 2: 1, 3: 1, 4: 1}
    assert writer.stats.written == 5


async def test_a_table_gone_from_a_batch_is_dropped_and_the_others_written(
    caplog: pytest.LogCaptureFixture,
) -> None:
    sink = MemorySink()
    sink.gone.add(3)
    gate = sink.block(1)
    writer = SnapshotWriter(sink, sleep=FakeSleep(), max_concurrency=1)
    writer.submit(1, 1, {})
    await settle()
    for table_id in (2, 3, 4):
        writer.submit(table_id, 1, {})
    gate.set()
    with caplog.at_level(logging.ERROR, logger="bot.storage.writer"):
        await writer.flush()
    assert sorted(sink.stored) == [1, 2, 4]
    assert sink.transactions == [1, 3, 1, 1, 1]  # the batch, then each of its rows alone
    assert (writer.stats.written, writer.stats.dropped, writer.stats.failures) == (3, 1, 0)
    assert "table 3: snapshot refused by the database, dropped" in caplog.text


async def test_a_failed_batch_is_retried_by_each_of_its_tables() -> None:
    sink = MemorySink()
    gate = sink.block(1)
    sleep = FakeSleep()
    writer = SnapshotWriter(sink, sleep=sleep, max_concurrency=1)
    writer.submit(1, 1, {})
    await settle()
    for table_id in (2, 3):
        writer.submit(table_id, 1, {})
    sink.failures = 2  # table 1's transaction, then the batch of tables 2 and 3
    gate.set()
    await writer.flush()
    assert sorted(sink.stored) == [1, 2, 3]
    assert sink.transactions[:2] == [1, 2]
    # Each table of the failed batch counts its failure and backs off on its own.
    assert writer.stats.failures == 3 and sleep.delays == [0.1, 0.1, 0.1]


async def test_failures_are_logged_and_retried_with_capped_backoff(
    caplog: pytest.LogCaptureFixture,
) -> None:
    sink = MemorySink()
    sink.failures = 6
    sleep = FakeSleep()
    writer = SnapshotWriter(sink, sleep=sleep, first_delay=0.1, max_delay=1.0)
    with caplog.at_level(logging.INFO, logger="bot.storage.writer"):
        writer.submit(1, 1, {"v": 1})
        await writer.flush()
    assert sleep.delays == [0.1, 0.2, 0.4, 0.8, 1.0, 1.0]
    assert sink.stored[1] == (1, {"v": 1})
    assert (writer.stats.failures, writer.stats.written) == (6, 1)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    # A transient failure (the database away) is told once as it starts and once as it
    # ends, without a traceback (tests/storage/test_outage_log.py): not once per attempt.
    assert [w.getMessage().split(" (")[0] for w in warnings] == [
        "database unavailable", "database answering again after 0s: 6 failed attempts; "
        "the writes of table 1 are being stored"]
    assert not any(w.exc_info for w in warnings)

    # The backoff starts over after a success.
    sink.failures = 1
    writer.submit(1, 2, {"v": 2})
    await writer.flush()
    assert sleep.delays[-1] == 0.1


async def test_retry_writes_the_newest_state() -> None:
    sink = MemorySink()
    writer = SnapshotWriter(sink, sleep=FakeSleep())
    sink.failures = 1
    sink.on_failure = lambda: writer.submit(1, 2, {"v": 2})
    writer.submit(1, 1, {"v": 1})
    await writer.flush()
    assert saves(sink, 1) == [1, 2]
    assert sink.stored[1] == (2, {"v": 2})


async def test_refused_snapshot_is_dropped_not_retried(caplog: pytest.LogCaptureFixture) -> None:
    sink = MemorySink()
    sink.failures = 1
    sink.error = lambda: IntegrityError("INSERT", {}, Exception("foreign key"))
    sleep = FakeSleep()
    writer = SnapshotWriter(sink, sleep=sleep)
    with caplog.at_level(logging.ERROR, logger="bot.storage.writer"):
        writer.submit(1, 1, {})
        await writer.flush()
    assert sleep.delays == [] and writer.stats.dropped == 1 and 1 not in sink.stored
    assert any("dropped" in r.getMessage() for r in caplog.records)


async def test_submit_captures_the_state_and_validates() -> None:
    sink = MemorySink()
    writer = SnapshotWriter(sink, sleep=FakeSleep())
    state: dict[str, Any] = {"hand": ["3H"]}
    writer.submit(1, 1, state)
    state["hand"].append("2S")
    await writer.flush()
    assert sink.stored[1] == (1, {"hand": ["3H"]})

    with pytest.raises(TypeError):
        writer.submit(1, 2, {"bad": object()})
    with pytest.raises(ValueError):
        writer.submit(1, 1, {})
    writer.submit(1, 2, {})  # the refused submits did not consume seq 2


async def test_discard_deletes_after_the_write_in_flight_and_allows_a_restart() -> None:
    sink = MemorySink()
    gate = sink.block(1)
    writer = SnapshotWriter(sink, sleep=FakeSleep())
    writer.submit(1, 50, {"life": 1})
    await asyncio.sleep(0)
    writer.discard(1)
    writer.submit(1, 1, {"life": 2})  # a fresh counter for the table's next life
    gate.set()
    await writer.flush()
    assert sink.calls == [("save", 1, 50), ("delete", 1, None), ("save", 1, 1)]
    assert sink.stored[1] == (1, {"life": 2})

    writer.discard(1)
    await writer.flush()
    assert 1 not in sink.stored


async def test_flush_can_time_out_without_cancelling_writes() -> None:
    sink = MemorySink()
    sink.failures = 1
    sleep = FakeSleep()
    sleep.hold()
    writer = SnapshotWriter(sink, sleep=sleep)
    writer.submit(1, 1, {"v": 1})
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(writer.flush(), timeout=0.01)
    assert writer.pending == 1
    assert sleep.release is not None
    sleep.release.set()
    await writer.close()
    assert sink.stored[1] == (1, {"v": 1})
    with pytest.raises(RuntimeError):
        writer.submit(1, 2, {})


class FlakyStorage(Storage):
    """Real storage whose first `failures` write transactions fail before reaching SQL."""

    failures = 0

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncConnection]:
        if self.failures:
            self.failures -= 1
            raise transient()
        async with super()._write() as connection:
            yield connection


@pytest.fixture
async def flaky(db_url: str) -> AsyncIterator[FlakyStorage]:
    storage = await FlakyStorage.open(db_url)
    try:
        yield storage
    finally:
        await storage.close()


async def test_writer_on_a_real_database(flaky: FlakyStorage) -> None:
    """Tables play concurrently, the first writes fail; every table ends at its last state."""
    tables = [await flaky.create_table(GUILD, 100 + n, 1, {"preset": "classic", "set": {}})
              for n in range(8)]
    sleep = FakeSleep()
    writer = SnapshotWriter(flaky, sleep=sleep)
    flaky.failures = 3
    for seq in range(1, 26):
        for table_id in tables:
            writer.submit(table_id, seq, {"table": table_id, "seq": seq, "hand": ["QH"] * seq})
        await asyncio.sleep(0)
    await writer.flush()
    # Three transactions failed; each carried one or more tables' saves (group commit), and
    # every table in one counts the failure and backs off once.
    assert flaky.failures == 0 and len(sleep.delays) == writer.stats.failures >= 3
    for table_id in tables:
        snapshot = await flaky.load_snapshot(table_id)
        assert snapshot is not None
        assert snapshot.seq == 25
        assert snapshot.state == {"table": table_id, "seq": 25, "hand": ["QH"] * 25}
    assert writer.stats.written + writer.stats.coalesced == writer.stats.submitted


async def test_writer_drops_snapshots_of_unknown_tables(flaky: FlakyStorage) -> None:
    writer = SnapshotWriter(flaky, sleep=FakeSleep())
    writer.submit(12345, 1, {})
    await writer.flush()
    assert writer.stats.dropped == 1
    assert await flaky.load_snapshot(12345) is None


async def test_flush_one_table_waits_only_for_it() -> None:
    sink = MemorySink()
    gate = sink.block(2)
    writer = SnapshotWriter(sink, sleep=FakeSleep())
    writer.submit(2, 1, {})
    await settle()  # in flight, stuck
    writer.submit(1, 1, {})
    await writer.flush(1)
    assert 1 in sink.stored and 2 not in sink.stored and writer.pending == 1
    await writer.flush(3)  # nothing queued for that table
    gate.set()
    await writer.flush(2)
    assert 2 in sink.stored
