"""The tables' storage work: queued in order per table, run outside the table's lock, so a
slow disk never delays an interaction's acknowledgement.

Results go through each table's own outbox (`Table.unstored`, kept in its snapshot): a
result joins it before the snapshot of the state that produced it is taken and leaves it
once stored, so a restart finds whatever was not stored yet and stores it again
(idempotent): no crash instant can lose a result.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import Literal, Protocol

from bot.tables.asleep import OwedEdit
from bot.tables.players import Player
from bot.tables.results import GameStart, PendingResult, Stored
from bot.tables.table import Table
from engine.events import GameOver, RoundOver

log = logging.getLogger(__name__)

# The statuses the service stores through `Outbox.status`: a table back in its lobby, or
# closed. The third of bot/storage/records.TableStatus, playing, goes with each game's start
# (`TableStore.game_started`).
StoredStatus = Literal["lobby", "closed"]


class TableStore(Protocol):
    """Persistence of tables, live snapshots and results (see bot.tables.persistence)."""

    async def open_table(self, table: Table) -> int: ...

    def snapshot(self, table: Table) -> None: ...

    @property
    def stopped(self) -> bool:
        """Whether snapshots are refused now: the process is shutting down."""
        ...

    async def table_changed(self, table: Table, status: StoredStatus) -> None: ...

    async def game_started(self, table: Table, start: GameStart) -> int:
        """Store that a game started and return its id; idempotent per `start.game_no`."""
        ...

    async def house_rules_confirmed(self, table: Table) -> None:
        """Keep the table's rules as its channel's house rules (`bot.tables.house`)."""
        ...

    async def committed(self, table: Table) -> None:
        """Return once every snapshot of the table submitted so far is in the database."""
        ...

    async def round_over(self, table: Table, game_id: int, seats: Sequence[Player],
                         event: RoundOver) -> None:
        """Store a finished round; `seats` are who held each seat when it ended."""
        ...

    async def game_over(self, table: Table, game_id: int, seats: Sequence[Player],
                        event: GameOver, waiting: Sequence[Player]) -> None:
        """Store a game's end; `seats` are who held each seat then, `waiting` who waited in
        the queue: its winners' names."""
        ...

    async def game_cancelled(self, table: Table, game_id: int) -> None:
        """Store that a game was cancelled (`results.Cancelled`): ended, no winner."""
        ...

    async def owe_vanished(self, guild_id: int, user_ids: Sequence[int], channel: str | None,
                           at: float, *, in_thread: bool = False) -> None:
        """Keep that these players are owed the word that their table's channel (a thread
        if `in_thread`) went (`bot.tables.vanished`)."""
        ...

    async def paid_vanished(self, guild_id: int, user_id: int) -> None: ...

    async def owe_edit(self, guild_id: int, channel_id: int, message_id: int,
                       edit: OwedEdit, at: float) -> None:
        """Keep that this message in the archived thread ``channel_id`` is owed ``edit``
        (`bot.tables.asleep`)."""
        ...

    async def paid_edits(self, message_ids: Collection[int]) -> None: ...

    async def named_edits(self, message_ids: Collection[int]) -> set[int]: ...

    async def forget_places(self, channel_ids: Collection[int]) -> None:
        """The channels or threads were deleted: forget their house rules and settings
        (`bot.tables.unreachable`)."""
        ...


class Outbox:
    """The queues of storage work, one per table. `touch` is called when stored work
    changed the table (its game's row id, its outbox), `failed` when a record could never
    be stored."""

    def __init__(self, touch: Callable[[Table], None], failed: Callable[[Table], None]) -> None:
        self.store: TableStore | None = None
        self._touch = touch
        self._failed = failed
        self._queues: dict[int, asyncio.Task[None]] = {}
        # The table each queue works for: its results owed and its server, read by
        # `owed_results` (a table closed meanwhile is no longer in the registry).
        self._tables: dict[int, Table] = {}

    def queue(self, table: Table, work: Callable[[TableStore], Awaitable[object]]) -> None:
        """Run `work` after the table's earlier work; nothing without a store."""
        store = self.store
        if store is None:
            return
        previous = self._queues.get(table.id)

        async def run() -> None:
            if previous is not None:
                await asyncio.gather(previous, return_exceptions=True)
            try:
                await work(store)
            except Exception:
                log.exception("storage work for table %s failed", table.id)
                self._failed(table)

        task = asyncio.get_running_loop().create_task(run())
        self._queues[table.id] = task
        self._tables[table.id] = table

        def forget(done: asyncio.Task[None]) -> None:
            """Done and still the table's last work: forgotten, or every table the
            process ever ran would keep an entry here."""
            if self._queues.get(table.id) is done:
                del self._queues[table.id], self._tables[table.id]

        task.add_done_callback(forget)

    def status(self, table: Table, status: StoredStatus) -> None:
        """Store the table's status (lobby, closed), with its host and rules as they are."""
        self.queue(table, lambda store: store.table_changed(table, status))

    def record(self, table: Table, result: Stored) -> None:
        """Store a result, under the game it belongs to, through the table's outbox."""
        # The game and seats are taken now: a round that leaves too few players sends the
        # table back to the lobby, which forgets the game's id and its seats.
        pending = PendingResult(table.game_start(), table.game_row_id, result)
        table.unstored.append(pending)
        self.store_result(table, pending)

    def store_result(self, table: Table, pending: PendingResult) -> None:
        """Store a result of the table's outbox (again, after a restart: idempotent)."""
        start, result = pending.start, pending.result

        async def work(store: TableStore) -> None:
            try:
                # Idempotent: finds the row stored by the game's start, or stores it now.
                game_id = pending.game_row_id
                if game_id is None:
                    game_id = await store.game_started(table, start)
                if isinstance(result, RoundOver):
                    await store.round_over(table, game_id, list(start.seats), result)
                elif isinstance(result, GameOver):
                    await store.game_over(table, game_id, list(start.seats), result,
                                          list(start.waiting))
                else:
                    await store.game_cancelled(table, game_id)
            except Exception:
                self._stored(table, pending)  # can never be stored: said once
                raise
            self._stored(table, pending)

        self.queue(table, work)

    def _stored(self, table: Table, pending: PendingResult) -> None:
        if any(p is pending for p in table.unstored):
            table.unstored = [p for p in table.unstored if p is not pending]
            self._touch(table)

    def record_start(self, table: Table) -> None:
        """Store that the table's game started, and remember its row's id."""
        start = table.game_start()

        async def work(store: TableStore) -> None:
            game_id = await store.game_started(table, start)
            if table.game_no == start.game_no and table.game_row_id != game_id:
                table.game_row_id = game_id
                self._touch(table)

        self.queue(table, work)

    def house_rules(self, table: Table) -> None:
        """Keep the rules the host confirmed as the channel's house rules (a game's start
        keeps its own with the game's row, `record_start`)."""
        self.queue(table, lambda store: store.house_rules_confirmed(table))

    def pending(self) -> list[asyncio.Task[None]]:
        """The last queued work of every table (each waits for the table's earlier work)."""
        return list(self._queues.values())

    def owed_results(self, guild_id: int) -> list[asyncio.Task[None]]:
        """The last queued work of the server's tables whose results are not stored yet
        (`Table.unstored`): once it is done, what they announced is in the database."""
        return [task for table_id, task in self._queues.items()
                if (table := self._tables[table_id]).guild_id == guild_id and table.unstored]
