"""The tables' rows: opening, changing, closing, and the ones to restore at start."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, cast

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from bot.storage.errors import ChannelBusy, UnknownTable
from bot.storage.guilds import Guilds
from bot.storage.models import TABLE_STATUSES, GameTable, TableSnapshot
from bot.storage.records import TableRecord, TableStatus
from bot.storage.shards import in_shards
from engine.rules import RulesDict

_TABLE_COLUMNS = (
    GameTable.id,
    GameTable.guild_id,
    GameTable.channel_id,
    GameTable.host_id,
    GameTable.rules,
    GameTable.status,
    GameTable.created_at,
    GameTable.updated_at,
)


class Tables(Guilds):
    """The tables side of `Storage` (bot/storage/repository.py)."""

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        rules: RulesDict,
        *,
        status: TableStatus = "lobby",
    ) -> int:
        """Open a table and return its id; raises `ChannelBusy` if the channel has one.

        The database enforces one open table per channel, so two processes or a double
        click cannot both succeed.
        """
        _check_status(status)
        now = self._now()
        try:
            async with self._write() as connection:
                await self._upsert_guild(connection, guild_id, {})
                result = await connection.execute(
                    insert(GameTable)
                    .values(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        host_id=host_id,
                        rules=dict(rules),
                        status=status,
                        created_at=now,
                        updated_at=now,
                    )
                    .returning(GameTable.id)
                )
                return int(result.scalar_one())
        except IntegrityError as error:
            existing = await self.get_table_by_channel(channel_id)
            if existing is None:
                raise
            raise ChannelBusy(channel_id, existing.table_id) from error

    async def update_table(
        self,
        table_id: int,
        *,
        host_id: int | None = None,
        rules: RulesDict | None = None,
        status: TableStatus | None = None,
    ) -> TableRecord:
        """Change host, rules or status and return the table as stored.

        Closing a table also deletes its live snapshot: nothing is left to restore. Pair it
        with `SnapshotWriter.discard` so that a queued snapshot does not come back later.
        """
        values: dict[str, Any] = {"updated_at": self._now()}
        if host_id is not None:
            values["host_id"] = host_id
        if rules is not None:
            values["rules"] = dict(rules)
        if status is not None:
            _check_status(status)
            values["status"] = status
        async with self._write() as connection:
            row = (
                await connection.execute(
                    update(GameTable)
                    .where(GameTable.id == table_id)
                    .values(**values)
                    .returning(*_TABLE_COLUMNS)
                )
            ).one_or_none()
            if row is None:
                raise UnknownTable(table_id)
            if status == "closed":
                await connection.execute(
                    delete(TableSnapshot).where(TableSnapshot.table_id == table_id)
                )
        return _table_record(row)

    async def get_table(self, table_id: int) -> TableRecord | None:
        async with self._read() as connection:
            row = (
                await connection.execute(select(*_TABLE_COLUMNS).where(GameTable.id == table_id))
            ).one_or_none()
        return None if row is None else _table_record(row)

    async def get_table_by_channel(self, channel_id: int) -> TableRecord | None:
        """The open (not closed) table of a channel, if any."""
        async with self._read() as connection:
            row = (
                await connection.execute(
                    select(*_TABLE_COLUMNS).where(
                        GameTable.channel_id == channel_id, GameTable.status != "closed"
                    )
                )
            ).one_or_none()
        return None if row is None else _table_record(row)

    async def active_tables(
        self,
        guild_ids: Collection[int] | None = None,
        *,
        shard_ids: Collection[int] | None = None,
        shard_count: int | None = None,
    ) -> list[TableRecord]:
        """Tables to restore at start: every table not closed, oldest first.

        Filter by the guilds this process sees, or by shard (`shard_ids` of `shard_count`)
        so that a process restores exactly the tables of the guilds it owns even before the
        gateway has delivered its guild list.
        """
        statement = select(*_TABLE_COLUMNS).where(GameTable.status != "closed")
        if guild_ids is not None:
            statement = statement.where(GameTable.guild_id.in_(list(guild_ids)))
        if shard_ids is not None or shard_count is not None:
            statement = statement.where(in_shards(GameTable.guild_id, shard_ids, shard_count))
        async with self._read() as connection:
            rows = (await connection.execute(statement.order_by(GameTable.id))).all()
        return [_table_record(row) for row in rows]


def _table_record(row: Any) -> TableRecord:
    return TableRecord(
        table_id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        host_id=row.host_id,
        rules=row.rules,
        status=cast(TableStatus, row.status),
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def _check_status(status: str) -> None:
    if status not in TABLE_STATUSES:
        raise ValueError(f"status must be one of {', '.join(TABLE_STATUSES)}")
