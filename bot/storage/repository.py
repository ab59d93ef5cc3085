"""The async repository: every SQL statement of the bot lives here, in the reads of
`history.py` and in a user's erasure (`forget.py`), reached through `access.py`.

Each public method is one short transaction and returns plain records (`records.py`), so a
cog or the table runtime never holds a connection across an `await` on Discord. Writes that
must happen at most once (rounds, game endings, rating updates) are idempotent at the
database level, which is what makes replaying after a crash safe.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import UTC, datetime
from functools import cached_property
from typing import Any, Self, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Integer,
    bindparam,
    delete,
    insert,
    literal,
    null,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.graphemes import cut
from bot.storage import jsoncodec, rating_update
from bot.storage.db import create_engine, database_url
from bot.storage.forget import Forgetting
from bot.storage.history import History
from bot.storage.models import (
    NAME_LENGTH,
    TABLE_STATUSES,
    AsleepEdit,
    Game,
    GameSeat,
    GameTable,
    Guild,
    HouseRule,
    Round,
    RoundResult,
    SerializedJSON,
    TableSnapshot,
    UnreadableTable,
    User,
    UTCDateTime,
    VanishedTable,
)
from bot.storage.records import (
    AsleepEditRecord,
    GuildSettings,
    KeptHouse,
    RoundOutcome,
    SeatRef,
    Snapshot,
    TableRecord,
    TableStatus,
    UnreadableRecord,
    VanishedRecord,
)

# discord.py: a guild belongs to shard (guild_id >> 22) % shard_count.
SHARD_SHIFT = 22


class StorageError(Exception):
    """Base of the errors the repository raises on purpose."""


class UnknownTable(StorageError, LookupError):
    def __init__(self, table_id: int) -> None:
        super().__init__(f"no table {table_id}")
        self.table_id = table_id


class UnknownGame(StorageError, LookupError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class ChannelBusy(StorageError):
    """The channel already has an open (not closed) table: `table_id` is that table."""

    def __init__(self, channel_id: int, table_id: int) -> None:
        super().__init__(f"channel {channel_id} already has open table {table_id}")
        self.channel_id = channel_id
        self.table_id = table_id


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard (and so the process) that owns a guild and therefore its tables."""
    return (guild_id >> SHARD_SHIFT) % shard_count


def wall_clock() -> datetime:
    return datetime.now(UTC)


def _seat_rows(game_id: int, seats: Sequence[SeatRef | None]) -> list[dict[str, object]]:
    """game_seats rows for a game's current occupants (nobody has won yet); a seat with no
    holder (None) has none."""
    return [
        {"game_id": game_id, "seat": seat, "user_id": ref.user_id, "is_bot": ref.is_bot,
         "name": _name(ref.name), "is_winner": False}
        for seat, ref in enumerate(seats) if ref is not None
    ]


def _name(name: str) -> str:
    """A player's name as a name column holds it. PostgreSQL's text cannot hold U+0000
    (« invalid byte sequence for encoding "UTF8": 0x00 ») where SQLite's can: a member
    whose name carried one had the game and every round refused on PostgreSQL alone. Discord
    draws nothing for it, so it is left out on both."""
    return cut(name.replace("\x00", ""), NAME_LENGTH)


class Storage(History, Forgetting):
    """Async repository over one engine; create with `await Storage.open(url)`.

    Every date it stores comes from `now`: /president history and stats show them, and the
    bot passes its own clock so that they agree with its timers (a test's injected clock
    included) rather than with the machine's."""

    def __init__(self, engine: AsyncEngine, *, now: Callable[[], datetime] = wall_clock) -> None:
        super().__init__(engine)
        self._now = now

    @classmethod
    async def open(
        cls,
        url: str | URL | None = None,
        *,
        pool_size: int | None = None,
        max_overflow: int | None = None,
        now: Callable[[], datetime] = wall_clock,
        connect_timeout: float | None = None,
        command_timeout: float | None = None,
        pool_timeout: float | None = None,
    ) -> Self:
        """Connect (to `DATABASE_URL` when `url` is None) and fail now if the database is
        unreachable, rather than on the first button press. Does not migrate: call
        `db.upgrade_to_head` first. Sizes and timeouts: `db.create_engine`."""
        engine = create_engine(
            url or database_url(), pool_size=pool_size, max_overflow=max_overflow,
            connect_timeout=connect_timeout, command_timeout=command_timeout,
            pool_timeout=pool_timeout,
        )
        storage = cls(engine, now=now)
        try:
            async with storage._read() as connection:
                await connection.execute(text("SELECT 1"))
        except BaseException:
            await engine.dispose()
            raise
        return storage

    # Guilds and users

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """Settings of a server; all None when it never changed anything."""
        async with self._read() as connection:
            row = (
                await connection.execute(
                    select(Guild.language).where(Guild.id == guild_id)
                )
            ).one_or_none()
        if row is None:
            return GuildSettings(guild_id, None)
        return GuildSettings(guild_id, row.language)

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Set the server's language; None returns to following each user's locale."""
        async with self._write() as connection:
            await self._upsert_guild(connection, guild_id, {"language": language})

    async def _upsert_guild(
        self, connection: AsyncConnection, guild_id: int, values: dict[str, Any]
    ) -> None:
        now = self._now()
        statement = self._insert(Guild).values(
            id=guild_id, created_at=now, updated_at=now, **values
        )
        if values:
            statement = statement.on_conflict_do_update(
                index_elements=[Guild.id], set_={**values, "updated_at": now}
            )
        else:
            statement = statement.on_conflict_do_nothing(index_elements=[Guild.id])
        await connection.execute(statement)

    async def upsert_user(self, user_id: int, display_name: str) -> None:
        """Remember a user's current display name (stats and history show it)."""
        async with self._write() as connection:
            await self._upsert_users(connection, {user_id: display_name})

    async def _upsert_users(
        self, connection: AsyncConnection, names: Mapping[int, str], *, rename: bool = True
    ) -> None:
        if not names:
            return
        now = self._now()
        # Sorted so that concurrent transactions lock user rows in the same order.
        statement = self._insert(User).values(
            [
                {"id": user_id, "display_name": _name(names[user_id]), "updated_at": now}
                for user_id in sorted(names)
            ]
        )
        if rename:
            statement = statement.on_conflict_do_update(
                index_elements=[User.id],
                set_={
                    "display_name": statement.excluded.display_name,
                    "updated_at": statement.excluded.updated_at,
                },
            )
        else:
            statement = statement.on_conflict_do_nothing(index_elements=[User.id])
        await connection.execute(statement)

    async def _seat_users(self, connection: AsyncConnection, seats: Sequence[SeatRef]) -> None:
        """Make every user id of the seats exist; only humans' seat names rename them (a
        bot seat held for a user carries the bot's label, not the user's name)."""
        humans = {
            ref.user_id: ref.name for ref in seats if ref.user_id is not None and not ref.is_bot
        }
        held = {
            ref.user_id: ref.name
            for ref in seats
            if ref.user_id is not None and ref.is_bot and ref.user_id not in humans
        }
        await self._upsert_users(connection, humans)
        await self._upsert_users(connection, held, rename=False)

    # Tables

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        rules: Mapping[str, Any],
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
        rules: Mapping[str, Any] | None = None,
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
            statement = statement.where(_in_shards(GameTable.guild_id, shard_ids, shard_count))
        async with self._read() as connection:
            rows = (await connection.execute(statement.order_by(GameTable.id))).all()
        return [_table_record(row) for row in rows]

    # House rules (docs/bot.md, « Play-test 33: the house rules »)

    async def remember_house_rules(self, guild_id: int, channel_id: int,
                                   rules: Mapping[str, Any],
                                   settings: Mapping[str, Any] | None = None, *,
                                   thread_id: int | None = None) -> None:
        """Keep `rules` (`Rules.to_dict`) and the table's `settings`
        (`TableSettings.to_dict`) as the channel's house rules for their preset, and the
        thread's too where the table is in one: the settings its host confirmed (a game's
        start keeps its own, `start_game`)."""
        async with self._write() as connection:
            await self._remember_house_rules(connection, guild_id, channel_id, rules,
                                             settings, thread_id)

    async def _remember_house_rules(self, connection: AsyncConnection, guild_id: int,
                                    channel_id: int, rules: Mapping[str, Any],
                                    settings: Mapping[str, Any] | None,
                                    thread_id: int | None) -> None:
        now = self._now()
        kept = None if settings is None else dict(settings)
        for where in (channel_id, thread_id):
            if where is None:
                continue
            statement = self._insert(HouseRule).values(
                channel_id=where, preset=str(rules.get("preset", "")), guild_id=guild_id,
                rules=dict(rules), settings=kept, updated_at=now)
            await connection.execute(statement.on_conflict_do_update(
                index_elements=[HouseRule.channel_id, HouseRule.preset],
                set_={"rules": statement.excluded.rules,
                      "settings": statement.excluded.settings, "updated_at": now}))

    async def house_rules(self, channel_id: int, preset: str | None = None, *,
                          thread_id: int | None = None) -> dict[str, Any] | None:
        """The rules of `house`: those a table opened there would start from."""
        kept = await self.house(channel_id, preset, thread_id=thread_id)
        return None if kept is None else kept.rules

    async def house(self, channel_id: int, preset: str | None = None, *,
                    thread_id: int | None = None) -> KeptHouse | None:
        """What the channel keeps for its next table, or (`thread_id`) the thread's own
        where it keeps some, else its channel's: the rules for `preset` (None: those kept
        last, whatever their preset), and the table settings kept last there. None when
        neither keeps anything. As stored: an older version's may hold knobs or settings
        this one no longer reads (`bot.tables.house.read`). One query, of the few rows
        (one per preset) of the thread and its channel."""
        places = [where for where in (thread_id, channel_id) if where is not None]
        statement = select(HouseRule.channel_id, HouseRule.preset, HouseRule.rules,
                           HouseRule.settings).where(HouseRule.channel_id.in_(places))
        async with self._read() as connection:
            rows = (await connection.execute(
                statement.order_by(HouseRule.updated_at.desc(), HouseRule.preset))).all()
        for where in places:
            own = [row for row in rows if row.channel_id == where]
            if not own:
                continue
            chosen = own[0] if preset is None else next(
                (row for row in own if row.preset == preset), None)
            if chosen is None and where != channel_id:
                # The thread keeps none at this preset: its channel's, beside the thread's
                # own table settings.
                chosen = next((row for row in rows if row.channel_id == channel_id
                               and row.preset == preset), None)
            rules = None if chosen is None else (
                # Some other version's shape (not an object): no preset, which reads as
                # unreadable.
                dict(chosen.rules) if isinstance(chosen.rules, dict) else {})
            return KeptHouse(rules, own[0].settings, own_thread=chosen is not None
                             and chosen.channel_id != channel_id)
        return None

    # Tables whose channel was deleted, owed to their players (bot.tables.vanished)

    async def owe_vanished(self, guild_id: int, user_ids: Sequence[int], channel: str | None,
                           at: datetime, *, in_thread: bool = False) -> None:
        if user_ids:
            async with self._write() as connection:
                await connection.execute(insert(VanishedTable), [
                    {"guild_id": guild_id, "user_id": user_id,
                     "channel": None if channel is None else _name(channel),
                     "in_thread": in_thread, "at": at}
                    for user_id in user_ids])

    async def vanished_since(self, since: datetime, *, shard_ids: Collection[int] | None = None,
                             shard_count: int | None = None) -> list[VanishedRecord]:
        """What is still owed, oldest first; older rows than `since` are deleted."""
        async with self._write() as connection:
            await connection.execute(delete(VanishedTable).where(VanishedTable.at < since))
        statement = select(VanishedTable.guild_id, VanishedTable.user_id,
                           VanishedTable.channel, VanishedTable.at, VanishedTable.in_thread)
        if shard_ids is not None or shard_count is not None:
            statement = statement.where(
                _in_shards(VanishedTable.guild_id, shard_ids, shard_count))
        async with self._read() as connection:
            rows = (await connection.execute(statement.order_by(VanishedTable.id))).all()
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
        values = {"text": text, "people": sorted(people), "at": at}
        statement = self._insert(AsleepEdit).values(
            message_id=message_id, guild_id=guild_id, channel_id=channel_id, **values)
        async with self._write() as connection:
            await connection.execute(statement.on_conflict_do_update(
                index_elements=[AsleepEdit.message_id], set_=values))

    async def asleep_since(self, since: datetime, *, shard_ids: Collection[int] | None = None,
                           shard_count: int | None = None) -> list[AsleepEditRecord]:
        """The edits still owed, oldest first; older rows than `since` are deleted."""
        async with self._write() as connection:
            await connection.execute(delete(AsleepEdit).where(AsleepEdit.at < since))
        statement = select(AsleepEdit.guild_id, AsleepEdit.channel_id, AsleepEdit.message_id,
                           AsleepEdit.text, AsleepEdit.people, AsleepEdit.at)
        if shard_ids is not None or shard_count is not None:
            statement = statement.where(_in_shards(AsleepEdit.guild_id, shard_ids, shard_count))
        async with self._read() as connection:
            rows = (await connection.execute(
                statement.order_by(AsleepEdit.at, AsleepEdit.message_id))).all()
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
        table to be found again nor the word lost. Owed anew (not twice) if it was."""
        values = {"guild_id": guild_id, "channel_id": channel_id, "locale": locale,
                  "message_ids": list(message_ids), "at": self._now()}
        async with self._write() as connection:
            await connection.execute(self._insert(UnreadableTable).values(
                table_id=table_id, **values).on_conflict_do_update(
                index_elements=[UnreadableTable.table_id], set_=values))
            await connection.execute(update(GameTable).where(GameTable.id == table_id)
                                     .values(status="closed", updated_at=self._now()))
            await connection.execute(
                delete(TableSnapshot).where(TableSnapshot.table_id == table_id))

    async def unreadable_since(self, since: datetime, *,
                               shard_ids: Collection[int] | None = None,
                               shard_count: int | None = None) -> list[UnreadableRecord]:
        """The words still owed, oldest first; older rows than `since` are deleted."""
        async with self._write() as connection:
            await connection.execute(delete(UnreadableTable).where(UnreadableTable.at < since))
        statement = select(UnreadableTable.table_id, UnreadableTable.guild_id,
                           UnreadableTable.channel_id, UnreadableTable.locale,
                           UnreadableTable.message_ids, UnreadableTable.at)
        if shard_ids is not None or shard_count is not None:
            statement = statement.where(
                _in_shards(UnreadableTable.guild_id, shard_ids, shard_count))
        async with self._read() as connection:
            rows = (await connection.execute(
                statement.order_by(UnreadableTable.at, UnreadableTable.table_id))).all()
        return [UnreadableRecord(row.table_id, row.guild_id, row.channel_id, row.locale,
                                 tuple(row.message_ids), row.at) for row in rows]

    async def told_unreadable(self, table_ids: Collection[int]) -> None:
        """These tables' channels were told (or can no longer be): nothing more is owed."""
        if table_ids:
            async with self._write() as connection:
                await connection.execute(delete(UnreadableTable).where(
                    UnreadableTable.table_id.in_(list(table_ids))))

    # Live snapshots

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

    # Games and rounds

    async def start_game(
        self,
        table_id: int,
        *,
        game_no: int,
        preset: str,
        rules: Mapping[str, Any],
        seats: Sequence[SeatRef],
        house: int | None = None,
        house_thread: int | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> int:
        """Record that the table's game number `game_no` started, and return its id.

        Idempotent: the number comes from the table's snapshot, so a restart that cannot
        know whether the start was stored records it again and gets the same row. The
        table's snapshot can therefore be written before this call without risk.
        `house`: the channel whose house rules these rules and the table's `settings`
        become (`remember_house_rules`), and `house_thread` the thread's, in the same
        transaction, when the row is new (a start stored again after a restart must not
        bring back an older game's rules).
        """
        if game_no < 1:
            raise ValueError("game_no starts at 1")
        async with self._write() as connection:
            guild_id = (
                await connection.execute(select(GameTable.guild_id).where(GameTable.id == table_id))
            ).scalar_one_or_none()
            if guild_id is None:
                raise UnknownTable(table_id)
            game_id = (
                await connection.execute(
                    self._insert(Game)
                    .values(
                        table_id=table_id,
                        game_no=game_no,
                        guild_id=guild_id,
                        preset=preset,
                        rules=dict(rules),
                        seats=len(seats),
                        started_at=self._now(),
                        ended_at=None,
                        stopped_early=False,
                    )
                    .on_conflict_do_nothing(index_elements=[Game.table_id, Game.game_no])
                    .returning(Game.id)
                )
            ).scalar_one_or_none()
            if game_id is None:
                return int((await connection.execute(
                    select(Game.id).where(Game.table_id == table_id, Game.game_no == game_no)
                )).scalar_one())
            await self._seat_users(connection, seats)
            if seats:
                await connection.execute(
                    insert(GameSeat).values(_seat_rows(game_id, seats))
                )
            if house is not None:
                await self._remember_house_rules(connection, guild_id, house, rules, settings,
                                                 house_thread)
        return int(game_id)

    async def record_round(
        self,
        game_id: int,
        round_no: int,
        *,
        ranking: Sequence[int],
        roles: Sequence[str | None],
        points: Sequence[int],
        seats: Sequence[SeatRef],
        totals: Sequence[int] | None = None,
    ) -> RoundOutcome:
        """Store a finished round once and update ratings in the same transaction.

        `ranking` lists seats in finishing order (first = President); `roles` and `points`
        (points earned this round) are indexed by seat, as is `seats`, and `totals` (the
        game's total at each seat after the round, which a past game's chart draws; None
        stores none, as in the rounds stored before migration 0005). A second call for the
        same (game, round_no) changes nothing and returns `inserted=False`, and ratings are
        never applied twice.

        Crash consistency: persist the table state that ends the round first
        (`SnapshotWriter.flush(table_id)` or an awaited `save_snapshot`), then record the
        round. A crash in between leaves a restored state past the round end with the round
        missing, so a restoring runtime records the last finished round again (a no-op when
        it is there). The other order could store a result the restored game then replays
        differently.
        """
        count = len(seats)
        if round_no < 1:
            raise ValueError("round_no starts at 1")
        if not (len(roles) == len(points) == len(ranking) == count) or \
                (totals is not None and len(totals) != count):
            raise ValueError("ranking, roles, points, totals and seats must have one entry "
                             "per seat")
        if sorted(ranking) != list(range(count)):
            raise ValueError(f"ranking must order every seat 0..{count - 1} exactly once")
        places = {seat: place for place, seat in enumerate(ranking, start=1)}
        rated_places = rating_update.rated_places(seats, places)
        async with self._write() as connection:
            game = (
                await connection.execute(
                    select(Game.guild_id, Game.preset).where(Game.id == game_id)
                )
            ).one_or_none()
            if game is None:
                raise UnknownGame(game_id)
            stored = select(Round.id).where(Round.game_id == game_id, Round.round_no == round_no)
            if (await connection.execute(stored)).first() is not None:
                return RoundOutcome(inserted=False, rated=False, changes=())
            await self._seat_users(connection, seats)
            # The rating rows locked before the round takes its id: two rounds sharing a
            # player committed at once on PostgreSQL are numbered in the order they are
            # rated, the order `History.rating_history` replays them in (its id taken
            # first, the round rated first could be numbered last, and a chart's last point
            # part from the stored rating).
            now = self._now()
            before = await rating_update.lock(connection, self._insert, game.guild_id,
                                              game.preset, rated_places, now)
            inserted = self._insert(Round).values(
                game_id=game_id,
                round_no=round_no,
                seats=count,
                finished_at=now,
                has_bots=any(ref.is_bot for ref in seats),
                rated=bool(rated_places),
            )
            round_id = (
                await connection.execute(
                    inserted.on_conflict_do_nothing(
                        index_elements=[Round.game_id, Round.round_no]
                    ).returning(Round.id)
                )
            ).scalar_one_or_none()
            if round_id is None:  # stored meanwhile by another process (its locks waited)
                return RoundOutcome(inserted=False, rated=False, changes=())
            await connection.execute(
                insert(RoundResult).values(
                    [
                        {
                            "round_id": round_id,
                            "seat": seat,
                            "user_id": ref.user_id,
                            "is_bot": ref.is_bot,
                            "name": _name(ref.name),
                            "place": places[seat],
                            "role": roles[seat],
                            "points": points[seat],
                            "total": None if totals is None else totals[seat],
                            "departure": ref.departure,
                        }
                        for seat, ref in enumerate(seats)
                    ]
                )
            )
            await self._update_game_seats(connection, game_id, seats)
            changes = await rating_update.rate(connection, game.guild_id, game.preset,
                                               rated_places, before, now)
        return RoundOutcome(inserted=True, rated=bool(rated_places), changes=changes)

    async def _update_game_seats(
        self, connection: AsyncConnection, game_id: int, seats: Sequence[SeatRef | None]
    ) -> None:
        """Keep the latest occupant of each seat: winners are named after who held the seat
        when the game ended (a bot may have replaced a player between rounds). A seat with
        no holder now (None) keeps its row."""
        rows = _seat_rows(game_id, seats)
        if not rows:
            return
        statement = self._insert(GameSeat).values(rows)
        await connection.execute(
            statement.on_conflict_do_update(
                index_elements=[GameSeat.game_id, GameSeat.seat],
                set_={
                    "user_id": statement.excluded.user_id,
                    "is_bot": statement.excluded.is_bot,
                    "name": statement.excluded.name,
                },
            )
        )

    async def finish_game(
        self, game_id: int, *, winners: Collection[int], stopped_early: bool,
        seats: Sequence[SeatRef | None] = (), waiting_winners: Sequence[SeatRef] = (),
    ) -> bool:
        """Mark a game over with its winning seats (joint winners allowed, none when stopped
        without a winner). Returns False if it was already finished: the first ending wins.
        ``seats``: who holds each seat now, whom the winners are named after (a game stopped
        mid-round may have changed hands since its last stored round); None for a seat
        nobody holds now (freed for good), whose row stays as stored.
        ``waiting_winners``: winners who held no seat as the game ended, waiting in the
        queue with the points they left their seat with (RULES §10, proletario): their rows
        follow the game's seats (`GameSeat`), so the history and the stats count their win
        as any other."""
        async with self._write() as connection:
            result = await connection.execute(
                update(Game)
                .where(Game.id == game_id, Game.ended_at.is_(None))
                .values(ended_at=self._now(), stopped_early=stopped_early)
            )
            if not result.rowcount:
                exists = (
                    await connection.execute(select(Game.id).where(Game.id == game_id))
                ).scalar_one_or_none()
                if exists is None:
                    raise UnknownGame(game_id)
                return False
            if seats:
                await self._seat_users(connection, [s for s in seats if s is not None])
                await self._update_game_seats(connection, game_id, seats)
            if winners:
                await connection.execute(
                    update(GameSeat)
                    .where(GameSeat.game_id == game_id, GameSeat.seat.in_(list(winners)))
                    .values(is_winner=True)
                )
            if waiting_winners:
                count = (await connection.execute(
                    select(Game.seats).where(Game.id == game_id))).scalar_one()
                await self._seat_users(connection, waiting_winners)
                await connection.execute(insert(GameSeat).values([
                    {**row, "seat": count + index, "is_winner": True}
                    for index, row in enumerate(_seat_rows(game_id, waiting_winners))]))
        return True


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


def _in_shards(guild_id: Any, shard_ids: Collection[int] | None,
               shard_count: int | None) -> Any:
    """The rows of the guilds of these shards (`shard_of` in SQL)."""
    if shard_ids is None or not shard_count:
        raise ValueError("shard_ids and shard_count go together")
    # PostgreSQL defines bigint >> integer only, hence the typed literal.
    shifted = guild_id.op(">>", return_type=BigInteger)(literal(SHARD_SHIFT, Integer))
    return (shifted % shard_count).in_(list(shard_ids))


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
