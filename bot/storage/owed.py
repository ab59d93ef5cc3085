"""What the bot still owes a player, a message or a channel, kept across a stop:
word of a table whose channel was deleted (bot.tables.vanished), the edits an
archived thread refused (bot.tables.asleep), and word of a table closed at start
because its state was unreadable (bot.tables.restore)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import TypeAlias, TypeVarTuple

from sqlalchemy import Row, Select, delete, exists, insert, select, update

from bot.storage.access import Access
from bot.storage.guilds import stored_name, stored_text
from bot.storage.models import (
    AsleepEdit,
    Game,
    GameTable,
    Round,
    TableSnapshot,
    UnreadableTable,
    VanishedTable,
)
from bot.storage.records import AsleepEditRecord, UnreadableRecord, VanishedRecord
from bot.storage.shards import in_shards

#: The tables of what is owed: each row has its guild and the time it was owed `at`.
Debt: TypeAlias = VanishedTable | AsleepEdit | UnreadableTable
Columns = TypeVarTuple("Columns")


class Owed(Access):
    """The debts side of `Storage` (bot/storage/repository.py)."""

    # Tables whose channel was deleted, owed to their players (bot.tables.vanished)

    async def owe_vanished(self, guild_id: int, user_ids: Sequence[int], channel: str | None,
                           at: datetime, *, in_thread: bool = False) -> None:
        if user_ids:
            async with self._write() as connection:
                await connection.execute(insert(VanishedTable), [
                    {"guild_id": guild_id, "user_id": user_id,
                     "channel": None if channel is None else stored_name(channel),
                     "in_thread": in_thread, "at": at}
                    for user_id in user_ids])

    async def vanished_since(self, since: datetime, *, shard_ids: Collection[int] | None = None,
                             shard_count: int | None = None) -> list[VanishedRecord]:
        """What is still owed, oldest first; older rows than `since` are deleted."""
        rows = await self._still_owed(
            VanishedTable, since, shard_ids, shard_count,
            select(VanishedTable.guild_id, VanishedTable.user_id, VanishedTable.channel,
                   VanishedTable.at, VanishedTable.in_thread).order_by(VanishedTable.id))
        return [VanishedRecord(row.guild_id, row.user_id, row.channel, row.at, row.in_thread)
                for row in rows]

    async def paid_vanished(self, guild_id: int, user_id: int) -> None:
        """The user was told: nothing more is owed them on that server."""
        async with self._write() as connection:
            await connection.execute(delete(VanishedTable).where(
                VanishedTable.guild_id == guild_id, VanishedTable.user_id == user_id))

    # Edits an archived thread refused, owed once it wakes (bot.tables.asleep)

    async def owe_edit(self, guild_id: int, channel_id: int, message_id: int,
                       text: str | None, people: Collection[int], at: datetime) -> None:
        """Owe the message this edit, in place of any it was owed before."""
        values = {"text": None if text is None else stored_text(text),
                  "people": sorted(people), "at": at}
        statement = self._insert(AsleepEdit).values(
            message_id=message_id, guild_id=guild_id, channel_id=channel_id, **values)
        async with self._write() as connection:
            await connection.execute(statement.on_conflict_do_update(
                index_elements=[AsleepEdit.message_id], set_=values))

    async def asleep_since(self, since: datetime, *, shard_ids: Collection[int] | None = None,
                           shard_count: int | None = None) -> list[AsleepEditRecord]:
        """The edits still owed, oldest first; older rows than `since` are deleted."""
        rows = await self._still_owed(
            AsleepEdit, since, shard_ids, shard_count,
            select(AsleepEdit.guild_id, AsleepEdit.channel_id, AsleepEdit.message_id,
                   AsleepEdit.text, AsleepEdit.people, AsleepEdit.at)
            .order_by(AsleepEdit.at, AsleepEdit.message_id))
        return [AsleepEditRecord(row.guild_id, row.channel_id, row.message_id, row.text,
                                 tuple(row.people), row.at) for row in rows]

    async def named_edits(self, message_ids: Collection[int]) -> set[int]:
        """Which of these messages are still owed a text: not those whose row an erasure
        unnamed (`forget_user`) or deleted (`forget_guild`), nor those already paid."""
        if not message_ids:
            return set()
        async with self._read() as connection:
            rows = await connection.execute(select(AsleepEdit.message_id).where(
                AsleepEdit.message_id.in_(list(message_ids)), AsleepEdit.text.is_not(None)))
            return {row.message_id for row in rows}

    async def paid_edits(self, message_ids: Collection[int]) -> None:
        """These messages got their edit (or can no longer get it): nothing more is owed."""
        if message_ids:
            async with self._write() as connection:
                await connection.execute(delete(AsleepEdit).where(
                    AsleepEdit.message_id.in_(list(message_ids))))

    # Tables closed at start, unreadable, owed to their channels (bot.tables.restore)

    async def close_unreadable(self, table_id: int, guild_id: int, channel_id: int,
                               locale: str, message_ids: Sequence[int]) -> None:
        """Close a table whose stored state cannot be read, its snapshot deleted, and owe
        its channel the word, in one transaction: a stop in between neither leaves the
        table to be found again nor the word lost. Owed anew (not twice) if it was.

        The game it was playing, once a round of it was stored, ends there cancelled, as
        presi's cancelled game does (`Results.cancel_game`): no winner (who leads is in
        the state nobody can read), its rounds counted, listed in the history as
        « annulée, sans victoire ». Left unended, the history never listed it while the
        stats counted its rounds, as play-test 39 found of presi's (docs/bot.md
        « Play-test 38, closed (stop 57) »). A game with no round stored is left as it is:
        nothing of it counts anywhere."""
        values = {"guild_id": guild_id, "channel_id": channel_id, "locale": locale,
                  "message_ids": list(message_ids), "at": self._now()}
        async with self._write() as connection:
            await connection.execute(self._insert(UnreadableTable).values(
                table_id=table_id, **values).on_conflict_do_update(
                index_elements=[UnreadableTable.table_id], set_=values))
            await connection.execute(update(GameTable).where(GameTable.id == table_id)
                                     .values(status="closed", updated_at=self._now()))
            await connection.execute(
                update(Game).where(Game.table_id == table_id, Game.ended_at.is_(None),
                                   exists().where(Round.game_id == Game.id))
                .values(ended_at=self._now(), stopped_early=True, cancelled=True))
            await connection.execute(
                delete(TableSnapshot).where(TableSnapshot.table_id == table_id))

    async def unreadable_since(self, since: datetime, *,
                               shard_ids: Collection[int] | None = None,
                               shard_count: int | None = None) -> list[UnreadableRecord]:
        """The words still owed, oldest first; older rows than `since` are deleted."""
        rows = await self._still_owed(
            UnreadableTable, since, shard_ids, shard_count,
            select(UnreadableTable.table_id, UnreadableTable.guild_id,
                   UnreadableTable.channel_id, UnreadableTable.locale,
                   UnreadableTable.message_ids, UnreadableTable.at)
            .order_by(UnreadableTable.at, UnreadableTable.table_id))
        return [UnreadableRecord(row.table_id, row.guild_id, row.channel_id, row.locale,
                                 tuple(row.message_ids), row.at) for row in rows]

    async def told_unreadable(self, table_ids: Collection[int]) -> None:
        """These tables' channels were told (or can no longer be): nothing more is owed."""
        if table_ids:
            async with self._write() as connection:
                await connection.execute(delete(UnreadableTable).where(
                    UnreadableTable.table_id.in_(list(table_ids))))

    async def _still_owed(self, model: type[Debt], since: datetime,
                          shard_ids: Collection[int] | None, shard_count: int | None,
                          statement: Select[*Columns]) -> Sequence[Row[*Columns]]:
        """The rows `statement` reads of what is still owed in `model`'s table, first
        deleting the rows older than `since` (owed too long to be paid), and only the
        guilds of these shards where named (`in_shards`): how each `…_since` reads."""
        async with self._write() as connection:
            await connection.execute(delete(model).where(model.at < since))
        if shard_ids is not None or shard_count is not None:
            statement = statement.where(in_shards(model.guild_id, shard_ids, shard_count))
        async with self._read() as connection:
            return (await connection.execute(statement)).all()
