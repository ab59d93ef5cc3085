"""What storage holds about one Discord user, and its erasure (/president privacy and
forget, docs/privacy.md).

Discord's Developer Terms of Service (section 5, « User Privacy and Security ») ask an
application to « promptly delete the API Data when […] the applicable user requests you
delete it » and to « give users an easily accessible way to ask for their API Data to be
modified and deleted »:
https://support-dev.discord.com/hc/en-us/articles/8562894815383-Discord-Developer-Terms-of-Service
(the text last mirrored in discord/discord-api-docs at commit 48d3c2d3,
docs/policies_and_agreements/Developer_Terms_of_Service.md).

A server's admins may erase the server too (`forget_guild`): its tables, games, rounds,
ratings and settings, everyone's results there with them; the results of its players on
other servers stay.

Erasing a player must not change anybody else's standing, so their seats in stored games
and rounds stay, with their places and points, but lose their user id and their name: a
human seat without a user id is an erased one (a seat stored for a human always has one,
`SeatRef`), as is a bot's seat that played for them and lost its name with them, shown
under a placeholder in the reader's language. Ratings are per user and go; the others'
ratings, moved by rounds against the erased player, stay as they are.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from sqlalchemy import Text, cast, delete, func, select, union, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import ratings
from bot.storage.access import Access
from bot.storage.models import (
    AsleepEdit,
    Game,
    GameSeat,
    GameTable,
    Guild,
    HouseRule,
    PlayerLanguage,
    Rating,
    Round,
    RoundResult,
    TableSnapshot,
    UnreadableTable,
    User,
    VanishedTable,
)
from bot.storage.records import GuildData, HeldData, KeptDetail, RatingKept, ServerKept

#: What an erased player's closed tables say opened them: no Discord id is 0.
NOBODY = 0
#: The names of a user's stored seats `kept_about` lists: a player renamed every evening
#: would otherwise fill the answer; the count of their rounds says the rest is there.
SEAT_NAMES_SHOWN = 10


class GuildBusy(Exception):
    """The server still has an open table: its players' state would be stored again."""


class Forgetting(Access):
    """The privacy side of `Storage` (bot/storage/repository.py)."""

    async def held_about(self, user_id: int) -> HeldData:
        """What is stored about the user, on every server."""
        async with self._read() as connection:
            return await _held(connection, user_id)

    async def kept_about(self, user_id: int) -> KeptDetail:
        """What `held_about` counts, as the player reads it: the name kept, the names of
        their stored seats, and per server their games, rounds and ratings (read in one
        transaction, so the figures agree with each other), and the language they chose
        (with the locale Discord sent then)."""
        async with self._read() as connection:
            name = (await connection.execute(
                select(User.display_name).where(User.id == user_id))).scalar_one_or_none()
            chose = (await connection.execute(
                select(PlayerLanguage.language, PlayerLanguage.client_locale)
                .where(PlayerLanguage.user_id == user_id))).one_or_none()
            names = union(select(GameSeat.name).where(GameSeat.user_id == user_id),
                          select(RoundResult.name).where(RoundResult.user_id == user_id)
                          ).subquery()
            seat_names = tuple(sorted((await connection.execute(
                select(names.c.name).where(names.c.name != ""))).scalars(),
                key=reading_order)[:SEAT_NAMES_SHOWN])
            played = _games_of(user_id)
            games: dict[int, int] = {guild: count for guild, count in await connection.execute(
                select(Game.guild_id, func.count()).join(played, played.c.game_id == Game.id)
                .group_by(Game.guild_id))}
            rounds: dict[int, int] = {guild: count for guild, count in await connection.execute(
                select(Game.guild_id, func.count()).select_from(RoundResult)
                .join(Round, Round.id == RoundResult.round_id)
                .join(Game, Game.id == Round.game_id)
                .where(RoundResult.user_id == user_id).group_by(Game.guild_id))}
            rated: dict[int, list[RatingKept]] = {}
            for row in await connection.execute(
                    select(Rating.guild_id, Rating.preset, Rating.mu, Rating.sigma, Rating.rounds)
                    .where(Rating.user_id == user_id).order_by(Rating.guild_id, Rating.preset)):
                rated.setdefault(row.guild_id, []).append(RatingKept(
                    row.preset, ratings.display_rating(row.mu, row.sigma), row.rounds))
        return KeptDetail(name=name, language=None if chose is None else chose.language,
                          client_locale=None if chose is None else chose.client_locale,
                          seat_names=seat_names, servers=tuple(
            ServerKept(guild_id, games.get(guild_id, 0), rounds.get(guild_id, 0),
                       tuple(rated.get(guild_id, ())))
            for guild_id in sorted(games.keys() | rounds.keys() | rated.keys())))

    async def open_tables_holding(self, user_id: int) -> list[tuple[int, int]]:
        """The (server, channel) of every open table whose saved state names the user, on
        every process of a sharded deployment: seated, waiting, hosting, or in a result
        still to store. A Discord id is a snowflake of 17 digits or more, unique on Discord
        and longer than any count or time of a snapshot, so its digits in the state's text
        stand for them; a chance match would only make them wait for that table to close."""
        async with self._read() as connection:
            rows = await connection.execute(
                select(GameTable.guild_id, GameTable.channel_id)
                .join(TableSnapshot, TableSnapshot.table_id == GameTable.id)
                .where(GameTable.status != "closed",
                       cast(TableSnapshot.state, Text).contains(str(user_id), autoescape=True))
                .order_by(GameTable.channel_id))
            return [(row.guild_id, row.channel_id) for row in rows]

    async def forget_user(self, user_id: int) -> HeldData:
        """Erase the user on every server, in one transaction, and say what was erased
        (all zero when nothing was left: a second request, or someone never seen).

        Their ratings, their name, their notices, the language they chose go; their seats
        in games and rounds keep their results but lose their user id and name
        (`erased`), the bot's seat that finished a round for them too; the closed tables
        they hosted keep no trace of who did; an edit owed to a message in an archived
        thread whose text may name them keeps none (the message will only lose its
        buttons). An open table is left alone: the caller refuses while one holds them
        (`open_tables_holding`).

        Their row is locked first, as every writer naming users does (`_upsert_users`):
        a game of theirs starting meanwhile (their row named, their seat stored, not yet
        committed) is waited for, then seen and erased with the rest. Taken last, by the
        delete, the lock let the erasure unname the seats it saw, wait on the start, then
        break the new seat's foreign key once it committed, on PostgreSQL: the erasure
        failed whole; a round of theirs stored meanwhile deadlocked with it instead
        (tests/storage/test_forget.py). SQLite's writes queue whole and its dialect drops
        the `FOR UPDATE`."""
        async with self._write() as connection:
            await connection.execute(select(User.id).where(User.id == user_id).with_for_update())
            await _unname_asleep(connection, user_id)
            held = await _held(connection, user_id)
            if held.empty:
                return held
            for model in (GameSeat, RoundResult):
                await connection.execute(
                    update(model).where(model.user_id == user_id).values(user_id=None, name=""))
            await connection.execute(
                update(GameTable).where(GameTable.host_id == user_id,
                                        GameTable.status == "closed").values(host_id=NOBODY))
            await connection.execute(delete(Rating).where(Rating.user_id == user_id))
            await connection.execute(delete(VanishedTable).where(VanishedTable.user_id == user_id))
            await connection.execute(
                delete(PlayerLanguage).where(PlayerLanguage.user_id == user_id))
            await connection.execute(delete(User).where(User.id == user_id))
        return held


    async def held_by_guild(self, guild_id: int) -> GuildData:
        """What is stored about the server."""
        async with self._read() as connection:
            return await _guild_held(connection, guild_id)

    async def forget_guild(self, guild_id: int) -> GuildData:
        """Erase the server, in one transaction, and say what was erased: its ratings, its
        games (their seats, rounds and results go with them, `ON DELETE CASCADE`), its
        tables and their snapshots, its notices, the edits its archived threads owe its
        tables' messages (`asleep_edits`), the word owed to the channels of its tables
        found unreadable at start (`unreadable_tables`) and its settings (its language,
        its channels' house rules), then the names of the users
        nothing stored names any more. Raises `GuildBusy`, erasing nothing, while one of
        its tables is open."""
        async with self._write() as connection:
            held = await _guild_held(connection, guild_id)
            open_tables = select(func.count()).select_from(GameTable).where(
                GameTable.guild_id == guild_id, GameTable.status != "closed")
            if (await connection.execute(open_tables)).scalar_one():
                raise GuildBusy(guild_id)
            for statement in (delete(Rating).where(Rating.guild_id == guild_id),
                              delete(Game).where(Game.guild_id == guild_id),
                              delete(VanishedTable).where(VanishedTable.guild_id == guild_id),
                              delete(AsleepEdit).where(AsleepEdit.guild_id == guild_id),
                              delete(UnreadableTable)
                              .where(UnreadableTable.guild_id == guild_id),
                              delete(GameTable).where(GameTable.guild_id == guild_id),
                              delete(HouseRule).where(HouseRule.guild_id == guild_id),
                              delete(Guild).where(Guild.id == guild_id)):
                await connection.execute(statement)
            await _drop_unnamed_users(connection)
        return held


#: How often `_drop_unnamed_users` reads anew who is named before it gives up.
UNNAMED_TRIES = 3


async def _drop_unnamed_users(connection: AsyncConnection) -> None:
    """Delete the users nothing stored names any more. A transaction storing one of them
    meanwhile (their first game on another server, its seat stored, not yet committed,
    when the delete read who is named) made the delete break that seat's foreign key once
    it committed, on PostgreSQL: the delete waits on the user's row, then the key's check
    sees the new seat, and the whole erasure failed. The delete is tried again in a
    savepoint, whose statement reads anew under read committed and keeps that user (tests/
    storage/test_forget.py). SQLite's writes queue whole: it never meets one."""
    unnamed = delete(User).where(
        User.id.not_in(select(GameSeat.user_id).where(GameSeat.user_id.is_not(None))),
        User.id.not_in(select(RoundResult.user_id).where(RoundResult.user_id.is_not(None))),
        User.id.not_in(select(Rating.user_id)))
    for attempt in range(UNNAMED_TRIES):
        try:
            async with connection.begin_nested():
                await connection.execute(unnamed)
            return
        except IntegrityError:
            if attempt == UNNAMED_TRIES - 1:
                raise


async def _unname_asleep(connection: AsyncConnection, user_id: int) -> None:
    """The texts owed to messages in archived threads (`asleep_edits`) that may name the
    user go, and with them the ids of whom they named, the user's among them: those
    messages will only lose their buttons. The ids' digits find the rows (as
    `open_tables_holding` does), their lists tell them exactly."""
    rows = await connection.execute(
        select(AsleepEdit.message_id, AsleepEdit.people)
        .where(AsleepEdit.text.is_not(None),
               cast(AsleepEdit.people, Text).contains(str(user_id), autoescape=True)))
    naming = [row.message_id for row in rows if user_id in row.people]
    if naming:
        await connection.execute(update(AsleepEdit).where(AsleepEdit.message_id.in_(naming))
                                 .values(text=None, people=[]))


def reading_order(name: str) -> tuple[str, str]:
    """Where a name comes in the seat names `kept_about` lists: case and accents aside
    (« anne », « Bea », « Émile », « zoé »), then by code point. The database ordered them
    before, by its collation: code points on SQLite and on a PostgreSQL server created
    with the C one (« Bea » and « Zoé » before « anne », « Émile » after « zoé »), a
    locale's on a typical PostgreSQL server, so the same player read other names on each
    (tests/storage/test_forget.py)."""
    plain = "".join(char for char in unicodedata.normalize("NFKD", name.casefold())
                    if not unicodedata.combining(char))
    return plain, name


def erased(user_id: int | None, is_bot: bool, name: str) -> bool:
    """Whether a stored seat is an erased player's (`Forgetting.forget_user`): a human's
    without a user id, or a bot's that played for them after they left, its name gone."""
    return user_id is None and (not is_bot or not name)


def _games_of(user_id: int) -> Any:
    """The ids of the games the user played, as a subquery of one column, `game_id`. A seat
    left mid-game ends the game held by the bot that took it (its game seat is its latest
    occupant's): the rounds they played there still carry their id."""
    return union(
        select(GameSeat.game_id).where(GameSeat.user_id == user_id),
        select(Round.game_id).join(RoundResult, RoundResult.round_id == Round.id)
        .where(RoundResult.user_id == user_id)).subquery()


async def _held(connection: AsyncConnection, user_id: int) -> HeldData:
    async def count(statement: Any) -> int:
        return int((await connection.execute(statement)).scalar_one())

    return HeldData(
        named=await count(select(func.count()).select_from(User).where(User.id == user_id)) > 0,
        games=await count(select(func.count()).select_from(_games_of(user_id))),
        rounds=await count(select(func.count()).select_from(RoundResult)
                           .where(RoundResult.user_id == user_id)),
        ratings=await count(select(func.count()).select_from(Rating)
                            .where(Rating.user_id == user_id)),
        hosted=await count(select(func.count()).select_from(GameTable)
                           .where(GameTable.host_id == user_id, GameTable.status == "closed")),
        notices=await count(select(func.count()).select_from(VanishedTable)
                            .where(VanishedTable.user_id == user_id)),
        language=await count(select(func.count()).select_from(PlayerLanguage)
                             .where(PlayerLanguage.user_id == user_id)) > 0,
    )


async def _guild_held(connection: AsyncConnection, guild_id: int) -> GuildData:
    async def count(model: Any, column: Any) -> int:
        statement = select(func.count()).select_from(model).where(column == guild_id)
        return int((await connection.execute(statement)).scalar_one())

    # A server's row exists once it opened a table; only a choice of its admins (its
    # language) or its hosts (its channels' house rules) says anything.
    chosen = select(func.count()).select_from(Guild).where(
        Guild.id == guild_id, Guild.language.is_not(None))
    house = select(func.count()).select_from(HouseRule).where(HouseRule.guild_id == guild_id)
    return GuildData(settings=int((await connection.execute(chosen)).scalar_one()) > 0
                     or int((await connection.execute(house)).scalar_one()) > 0,
                     tables=await count(GameTable, GameTable.guild_id),
                     games=await count(Game, Game.guild_id),
                     ratings=await count(Rating, Rating.guild_id),
                     notices=await count(VanishedTable, VanishedTable.guild_id))
