"""Servers' settings and users' names: the rows a table, a game or a round makes
exist before its own, and how a name column spells a name (`stored_name`)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from sqlalchemy import case, select
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.graphemes import cut
from bot.storage.access import Access
from bot.storage.models import NAME_LENGTH, Guild, User
from bot.storage.records import GuildSettings, SeatRef


class Guilds(Access):
    """The guilds and users side of `Storage` (bot/storage/repository.py)."""

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
        self, connection: AsyncConnection, names: Mapping[int, str],
        kept: Collection[int] = (),
    ) -> None:
        """Make the users of `names` exist with those names, renaming those stored, but for
        the ids in `kept`, whose stored name stays (a new one takes its name here).

        One statement, its rows in id order, whichever are renamed: concurrent transactions
        then lock user rows in the same order. Two statements, the renamed then the kept,
        each sorted, deadlocked on PostgreSQL: two players who swapped tables, each seat
        they left held by a bot, their rounds stored at once (`tests/storage/
        test_ratings.py`, docs/bot.md « PostgreSQL, the whole suite (stop 54) »)."""
        if not names:
            return
        now = self._now()
        statement = self._insert(User).values(
            [
                {"id": user_id, "display_name": stored_name(names[user_id]), "updated_at": now}
                for user_id in sorted(names)
            ]
        )
        renamed: dict[str, Any] = {
            "display_name": statement.excluded.display_name,
            "updated_at": statement.excluded.updated_at,
        }
        if kept:
            stays = User.id.in_(sorted(kept))
            renamed = {column: case((stays, getattr(User, column)), else_=value)
                       for column, value in renamed.items()}
        await connection.execute(
            statement.on_conflict_do_update(index_elements=[User.id], set_=renamed))

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
        await self._upsert_users(connection, {**held, **humans}, kept=held.keys())


def stored_name(name: str) -> str:
    """A player's name as a name column holds it: as `stored_text`, cut to the column."""
    return cut(stored_text(name), NAME_LENGTH)


def stored_text(text: str) -> str:
    """Discord's text (names, a message naming them) as a text column holds it.
    PostgreSQL's text cannot hold U+0000 (« invalid byte sequence for encoding "UTF8":
    0x00 ») where SQLite's can: a member whose name carried one had the game and every
    round refused on PostgreSQL alone, and an edit owed to a message naming them
    (`Owed.owe_edit`) too. Discord draws nothing for it, so it is left out on both."""
    return text.replace("\x00", "")
