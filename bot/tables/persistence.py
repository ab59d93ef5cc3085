"""The table service's storage: tables, live snapshots and results in the SQL repository."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from sqlalchemy.exc import IntegrityError

from bot.storage.records import SeatRef
from bot.storage.repository import ChannelBusy, Storage, StorageError
from bot.storage.writer import SnapshotWriter
from bot.tables.service import TableError
from bot.tables.table import Player, Table
from engine.events import GameOver, RoundOver

log = logging.getLogger(__name__)

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[object]]

# Refusals no retry can change: the row is gone, or the call itself is wrong.
PERMANENT = (StorageError, IntegrityError, ValueError)


class StorageStore:
    """Implements `bot.tables.service.TableStore` over `bot.storage`."""

    def __init__(self, storage: Storage, writer: SnapshotWriter, *,
                 sleep: Sleep = asyncio.sleep, first_delay: float = 0.5,
                 max_delay: float = 30.0) -> None:
        self.storage = storage
        self.writer = writer
        self._sleep = sleep
        self._first_delay = first_delay
        self._max_delay = max_delay

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
        # Not idempotent, but a retry after a lost commit only leaves a game row without
        # rounds, which counts nowhere; giving up would lose every result of the game.
        return await self._retried(table, "start_game", lambda: self.storage.start_game(
            table.id, preset=table.rules.preset_id, rules=table.rules.to_dict(),
            seats=seat_refs(table.seats)))

    async def round_over(self, table: Table, game_id: int, seats: Sequence[Player],
                         event: RoundOver) -> None:
        refs = seat_refs(seats)
        ranking = list(event.ranking) + [s for s in range(len(refs)) if s not in event.ranking]
        # The state that ends the round is stored first: a result must never precede the
        # state that produced it (a crash in between is repaired by TableService.adopt).
        await self.writer.flush(table.id)
        await self._retried(table, f"round {event.round_no}", lambda: self.storage.record_round(
            game_id, event.round_no, ranking=ranking,
            roles=[r or None for r in event.roles], points=list(event.gained), seats=refs))

    async def game_over(self, table: Table, game_id: int, event: GameOver) -> None:
        await self.writer.flush(table.id)
        await self._retried(table, "game end", lambda: self.storage.finish_game(
            game_id, winners=event.winners, stopped_early=event.stopped_early))

    async def _retried(self, table: Table, what: str, call: Callable[[], Awaitable[T]]) -> T:
        """Repeat `call` through transient database failures (connection lost, server
        restarting, lock timeouts), with a capped exponential backoff. Safe because results
        are idempotent in the database; play does not wait, since the service runs this in
        the table's background queue."""
        delay = self._first_delay
        failures = 0
        while True:
            try:
                result = await call()
            except PERMANENT:
                raise
            except Exception:
                failures += 1
                log.warning("table %s: storing %s failed (attempt %d), retrying in %.1fs",
                            table.id, what, failures, delay, exc_info=failures == 1)
                await self._sleep(delay)
                delay = min(delay * 2, self._max_delay)
                continue
            if failures:
                log.info("table %s: %s stored after %d failures", table.id, what, failures)
            return result


def seat_refs(players: Sequence[Player]) -> list[SeatRef]:
    """Who holds each seat; a leaver's bot counts as a bot."""
    return [SeatRef(p.user_id, p.user_id is None, p.name) for p in players]
