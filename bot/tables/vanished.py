"""Tables whose channel was deleted, owed to their players as a private word.

A deleted channel takes every message in it, the players' hands included: the bot has
nowhere left to say that the table ended. It tells each player who was at it (seated, away
or waiting) the next time they use a command or a control on that server, once. Kept in
memory, bounded (a few tables per player, a week, `LIMIT` players in all, the oldest going
first): a courtesy that a restart forgets, not a record; the rounds played are stored with
the table as for any other end.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.tables.clock import Clock

KEEP_SECONDS = 7 * 24 * 3600.0
PER_PLAYER = 3
LIMIT = 10_000


@dataclass(frozen=True)
class Vanished:
    """One table that ended with its channel: where it was (None: the bot never knew the
    name, a thread it did not hold) and when."""

    channel: str | None
    at: float


class VanishedTables:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._owed: dict[tuple[int, int], list[Vanished]] = {}

    def __len__(self) -> int:
        return len(self._owed)

    def record(self, guild_id: int, user_ids: Iterable[int], channel: str | None) -> None:
        """Owe the players of a table in `guild_id` the word that its channel went."""
        now = self.clock.now()
        for user_id in user_ids:
            key = (guild_id, user_id)
            owed = [*self._owed.pop(key, []), Vanished(channel, now)][-PER_PLAYER:]
            self._owed[key] = owed  # re-inserted: the newest last, the oldest first to go
        while len(self._owed) > LIMIT:
            del self._owed[next(iter(self._owed))]

    def take(self, guild_id: int, user_id: int) -> list[Vanished]:
        """What the user is owed on that server, forgotten as it is taken."""
        owed = self._owed.pop((guild_id, user_id), [])
        since = self.clock.now() - KEEP_SECONDS
        return [table for table in owed if table.at >= since]
