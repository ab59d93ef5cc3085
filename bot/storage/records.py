"""Plain immutable values returned by the repository.

Callers (cogs, the table runtime) get these instead of ORM objects so that nothing outside
`bot.storage` can lazy-load, mutate a session-bound row, or hold a connection by accident.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from engine.rules import RulesDict

#: A table's stored status: « lobby » when it opens, « playing » from each game's start until
#: it goes back to its lobby (a game over stays « playing » while its results and Replay
#: show), « closed » at the end. Readers only tell closed tables from open ones.
TableStatus = Literal["lobby", "playing", "closed"]

#: Why the holder of a seat went during a round (`round_results.departure`, migration
#: 0010): « left » by themselves, or « removed » by someone else (the host, or a moderator
#: who kicked or banned them from the server). None: they stayed, or the round was stored
#: before 0010, whose left seats all read as « left ».
Departure = Literal["left", "removed"]


@dataclass(frozen=True, slots=True)
class KeptHouse:
    """What a channel (or a thread) keeps for its next table (`Storage.house`), as some
    version stored it: read back leniently by `bot.tables.house.read_house`."""

    # The rules for the preset asked for, or those kept last; None: none for that preset.
    rules: dict[str, Any] | None
    # The table settings kept last there (any preset); None: none, or a row from before
    # 0012. Any JSON value some version wrote.
    settings: object
    # They are the thread's own (kept by its games), not its channel's.
    own_thread: bool = False


@dataclass(frozen=True, slots=True)
class HousePlace:
    """A channel or thread that keeps house rows (`Storage.house_places`), for the start-up
    sweep (docs/bot.md, « Deleted places, swept (stop 56) »)."""

    channel_id: int
    # A thread's channel (rows written since 0014); None: a channel's rows, or a thread's
    # from before.
    parent_id: int | None
    # When the sweep last found it there or out of reach (0015); None: never.
    checked_at: datetime | None


@dataclass(frozen=True, slots=True)
class SeatRef:
    """Who occupies a seat: a human (`user_id`, `is_bot=False`) or a bot (`is_bot=True`).

    A seat flagged `is_bot` with a `user_id` is a bot finishing the round for that human, who
    left during it: the round counts for them as one they left (behind every human who
    stayed, `ratings.rated_places`), its role and points for nobody; unless someone else
    removed them (`departure` « removed »), then the round is not theirs (`ratings.seat`).
    """

    user_id: int | None
    is_bot: bool
    name: str
    departure: Departure | None = None

    def __post_init__(self) -> None:
        if not self.is_bot and self.user_id is None:
            raise ValueError("a human seat needs a user_id")


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's choices."""

    guild_id: int
    language: str | None


@dataclass(frozen=True, slots=True)
class TableRecord:
    table_id: int
    guild_id: int
    channel_id: int
    host_id: int
    rules: RulesDict
    status: TableStatus
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The last persisted runtime state of a table; `seq` is the runtime's action counter.
    `state` is what was stored, read back as JSON (`jsoncodec`): storage knows nothing of
    its keys; the table's restore reads it as its snapshot (`restore.stored_table`)."""

    table_id: int
    seq: int
    state: Mapping[str, object]
    saved_at: datetime
    # What the table's messages showed as the bot stopped, stored with this `seq` by the
    # stop (`Storage.keep_shown`); None: nothing known (a crash, a later save, 0012's code).
    shown: Mapping[str, object] | None = None


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A rating before and after a round, in display points (see `ratings.display_rating`)."""

    user_id: int
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """What `record_round` did: `inserted` is False when the round was already stored."""

    inserted: bool
    rated: bool
    changes: tuple[RatingChange, ...]


@dataclass(frozen=True, slots=True)
class Winner:
    seat: int
    user_id: int | None
    is_bot: bool
    name: str


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A finished game as /president history lists it; ``number`` is its place among the
    channel's (or the table's) finished games, oldest first, which it keeps. ``cancelled``:
    ended with no result (presi's seat left for good, RULES §10), no winner."""

    game_id: int
    number: int
    table_id: int
    preset: str
    started_at: datetime
    ended_at: datetime | None
    stopped_early: bool
    rounds: int
    winners: tuple[Winner, ...]
    cancelled: bool
    # The rules it was played by, as stored (`Rules.to_dict`): its name as its table
    # titled it (`rules_text.played_name`).
    rules: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class GamePoints:
    """A finished game's story, one line per person who played (`bot.people`):
    ``totals[i][r]`` is line ``i``'s points after round ``r + 1``, None for a round they did
    not play; ``erased`` the lines of players erased since (`forget.erased`), whose name is
    gone; ``stand_ins`` those of a bot finishing a leaver's round under the leaver's name;
    ``bots`` those of the table's own bots (the chart marks them). ``seated``: no seat
    changed hands, each line is a seat's (in seat order)."""

    preset: str
    names: tuple[str, ...]
    totals: tuple[tuple[int | None, ...], ...]
    erased: frozenset[int] = frozenset()
    stand_ins: frozenset[int] = frozenset()
    seated: bool = True
    bots: frozenset[int] = frozenset()
    rules: dict[str, Any] | None = None  # as `GameSummary.rules`


@dataclass(frozen=True, slots=True)
class PresetRating:
    preset: str
    rating: int
    mu: float
    sigma: float
    rounds: int


@dataclass(frozen=True, slots=True)
class PresetRoles:
    """How often a member ended a round in each role of one preset: ``roles`` maps a role
    code (``engine.rules.ROLE_CODES``) to a count; rounds that gave no role count in
    ``rounds`` alone."""

    preset: str
    rounds: int
    roles: dict[str, int]


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A member's record on one server, over one preset or (preset None) all of them."""

    guild_id: int
    user_id: int
    name: str | None
    preset: str | None
    rounds: int
    games: int
    wins: int
    points: int
    ratings: tuple[PresetRating, ...]
    roles: tuple[PresetRoles, ...]  # per preset played, by preset name
    # Games cancelled (no result, RULES §10) they played a round of: not among `games`,
    # listed in the history as cancelled.
    cancelled: int

    def times(self, role: str) -> int:
        """Rounds the member ended in ``role`` (a code of ``engine.rules.ROLE_CODES``)."""
        return sum(played.roles.get(role, 0) for played in self.roles)


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    user_id: int
    name: str
    rating: int
    mu: float
    sigma: float
    rounds: int


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """The top rows, plus the caller's own row when it is not among them. `ahead`: who is
    ranked ahead of that caller but not shown (nor among the absent), at most as many as
    asked for, `ahead_all` saying whether that is all of them: the caller's number counts
    them, so it is right once each is known to be a member (stop 51)."""

    guild_id: int
    preset: str
    rows: tuple[LeaderboardRow, ...]
    caller: LeaderboardRow | None
    total: int
    ahead: tuple[int, ...] = ()
    ahead_all: bool = True


@dataclass(frozen=True, slots=True)
class VanishedRecord:
    """A player owed the word that their table in `channel` (None: its name unknown; a
    thread if `in_thread`) on `guild_id` ended when the channel was deleted, `at`."""

    guild_id: int
    user_id: int
    channel: str | None
    at: datetime
    in_thread: bool = False


@dataclass(frozen=True, slots=True)
class AsleepEditRecord:
    """What a table's message in the archived thread `channel_id` is to show once the
    thread wakes (`text`; None: it only loses its controls), the people that text may
    name, and since when it is owed (`bot.tables.asleep`)."""

    guild_id: int
    channel_id: int
    message_id: int
    text: str | None
    people: tuple[int, ...]
    at: datetime


@dataclass(frozen=True, slots=True)
class UnreadableRecord:
    """A table closed at start because its stored state could not be read, whose channel
    `channel_id` is owed the word, in `locale`, on the messages `message_ids` (none: a
    post says it), since `at` (`bot.tables.restore`)."""

    table_id: int
    guild_id: int
    channel_id: int
    locale: str
    message_ids: tuple[int, ...]
    at: datetime


@dataclass(frozen=True, slots=True)
class HeldData:
    """What storage holds about one Discord user, on every server (`Storage.held_about`),
    or what `Storage.forget_user` erased: each count is of rows naming them."""

    named: bool  # their users row: the name they had at their last table
    games: int  # games they held a seat in
    rounds: int  # round results of theirs
    ratings: int  # ratings, one per server and preset
    hosted: int  # closed tables they opened or hosted last
    notices: int  # words owed of tables whose channel was deleted (vanished_tables)
    language: bool  # the language they chose for their own messages (player_languages)

    @property
    def empty(self) -> bool:
        return not (self.named or self.games or self.rounds or self.ratings or self.hosted
                    or self.notices or self.language)


@dataclass(frozen=True, slots=True)
class RatingKept:
    """One of a user's ratings as `/president stats` shows it: on one server, at one preset."""

    preset: str
    rating: int  # `ratings.display_rating`
    rounds: int  # the rounds it counts


@dataclass(frozen=True, slots=True)
class ServerKept:
    """What one server's results hold about a user (`Storage.kept_about`)."""

    guild_id: int
    games: int
    rounds: int
    ratings: tuple[RatingKept, ...]


@dataclass(frozen=True, slots=True)
class KeptDetail:
    """What `HeldData` counts, in the words a player reads it in (`Storage.kept_about`):
    the name of their users row, the language they chose, the names their stored seats
    carry, and per server their games, rounds and ratings."""

    name: str | None
    language: str | None  # `player_languages`: "fr" or "en", None for Discord's
    seat_names: tuple[str, ...]  # distinct, at most `forget.SEAT_NAMES_SHOWN`
    servers: tuple[ServerKept, ...]  # by server id
    client_locale: str | None = None  # sent by Discord with `language`, where kept (0020)


@dataclass(frozen=True, slots=True)
class GuildData:
    """What storage holds about one server (`Storage.held_by_guild`), or what
    `Storage.forget_guild` erased."""

    settings: bool  # a language its admins chose, or its channels' house rules
    tables: int
    games: int
    ratings: int
    notices: int

    @property
    def empty(self) -> bool:
        return not (self.settings or self.tables or self.games or self.ratings or self.notices)
