"""SQLAlchemy 2 typed models: the schema that `migrations/` creates.

The repository uses these through Core statements only; ORM instances never leave the
storage package. Discord snowflakes are 64-bit, hence BigInteger for every Discord id, while
the bot's own surrogate keys stay Integer so that SQLite keeps its rowid aliasing.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

# Stable constraint names let later batch migrations on SQLite find and alter constraints.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

TABLE_STATUSES = ("lobby", "playing", "closed")
NAME_LENGTH = 100


class UTCDateTime(TypeDecorator[datetime]):
    """Aware datetimes in, aware UTC datetimes out, on every backend.

    SQLite has no time zone type and hands back naive values; normalising here keeps
    deadline arithmetic and ordering identical on SQLite and PostgreSQL.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the database; use an aware UTC datetime")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class SerializedJSON(TypeDecorator[str]):
    """A JSON column's value already serialised by `jsoncodec.dumps`, bound as it is.

    The snapshot writer serialises a table's state when it is submitted (so that later
    changes cannot leak into the queued copy); binding that text through `JSON` would
    parse it back and serialise it again, which was most of a snapshot write's CPU. The
    text is what `JSON` itself would have bound: SQLite stores it, and SQLAlchemy's asyncpg
    dialect registers a json codec that takes text. Reads go through the column's `JSON`.
    """

    impl = JSON
    cache_ok = True

    def bind_processor(self, dialect: Dialect) -> None:
        return None


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {datetime: UTCDateTime(), dict[str, Any]: JSON()}


class Guild(Base):
    """Per-server settings; a row exists once the server changed a setting or opened a table."""

    __tablename__ = "guilds"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    language: Mapped[str | None] = mapped_column(String(16))
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class HouseRule(Base):
    """The rules a channel last played, or its host last confirmed, one row per preset: a
    table opened there starts from them (docs/bot.md, « Play-test 33: the house rules »). A
    table in a thread keeps them under its channel and under the thread itself (stop 52),
    whose next table reads its own first. The server's choice, not a player's:
    forget-server erases them."""

    __tablename__ = "house_rules"

    channel_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    preset: Mapped[str] = mapped_column(String(32), primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger, index=True)
    # `Rules.to_dict`: the preset and the knobs that differ from it, as that version wrote
    # them (read back leniently: `bot.tables.house`).
    rules: Mapped[dict[str, Any]]
    # The table's settings beside the rules (`TableSettings.to_dict`: the bots' level,
    # « Conseil », reminders), kept with them since 0012; NULL in a row written before.
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON(), nullable=True)
    # A thread's rows: the channel it is in, whose deletion takes them (0014, docs/bot.md
    # « A deleted place's rows (stop 55) »); NULL on a channel's, and a thread's from before.
    parent_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)
    updated_at: Mapped[datetime]
    # When the start-up sweep last found the place there, or out of the bot's reach (0015,
    # docs/bot.md « Deleted places, swept (stop 56) »): the next starts ask about the
    # others first. NULL: never asked about.
    checked_at: Mapped[datetime | None]


class User(Base):
    """Last display name seen, so stats and history can name players who left the server."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    display_name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    updated_at: Mapped[datetime]


class PlayerLanguage(Base):
    """The language a player chose for their own messages (`/president my-language`, since
    0019); no row: Discord's, each interaction's locale (docs/bot.md « A language of one's
    own (stop 58) »). Theirs, on every server: `/forget` erases it."""

    __tablename__ = "player_languages"
    __table_args__ = (CheckConstraint("language IN ('fr', 'en')", name="language"),)

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    language: Mapped[str] = mapped_column(String(2))
    chosen_at: Mapped[datetime]
    # The locale Discord sent with the choice (since 0020; NULL before): what the player's
    # hands go back to on every process once they give the choice up (`Languages.read`).
    client_locale: Mapped[str | None] = mapped_column(String(16))


class GameTable(Base):
    """A table opened in a channel; it outlives its games (replay keeps the same table)."""

    __tablename__ = "tables"
    __table_args__ = (
        CheckConstraint("status IN ('lobby', 'playing', 'closed')", name="status"),
        # One open table per channel, enforced by the database so that two processes (or a
        # double click) cannot open two tables in the same channel.
        Index(
            "uq_tables_open_channel",
            "channel_id",
            unique=True,
            sqlite_where=text("status != 'closed'"),
            postgresql_where=text("status != 'closed'"),
        ),
        Index("ix_tables_guild_status", "guild_id", "status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("guilds.id"))
    channel_id: Mapped[int] = mapped_column(BigInteger, index=True)
    host_id: Mapped[int] = mapped_column(BigInteger)
    rules: Mapped[dict[str, Any]]
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class TableSnapshot(Base):
    """The latest runtime state of a live table (write-ahead: `seq` only moves forward)."""

    __tablename__ = "table_snapshots"

    table_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(BigInteger)
    state: Mapped[dict[str, Any]]
    saved_at: Mapped[datetime]
    # What the table's messages showed when the bot stopped, for the state of `seq`
    # (`bot.tables.landed.Landed`): written by a stop only, cleared by any later save and
    # by the next start once read; NULL: nothing known shown (since 0013).
    shown: Mapped[dict[str, Any] | None] = mapped_column(JSON(), nullable=True)


class Game(Base):
    """One game at a table; `ended_at` stays NULL while it is played (or if it was abandoned
    before a round counted). A game cancelled after one (presi's seat left for good, RULES
    §10, or its table closed at start for a state it could not read, `close_unreadable`)
    has its end too, with `cancelled`: no result, its rounds counted, listed in the
    history as cancelled (docs/bot.md « Cancelled games in the history (stop 56) »)."""

    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_guild_preset", "guild_id", "preset"),
        Index("ix_games_table_ended", "table_id", "ended_at"),
        # A game is found from the table's snapshot by its number at that table, so that
        # recording its start again after a crash finds the same row (see start_game).
        Index("uq_games_table_game_no", "table_id", "game_no", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(Integer, ForeignKey("tables.id"))
    game_no: Mapped[int | None] = mapped_column(Integer)  # NULL for games stored before 0002
    guild_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("guilds.id"))
    preset: Mapped[str] = mapped_column(String(32))
    rules: Mapped[dict[str, Any]]
    seats: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]
    stopped_early: Mapped[bool] = mapped_column(Boolean)
    # Since 0016; the games cancelled before it that it could tell are marked too.
    cancelled: Mapped[bool] = mapped_column(Boolean, server_default=false())


class GameSeat(Base):
    """Who sat where in a game (last occupant seen) and whether that seat won. Rows from
    `games.seats` on are winners who held no seat as the game ended: they waited in the
    queue (RULES §10, proletario) with the points they left their seat with, which won."""

    __tablename__ = "game_seats"

    game_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    user_id: Mapped[int | None] = mapped_column(BigInteger, ForeignKey("users.id"), index=True)
    is_bot: Mapped[bool] = mapped_column(Boolean)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    is_winner: Mapped[bool] = mapped_column(Boolean)


class Round(Base):
    """A finished round; (game_id, round_no) is unique so a replayed write is a no-op."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("game_id", "round_no"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(Integer, ForeignKey("games.id", ondelete="CASCADE"))
    round_no: Mapped[int] = mapped_column(Integer)
    seats: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime]
    rated: Mapped[bool] = mapped_column(Boolean)


class RoundResult(Base):
    """One seat's outcome in a round: the normalised form of ranking, roles and points.

    `place` 1 is the President and `place == rounds.seats` the last, whatever the role
    names of the preset, so stats never depend on the engine's role codes.
    """

    __tablename__ = "round_results"

    round_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("rounds.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    user_id: Mapped[int | None] = mapped_column(BigInteger, ForeignKey("users.id"), index=True)
    is_bot: Mapped[bool] = mapped_column(Boolean)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    place: Mapped[int] = mapped_column(Integer)
    role: Mapped[str | None] = mapped_column(String(16))
    points: Mapped[int] = mapped_column(Integer)
    # The game's total at the seat after the round, as the table showed it (`Game.points`:
    # what its holder brought, plus the round's points); NULL in rounds stored before
    # migration 0005, whose games' charts are summed from `points` (`people.summed`).
    total: Mapped[int | None] = mapped_column(Integer)
    # Why the seat's holder went during the round (`records.Departure`): NULL where they
    # stayed, and in rounds stored before migration 0010, whose left seats read as left.
    departure: Mapped[str | None] = mapped_column(String(8))


class Rating(Base):
    """OpenSkill (Plackett-Luce) rating of a user on one server for one preset."""

    __tablename__ = "ratings"

    guild_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("guilds.id"), primary_key=True, autoincrement=False
    )
    preset: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("users.id"), primary_key=True, autoincrement=False
    )
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rounds: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime]


class VanishedTable(Base):
    """A player owed the word that their table ended with its channel (`bot.tables.vanished`):
    kept until told, at most a week."""

    __tablename__ = "vanished_tables"
    __table_args__ = (Index("ix_vanished_tables_guild_user", "guild_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    user_id: Mapped[int] = mapped_column(BigInteger)
    channel: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    in_thread: Mapped[bool] = mapped_column(Boolean, server_default=false())
    at: Mapped[datetime] = mapped_column(index=True)


class AsleepEdit(Base):
    """A table message's edit that its archived thread refused (`bot.tables.asleep`): what
    the message is to show once the thread wakes (`text`, without controls; NULL: it only
    loses them), and the ids of the people whose names that text may hold. Kept until
    sent, a week at most."""

    __tablename__ = "asleep_edits"

    message_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    guild_id: Mapped[int] = mapped_column(BigInteger, index=True)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    text: Mapped[str | None] = mapped_column(Text)
    people: Mapped[list[int]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(index=True)


class UnreadableTable(Base):
    """A table closed at start because its stored state could not be read, whose channel
    is owed the word (`bot.tables.restore`): told once the gateway describes its server,
    on the messages the state still named (`message_ids`), in `locale`. Kept until told,
    a week at most: a stop before then no longer loses it."""

    __tablename__ = "unreadable_tables"

    table_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    guild_id: Mapped[int] = mapped_column(BigInteger, index=True)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    locale: Mapped[str] = mapped_column(String(16))
    message_ids: Mapped[list[int]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(index=True)
