"""Bring back every open table after a restart, from its last live snapshot."""

from __future__ import annotations

import logging

from bot.storage.repository import Storage
from bot.tables.service import TableService
from bot.tables.table import Table

log = logging.getLogger(__name__)


async def restore_tables(service: TableService, storage: Storage) -> int:
    """Adopt each stored table; a table with no usable snapshot is closed (nothing to show)."""
    restored = 0
    for record in await storage.active_tables():
        snapshot = await storage.load_snapshot(record.table_id)
        try:
            table = Table.from_dict(snapshot.state) if snapshot is not None else None
        except Exception:
            log.exception("snapshot of table %s is unreadable", record.table_id)
            table = None
        if table is None or service.registry.in_channel(table.channel_id) is not None:
            await storage.update_table(record.table_id, status="closed")
            continue
        service.adopt(table)
        restored += 1
    return restored
