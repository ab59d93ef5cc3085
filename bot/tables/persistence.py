"""The table service's storage: tables, live snapshots and results in the SQL repository."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from datetime import UTC, datetime
from typing import TypeVar

from bot.storage.errors import ChannelBusy
from bot.storage.failures import transient
from bot.storage.records import Departure, SeatRef
from bot.storage.repository import Storage
from bot.storage.writer import SnapshotWriter
from bot.tables import house
from bot.tables.asleep import OwedEdit
from bot.tables.outbox import StoredStatus
from bot.tables.players import Player
from bot.tables.refusals import TableError
from bot.tables.results import GameStart
from bot.tables.table import Table
from engine.events import GameOver, RoundOver

log = logging.getLogger(__name__)

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[object]]


class StorageStore:
    """Implements `bot.tables.outbox.TableStore` over `bot.storage`."""

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

    @property
    def stopped(self) -> bool:
        return self.writer.closed

    async def table_changed(self, table: Table, status: StoredStatus) -> None:
        if status == "closed":
            self.writer.discard(table.id)
        host, rules = table.host_id, table.rules.to_dict()
        await self._retried(table, f"table status {status}", lambda: self.storage.update_table(
            table.id, host_id=host, rules=rules, status=status))

    async def game_started(self, table: Table, start: GameStart) -> int:
        # The snapshot that numbers the game is stored first: a row stored before it would,
        # after a crash in between, be found again by the next game given the same number,
        # with this one's preset, rules and seats (and that game rated under them).
        await self.writer.flush(table.id)
        await self._retried(table, "table status playing", lambda: self.storage.update_table(
            table.id, status="playing"))
        channel, thread = house.places_of(table.channel_id, table.parent_id)
        settings = table.settings().to_dict()
        return await self._retried(table, f"start of game {start.game_no}",
                                   lambda: self.storage.start_game(
            table.id, game_no=start.game_no, preset=start.preset, rules=start.rules,
            seats=seat_refs(start.seats), house=channel, house_thread=thread,
            settings=settings))

    async def house_rules_confirmed(self, table: Table) -> None:
        rules, settings = table.rules.to_dict(), table.settings().to_dict()
        channel, thread = house.places_of(table.channel_id, table.parent_id)
        await self._retried(table, "house rules", lambda: self.storage.remember_house_rules(
            table.guild_id or 0, channel, rules, settings, thread_id=thread))

    async def committed(self, table: Table) -> None:
        await self.writer.flush(table.id)

    async def round_over(self, table: Table, game_id: int, seats: Sequence[Player],
                         event: RoundOver) -> None:
        refs = seat_refs(seats)
        ranking = list(event.ranking) + [s for s in range(len(refs)) if s not in event.ranking]
        # The state that ends the round is stored first: a result must never precede the
        # state that produced it (a crash in between is repaired by Outages.adopt).
        await self.writer.flush(table.id)
        await self._retried(table, f"round {event.round_no}", lambda: self.storage.record_round(
            game_id, event.round_no, ranking=ranking,
            roles=[r or None for r in event.roles], points=list(event.gained), seats=refs,
            totals=list(event.totals)))

    async def game_over(self, table: Table, game_id: int, seats: Sequence[Player],
                        event: GameOver, waiting: Sequence[Player]) -> None:
        # A seat freed for good (a leaver's, between rounds) has no holder now: its stored
        # row keeps who last played it, whom /president forget must still find.
        refs = [None if player.vacant else ref
                for player, ref in zip(seats, seat_refs(seats), strict=True)]
        won = [who for who in event.winners if isinstance(who, int)]
        # Winners waiting in the queue (`Game.step_off`), by the key the table gave them.
        waiting_won = seat_refs([player for player in waiting if player.user_id is not None
                                 and player.key in event.winners])
        await self.writer.flush(table.id)
        await self._retried(table, "game end", lambda: self.storage.finish_game(
            game_id, winners=won, stopped_early=event.stopped_early, seats=refs,
            waiting_winners=waiting_won))

    async def game_cancelled(self, table: Table, game_id: int) -> None:
        await self.writer.flush(table.id)  # the state that cancelled it first, as above
        await self._retried(table, "game cancelled",
                            lambda: self.storage.cancel_game(game_id))

    async def owe_vanished(self, guild_id: int, user_ids: Sequence[int], channel: str | None,
                           at: float, *, in_thread: bool = False) -> None:
        await self.storage.owe_vanished(guild_id, user_ids, channel,
                                        datetime.fromtimestamp(at, UTC), in_thread=in_thread)

    async def paid_vanished(self, guild_id: int, user_id: int) -> None:
        await self.storage.paid_vanished(guild_id, user_id)

    async def owe_edit(self, guild_id: int, channel_id: int, message_id: int,
                       edit: OwedEdit, at: float) -> None:
        await self.storage.owe_edit(guild_id, channel_id, message_id, edit.text, edit.people,
                                    datetime.fromtimestamp(at, UTC))

    async def paid_edits(self, message_ids: Collection[int]) -> None:
        await self.storage.paid_edits(message_ids)

    async def named_edits(self, message_ids: Collection[int]) -> set[int]:
        return await self.storage.named_edits(message_ids)

    async def forget_places(self, channel_ids: Collection[int]) -> None:
        await self.storage.forget_house(channel_ids)

    async def _retried(self, table: Table, what: str, call: Callable[[], Awaitable[T]]) -> T:
        """Repeat `call` through transient database failures (see `transient`), with a
        capped exponential backoff. Safe because results are idempotent in the database; play
        does not wait, since the service runs this in the table's background queue. Other
        failures are raised at once: the queue logs them and goes on. The log tells an
        outage once for every table (`OutageLog`, shared with the snapshot writer)."""
        delay = self._first_delay
        failures = 0
        while True:
            try:
                result = await call()
            except Exception as err:
                if not transient(err):
                    raise
                failures += 1
                self.writer.outage.failed(table.id, what, err, delay)
                await self._sleep(delay)
                delay = min(delay * 2, self._max_delay)
                continue
            if failures:
                self.writer.outage.stored(table.id, what)
            return result


def seat_refs(players: Sequence[Player]) -> list[SeatRef]:
    """Who holds each seat; a leaver's bot counts as a bot. The seat of a player who left
    during the round, played by a bot to its end under their name, is held for them: it
    carries their id, so that their erasure (/president forget) finds that name too. One
    who left it already out of cards (`Player.left_out`) left the bot nothing to play: the
    round is theirs as played, their place, role and points, not one they left (rated
    behind those who stayed, `ratings.rated_places`, though some finished after them).
    Each left seat says why it was left (`SeatRef.departure`): by its holder, or by the
    host or a moderator removing them (`Player.left_removed`)."""
    return [SeatRef(p.user_id if p.user_id is not None else p.left_by,
                    p.user_id is None and not p.left_out, p.name, _departure(p))
            for p in players]


def _departure(player: Player) -> Departure | None:
    if player.user_id is not None or player.left_by is None:
        return None
    return "removed" if player.left_removed else "left"
