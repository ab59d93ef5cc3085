"""A table's stored state as a type: what `Table.to_dict` writes and `Table.from_dict` reads.

The bot stores it after every action (`Persistence.snapshot`) and a restart restores the
table from it (`bot.tables.restore`), whichever version wrote it: a key every snapshot since
the first has is required; one a snapshot from before it was kept may lack is
`NotRequired`, read with its default (`Table.from_dict` says which default). The game's own
part is the engine's `GameSnapshot`; an event, the engine's `Event.to_dict`.

The compact rows are JSON lists of mixed values, which no list type tells apart by
position, as in `engine.snapshot`: each `…Row` says what a row may hold (what mypy checks
the writer against) and its `…Fields` tuple what it holds where, which the reader casts each
row to once, checking nothing; `tests/bot/test_table_snapshot_types.py` checks the
positions against real snapshots.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypeAlias, TypedDict, cast

from bot.people import HolderRow
from bot.tables.house import HouseSnapshot
from engine.jsonvalue import Json
from engine.rules import RulesDict
from engine.snapshot import GameSnapshot

# A run of rounds through which the same people held the seats (`Table.round_holders`,
# stored so from stop 51): how many rounds, then each seat's holder (None: nobody played it).
HoldersRow: TypeAlias = list[int | list[HolderRow | None]]
HoldersFields: TypeAlias = tuple[int, list[HolderRow | None]]

# A version a seat moved from (`Table.moved_from`): version, seat, whether its timer moved.
MovedRow: TypeAlias = list[int | bool]
MovedFields: TypeAlias = tuple[int, int, bool]


class PlayerSnapshot(TypedDict):
    """A seat's or the queue's player (`Player`)."""

    user_id: int | None
    name: str
    locale: NotRequired[str]
    joined: NotRequired[int]
    vacant: NotRequired[bool]
    by_host: NotRequired[bool]
    level: NotRequired[str]
    left_by: NotRequired[int | None]
    took_from: NotRequired[str | None]
    left_hosting: NotRequired[bool]
    took_from_level: NotRequired[str | None]  # written only when set
    left_out: NotRequired[bool]  # written only when true
    left_removed: NotRequired[bool]  # written only when true
    client: NotRequired[str]  # written only when set (stop 61)
    # A queued player's points, in snapshots from before the engine kept them (`off_table`);
    # no longer written.
    points: NotRequired[int]


class HandLinkSnapshot(TypedDict):
    """A player's hand link (`HandLink`)."""

    application_id: int
    token: str
    created: float
    locale: NotRequired[str]
    message_id: NotRequired[int | None]


class OpeningSnapshot(TypedDict):
    """The interaction that opened a table, while its lobby's id is not stored (`Opening`)."""

    application_id: int
    token: str
    created: float


class ReminderSnapshot(TypedDict):
    """The ping for those a timer waits on (`Reminder`)."""

    serial: int
    user_ids: list[int]
    kind: str
    sent: NotRequired[bool]
    message_id: NotRequired[int | None]
    deadline: NotRequired[float | None]


class PauseSnapshot(TypedDict):
    """A break under way (`Pause`); its limit's fields are written only when set."""

    by: int
    name: str
    since: float
    reason: NotRequired[str]
    held: NotRequired[float]
    outage_since: NotRequired[float | None]
    own: NotRequired[bool]


# A history line's placeholder (`LogEntry.params`): a name, a count, a place, a deadline, a
# flag (a bot's mark), a value or a rank that may be unknown (None), a play's cards as codes.
LineParam: TypeAlias = str | int | bool | list[str] | None
LineParams: TypeAlias = dict[str, LineParam]


class LogSnapshot(TypedDict):
    """A history line, a lobby's notice, an exchange note (`LogEntry`)."""

    key: str
    params: NotRequired[LineParams]
    people: NotRequired[list[int]]  # written only when it names someone


class GameStartSnapshot(TypedDict):
    """What identifies a game in storage (`GameStart`)."""

    game_no: int
    preset: str
    rules: RulesDict
    seats: list[PlayerSnapshot]
    waiting: NotRequired[list[PlayerSnapshot]]


class PendingSnapshot(TypedDict):
    """A result not yet known to be stored (`PendingResult`)."""

    start: GameStartSnapshot
    game_row_id: NotRequired[int | None]
    result: dict[str, Json]  # a RoundOver's or GameOver's Event.to_dict, or a Cancelled's


class KeptSnapshot(TypedDict):
    """`Table.kept`: the rules and table settings a table opened on or last kept as its
    channel's house rules (stop 52)."""

    rules: RulesDict
    settings: dict[str, Json]  # TableSettings.to_dict


class TableSnapshot(TypedDict):
    """The whole table (`Table`), as `Table.to_dict` writes it (every key but those written
    only when set, as noted) and `Table.from_dict` reads it."""

    id: int
    channel_id: int
    guild_id: NotRequired[int | None]
    parent_id: NotRequired[int | None]
    host_id: int
    locale: NotRequired[str]
    rules: RulesDict
    seats: list[PlayerSnapshot]
    queue: NotRequired[list[PlayerSnapshot]]
    game: NotRequired[GameSnapshot | None]
    lobby_message_id: NotRequired[int | None]
    table_message_id: NotRequired[int | None]
    hands: NotRequired[dict[str, HandLinkSnapshot]]  # by user id
    log: NotRequired[list[LogSnapshot]]
    left_seats: NotRequired[list[int]]
    kicked: NotRequired[list[int]]
    timer_serial: NotRequired[int | None]
    timer_deadline: NotRequired[float | None]
    paused_since: NotRequired[float | None]
    pause: NotRequired[PauseSnapshot]  # written only during a break
    own_breaks: NotRequired[dict[str, float]]  # by user id; written only when held
    host_seen: NotRequired[float]
    human_seen: NotRequired[float]
    game_row_id: NotRequired[int | None]
    game_no: NotRequired[int]
    next_version: NotRequired[int]
    ended_version: NotRequired[int]
    store_failed: NotRequired[bool]
    arrivals: NotRequired[int]
    away: NotRequired[dict[str, float]]  # by user id
    exchange_notes: NotRequired[dict[str, list[LogSnapshot]]]  # by seat
    notice: NotRequired[LogSnapshot | None]
    skipped: NotRequired[dict[str, LogSnapshot]]  # by seat; written only when set
    trick_by: NotRequired[list[LineParams]]  # the trick's plays; written only when set
    gift_picks: NotRequired[dict[str, dict[str, list[str]]]]  # user, select part: cards
    results: NotRequired[list[dict[str, Json]]]  # RoundOver's and GameOver's Event.to_dict
    result_seats: NotRequired[list[PlayerSnapshot]]
    result_waiting: NotRequired[list[PlayerSnapshot]]
    finished_roles: NotRequired[list[str | None]]
    unstored: NotRequired[list[PendingSnapshot]]
    round_totals: NotRequired[list[list[int]]]
    # Who held the seats as each round ended: in runs of rounds from stop 51 (the seats
    # change hands a few times a game, and a row a round grew a long evening's snapshot by
    # some ninety bytes a round); one row a round before, still read.
    holders: NotRequired[list[HoldersRow]]
    round_gained: NotRequired[list[list[int]]]  # each round's points, seat by seat
    round_holders: NotRequired[list[list[HolderRow | None]]]
    seq: NotRequired[int]
    bot_level: NotRequired[str]
    hints: NotRequired[bool]
    reminders: NotRequired[bool]
    reminder: NotRequired[ReminderSnapshot | None]
    reminders_gone: NotRequired[list[int]]
    host_handed: NotRequired[bool]
    post_lobby: NotRequired[bool]
    post_table: NotRequired[bool]
    house: NotRequired[HouseSnapshot]  # written only while the lobby says it (stop 51)
    kept: NotRequired[KeptSnapshot]  # written from stop 52
    retired: NotRequired[str | None]
    retired_people: NotRequired[list[int]]  # written only when set
    moved_from: NotRequired[list[MovedRow]]
    charts_off: NotRequired[list[int]]  # written only when set
    pointers_owed: NotRequired[list[list[int]]]  # old message, new; written only when set
    retired_below: NotRequired[int]  # written only when set
    opening: NotRequired[OpeningSnapshot]  # written only while set (stop 52)


def stored_table(state: Mapping[str, object]) -> TableSnapshot:
    """A stored state (`storage.records.Snapshot.state`, JSON read back) as what
    `Table.to_dict` wrote: the one trust point, checking nothing, as the engine's readers
    cast their rows. A state that is not one fails in `Table.from_dict`, and closes its
    table alone (`restore.restore_tables`); `tests/bot/test_table_snapshot_types.py`
    checks real ones."""
    return cast(TableSnapshot, state)
