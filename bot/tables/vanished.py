"""Tables whose channel was deleted, owed to their players as a private word.

A deleted channel takes every message in it, the players' hands included: the bot has
nowhere left to say that the table ended. It tells each player who was at it (seated, away
or waiting) the next time they use a command or a control on that server, once. What is
owed is kept in memory and, with storage, in the database (`vanished_tables`), so that a
restart in between does not forget it; bounded: a few tables per player, a week, `LIMIT`
players in memory, the oldest going first.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.storage.records import VanishedRecord
from bot.tables.clock import Clock

log = logging.getLogger(__name__)

KEEP_SECONDS = 7 * 24 * 3600.0
PER_PLAYER = 3
LIMIT = 10_000


class VanishedStore(Protocol):
    """Where what is owed outlives the process (see `bot.tables.persistence`)."""

    async def owe_vanished(self, guild_id: int, user_ids: Sequence[int], channel: str | None,
                           at: float, *, in_thread: bool = False) -> None: ...

    async def paid_vanished(self, guild_id: int, user_id: int) -> None: ...


@dataclass(frozen=True)
class Vanished:
    """One table that ended with its channel: where it was (None: the bot never knew the
    name, a thread it did not hold), whether that was a thread, and when."""

    channel: str | None
    at: float
    in_thread: bool = False


class VanishedTables:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.store: VanishedStore | None = None
        self._owed: dict[tuple[int, int], list[Vanished]] = {}

    def __len__(self) -> int:
        return len(self._owed)

    def load(self, records: Iterable[VanishedRecord]) -> None:
        """What the database still owes, at start (oldest first)."""
        for record in records:
            self._add(record.guild_id, record.user_id,
                      Vanished(record.channel, record.at.timestamp(), record.in_thread))

    async def record(self, guild_id: int, user_ids: Sequence[int], channel: str | None,
                     *, in_thread: bool = False) -> None:
        """Owe the players of a table in `guild_id` the word that its channel (a thread if
        `in_thread`) went."""
        now = self.clock.now()
        for user_id in user_ids:
            self._add(guild_id, user_id, Vanished(channel, now, in_thread))
        if self.store is not None and user_ids:
            try:
                await self.store.owe_vanished(guild_id, user_ids, channel, now,
                                              in_thread=in_thread)
            except Exception:  # a courtesy: the table's end goes on without it
                log.warning("could not store what table players on %s are owed", guild_id,
                            exc_info=True)

    async def take(self, guild_id: int, user_id: int) -> list[Vanished]:
        """What the user is owed on that server, forgotten as it is taken."""
        owed = self._owed.pop((guild_id, user_id), None)
        if owed is None:
            return []
        if self.store is not None:
            try:
                await self.store.paid_vanished(guild_id, user_id)
            except Exception:  # told now all the same; a restart may tell them again
                log.warning("could not forget what %s was owed", user_id, exc_info=True)
        since = self.clock.now() - KEEP_SECONDS
        return [table for table in owed if table.at >= since]

    def forget(self, user_id: int) -> None:
        """The user asked to be erased (/president forget): nothing is owed them any more,
        on any server; storage drops its rows in the same erasure."""
        for key in [key for key in self._owed if key[1] == user_id]:
            del self._owed[key]

    def forget_guild(self, guild_id: int) -> None:
        """The server's admins erased its data (/president forget-server)."""
        for key in [key for key in self._owed if key[0] == guild_id]:
            del self._owed[key]

    def _add(self, guild_id: int, user_id: int, table: Vanished) -> None:
        key = (guild_id, user_id)
        # Re-inserted: the newest last, the oldest first to go past LIMIT.
        self._owed[key] = [*self._owed.pop(key, []), table][-PER_PLAYER:]
        while len(self._owed) > LIMIT:
            del self._owed[next(iter(self._owed))]
