"""The snapshot write lag the writer reports: from a table's first unstored change to the
write that stores it, one figure per write however many changes it coalesced."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.storage.writer import SnapshotWriter


class GatedSink:
    """Holds each save until the test opens the gate, so the clock can move meanwhile."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.saved: list[int] = []

    async def save_snapshots_json(self, rows: Sequence[tuple[int, int, str]]) -> int:
        await self.gate.wait()
        self.saved += [seq for _, seq, _ in rows]
        return len(rows)

    async def delete_snapshot(self, table_id: int) -> None:
        return None


async def test_lag_runs_from_the_first_unstored_change_to_its_write() -> None:
    now = [100.0]
    lags: list[float] = []
    sink = GatedSink()
    writer = SnapshotWriter(sink, now=lambda: now[0], on_written=lags.append)

    writer.submit(1, 1, {"n": 1})
    await asyncio.sleep(0)  # the write of seq 1 starts and waits at the gate
    now[0] = 101.0
    writer.submit(1, 2, {"n": 2})  # arrives during the write: its own lag starts now
    writer.submit(1, 3, {"n": 3})  # coalesced with seq 2
    now[0] = 103.0
    sink.gate.set()
    await writer.flush()

    assert sink.saved == [1, 3]
    assert lags == [3.0, 2.0]
    await writer.close()
