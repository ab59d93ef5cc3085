"""Where tables live: one per channel, found by channel or by the id carried in custom_ids."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping

from bot.tables.table import Table

#: Closed tables remembered (their channel and guild), the most recent ones: enough for the
#: controls still on players' screens when a table closes (`was_closed`), a few bytes each.
CLOSED_KEPT = 10_000


class TableExists(Exception):
    """A channel already has a table."""


class Registry:
    def __init__(self) -> None:
        self._by_channel: dict[int, Table] = {}
        self._by_id: dict[int, Table] = {}
        self._closed: OrderedDict[int, tuple[int, int | None]] = OrderedDict()

    def add(self, table: Table) -> None:
        if table.channel_id in self._by_channel:
            raise TableExists(table.channel_id)
        self._by_channel[table.channel_id] = table
        self._by_id[table.id] = table

    def remove(self, table: Table) -> None:
        if self._by_channel.get(table.channel_id) is table:
            del self._by_channel[table.channel_id]
        self._by_id.pop(table.id, None)
        self._closed[table.id] = (table.channel_id, table.guild_id)
        while len(self._closed) > CLOSED_KEPT:
            self._closed.popitem(last=False)

    def was_closed(self, table_id: int, channel_id: int | None, guild_id: int | None) -> bool:
        """Whether this process closed that table, in that channel of that guild: a click on
        one of its controls is late, not forged (`controls.gone`). After a restart, or past
        the `CLOSED_KEPT` latest, such a click is told the control is unknown instead."""
        return self._closed.get(table_id) == (channel_id, guild_id)

    @property
    def channels(self) -> Mapping[int, Table]:
        """The open tables by channel, read-only: what `bot.chatter` checks a message's
        channel against, for every message of every channel the bot sees."""
        return self._by_channel

    def in_channel(self, channel_id: int | None) -> Table | None:
        return None if channel_id is None else self._by_channel.get(channel_id)

    def by_id(self, table_id: int) -> Table | None:
        return self._by_id.get(table_id)

    def tables(self) -> list[Table]:
        """Every open table."""
        return list(self._by_id.values())

    def in_guild(self, guild_id: int) -> list[Table]:
        return [t for t in self._by_id.values() if t.guild_id == guild_id]

    def of_user(self, user_id: int) -> list[Table]:
        """Every table, on any server, where the user is seated, waits for a seat or has a
        hand open (`Table.hands`, kept a while after they leave)."""
        return [t for t in self._by_id.values()
                if user_id in t.hands or t.player(user_id) is not None]

    def of_player(self, guild_id: int | None, user_id: int) -> list[Table]:
        """The server's tables where the user is seated or waits for a seat, by channel."""
        return sorted((t for t in self._by_id.values()
                       if t.guild_id == guild_id and t.player(user_id) is not None),
                      key=lambda t: t.channel_id)
