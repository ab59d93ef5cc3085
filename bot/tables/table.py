"""One table: who sits where, the engine game, its Discord messages and each player's hand link.

Pure data plus small queries; the actions that change a table live in `bot.tables.service`
and always run under `table.lock`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from enum import Enum
from itertools import groupby
from typing import TypeVar, cast

from bot.names import unique
from bot.people import Holder
from bot.tables.house import DEFAULT_LEVEL, House, TableSettings
from bot.tables.landed import Landed
from bot.tables.snapshot import (
    GameStartSnapshot,
    HandLinkSnapshot,
    HoldersFields,
    KeptSnapshot,
    LineParams,
    LogSnapshot,
    OpeningSnapshot,
    PauseSnapshot,
    PendingSnapshot,
    PlayerSnapshot,
    ReminderSnapshot,
    TableSnapshot,
)
from engine import Game, Phase, Rules, event_from_dict
from engine.bots import LEVELS
from engine.events import GameOver, RoundOver
from engine.jsonvalue import Json
from engine.rules import RulesDict

# Discord accepts follow-up edits through an interaction token for 15 minutes; stop a little
# earlier so an edit never races the expiry.
TOKEN_LIFETIME = 15 * 60 - 30
LOG_SIZE = 10  # enough to follow bots moving every second or two
# Versions `Table.moved_from` keeps: a round of eight seats and a few moves more.
MOVES_REMEMBERED = 16
# The history line a restored table gets (`Outages.adopt`): shown for the run that
# restored it, never stored. The versions before it cannot word it: stored, it failed their
# every redraw of every table under way (a KeyError) once an operator rolled back to one
# (docs/deploy.md, « Rolling back »). Each restore says it again, once.
RESTARTED = "ev.restarted"
# The history line saying a presi leaver's seat waits for them, and until when
# (`Seating.remove`); `Table.graces_waited` moves its time with their grace's.
AWAY = "ev.away"
# The giver's exchange note when the exchange's timer chose their cards (`log.note`): what
# says, this round, that a gift refused as already given was the timer's (`gave_late`).
GAVE_LATE = "hand.gave_late"
# Bots replacing a leaver, filling a table, and the autopilot play at this level (issue 12).
def _level(level: object) -> str:
    """A stored bot level; anything the engine no longer offers plays at the default."""
    return level if isinstance(level, str) and level in LEVELS else DEFAULT_LEVEL


class LeaveOutcome(Enum):
    """What leaving the game under way does to a player's seat (RULES §10).

    Decided in one place, `Table.leave_outcome`: Seating.remove acts on it and the
    prompt that asks first (prompts.quit_prompt) words it, so the prompt cannot promise
    what leaving then does not do."""

    WAIT = "wait"  # mid-round where the rules wait: the seat waits, then the game is cancelled
    BOT = "bot"  # between rounds where bots fill tables: a bot takes the seat at once
    ROUND_BOT = "round_bot"  # mid-round where bots fill tables: a bot plays the seat from now on
    FREE = "free"  # between rounds: the seat goes at once and the game goes on without it
    FREE_LOBBY = "free_lobby"  # ... leaving too few: the table goes back to its lobby
    ROUND = "round"  # mid-round: a bot finishes the round for them, then the seat goes
    ROUND_LOBBY = "round_lobby"  # ... leaving too few once the round is over: the lobby
    # No queue, and only bots left to play while friends wait for the next game: the game
    # stops and they sit in the lobby at once, the first of them its host (`list_left`).
    LIST_LOBBY = "list_lobby"

    @property
    def at_once(self) -> bool:
        """Between rounds the seat changes hands now; mid-round a bot plays it out first."""
        return self in (LeaveOutcome.BOT, LeaveOutcome.FREE, LeaveOutcome.FREE_LOBBY,
                        LeaveOutcome.LIST_LOBBY)

    @property
    def prompt(self) -> str:
        """The catalogue key of the prompt. Mid-round it says the seat can be taken back
        until the round ends (`Seating.join`)."""
        return "leave.confirm." + self.value


@dataclass(frozen=True)
class GameStart:
    """What identifies a game in storage: the table's game number (kept in its snapshot, so
    that a restored table finds its game again whatever was stored before a crash), with
    what its row records."""

    game_no: int
    preset: str
    rules: RulesDict
    seats: tuple[Player, ...]
    # Who waited in the queue then: a game's end names its winners among them too, by the
    # points they left their seat with (`Game.step_off`).
    waiting: tuple[Player, ...] = ()

    @classmethod
    def of(cls, table: Table) -> GameStart:
        return cls(table.game_no, table.rules.preset_id, table.rules.to_dict(),
                   tuple(replace(p) for p in table.seats),
                   tuple(replace(p) for p in table.queue))

    def to_dict(self) -> GameStartSnapshot:
        return {"game_no": self.game_no, "preset": self.preset, "rules": self.rules,
                "seats": [p.to_dict() for p in self.seats],
                "waiting": [p.to_dict() for p in self.waiting]}

    @classmethod
    def from_dict(cls, d: GameStartSnapshot) -> GameStart:
        return cls(int(d["game_no"]), str(d["preset"]), d["rules"].copy(),
                   tuple(Player.from_dict(p) for p in d["seats"]),
                   tuple(Player.from_dict(p) for p in d.get("waiting", [])))


@dataclass(frozen=True, eq=False)
class PendingResult:
    """A result not yet known to be stored (see `Outbox.record`, bot/tables/outbox.py)."""

    start: GameStart
    game_row_id: int | None
    result: RoundOver | GameOver

    def to_dict(self) -> PendingSnapshot:
        return {"start": self.start.to_dict(), "game_row_id": self.game_row_id,
                "result": self.result.to_dict()}

    @classmethod
    def from_dict(cls, d: PendingSnapshot) -> PendingResult:
        return cls(GameStart.from_dict(d["start"]), d.get("game_row_id"), _result(d["result"]))


def waiting_key(user_id: int) -> str:
    """The key under which the engine keeps the points of a player who left their seat for
    the queue (`Game.step_off`): their user id, stable wherever they sit or wait."""
    return str(user_id)


@dataclass
class Player:
    user_id: int | None  # None for a bot
    name: str
    locale: str = "en"
    joined: int = 0  # arrival order: the longest-seated human inherits the host role
    vacant: bool = False  # a leaver's seat freed between rounds: nobody plays it any more
    by_host: bool = False  # a bot the host seated: it stays when the table returns to the lobby
    # How a bot plays this seat (engine.bots.LEVELS). A human's seat keeps the default, so a
    # bot that takes over when they leave plays at normal level.
    level: str = DEFAULT_LEVEL
    # Who left this seat this round, a bot finishing it for them (Table.left_seats): their
    # leaving again is refused by the engine's reason, not as if they had never sat here.
    left_by: int | None = None
    # Whom they replaced at this seat between the last round and this one (RULES §10's
    # queue): the exchange is that seat's, and the hand says whose place they take.
    took_from: str | None = None
    # Whether they hosted the table as they left: taking their seat back before whoever
    # inherited the role has used it gives it back (`Seating._take_back`).
    left_hosting: bool = False
    # The level of the bot they replaced (`took_from`), which the table message names as it
    # names bots; None for a person's seat (the last place's), and where a snapshot from
    # before it was kept names the seat's bot by its name alone.
    took_from_level: str | None = None
    # Whether the one who left this seat this round (`left_by`) was out of cards then: their
    # place was won, nothing of the round left to the bot, so the round is stored as theirs
    # as played (`persistence.seat_refs`), not as one they left.
    left_out: bool = False
    # Whether someone else made the one who left this seat this round (`left_by`) go: the
    # host removed them, or a moderator kicked or banned them from the server. The round is
    # then not rated for them (`ratings.seat`), as it is for one who left it themselves.
    left_removed: bool = False

    @property
    def is_bot(self) -> bool:
        return self.user_id is None and not self.vacant

    def took_seat_of(self, other: Player | None) -> None:
        """They sit where ``other`` sat this round (None: the seat is their own now)."""
        self.took_from = other.name if other is not None else None
        self.took_from_level = other.level if other is not None and other.is_bot else None

    @property
    def key(self) -> str:
        """The key of this player's points while they wait off the table (`waiting_key`).
        Only people wait; a bot has no key."""
        if self.user_id is None:
            raise ValueError(f"{self.name!r} is no person waiting")
        return waiting_key(self.user_id)

    def to_dict(self) -> PlayerSnapshot:
        d: PlayerSnapshot = {
            "user_id": self.user_id, "name": self.name, "locale": self.locale,
            "joined": self.joined, "vacant": self.vacant, "by_host": self.by_host,
            "level": self.level, "left_by": self.left_by,
            "took_from": self.took_from, "left_hosting": self.left_hosting}
        if self.took_from_level is not None:
            d["took_from_level"] = self.took_from_level
        if self.left_out:
            d["left_out"] = True
        if self.left_removed:
            d["left_removed"] = True
        return d

    @classmethod
    def from_dict(cls, d: PlayerSnapshot) -> Player:
        return cls(d["user_id"], d["name"], d.get("locale", "en"), d.get("joined", 0),
                   d.get("vacant", False), d.get("by_host", False),
                   _level(d.get("level", DEFAULT_LEVEL)), d.get("left_by"),
                   d.get("took_from"), bool(d.get("left_hosting", False)),
                   _level(d["took_from_level"]) if d.get("took_from_level") else None,
                   bool(d.get("left_out", False)), bool(d.get("left_removed", False)))


@dataclass
class HandLink:
    """The latest interaction whose original response is this player's ephemeral hand."""

    application_id: int
    token: str
    created: float
    fingerprint: str = ""  # what was last sent there, to skip edits that change nothing
    # The player's language at that interaction: what the hand says once they have left the
    # table (their seat, which also keeps it, is gone by then).
    locale: str = ""
    # False while a hand in a message of its own is recorded but its answer not yet sent
    # (`game.views.show_hand` saves the link first): an edit of « @original » before then
    # finds no message (404) and would forget the link. Not saved: a restored link was sent.
    answered: bool = field(default=True, compare=False)
    # Its player let a turn run out since: the hand may be dismissed, though its link is
    # valid; the table message asks for « My hand » again until a newer link replaces it.
    # Not saved: a restart asks nothing of a player it has not seen time out.
    lapsed: bool = field(default=False, compare=False)
    # Its last edit, as its token ran out, said it no longer follows the game
    # (`Hands._lapse_at_expiry`): no refresh may draw over that. Not saved either.
    frozen: bool = field(default=False, compare=False)
    # The message it shows, once known: the one clicked, or the one its answer created
    # (Discord says it, `with_response`). Two links of one player on different messages
    # mean the older message no longer follows the game (`HandLinks.remember`).
    message_id: int | None = field(default=None, compare=False)

    @property
    def expires(self) -> float:
        """When the bot stops using this link, on the service's clock."""
        return self.created + TOKEN_LIFETIME

    def valid(self, now: float) -> bool:
        return now < self.expires

    def to_dict(self) -> HandLinkSnapshot:
        return {"application_id": self.application_id, "token": self.token,
                "created": self.created, "locale": self.locale, "message_id": self.message_id}

    @classmethod
    def from_dict(cls, d: HandLinkSnapshot) -> HandLink:
        message_id = d.get("message_id")
        return cls(int(d["application_id"]), d["token"], float(d["created"]),
                   locale=d.get("locale", ""),
                   message_id=int(message_id) if message_id is not None else None)


@dataclass(frozen=True)
class Opening:
    """The `/president create` interaction a table was opened by, kept until its lobby's id
    is stored: a process that dies after deferring (« … réfléchit… ») and before the lobby
    is posted, or stored, leaves a restart within the token's life the original response to
    edit into the lobby (`Publisher._opened`), found at any depth, in one call
    (« Edit Original Interaction Response », discord-api-docs,
    developers/interactions/receiving-and-responding.mdx). Written only while set."""

    application_id: int
    token: str
    created: float  # when the interaction came, on the service's clock

    @property
    def expires(self) -> float:
        return self.created + TOKEN_LIFETIME

    def to_dict(self) -> OpeningSnapshot:
        return {"application_id": self.application_id, "token": self.token,
                "created": self.created}

    @classmethod
    def from_dict(cls, d: OpeningSnapshot) -> Opening:
        return cls(int(d["application_id"]), d["token"], float(d["created"]))


@dataclass(frozen=True)
class Farewell:
    """A hand of `user_id` no longer refreshed, to redraw once without controls, and what
    it then says: that they left (« lobby.left »), that the host removed them
    (« hand.kicked »), or that the hand moved to another message (« hand.moved »), which
    keeps one button to bring it back (`publisher.hands.farewell_screen`)."""

    user_id: int
    link: HandLink
    key: str


@dataclass
class Reminder:
    """A ping in the channel for those a timer waits on (`bot.tables.reminders`): an edit
    notifies nobody, so it is a message of its own, deleted once its timer is over."""

    serial: int  # the game timer it is about
    user_ids: tuple[int, ...]
    kind: str  # turn | exchange
    # Once its post was tried: a refused one is not tried again for this timer (one that
    # failed for a passing reason is, once: `tries`).
    sent: bool = False
    message_id: int | None = None
    # The timer's deadline the message shows: a restart moves the timer on, and the message
    # is edited to follow it.
    deadline: float | None = None
    # Runtime: the posts tried by this process; one failing for a passing reason is tried
    # once more (`publisher.reminders`).
    tries: int = field(default=0, compare=False)
    # Runtime: when (the bot's clock) the first of them was sent, for the look after the
    # last (`publisher.reminders.Reminders._look`).
    first_try: float | None = field(default=None, compare=False)

    def to_dict(self) -> ReminderSnapshot:
        return {"serial": self.serial, "user_ids": list(self.user_ids), "kind": self.kind,
                "sent": self.sent, "message_id": self.message_id, "deadline": self.deadline}

    @classmethod
    def from_dict(cls, d: ReminderSnapshot) -> Reminder:
        return cls(int(d["serial"]), tuple(int(u) for u in d["user_ids"]), str(d["kind"]),
                   bool(d.get("sent")), d.get("message_id"), d.get("deadline"))


@dataclass(frozen=True)
class Pause:
    """A break the host called (`bot.tables.breaks`): who called it, as the table names
    them (the role may pass on meanwhile), since when on the service's clock, and the
    reason they gave, if any. The clocks it holds are `Table.paused_since`'s.

    Its limit (`deadlines.pause_ends`) waits while nobody could continue it, as the turn
    clocks wait for an outage: `held`, the seconds Discord had lost the server or the
    gateway was gone during it, or the bot was away (a restart, `Outages.adopt`), and
    `outage_since`, the start of such an outage while it lasts (stored: a restart
    meanwhile goes on counting it until the server is back, `Outages.server_back`). Before
    (stop 49), an hour's break reaching its hour during an outage closed the table,
    though nobody could have pressed « Continuer ».

    `own`: a seated player's own short break (stop 50), not the host's: it lasts
    `breaks.OWN_PAUSE_SECONDS` and then the game goes on by itself rather than closing,
    and they or the host may end it sooner."""

    by: int
    name: str
    since: float
    reason: str = ""
    held: float = 0.0
    outage_since: float | None = None
    own: bool = False

    def outage_began(self, now: float) -> Pause:
        return self if self.outage_since is not None else replace(self, outage_since=now)

    def outage_ended(self, now: float) -> Pause:
        if self.outage_since is None:
            return self
        return replace(self, held=self.held + max(0.0, now - self.outage_since),
                       outage_since=None)

    def away(self, seconds: float) -> Pause:
        """The bot was away `seconds` (a restart): nobody could continue meanwhile."""
        return replace(self, held=self.held + seconds)

    def to_dict(self) -> PauseSnapshot:
        # The limit's fields only when set: a break without an outage stores what stop 49
        # did, and a version rolled back to reads the rest and ignores them.
        d: PauseSnapshot = {"by": self.by, "name": self.name, "since": self.since,
                            "reason": self.reason}
        if self.held:
            d["held"] = self.held
        if self.outage_since is not None:
            d["outage_since"] = self.outage_since
        if self.own:
            d["own"] = True
        return d

    @classmethod
    def from_dict(cls, d: PauseSnapshot) -> Pause:
        outage = d.get("outage_since")
        return cls(int(d["by"]), str(d["name"]), float(d["since"]), str(d.get("reason", "")),
                   float(d.get("held", 0.0)), float(outage) if outage is not None else None,
                   bool(d.get("own", False)))


@dataclass
class LogEntry:
    """One line of the table's recent events, kept as a catalogue key so each reader's
    language can render it; `cards` is rendered as words ("deux Rois") at display time.
    `people`: whom it names (by id) that the table may no longer hold, such as a leaver
    whose absence cancelled the game: the line keeps them among `Table.people`, so that
    an owed edit showing it goes with their erasure, and storage sees them named while it
    is shown (`Storage.open_tables_holding`)."""

    key: str
    params: LineParams = field(default_factory=dict)
    people: tuple[int, ...] = ()

    def to_dict(self) -> LogSnapshot:
        d: LogSnapshot = {"key": self.key, "params": self.params}
        if self.people:
            d["people"] = list(self.people)
        return d

    @classmethod
    def from_dict(cls, d: LogSnapshot) -> LogEntry:
        return cls(d["key"], dict(d.get("params", {})), tuple(d.get("people", ())))


P = TypeVar("P")


def given(params: LineParams, key: str, kind: type[P]) -> P:
    """A line's placeholder as its line stores it (a play's value a word, its count a
    number); a `TypeError` where a stored line holds something else, which leaves the line
    unworded (`lines.drop_unworded` drops it), as a missing one does (`KeyError`)."""
    value = params[key]
    if not isinstance(value, kind):
        raise TypeError(f"{key} is {type(value).__name__}, not {kind.__name__}")
    return value


def maybe(params: LineParams, key: str, kind: type[P]) -> P | None:
    """`given` for a placeholder a line may lack or hold None (a play's announce)."""
    return None if params.get(key) is None else given(params, key, kind)


def line_cards(params: LineParams) -> list[str]:
    """A line's cards, as codes (a play's, an exchange note's)."""
    codes = params["cards"]
    if not isinstance(codes, list):
        raise TypeError(f"cards is {type(codes).__name__}, not a list")
    return codes


@dataclass
class Table:
    id: int
    channel_id: int
    guild_id: int | None
    host_id: int
    locale: str
    rules: Rules
    # A table in a thread: the thread's channel, whose deletion takes the thread with it
    # (`UnreachableTables.channel_deleted`); None in a channel, and in snapshots from before.
    parent_id: int | None = None
    seats: list[Player] = field(default_factory=list)
    queue: list[Player] = field(default_factory=list)
    game: Game | None = None
    lobby_message_id: int | None = None
    table_message_id: int | None = None
    hands: dict[int, HandLink] = field(default_factory=dict)
    log: list[LogEntry] = field(default_factory=list)
    left_seats: set[int] = field(default_factory=set)  # humans replaced by a bot this round
    # Those the host removed: they may not come back, to their seat or to the list, before
    # the next game starts (`Seating.join`), or a kick would last a click.
    kicked: set[int] = field(default_factory=set)
    timer_serial: int | None = None
    timer_deadline: float | None = None
    # Since when the table's clocks wait: Discord has lost its server (an outage), so none
    # of its players can act (`Outages.server_lost`), or the host called a break (`pause`).
    # None while they run.
    paused_since: float | None = None
    # The host's break, while it lasts (`bot.tables.breaks`): the clocks wait until the
    # host (or whoever hosts by then) says to play on, whatever outage ends meanwhile.
    pause: Pause | None = None
    # When each seated player may call their own short break again (`Pause.own`, user id
    # -> the service's clock): one every `breaks.OWN_COOLDOWN_SECONDS`, so nobody holds
    # the others' game by calling one after another (stop 50).
    own_breaks: dict[int, float] = field(default_factory=dict)
    game_row_id: int | None = None  # storage id of the game being played, once recorded
    game_no: int = 0  # games started at this table: names the game in storage (GameStart)
    # Where the next game's versions start: past every version a control of an earlier game
    # at this table was drawn for (engine Game.new's first_version).
    next_version: int = 0
    store_failed: bool = False  # a record could not be stored and the table was told so
    arrivals: int = 0
    away: dict[int, float] = field(default_factory=dict)  # presi leavers: user → grace deadline
    # What each seat gave and received in this round's exchange, shown once it is complete.
    exchange_notes: dict[int, list[LogEntry]] = field(default_factory=dict)
    notice: LogEntry | None = None  # why the table came back to the lobby, shown there
    # Seats whose turn an equal answer skipped (presi's « skip_next », « ta gueule »), with
    # why, worded for them in their hand (`hand.skipped.*`) until their turn comes round or
    # the trick closes (`forget_skips`). The engine only says it as it happens (`Skipped`),
    # so the table keeps it, in its snapshot: a restart still tells them.
    skipped: dict[int, LogEntry] = field(default_factory=dict)
    # Cards picked so far in a split exchange (a hand too big for one select): user → select
    # part → card codes, until confirmed. Kept here so it is persisted with the table and
    # cleared when the exchange ends.
    gift_picks: dict[int, dict[int, list[str]]] = field(default_factory=dict)
    # The results of the round (and game) that just ended, until the next round is dealt:
    # a restart while they show records them again, in case it interrupted their storing.
    results: list[RoundOver | GameOver] = field(default_factory=list)
    # Who held each seat as the round ended, as the round showed them (« 🤖 alice », the bot
    # finishing a leaver's round): the seat may change hands at once (a fresh bot where bots
    # fill the table), and the results name who played the round. Empty: the seats' own.
    result_seats: list[Player] = field(default_factory=list)
    # Who waited in the queue as the game ended, as its results name them (RULES §10's
    # queue: their points count, and may win, `Game.step_off`): one may leave the queue
    # while the results still show them. Empty until the game's end.
    result_waiting: list[Player] = field(default_factory=list)
    # The roles the last round ended with, per seat, kept through the next round's
    # exchange: a seat freed between rounds re-ranks the others for it (the engine pairs
    # the seats left), and a hand must not say a Vice-trou « finished » Trou du cul.
    finished_roles: list[str | None] = field(default_factory=list)
    # Results whose storing has not been seen to succeed: part of the snapshot, so that a
    # restart stores them again whatever the table has done since (bot/tables/outbox.py).
    unstored: list[PendingResult] = field(default_factory=list)
    # Every seat's points after each round of the current game: the end-of-game chart.
    round_totals: list[list[int]] = field(default_factory=list)
    # Who held each seat as each of those rounds ended (None: a seat freed for good), so
    # that the chart draws a line per person, not per seat under its holder of today
    # (`bot.people`). Shorter than `round_totals` in a game restored from a snapshot from
    # before: that game's chart is drawn per seat, as it was.
    round_holders: list[list[Holder | None]] = field(default_factory=list)
    seq: int = 0  # bumped on every change: snapshot order
    # The host's table settings beside the rules: the level of the bots they add, and
    # whether hands offer « Conseil » (what the normal bot would play).
    bot_level: str = DEFAULT_LEVEL
    hints: bool = False
    # Whether a player a timer waits on is pinged once half its time is gone (on by
    # default; the host may turn it off, as it posts in the channel: `Reminders`).
    reminders: bool = True
    # That ping, once due, until its timer is over; and the posted ones to delete then.
    # Both in the snapshot: a restart neither pings twice nor leaves one behind.
    reminder: Reminder | None = None
    reminders_gone: list[int] = field(default_factory=list)
    # The host role was handed on (`pass_host`) and the new host has not yet acted as host:
    # their hand says so, as the history line naming them soon scrolls away.
    host_handed: bool = False
    # The next refresh posts a fresh lobby or table message (new round, new game) rather
    # than editing the current one. Persisted: a restart before that post must make it, not
    # write the new round over the last one's results.
    post_lobby: bool = False
    post_table: bool = False
    # The table opened on its channel's house rules (`bot.tables.house`): the lobby says so,
    # and offers the preset's defaults, until the host changes the rules or a game starts.
    house: House | None = None
    # The rules and table settings this table opened on or last kept as its channel's
    # (`house_form`): « Terminé » in the settings keeps them only when they differ (a host
    # who only looked changes nothing). None in a snapshot from before stop 52, or where
    # the house it opened on could not all be read back (`TableService.create`): kept.
    kept: KeptSnapshot | None = None
    # The table message's text to keep once the newer message it owes takes over
    # (`Screen.retired`: its instructions go with its buttons), drawn from the state the
    # table had when that message became owed (`TableService._keep`). Persisted with it, so
    # that a message the restarted bot retires (a new round or the lobby owed when it
    # stopped) reads as retired too, and as the bot would have left it.
    retired: str | None = None
    # Whom `retired` may name, by id, taken with it: the next round clears the log and the
    # results that named them, and an edit an archived thread owes the old message must
    # still go with their erasure (`people`, `keep_retired`).
    retired_people: tuple[int, ...] = ()
    closed: bool = False
    # Whether the bot may attach files in the table's channel, as the latest interaction
    # there said (`Publisher.acted`); None before one (a restored table). Without, the
    # results give the end-of-game chart as text. Runtime only, as the channel may change.
    attach_files: bool | None = field(default=None, compare=False)
    # The results message whose chart could not be uploaded though the bot may attach files
    # (`Charts.attach` gave up on it: a failure that would not go away, or its retries spent):
    # that message gives the chart as text. Another message (the next game's) tries its own
    # upload. Runtime only, as `Charts` says why.
    chart_unsent: int | None = field(default=None, compare=False)
    # Results the table moved on from while their chart's upload was on its way, retired
    # with the chart as text: the picture, should that upload have gone through, is to be
    # taken off them (`Charts.take_off_owed`). Persisted with the retired text it goes with,
    # so that neither a restart before the upload ends nor a failed edit shows it twice.
    charts_off: list[int] = field(default_factory=list)
    # Messages brought down below the chat (`Publisher._bring_down`) whose edit into a
    # pointer has not landed yet, as (old message, new message): stored in the same
    # snapshot as the new message's id, so that a crash before that edit leaves the restart
    # the edit to make, not the old message's text and buttons. Empty once edited; the next
    # snapshot drops it, and one taken meanwhile is only read after a crash.
    pointers_owed: list[tuple[int, int]] = field(default_factory=list)
    # The newest of the table's lobby and table messages it has let go of (`let_go`:
    # retired, deleted by a moderator, or replaced after a refused edit, which an archived
    # thread leaves with its buttons): a new round's table message, a lobby or a fresh
    # message is posted below it, once the ids of those before it are dropped. A crash
    # before the post's id is stored leaves a restart only this to find that post by
    # (`Recount.read`), rather than post a second one beside it. A table opened by
    # `/president create` starts with that command's interaction id: its reply, the first
    # lobby, is created after it (stop 51). None before any.
    retired_below: int | None = None
    # The command that opened the table, while its first lobby's id is not stored
    # (`Opening`): None once it is, or once a restart used it.
    opening: Opening | None = None
    # When the host, and anyone, last acted (hosting.claim, Deadlines). Kept in the
    # snapshot: a restart counted both again from its start, so a silent host kept the role
    # and an abandoned table stayed open 30 minutes more at every redeploy (play-test 22).
    # 0 from a snapshot from before: the restart is then the last time anyone was seen.
    host_seen: float = field(default=0.0, compare=False)
    human_seen: float = field(default=0.0, compare=False)
    # The two as the latest snapshot handed to storage had them: a refused click moves them
    # without a change to store, and `Deadlines._seen_kept` then stores them or takes them
    # back. Runtime only.
    seen_stored: tuple[float, float] = field(default=(0.0, 0.0), repr=False, compare=False)
    # Nobody has acted for long enough that the idle close is near: its messages say when
    # (`Deadlines._idle_near`). Runtime only: a restart says it again from `human_seen`.
    idle_warned: bool = field(default=False, compare=False)
    # What its messages showed when the bot stopped (`bot.tables.landed`), read with its
    # snapshot by the restore, for the publisher to take (`Publisher.restored`). Runtime
    # only: stored by the stop beside the snapshot, never in it.
    landed: Landed | None = field(default=None, repr=False, compare=False)
    # Hands of players who just left, to redraw once without controls (not persisted: a
    # restart only skips that courtesy edit).
    # Several per player: « Ma main » pressed three times within a refresh left the first
    # hand live-looking and frozen when the second press replaced its farewell (play-test 14).
    farewells: list[Farewell] = field(default_factory=list, repr=False, compare=False)
    # The hand each player who stepped out this round had open (told they left): taking
    # their seat back, or presi's waiting seat, makes it their hand again, so a newer one
    # says it moved there (`Seating._back_in`). Runtime only, like `farewells`; freed with
    # `left_seats`.
    stepped_out: dict[int, HandLink] = field(default_factory=dict, repr=False, compare=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)
    # The seat that moved from each of the game's last versions, and whether its turn timer
    # moved for it: a play or pass drawn for that version, arriving after (a second device,
    # a click as the timer ran out), is told what beat it (`refusals.check_seen`). Kept in
    # the snapshot: held in memory only, a click arriving after a restart was told the
    # vague « the table has moved on » instead (stop 47). A snapshot from before has none.
    moved_from: dict[int, tuple[int, bool]] = field(default_factory=dict, repr=False,
                                                    compare=False)

    # --- seats -----------------------------------------------------------------------------

    def held(self) -> bool:
        """Whether a break or an outage holds the clocks (`paused_since`). A method, so that a
        check after an await reads the table as it is then, not as a check before it left
        it for the type checker."""
        return self.paused_since is not None

    def farewell_of(self, user_id: int) -> Farewell | None:
        """The user's latest hand still to be redrawn without controls."""
        return next((f for f in reversed(self.farewells) if f.user_id == user_id), None)

    def clear_left_seats(self) -> None:
        """The round's leavers are gone for good (or their seats with the game): none can
        take a seat back now, nor needs the hand kept for it."""
        self.left_seats.clear()
        self.stepped_out.clear()

    def seat_of(self, user_id: int) -> int | None:
        for index, player in enumerate(self.seats):
            if player.user_id == user_id:
                return index
        return None

    def left_seat(self, user_id: int) -> int | None:
        """The seat this user left this round, which a bot plays until the round ends."""
        return next((seat for seat in self.left_seats
                     if self.seats[seat].left_by == user_id), None)

    def queued(self, user_id: int) -> bool:
        return any(p.user_id == user_id for p in self.queue)

    def player(self, user_id: int) -> Player | None:
        """The user seated here or waiting in the queue."""
        return next((p for p in [*self.seats, *self.queue] if p.user_id == user_id), None)

    def waiting_player(self, key: str) -> Player | None:
        """The player the engine keeps points for off the table under `key` (Player.key):
        as the game's results name them, or in the queue while the game goes on."""
        return next((p for p in [*self.result_waiting, *self.queue]
                     if p.user_id is not None and p.key == key), None)

    def humans(self) -> list[Player]:
        return [p for p in self.seats if p.user_id is not None]

    def people(self) -> frozenset[int]:
        """Whom the table's messages may name, by id: its host, who sits or left a seat
        this round, who waits, who stood in its last results, whom its lines name, who
        called the break it shows (`pause`), and whom the old table message's kept text
        names (`retired_people`). An
        edit an archived thread owes a message keeps them, so that their erasure takes its
        text (`bot.tables.asleep`)."""
        players = [*self.seats, *self.queue, *self.result_seats, *self.result_waiting]
        lines = [*self.log, *([self.notice] if self.notice is not None else [])]
        paused = [self.pause.by] if self.pause is not None else []
        return frozenset({self.host_id, *self.retired_people, *paused}
                         | {p.user_id for p in players if p.user_id is not None}
                         | {p.left_by for p in players if p.left_by is not None}
                         | {person for line in lines for person in line.people})

    @property
    def moving_on(self) -> bool:
        """Whether the table message shows a state the table has left (a round's or a
        game's results, a game stopped): the next redraw posts what follows it (a new round
        or game, the lobby) and retires it with the text kept for it (`retired`). Without a
        game it has nothing else left to show."""
        return self.post_table or self.post_lobby or self.game is None

    def gave_late(self, seat: int) -> bool:
        """Whether the exchange's timer gave this seat's cards this round: its note says so
        (`GAVE_LATE`), kept in the snapshot and cleared with the round's other notes."""
        return any(entry.key == GAVE_LATE for entry in self.exchange_notes.get(seat, []))

    def let_go(self, message_id: int | None) -> None:
        """The table lets go of its lobby or table message (retired, deleted by a
        moderator, replaced after a refused edit): the next one comes below it, found by a
        restart if a crash loses its id (`retired_below`). None: the message went already
        (its table closed while its edit was on its way, `Publisher._lobby`'s caller read
        the id after that await), and where to look stays where it was."""
        if message_id is None:
            return
        if self.retired_below is None or message_id > self.retired_below:
            self.retired_below = message_id

    def keep_retired(self, text: str | None) -> None:
        """The table message's text to keep once a newer one takes over (None: none
        kept), with whom it may name."""
        self.retired = text
        self.retired_people = tuple(sorted(self.people())) if text is not None else ()

    def clear_results(self) -> None:
        """The last round's results are no longer shown (a round dealt, a game started or
        ended without one)."""
        self.results.clear()
        self.result_seats.clear()
        self.result_waiting.clear()

    def note_totals(self, event: RoundOver) -> None:
        """A round ended: every seat's points for the chart, and who scored them (a seat
        nobody played this round has no role). Round 1 starts a new game's series; a round
        replayed after a restart replaces its own. A seat left already out of cards is
        its leaver's as played, as its stored round is (`persistence.seat_refs`)."""
        held = [Holder(p.user_id if p.user_id is not None else p.left_by,
                       p.user_id is None and not p.left_out,
                       p.name) if event.roles[seat] else None
                for seat, p in enumerate(self.seats)]
        self.round_totals[event.round_no - 1:] = [list(event.totals)]
        self.round_holders[event.round_no - 1:] = [held]

    def clear_totals(self) -> None:
        """A new game: its chart starts empty."""
        self.round_totals.clear()
        self.round_holders.clear()

    def settings(self) -> TableSettings:
        """The host's table settings beside the rules, as the house keeps them."""
        return TableSettings(self.bot_level, self.hints, self.reminders)

    def house_form(self) -> KeptSnapshot:
        """The rules and table settings as the channel's house rules would keep them."""
        return {"rules": self.rules.to_dict(), "settings": self.settings().to_dict()}

    def is_host(self, user_id: int) -> bool:
        return user_id == self.host_id

    def holds_results_of(self, user_id: int) -> bool:
        """Whether a result not yet stored names the user (seated then, or left during
        its round): storing it would record them again."""
        return any(p.user_id == user_id or p.left_by == user_id
                   for pending in self.unstored for p in pending.start.seats)

    def capacity(self) -> int:
        """Seats offered in the lobby; `seats_grow` tables open their minimum and one more
        per arrival (RULES §10), so a lobby never shows seats nobody is expected to take."""
        if self.rules.seats_grow:
            return min(self.rules.max_players, max(self.rules.min_players, len(self.seats) + 1))
        return int(self.rules.max_players)

    def new_player(self, user_id: int | None, name: str, locale: str = "en") -> Player:
        self.arrivals += 1
        # A seat freed mid-game (`vacant`) is nobody's: its leaver coming back is no twin.
        taken = {p.name for p in (*self.seats, *self.queue) if not p.vacant}
        return Player(user_id, unique(name, taken), locale, self.arrivals)

    def heir(self) -> Player | None:
        """Who would inherit the host role: the longest-seated human, else the first one
        waiting for a seat; None when nobody is left."""
        humans = sorted(self.humans(), key=lambda p: p.joined) + self.queue
        return humans[0] if humans and humans[0].user_id is not None else None

    def pass_host(self) -> None:
        """The host left: the `heir` inherits — where bots fill tables, one waiting plays
        once the round is over, when the new host deals them in (a table without a queue
        never hands a game to its list: `list_left`); the table keeps its host if nobody is
        left. During a game the history says who, the new host's hand tells them
        (`host_handed`), and the round's end names the host who deals next."""
        heir = self.heir()
        if heir is not None and heir.user_id is not None:
            self.host_id = heir.user_id
            if self.game is not None:  # (the lobby marks its host: 👑)
                self.host_handed = True
                self.remember(LogEntry("ev.new_host", {"name": heir.name}))

    def list_left(self, leaving: Collection[int] = ()) -> bool:
        """Whether, once the ``leaving`` seats have gone, a table without a queue has only
        bots left to play while friends wait on its list for the next game. Its game then
        stops for them (LeaveOutcome.LIST_LOBBY): bots playing on for nobody would leave
        the list waiting, and hand the host role to someone without a seat."""
        return not self.rules.bots_fill and bool(self.queue) and not any(
            p.user_id is not None for seat, p in enumerate(self.seats) if seat not in leaving)

    def name(self, seat: int) -> str:
        return self.seats[seat].name

    @property
    def running(self) -> bool:
        return self.game is not None

    def _own_breaks_held(self) -> dict[str, float]:
        """The turns of breaks stored (`own_breaks`): those of the people the table still
        holds (`people`). A leaver's stayed until the table closed unless someone else's
        break swept it, their id in the stored state refusing their erasure
        (`Storage.open_tables_holding`) long after the game had any use for it (stop 50's
        review). One who comes back before a restart finds theirs in memory still."""
        held = self.people()
        return {str(user): at for user, at in self.own_breaks.items() if user in held}

    @property
    def last_round(self) -> bool:
        """Whether the round under way is the game's last by its set number of rounds: no
        deal follows it, so who asks for a seat now waits for the next game, even where a
        queue takes seats between rounds (`bots_fill`). A latecomer to proletario's last
        round was told « you take a seat between rounds » and sat at none (play-test 30)."""
        game, end = self.game, self.rules.game_end
        return (game is not None and game.phase is not Phase.GAME_OVER
                and end.kind == "rounds" and end.n is not None and game.round_no >= end.n)

    @property
    def no_end(self) -> bool:
        """A game under way with no end but the host's « Terminer » (`game_end` unlimited),
        where bots do not fill the table: a latecomer on the list for the next game would
        wait hours for it (play-test 31). There the list takes the bots' seats at the next
        deal, as proletario's queue does (RULES §10), lowest rank first; a list longer than
        the bots seated waits on for the next game (stop 51)."""
        game = self.game
        return (game is not None and game.phase is not Phase.GAME_OVER
                and not self.rules.bots_fill and self.rules.game_end.kind == "unlimited")

    def bots_seated(self) -> list[int]:
        """The seats bots play in the game under way, still in it and staying (not a
        leaver's seat a bot finishes this round, freed at its end): what the list takes
        first at a game with no end (`no_end`)."""
        game = self.game
        if game is None:
            return []
        return [seat for seat, player in enumerate(self.seats)
                if player.is_bot and seat < game.seats and game.active[seat]
                and seat not in self.left_seats]

    def freed_seats(self) -> list[int]:
        """The seats freed during the game under way (leavers', `seats.free_seat`), with
        those this round's leavers free at its end, that a newcomer may sit at next deal
        as the engine counts them (`Game.freed_seats`): what the list takes after the bots'
        seats at a game with no end (stop 52)."""
        game = self.game
        return [] if game is None else game.freed_seats(self.left_seats)

    def list_room(self) -> int:
        """At a game with no end (`no_end`), how many on the list sit at the next deal:
        the bots' seats, then the seats freed by leavers; none where this round's leavers
        leave too few (`too_few_left`): its end stops the game and the table goes back to
        its lobby, where the list sits (stop 52's review)."""
        if not self.no_end or self.too_few_left(self.left_seats):
            return 0
        return len(self.bots_seated()) + len(self.freed_seats())

    def list_outcome(self, user_id: int) -> str | None:
        """At a game with no end (`no_end`), what the list holds for `user_id` on it, as
        `Seating.join` answers it: "to_lobby" (this round's leavers leave too few, even
        with the list: its end stops the game and the lobby seats the list), "no_end" (a
        bot's seat at the next deal), "no_end_freed" (a seat a leaver freed) or
        "no_end_listed" (no seat left: the next game). None elsewhere, or off the list."""
        waiting = [p.user_id for p in self.queue]
        if not self.no_end or user_id not in waiting:
            return None
        if self.too_few_left(self.left_seats):
            return "to_lobby"
        place = waiting.index(user_id) + 1
        return ("no_end" if place <= len(self.bots_seated())
                else "no_end_freed" if place <= self.round_sitters()
                else "no_end_listed")

    def round_sitters(self) -> int:
        """How many of those waiting (the first ones) take a seat at the next deal, as the
        table stands: the whole queue where bots fill the table (the bots' seats, then the
        last place's), but not at the game's last round; at a game with no end, as many as
        bots sit and seats were freed (`list_room`); else none, the list being for the next
        game."""
        if self.rules.bots_fill:
            return 0 if self.last_round else len(self.queue)
        if self.no_end:
            return min(len(self.queue), self.list_room())
        return 0

    @property
    def under_way(self) -> bool:
        """A game started and not over: stopping or leaving it costs players that game, so
        `/president end` and `/president leave` ask first."""
        return self.game is not None and self.game.phase is not Phase.GAME_OVER

    def plays(self, user_id: int) -> bool:
        """Whether this user holds a seat in the game under way and has not left it (presi's
        leavers keep theirs while the table waits for them)."""
        return self.under_way and self.seat_of(user_id) is not None and user_id not in self.away

    def too_few_left(self, leaving: Collection[int] = ()) -> bool:
        """RULES §10: a game needs min_players seats in play (bots count). Once `leaving`
        have gone, fewer send the table to its lobby: asked before a leave to say so, and
        when the seats freed at a round's end have gone, to do so. At a game with no end
        those on the list who take a freed seat at the next deal count (`list_fills`): the
        seat is dealt again at once, as « Rejouer » counts the list (`too_few_to_replay`),
        and the host keeps the evening's scores rather than starting over (stop 53)."""
        game = self.game
        return game is not None and sum(
            1 for seat, active in enumerate(game.active) if active and seat not in leaving
        ) + self.list_fills(leaving) < self.rules.min_players

    def list_fills(self, leaving: Collection[int] = ()) -> int:
        """At a game with no end (`no_end`), how many on the list sit at a seat freed by a
        leaver (with `leaving`'s) at the next deal, once the bots' seats have taken theirs
        (`seats.seat_waiting_players`): players the game gains, where a bot's seat changes
        only who plays it."""
        game = self.game
        if game is None or not self.no_end:
            return 0
        bots = sum(1 for seat in self.bots_seated() if seat not in leaving)
        return min(max(0, len(self.queue) - bots), len(game.freed_seats(leaving)))

    def too_few_to_replay(self) -> bool:
        """At game over: whether « Rejouer », which seats those waiting, would still have
        fewer than min_players (a leaver there sent a table whose list made up the count
        back to its lobby, play-test 13)."""
        game = self.game
        return game is not None and \
            sum(game.active) + len(self.queue) < self.rules.min_players

    def leave_outcome(self, user_id: int) -> LeaveOutcome:
        """What `user_id` leaving the game under way does (LeaveOutcome): between rounds the
        seat goes at once, mid-round presi waits for them, else a bot finishes the round; a
        bot takes the seat where bots fill tables. The seats already leaving this round
        (left_seats) go with theirs when counting who is left."""
        between_rounds = self.game is not None and self.game.phase is Phase.ROUND_OVER
        if not between_rounds and self.rules.on_leave == "wait_then_cancel":
            return LeaveOutcome.WAIT
        if self.rules.bots_fill:
            return LeaveOutcome.BOT if between_rounds else LeaveOutcome.ROUND_BOT
        seat = self.seat_of(user_id)
        if seat is not None and self.list_left(self.left_seats | {seat}):
            return LeaveOutcome.LIST_LOBBY
        short = seat is not None and self.too_few_left(self.left_seats | {seat})
        if between_rounds:
            return LeaveOutcome.FREE_LOBBY if short else LeaveOutcome.FREE
        return LeaveOutcome.ROUND_LOBBY if short else LeaveOutcome.ROUND

    def forget_skips(self) -> None:
        """A skipped seat's line lasts while it waits for its next turn in the same trick:
        gone once that turn comes, and with the play phase (a round's or game's end)."""
        game = self.game
        if game is None or game.phase is not Phase.PLAY:
            self.skipped.clear()
        elif game.to_act in self.skipped:
            del self.skipped[game.to_act]

    def remember(self, entry: LogEntry) -> None:
        self.log.append(entry)
        del self.log[:-LOG_SIZE]

    def graces_waited(self, waited: float, now: float) -> None:
        """The presi leavers' clocks stood still for `waited` seconds until `now` (a
        restart, an outage, a host's break): each seat waits that much longer, and the
        history's line that says until when (`AWAY`) says the time the table keeps: it
        showed the old one, the game then cancelled after the time it gave (play-test 15).
        The line keeps its key and placeholders, so that a version rolled back to words it
        still. A seat left while they stood still (during a break, where players still
        act) waits its whole grace from `now`, not that plus the whole wait: no one's grace
        has more left than it (a turn's timer started meanwhile counts from now too)."""
        latest = now + self.rules.leave_grace_seconds
        for user_id, before in list(self.away.items()):
            self.away[user_id] = min(before + waited, max(before, latest))
            for i, entry in enumerate(self.log):
                if self._says_away(entry, user_id, before):
                    self.log[i] = LogEntry(AWAY, {**entry.params,
                                                  "deadline": int(self.away[user_id])},
                                           entry.people)

    def grace_after_break(self, entry: LogEntry) -> float | None:
        """During a host's break, the seconds an `AWAY` line's seat will still wait once
        the clocks run on, or None (no break, or not a line of a seat still waited for).
        The line's time may pass during the break, though the seat waits on: it showed it
        until « Continuer » moved it on (stop 49's review). This is what `graces_waited`
        will leave, whenever the break ends: the time left as it began, and the whole
        grace for one who left during it (the deadline's move is capped there)."""
        since = self.paused_since
        if self.pause is None or since is None or entry.key != AWAY:
            return None
        for user_id, deadline in self.away.items():
            if self._says_away(entry, user_id, deadline):
                return max(0.0, min(deadline - since, self.rules.leave_grace_seconds))
        return None

    def _says_away(self, entry: LogEntry, user_id: int, deadline: float) -> bool:
        """Whether `entry` is the `AWAY` line telling until when `user_id`'s seat waits."""
        player = self.player(user_id)
        return entry.key == AWAY and entry.params.get("deadline") == int(deadline) \
            and (player is None or entry.params.get("name") == player.name)

    def moved(self, version: int, seat: int, *, timer: bool) -> None:
        """Remember that `seat` moved from `version` (see `moved_from`); a few are enough,
        as a click that late comes within seconds."""
        self.moved_from[version] = (seat, timer)
        while len(self.moved_from) > MOVES_REMEMBERED:
            del self.moved_from[next(iter(self.moved_from))]

    # --- persistence -------------------------------------------------------------------------

    def to_dict(self) -> TableSnapshot:
        # The keys written only when set come where they always came, so that the stored
        # text is the same as before they were typed.
        d: TableSnapshot = {
            "id": self.id,
            "channel_id": self.channel_id,
            "guild_id": self.guild_id,
            "parent_id": self.parent_id,
            "host_id": self.host_id,
            "locale": self.locale,
            "rules": self.rules.to_dict(),
            "seats": [p.to_dict() for p in self.seats],
            "queue": [p.to_dict() for p in self.queue],
            "game": self.game.to_dict() if self.game is not None else None,
            "lobby_message_id": self.lobby_message_id,
            "table_message_id": self.table_message_id,
            "hands": {str(uid): link.to_dict() for uid, link in self.hands.items()},
            "log": [e.to_dict() for e in self.log if e.key != RESTARTED],
            "left_seats": sorted(self.left_seats),
            "kicked": sorted(self.kicked),
            "timer_serial": self.timer_serial,
            "timer_deadline": self.timer_deadline,
            "paused_since": self.paused_since,
        }
        if self.pause is not None:
            d["pause"] = self.pause.to_dict()
        if own_breaks := self._own_breaks_held():
            d["own_breaks"] = own_breaks
        d |= {
            "host_seen": self.host_seen,
            "human_seen": self.human_seen,
            "game_row_id": self.game_row_id,
            "game_no": self.game_no,
            "next_version": self.next_version,
            "store_failed": self.store_failed,
            "arrivals": self.arrivals,
            "away": {str(uid): deadline for uid, deadline in self.away.items()},
            "exchange_notes": {str(seat): [e.to_dict() for e in notes]
                               for seat, notes in self.exchange_notes.items()},
            "notice": self.notice.to_dict() if self.notice is not None else None,
        }
        if self.skipped:
            d["skipped"] = {str(seat): e.to_dict() for seat, e in self.skipped.items()}
        d |= {
            "gift_picks": {str(uid): {str(part): codes for part, codes in picks.items()}
                           for uid, picks in self.gift_picks.items()},
            "results": [e.to_dict() for e in self.results],
            "result_seats": [p.to_dict() for p in self.result_seats],
            "result_waiting": [p.to_dict() for p in self.result_waiting],
            "finished_roles": self.finished_roles,
            "unstored": [p.to_dict() for p in self.unstored],
            "round_totals": self.round_totals,
            # One run per stretch of rounds through which the seats kept their holders.
            "holders": [[len(list(rounds)), [h.to_list() if h is not None else None
                                             for h in held]]
                        for held, rounds in groupby(self.round_holders)],
            "seq": self.seq,
            "bot_level": self.bot_level,
            "hints": self.hints,
            "reminders": self.reminders,
            "reminder": self.reminder.to_dict() if self.reminder is not None else None,
            "reminders_gone": list(self.reminders_gone),
            "host_handed": self.host_handed,
            "post_lobby": self.post_lobby,
            "post_table": self.post_table,
            "retired": self.retired,
        }
        if self.house is not None:
            d["house"] = self.house.to_dict()
        if self.kept is not None:
            d["kept"] = self.kept
        if self.retired_people:
            d["retired_people"] = list(self.retired_people)
        # Oldest first, the order `moved` forgets them in.
        d["moved_from"] = [[version, seat, timer]
                           for version, (seat, timer) in self.moved_from.items()]
        if self.charts_off:
            d["charts_off"] = list(self.charts_off)
        if self.pointers_owed:
            d["pointers_owed"] = [list(p) for p in self.pointers_owed]
        if self.retired_below is not None:
            d["retired_below"] = self.retired_below
        if self.opening is not None:
            d["opening"] = self.opening.to_dict()
        return d

    @classmethod
    def from_dict(cls, d: TableSnapshot) -> Table:
        table = cls(
            id=int(d["id"]),
            channel_id=int(d["channel_id"]),
            guild_id=d.get("guild_id"),
            parent_id=d.get("parent_id"),
            host_id=int(d["host_id"]),
            locale=d.get("locale", "en"),
            rules=Rules.from_dict(d["rules"]),
            seats=[Player.from_dict(p) for p in d["seats"]],
            queue=[Player.from_dict(p) for p in d.get("queue", [])],
            game=Game.from_dict(stored) if (stored := d.get("game")) is not None else None,
            lobby_message_id=d.get("lobby_message_id"),
            table_message_id=d.get("table_message_id"),
            hands={int(uid): HandLink.from_dict(v) for uid, v in d.get("hands", {}).items()},
            log=[LogEntry.from_dict(e) for e in d.get("log", [])],
            left_seats=set(d.get("left_seats", [])),
            kicked={int(uid) for uid in d.get("kicked", [])},
            timer_serial=d.get("timer_serial"),
            timer_deadline=d.get("timer_deadline"),
            paused_since=d.get("paused_since"),
            pause=Pause.from_dict(d["pause"]) if d.get("pause") else None,
            own_breaks={int(u): float(at) for u, at in d.get("own_breaks", {}).items()},
            host_seen=float(d.get("host_seen") or 0.0),
            human_seen=float(d.get("human_seen") or 0.0),
            game_row_id=d.get("game_row_id"),
            # Snapshots from before game numbers: a game in play is then the table's first
            # numbered one (its row, if stored, has no number and is found by game_row_id).
            game_no=d.get("game_no", 1 if d.get("game") is not None else 0),
            next_version=d.get("next_version", 0),
            store_failed=d.get("store_failed", False),
            arrivals=d.get("arrivals", 0),
            away={int(uid): float(v) for uid, v in d.get("away", {}).items()},
            exchange_notes={int(seat): [LogEntry.from_dict(e) for e in notes]
                            for seat, notes in d.get("exchange_notes", {}).items()},
            notice=_notice(d),
            skipped={int(seat): LogEntry.from_dict(e)
                     for seat, e in d.get("skipped", {}).items()},
            gift_picks={int(uid): {int(part): list(codes) for part, codes in picks.items()}
                        for uid, picks in d.get("gift_picks", {}).items()},
            results=[_result(e) for e in d.get("results", [])],
            result_seats=[Player.from_dict(p) for p in d.get("result_seats", [])],
            result_waiting=[Player.from_dict(p) for p in d.get("result_waiting", [])],
            finished_roles=list(d.get("finished_roles", [])),
            unstored=[PendingResult.from_dict(p) for p in d.get("unstored", [])],
            round_totals=[[int(p) for p in r] for r in d.get("round_totals", [])],
            round_holders=_round_holders(d),
            seq=d.get("seq", 0),
            bot_level=_level(d.get("bot_level", DEFAULT_LEVEL)),
            hints=bool(d.get("hints", False)),
            reminders=bool(d.get("reminders", True)),
            reminder=Reminder.from_dict(ping) if (ping := d.get("reminder")) else None,
            reminders_gone=[int(m) for m in d.get("reminders_gone", [])],
            host_handed=bool(d.get("host_handed", False)),
            post_lobby=bool(d.get("post_lobby", False)),
            post_table=bool(d.get("post_table", False)),
            house=House.from_dict(d["house"]) if "house" in d else None,
            kept=cast(KeptSnapshot, dict(kept)) if isinstance(kept := d.get("kept"), dict)
            else None,
            retired=d.get("retired"),
            retired_people=tuple(d.get("retired_people", ())),
            moved_from={int(version): (int(seat), bool(timer)) for version, seat, timer
                        in sorted(d.get("moved_from", []))[-MOVES_REMEMBERED:]},
            charts_off=[int(m) for m in d.get("charts_off", ())],
            pointers_owed=[(int(old), int(new)) for old, new in d.get("pointers_owed", ())],
            retired_below=(int(d["retired_below"]) if d.get("retired_below") is not None
                           else None),
            opening=Opening.from_dict(d["opening"]) if "opening" in d else None,
        )
        game = table.game
        # A snapshot from before the engine kept the queue's points. A game already over
        # was won on the seats' alone: its winners stand, and standings placing a waiting
        # player above them would contradict them.
        if game is not None and game.phase is not Phase.GAME_OVER:
            for waiting in d.get("queue", []):
                if waiting.get("points") and waiting["user_id"] is not None:
                    game.off_table.setdefault(waiting_key(int(waiting["user_id"])),
                                              int(waiting["points"]))
        if "unstored" not in d and table.game is not None and table.game.phase in (
            Phase.ROUND_OVER, Phase.GAME_OVER
        ):  # a snapshot from before the outbox: the results it shows may not be stored
            table.unstored = [PendingResult(GameStart.of(table), table.game_row_id, result)
                              for result in table.results]
        return table


def _notice(d: TableSnapshot) -> LogEntry | None:
    """The lobby's notice. One saying a person took a bot's seat, stored before it named
    them by id (stop 46), is given the id of the one seated person of that name: their
    leaving then ends it, where it stayed until the lobby's next change (stop 47). With
    no such person it already speaks of someone gone, and is dropped."""
    stored = d.get("notice")
    if not stored:
        return None
    notice = LogEntry.from_dict(stored)
    if notice.key != "lobby.bot_gave_way" or notice.people:
        return notice
    named = [user for p in d["seats"]
             if (user := p["user_id"]) is not None and p["name"] == notice.params.get("name")]
    return replace(notice, people=(named[0],)) if len(named) == 1 else None


def _round_holders(d: TableSnapshot) -> list[list[Holder | None]]:
    """Who held the seats as each round ended: stored in runs of rounds (`holders`), or
    before stop 51 one row a round (`round_holders`)."""
    rows = [held for count, held in (cast(HoldersFields, run) for run in d["holders"])
            for _ in range(count)] if "holders" in d else d.get("round_holders", [])
    return [[Holder.from_list(h) if h is not None else None for h in held] for held in rows]


def _result(data: dict[str, Json]) -> RoundOver | GameOver:
    event = event_from_dict(data)
    if not isinstance(event, RoundOver | GameOver):
        raise ValueError(f"not a result: {data.get('kind')!r}")
    return event
