"""Background, ordered, coalescing persistence of live table snapshots.

Guarantee. The table runtime calls `submit(table_id, seq, state)` after every accepted action
and before it takes the next one. `submit` is synchronous: it serialises the state there and
then (so later mutations of the runtime's objects cannot leak into the queued copy, and a
state that is not JSON-safe fails loudly in the caller) and queues it. Each table then has at
most one write in flight, in `seq` order; if the database lags, only the newest queued state
of a table is written (intermediate states are superseded, never reordered), and the
database refuses any `seq` older than the stored one. Failures are logged and retried with a
capped exponential backoff, forever, while play continues; `flush()` waits for everything
submitted so far to reach the database.

Group commit. The saves of different tables that are waiting when a commit slot frees go to
the database together, in one transaction (`_GroupCommit`): a commit and its round trips
cost more than the row itself, so under load the writer commits less often, not later. A
batch refused for one row's sake (its table deleted) is tried again row by row, so each
table still meets its own outcome.

Trade-off. Awaiting the write itself before acknowledging each action (`Storage.save_snapshot`
directly) would make every click wait for a commit (see docs/deploy.md for the measured
cost) and would stall a table whenever the database hiccups. With the writer, a process crash
loses at most the actions whose write had not committed yet, typically the last one or two,
and the restored table is still a consistent earlier state of the same game: cards, scores
and recorded rounds all agree with it. Runtimes that prefer strict durability per action can
await `Storage.save_snapshot` themselves; both paths use the same ordered upsert.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from sqlalchemy.exc import IntegrityError

from bot.storage import jsoncodec
from bot.storage.failures import OutageLog, transient

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[object]]


class SnapshotSink(Protocol):
    """What the writer needs from `Storage` (tests substitute failing sinks)."""

    async def save_snapshots_json(self, rows: Sequence[tuple[int, int, str]]) -> int: ...

    async def delete_snapshot(self, table_id: int) -> None: ...


@dataclass(frozen=True, slots=True)
class _Save:
    seq: int
    payload: str
    # Set when this state follows a discard not yet written: the stored snapshot (with a
    # higher seq from the table's previous life) must go first or the upsert would refuse it.
    reset: bool = False


@dataclass(frozen=True, slots=True)
class _Delete:
    pass


_Operation = _Save | _Delete


def _merge(older: _Operation, newer: _Operation) -> _Operation:
    """The one operation that has the effect of `older` then `newer`."""
    if isinstance(newer, _Save) and (
        isinstance(older, _Delete) or (older.reset and not newer.reset)
    ):
        return _Save(newer.seq, newer.payload, reset=True)
    return newer


@dataclass(slots=True)
class WriterStats:
    """Counters for logs and the benchmark."""

    submitted: int = 0
    written: int = 0
    coalesced: int = 0
    failures: int = 0
    dropped: int = 0


@dataclass(frozen=True, slots=True)
class _Row:
    table_id: int
    seq: int
    payload: str
    written: asyncio.Future[bool]


class _GroupCommit:
    """Writes the saves queued by many tables in shared transactions, at most `committers`
    at a time. A committer takes every save queued when it gets its slot, so a save waits for
    at most the commit in flight; batches never hold two saves of one table, since each
    table has one write in flight (`SnapshotWriter`)."""

    LIMIT = 200  # rows a transaction: ~1 MB of typical states

    def __init__(self, sink: SnapshotSink, slots: asyncio.Semaphore, committers: int) -> None:
        self._sink = sink
        self._slots = slots
        self._queue: list[_Row] = []
        self._committers: set[asyncio.Task[None]] = set()
        self._max_committers = committers

    async def save(self, table_id: int, save: _Save) -> bool:
        """Whether the state was written (False: the stored one is as new or newer)."""
        row = _Row(table_id, save.seq, save.payload, asyncio.get_running_loop().create_future())
        self._queue.append(row)
        if len(self._committers) < self._max_committers:
            task = asyncio.get_running_loop().create_task(self._commit(), name="snapshot-commit")
            self._committers.add(task)  # the loop keeps only a weak reference to a task
        return await row.written

    async def _commit(self) -> None:
        try:
            while self._queue:
                async with self._slots:
                    batch = self._queue[:self.LIMIT]
                    del self._queue[:self.LIMIT]
                    if batch:  # else another committer took them while this one waited
                        await self._write(batch)
        finally:
            # At once, not in a done callback: a save queued after the last look at the
            # queue must find this committer gone and start another.
            self._committers.discard(cast("asyncio.Task[None]", asyncio.current_task()))

    async def _write(self, batch: list[_Row]) -> None:
        try:
            count = await self._sink.save_snapshots_json(
                [(row.table_id, row.seq, row.payload) for row in batch])
        except IntegrityError as error:
            if len(batch) == 1:
                _settle(batch[0], error=error)
                return
            for row in batch:  # one row's table is gone: find it, write the others
                await self._write([row])
        except Exception as error:
            for row in batch:
                _settle(row, error=error)
        else:
            # A batch's count says only how many were older than the stored states (and
            # some drivers cannot count an executemany): one row alone says which.
            if len(batch) == 1:
                _settle(batch[0], written=count == 1)
                return
            for row in batch:
                _settle(row, written=True)
            if 0 <= count < len(batch):
                log.warning("tables %s: %d snapshots older than the stored ones",
                            [row.table_id for row in batch], len(batch) - count)


def _settle(row: _Row, *, written: bool = False, error: BaseException | None = None) -> None:
    if row.written.done():  # its table's writer gave up waiting (cancelled)
        return
    if error is not None:
        row.written.set_exception(error)
    else:
        row.written.set_result(written)


class SnapshotWriter:
    """Queues snapshots per table and writes them in order in background tasks."""

    def __init__(
        self,
        sink: SnapshotSink,
        *,
        sleep: Sleep = asyncio.sleep,
        first_delay: float = 0.1,
        max_delay: float = 5.0,
        max_concurrency: int = 4,
        now: Callable[[], float] = time.monotonic,
        on_written: Callable[[float], None] | None = None,
    ) -> None:
        """`on_written` is told, after each stored snapshot, how long (on `now`'s clock) the
        oldest change it carries waited to be stored: the snapshot write lag, i.e. what a
        crash at that moment would have lost."""
        self._sink = sink
        self._sleep = sleep
        self._first_delay = first_delay
        self._max_delay = max_delay
        # Bounded so a burst over many tables cannot exhaust the connection pool that slash
        # commands also need.
        self._slots = asyncio.Semaphore(max_concurrency)
        self._commit = _GroupCommit(sink, self._slots, max_concurrency)
        self._pending: dict[int, _Operation] = {}
        self._last_seq: dict[int, int] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._closed = False
        self.stats = WriterStats()
        self._now = now
        # Shared with the table's result queue (`StorageStore`): one outage, told once.
        self.outage = OutageLog(log, now)
        self._on_written = on_written
        self._since: dict[int, float] = {}  # first unstored change per table, for the lag

    def submit(self, table_id: int, seq: int, state: Mapping[str, Any]) -> None:
        """Queue `state` as the table's snapshot number `seq`; never waits for the database.

        `seq` must grow with every call for a table (the runtime's action counter, carried
        over from the restored snapshot after a restart).
        """
        if self._closed:
            raise RuntimeError("snapshot writer is closed")
        last = self._last_seq.get(table_id)
        if last is not None and seq <= last:
            raise ValueError(f"table {table_id}: snapshot seq {seq} is not after {last}")
        payload = jsoncodec.dumps(state)
        self._last_seq[table_id] = seq
        if self._on_written is not None:
            self._since.setdefault(table_id, self._now())
        self._enqueue(table_id, _Save(seq, payload))

    def discard(self, table_id: int) -> None:
        """Forget a table: drop its queued state and delete its stored snapshot after any
        write already in flight, so a closed table cannot be resurrected by a late write."""
        if self._closed:
            raise RuntimeError("snapshot writer is closed")
        self._last_seq.pop(table_id, None)
        self._enqueue(table_id, _Delete())

    @property
    def closed(self) -> bool:
        """Whether new snapshots are refused: the process is shutting down."""
        return self._closed

    @property
    def pending(self) -> int:
        """Tables whose latest state is not written yet (queued or in flight)."""
        return len(self._tasks)

    async def flush(self, table_id: int | None = None) -> None:
        """Wait until everything submitted so far (for one table, or all) is written.

        A table runtime flushes its own table before recording a finished round, so that
        the stored state is never older than the stored scores (see `record_round`).
        Never returns while the database stays down; bound it with `asyncio.wait_for` at
        shutdown. Cancelling a flush does not cancel the writes.
        """
        while True:
            if table_id is None:
                waiting = list(self._tasks.values())
            else:
                waiting = [task] if (task := self._tasks.get(table_id)) else []
            if not waiting:
                return
            await asyncio.wait(waiting)

    async def close(self) -> None:
        """Refuse new snapshots, then flush."""
        self._closed = True
        await self.flush()

    def _enqueue(self, table_id: int, operation: _Operation) -> None:
        self.stats.submitted += 1
        previous = self._pending.get(table_id)
        if previous is not None:
            self.stats.coalesced += 1
            operation = _merge(previous, operation)
        self._pending[table_id] = operation
        if table_id not in self._tasks:
            self._tasks[table_id] = asyncio.get_running_loop().create_task(
                self._drain(table_id), name=f"snapshot-writer-{table_id}"
            )

    async def _drain(self, table_id: int) -> None:
        delay = self._first_delay
        failures = 0
        try:
            while (operation := self._pending.pop(table_id, None)) is not None:
                since = self._since.pop(table_id, None)
                try:
                    await self._apply(table_id, operation)
                except IntegrityError:
                    # Permanent: the table row is gone (deleted) so no retry can succeed.
                    self.stats.dropped += 1
                    log.error(
                        "table %s: snapshot refused by the database, dropped",
                        table_id,
                        exc_info=True,
                    )
                    continue
                except Exception as err:
                    failures += 1
                    self.stats.failures += 1
                    # A newer state submitted meanwhile supersedes the failed one.
                    newer = self._pending.get(table_id)
                    if newer is None:
                        self._pending[table_id] = operation
                    else:
                        self.stats.coalesced += 1
                        self._pending[table_id] = _merge(operation, newer)
                    if since is not None:
                        self._since[table_id] = min(since, self._since.get(table_id, since))
                    if transient(err):  # the database away: told once for all tables
                        self.outage.failed(table_id, "snapshot", err, delay)
                    else:
                        log.warning(
                            "table %s: snapshot write failed (attempt %d), retrying in %.1fs",
                            table_id,
                            failures,
                            delay,
                            exc_info=failures == 1,
                        )
                    await self._sleep(delay)
                    delay = min(delay * 2, self._max_delay)
                    continue
                if failures and not self.outage.stored(table_id, "snapshot"):
                    log.info("table %s: snapshot written after %d failures", table_id, failures)
                delay = self._first_delay
                failures = 0
                self.stats.written += 1
                if since is not None and self._on_written is not None:
                    self._on_written(self._now() - since)
        finally:
            del self._tasks[table_id]

    async def _apply(self, table_id: int, operation: _Operation) -> None:
        if isinstance(operation, _Delete) or operation.reset:
            async with self._slots:
                await self._sink.delete_snapshot(table_id)
        if isinstance(operation, _Save) and not await self._commit.save(table_id, operation):
            log.warning(
                "table %s: snapshot %d older than the stored one", table_id, operation.seq
            )
