"""Bring back every open table after a restart, from its last live snapshot."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection

from bot.storage.repository import Storage
from bot.tables.service import TableService
from bot.tables.table import Table

log = logging.getLogger(__name__)


async def restore_tables(
    service: TableService, storage: Storage, *,
    shard_ids: Collection[int] | None = None, shard_count: int | None = None,
    prepare: Callable[[Table], None] | None = None,
) -> int:
    """Adopt each stored table, once `prepare` has seen it (the publisher's part: before
    the table's first redraw); a table with no usable snapshot is closed (nothing to show).

    A sharded process (`shard_ids` of `shard_count`) adopts only the tables of the guilds
    its shards own: Discord sends those guilds' clicks to it alone, and another process
    restoring the same table would play it twice.
    """
    restored = 0
    for record in await storage.active_tables(shard_ids=shard_ids, shard_count=shard_count):
        snapshot = await storage.load_snapshot(record.table_id)
        try:
            table = Table.from_dict(snapshot.state) if snapshot is not None else None
        except Exception:
            log.exception("snapshot of table %s is unreadable", record.table_id)
            table = None
        if table is None or service.registry.in_channel(table.channel_id) is not None:
            await storage.update_table(record.table_id, status="closed")
            continue
        assert snapshot is not None
        # The stored row's seq is what the database compares later saves against.
        table.seq = max(table.seq, snapshot.seq)
        if prepare is not None:
            prepare(table)
        service.adopt(table, snapshot.saved_at.timestamp())
        restored += 1
    return restored
