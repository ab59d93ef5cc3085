"""The tables' live snapshots: the runtime state a restart restores, written
order-proof."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import cached_property
from typing import Any

from sqlalchemy import JSON, BigInteger, Integer, bindparam, delete, null, select, update

from bot.storage import jsoncodec
from bot.storage.access import Access
from bot.storage.models import SerializedJSON, TableSnapshot, UTCDateTime
from bot.storage.records import Snapshot


class Snapshots(Access):
    """The live snapshots side of `Storage` (bot/storage/repository.py)."""

    async def save_snapshot(self, table_id: int, seq: int, state: Mapping[str, object]) -> bool:
        """Store a table's runtime state unless a snapshot with `seq` or later is stored.

        Returns whether this state was written. The conditional upsert makes writes
        order-proof: a delayed retry of an older state can never overwrite a newer one.
        """
        return await self.save_snapshots_json([(table_id, seq, jsoncodec.dumps(state))]) == 1

    async def save_snapshots_json(self, rows: Sequence[tuple[int, int, str]]) -> int:
        """`save_snapshot` for several tables at once, each state as `jsoncodec.dumps`
        serialised it (the snapshot writer holds them so: stored as they are, not parsed and
        serialised again), in one transaction; rows are (table_id, seq, payload). Returns
        how many were written, or -1 where the driver cannot count an executemany.

        One transaction for the writes that arrive together saves a commit and its round
        trips per table: most of a write's cost (docs/deploy.md « Cost of persisting »)."""
        saved_at = self._now()
        async with self._write() as connection:
            result = await connection.execute(
                self._snapshot_upsert,
                [{"table_id": table_id, "seq": seq, "state": payload, "saved_at": saved_at}
                 for table_id, seq, payload in rows],
            )
        return int(result.rowcount)

    @cached_property
    def _snapshot_upsert(self) -> Any:
        """The snapshot upsert with its values as parameters: built once, so that each
        write only binds them (building and caching the statement anew cost more CPU than
        the write itself at hundreds of writes a second, docs/deploy.md)."""
        statement = self._insert(TableSnapshot).values(
            table_id=bindparam("table_id", type_=Integer),
            seq=bindparam("seq", type_=BigInteger),
            state=bindparam("state", type_=SerializedJSON()),
            saved_at=bindparam("saved_at", type_=UTCDateTime()),
        )
        return statement.on_conflict_do_update(
            index_elements=[TableSnapshot.table_id],
            set_={
                "seq": statement.excluded.seq,
                "state": statement.excluded.state,
                "saved_at": statement.excluded.saved_at,
                # Known for the state a stop stored only: a later one may follow edits.
                "shown": null(),
            },
            where=TableSnapshot.seq < statement.excluded.seq,
        )

    async def load_snapshot(self, table_id: int) -> Snapshot | None:
        async with self._read() as connection:
            row = (
                await connection.execute(
                    select(TableSnapshot.seq, TableSnapshot.state, TableSnapshot.saved_at,
                           TableSnapshot.shown).where(TableSnapshot.table_id == table_id)
                )
            ).one_or_none()
        if row is None:
            return None
        return Snapshot(table_id, row.seq, row.state, row.saved_at, row.shown)

    async def keep_shown(self, rows: Sequence[tuple[int, int, Mapping[str, object]]]) -> None:
        """What each table's messages show as the bot stops (rows: table id, the `seq` of
        the state it stored last, what was shown), kept beside that state only: a table
        whose stored state is another (its last save lost, or a newer one) keeps nothing,
        and any later save clears it (`_snapshot_upsert`). Called once nothing more can
        reach Discord: what it says cannot be overtaken by an edit."""
        if rows:
            async with self._write() as connection:
                await connection.execute(
                    update(TableSnapshot).where(
                        TableSnapshot.table_id == bindparam("id", type_=Integer),
                        TableSnapshot.seq == bindparam("at", type_=BigInteger),
                    ).values(shown=bindparam("kept", type_=JSON())),
                    [{"id": table_id, "at": seq, "kept": dict(shown)}
                     for table_id, seq, shown in rows])

    async def forget_shown(self, table_ids: Collection[int]) -> None:
        """A start read what these tables showed (`load_snapshot`) and is about to draw
        them: kept, it would be trusted again after a crash, when its edits may have
        changed what they show."""
        if table_ids:
            async with self._write() as connection:
                await connection.execute(
                    update(TableSnapshot).where(
                        TableSnapshot.table_id.in_(list(table_ids)),
                        TableSnapshot.shown.is_not(null())).values(shown=null()))

    async def delete_snapshot(self, table_id: int) -> None:
        async with self._write() as connection:
            await connection.execute(
                delete(TableSnapshot).where(TableSnapshot.table_id == table_id)
            )
