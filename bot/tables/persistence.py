"""The table service's storage: tables, live snapshots and results in the SQL repository."""

from __future__ import annotations

from bot.storage.records import SeatRef
from bot.storage.repository import ChannelBusy, Storage
from bot.storage.writer import SnapshotWriter
from bot.tables.service import TableError
from bot.tables.table import Table
from engine.events import GameOver, RoundOver


class StorageStore:
    """Implements `bot.tables.service.TableStore` over `bot.storage`."""

    def __init__(self, storage: Storage, writer: SnapshotWriter) -> None:
        self.storage = storage
        self.writer = writer

    async def open_table(self, table: Table) -> int:
        try:
            return await self.storage.create_table(
                table.guild_id or 0, table.channel_id, table.host_id, table.rules.to_dict())
        except ChannelBusy:
            raise TableError("err.table_exists") from None

    def snapshot(self, table: Table) -> None:
        self.writer.submit(table.id, table.seq, table.to_dict())

    async def table_changed(self, table: Table, status: str) -> None:
        if status == "closed":
            self.writer.discard(table.id)
        await self.storage.update_table(table.id, host_id=table.host_id,
                                        rules=table.rules.to_dict(), status=status)  # type: ignore[arg-type]

    async def game_started(self, table: Table) -> int:
        await self.storage.update_table(table.id, status="playing")
        return await self.storage.start_game(
            table.id, preset=table.rules.preset_id, rules=table.rules.to_dict(),
            seats=seat_refs(table))

    async def round_over(self, table: Table, event: RoundOver) -> None:
        if table.game_row_id is None:
            return
        seats = seat_refs(table)
        ranking = list(event.ranking) + [s for s in range(len(seats)) if s not in event.ranking]
        await self.storage.record_round(
            table.game_row_id, event.round_no, ranking=ranking,
            roles=[r or None for r in event.roles], points=list(event.gained), seats=seats)

    async def game_over(self, table: Table, event: GameOver) -> None:
        if table.game_row_id is not None:
            await self.storage.finish_game(table.game_row_id, winners=event.winners,
                                           stopped_early=event.stopped_early)


def seat_refs(table: Table) -> list[SeatRef]:
    """Who holds each seat now; a leaver's bot counts as a bot."""
    return [SeatRef(p.user_id, p.user_id is None, p.name) for p in table.seats]
