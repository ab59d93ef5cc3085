"""Bring back every open table after a restart, from its last live snapshot."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from datetime import datetime

from bot.i18n import lang
from bot.storage.failures import transient
from bot.storage.records import TableRecord, UnreadableRecord
from bot.storage.repository import Storage
from bot.tables.landed import Landed
from bot.tables.service import TableService
from bot.tables.snapshot import stored_table
from bot.tables.table import Table

log = logging.getLogger(__name__)


# How long the word owed to an unreadable table's channel is kept, as a deleted channel's
# (`bot.tables.vanished`): a server not described in a week is one the bot no longer sees.
KEEP_SECONDS = 7 * 24 * 3600.0


@dataclass(frozen=True)
class Unreadable:
    """A stored table this version cannot read: its state corrupt, or written by a newer
    version the operator rolled back from. It is closed, and its channel is told so once,
    in the table's language where its state still says it (else its server's choice), on
    the messages it still names (`UndescribedServers.unreadable`)."""

    table_id: int
    guild_id: int
    channel_id: int
    locale: str
    message_ids: tuple[int, ...]
    # When an earlier start owed it: that start may have said it and been killed before
    # storing it as told (`UndescribedServers._said_before`). None: owed by this start.
    earlier: datetime | None = None

    @classmethod
    def owed(cls, record: UnreadableRecord, began: datetime) -> Unreadable:
        """The word stored as owed (`Storage.close_unreadable`), as seen by a start that
        began restoring at `began`."""
        return cls(record.table_id, record.guild_id, record.channel_id, record.locale,
                   record.message_ids, record.at if record.at < began else None)


async def restore_tables(
    service: TableService, storage: Storage, *,
    shard_ids: Collection[int] | None = None, shard_count: int | None = None,
    prepare: Callable[[Table], None] | None = None,
) -> int:
    """Adopt each stored table, once `prepare` has seen it (the publisher's part: before
    the table's first redraw); a table with no snapshot is closed (nothing to show).

    A snapshot that cannot be read closes its table alone, said once in the log and owed to
    its channel in the same transaction (`Storage.close_unreadable`; the caller reads what
    its shards are owed with `Storage.unreadable_since`, the words owed since a start that
    stopped before telling them with it): failing the start instead made the process stop
    at every start (a crash loop) with every other table waiting behind it. A database that
    is away is not a snapshot's fault: that failure stops the start, and the next one finds
    every table again.

    A sharded process (`shard_ids` of `shard_count`) adopts only the tables of the guilds
    its shards own: Discord sends those guilds' clicks to it alone, and another process
    restoring the same table would play it twice.
    """
    loaded: list[Table] = []
    shown: list[int] = []  # the tables whose snapshot says what was shown (`Landed`)
    channels: set[int] = set()
    newest = 0.0
    for record in await storage.active_tables(shard_ids=shard_ids, shard_count=shard_count):
        # The stored state, for a failure to read what it still can: unchecked, so `object`.
        state: object = None
        try:
            snapshot = await storage.load_snapshot(record.table_id)
            state = snapshot.state if snapshot is not None else None
            # Read as what `Table.to_dict` wrote, checked by nothing but reading it: a
            # state that is not fails here, and closes its table alone (below).
            table = Table.from_dict(stored_table(snapshot.state)) \
                if snapshot is not None else None
        except Exception as err:
            if transient(err):
                raise
            log.error("table %s in channel %s: its stored state cannot be read by this "
                      "version of the bot (%s: %s); the table is closed and its channel told",
                      record.table_id, record.channel_id, type(err).__name__, err)
            lost = await _unreadable(storage, record, state)
            await storage.close_unreadable(lost.table_id, lost.guild_id, lost.channel_id,
                                           lost.locale, lost.message_ids)
            continue
        if table is None or table.channel_id in channels \
                or service.registry.in_channel(table.channel_id) is not None:
            await storage.update_table(record.table_id, status="closed")
            continue
        assert snapshot is not None
        await _name_leavers(storage, table)
        channels.add(table.channel_id)
        # The stored row's seq is what the database compares later saves against.
        table.seq = max(table.seq, snapshot.seq)
        # What its messages showed as the bot stopped, kept for this very state.
        table.landed = Landed.read(snapshot.shown, snapshot.seq)
        if snapshot.shown is not None:
            shown.append(table.id)
        loaded.append(table)
        newest = max(newest, snapshot.saved_at.timestamp())
    # Read once: a crash after this start's first edits must find nothing known shown.
    await storage.forget_shown(shown)
    # The clocks move on from when the process stopped, which it still ran at when it
    # stored its newest state: a stop stores every table, a crash does not, and a table
    # whose state is older (a player thinking, a leaver awaited) had its clocks run until
    # then too. Moved on from its own state's time, it got that time back at every crash:
    # up to a whole turn, or a leaver's whole grace.
    for table in loaded:
        if prepare is not None:
            prepare(table)
        service.outages.adopt(table, newest)
    return len(loaded)


async def _name_leavers(storage: Storage, table: Table) -> None:
    """A seat left during the round under way, in a snapshot from before `Player.left_by`
    (1a42e41, 3 December), names nobody: the bot finishing it under its leaver's name would
    store the round as a bot's, in nobody's stats or rating, and out of their erasure's
    reach (« Leftovers, afterwards (stop 49) »). Where seats never changed hands during a
    game (no `bots_fill`, and those versions never dealt a freed seat again), its leaver
    is whoever held it as the game started, which the game's stored seats say by seat,
    not by name: no guess. A proletario seat may have changed hands: left as it is."""
    unnamed = [seat for seat in table.left_seats if seat < len(table.seats)
               and table.seats[seat].user_id is None and table.seats[seat].left_by is None]
    if not unnamed or table.game_row_id is None or table.rules.bots_fill:
        return
    holders = await storage.game_seat_holders(table.game_row_id)
    for seat in unnamed:
        holder = holders.get(seat)
        if holder is not None and table.seat_of(holder) is None and not table.queued(holder):
            table.seats[seat].left_by = holder


async def _unreadable(storage: Storage, record: TableRecord, state: object) -> Unreadable:
    """What an unreadable state still tells: its language and its messages, each read
    alone (a newer version's state may differ anywhere else)."""
    known: Mapping[str, object] = state if isinstance(state, Mapping) else {}
    locale = known.get("locale")
    if not isinstance(locale, str):
        locale = (await storage.get_guild_settings(record.guild_id)).language or "en"
    messages = tuple(message for key in ("table_message_id", "lobby_message_id")
                     if isinstance(message := known.get(key), int))
    return Unreadable(record.table_id, record.guild_id, record.channel_id, lang(locale),
                      messages)
