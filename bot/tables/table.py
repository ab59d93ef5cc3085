"""One table: who sits where, the engine game, its Discord messages and each player's hand link.

Pure data plus small queries; the actions that change a table live in `bot.tables.service`
and always run under `table.lock`. The records it holds live in modules of their own
(`players`, `tokens`, `logentry`, `pause`, `ping`, `results`), and the queries weighing
who leaves and who sits at the next deal in `bot.tables.turnover`: this module keeps the
table's own state, its small queries, and its snapshot (`to_dict`, `from_dict`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from typing import cast

from bot.names import unique
from bot.people import Holder
from bot.tables.holders import holder_runs, stored_holders
from bot.tables.house import DEFAULT_LEVEL, House, TableSettings
from bot.tables.landed import Landed
from bot.tables.logentry import GAVE_LATE, RESTARTED, LogEntry, stored_notice
from bot.tables.pause import Pause
from bot.tables.ping import Reminder
from bot.tables.players import Player, stored_level, waiting_key
from bot.tables.results import GameStart, PendingResult, result_from_dict
from bot.tables.snapshot import KeptSnapshot, LineParams, TableSnapshot
from bot.tables.tokens import Farewell, HandLink, Opening
from engine import Game, Phase, Rules
from engine.events import GameOver, RoundOver

LOG_SIZE = 10  # enough to follow bots moving every second or two
# Versions `Table.moved_from` keeps: a round of eight seats and a few moves more.
MOVES_REMEMBERED = 16


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
    # The game's version when its latest round (or the game) ended: the host's buttons
    # drawn since still offer the same choice (`refusals.late_host_button`). A snapshot
    # stored before stop 59 kept none: a round's or game's end read from it ended at the
    # version stored, the one version whose host buttons that code accepted, so no button
    # drawn mid-round (never shown, only forged) is let through, and none the players hold
    # is refused that was not before (docs/bot.md « Leftovers of stop 59 (stop 60) »).
    ended_version: int = 0
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
    # Who made each play of the current trick, oldest first, as its history line names them
    # (`log.named`, with the play's seat): the engine keeps a play's seat, not who sat
    # there, and a seat changes hands mid-trick (a leaver's bot, the leaver back), which
    # named marie's card « 🤖 marie 5♦ » once her bot held the seat, and the bot's « marie
    # 7♦ » once she was back (play-test 45). Kept with the trick (`log.note_trick`), in the
    # snapshot: a restart still names them. Empty from a snapshot from before: the trick is
    # named by the seats' holders, as then (`lines.trick_names`).
    trick_by: list[LineParams] = field(default_factory=list)
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
    # What each seat scored in each of those rounds (`RoundOver.gained`): the final
    # standings say how much of a leaver's seat the bot finishing their round scored
    # (`table_message.unranked`). Shorter in a game restored from a snapshot from before.
    round_gained: list[list[int]] = field(default_factory=list)
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
    # Seated members a moderator timed out, as the refusal of their latest click here read
    # it (user id -> until, the service's clock): their hand says so until then, where it
    # offered « À toi de jouer » and menus every click of which was refused (play-test 46).
    # Runtime only: the bot hears of a timeout from a refused click alone (it asks for no
    # member events), and hears of it again at their next one after a restart.
    timed_out: dict[int, float] = field(default_factory=dict, compare=False)
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
        self.round_gained[event.round_no - 1:] = [list(event.gained)]

    def clear_totals(self) -> None:
        """A new game: its chart starts empty."""
        self.round_totals.clear()
        self.round_holders.clear()
        self.round_gained.clear()

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

    def game_start(self) -> GameStart:
        """What identifies the game this table plays in storage (`GameStart`), with the
        seats and the queue as they stand now: copies, which later changes leave alone."""
        return GameStart(self.game_no, self.rules.preset_id, self.rules.to_dict(),
                         tuple(replace(p) for p in self.seats),
                         tuple(replace(p) for p in self.queue))

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

    def heir(self, leaving: int | None = None) -> Player | None:
        """Who would inherit the host role: the longest-seated human, else the first one
        waiting for a seat; None when nobody is left. ``leaving``: whom to leave out, for
        the host's leave prompt to name the heir before they go."""
        humans = sorted((p for p in self.humans() if p.user_id != leaving),
                        key=lambda p: p.joined) + self.queue
        return humans[0] if humans and humans[0].user_id is not None else None

    def pass_host(self, now: float) -> None:
        """The host left: the `heir` inherits — where bots fill tables, one waiting plays
        once the round is over, when the new host deals them in (a table without a queue
        never hands a game to its list: `turnover.list_left`); the table keeps its host if nobody is
        left. During a game the history says who, the new host's hand tells them
        (`host_handed`), and the round's end names the host who deals next. The new host's
        ten minutes (`hosting.replaceable`) count from ``now``: from the old host's last
        action, a host who left after ten quiet minutes handed on a role anyone could take
        from its heir at once, the table reading « L’hôte ne répond pas » beside « bob
        devient l’hôte » (play-test 45)."""
        heir = self.heir()
        if heir is not None and heir.user_id is not None:
            if heir.user_id != self.host_id:
                self.host_seen = now
            self.host_id = heir.user_id
            if self.game is not None:  # (the lobby marks its host: 👑)
                self.host_handed = True
                self.remember(LogEntry("ev.new_host", {"name": heir.name}))

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
    def under_way(self) -> bool:
        """A game started and not over: stopping or leaving it costs players that game, so
        `/president end` and `/president leave` ask first."""
        return self.game is not None and self.game.phase is not Phase.GAME_OVER

    def turn_mark(self) -> tuple[int, int] | None:
        """The person whose play it is now and the game's version, in a round's play; None
        for a bot's turn, an exchange, between rounds or games: the mark a refresh hurries
        their hand with (`Coalescer.request`'s `urgent`)."""
        game = self.game
        seat = game.to_act if game is not None and game.phase is Phase.PLAY else None
        if game is None or seat is None or seat >= len(self.seats):
            return None
        user_id = self.seats[seat].user_id
        return None if user_id is None else (user_id, game.version)

    def plays(self, user_id: int) -> bool:
        """Whether this user holds a seat in the game under way and has not left it (presi's
        leavers keep theirs while the table waits for them)."""
        return self.under_way and self.seat_of(user_id) is not None and user_id not in self.away

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
            "ended_version": self.ended_version,
            "store_failed": self.store_failed,
            "arrivals": self.arrivals,
            "away": {str(uid): deadline for uid, deadline in self.away.items()},
            "exchange_notes": {str(seat): [e.to_dict() for e in notes]
                               for seat, notes in self.exchange_notes.items()},
            "notice": self.notice.to_dict() if self.notice is not None else None,
        }
        if self.skipped:
            d["skipped"] = {str(seat): e.to_dict() for seat, e in self.skipped.items()}
        if self.trick_by:
            d["trick_by"] = [dict(by) for by in self.trick_by]
        d |= {
            "gift_picks": {str(uid): {str(part): codes for part, codes in picks.items()}
                           for uid, picks in self.gift_picks.items()},
            "results": [e.to_dict() for e in self.results],
            "result_seats": [p.to_dict() for p in self.result_seats],
            "result_waiting": [p.to_dict() for p in self.result_waiting],
            "finished_roles": self.finished_roles,
            "unstored": [p.to_dict() for p in self.unstored],
            "round_totals": self.round_totals,
            "holders": holder_runs(self.round_holders),
            "round_gained": self.round_gained,
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
            ended_version=d.get("ended_version", 0),
            store_failed=d.get("store_failed", False),
            arrivals=d.get("arrivals", 0),
            away={int(uid): float(v) for uid, v in d.get("away", {}).items()},
            exchange_notes={int(seat): [LogEntry.from_dict(e) for e in notes]
                            for seat, notes in d.get("exchange_notes", {}).items()},
            notice=stored_notice(d),
            skipped={int(seat): LogEntry.from_dict(e)
                     for seat, e in d.get("skipped", {}).items()},
            trick_by=[dict(by) for by in d.get("trick_by", [])],
            gift_picks={int(uid): {int(part): list(codes) for part, codes in picks.items()}
                        for uid, picks in d.get("gift_picks", {}).items()},
            results=[result_from_dict(e) for e in d.get("results", [])],
            result_seats=[Player.from_dict(p) for p in d.get("result_seats", [])],
            result_waiting=[Player.from_dict(p) for p in d.get("result_waiting", [])],
            finished_roles=list(d.get("finished_roles", [])),
            unstored=[PendingResult.from_dict(p) for p in d.get("unstored", [])],
            round_totals=[[int(p) for p in r] for r in d.get("round_totals", [])],
            round_holders=stored_holders(d),
            round_gained=[[int(p) for p in r] for r in d.get("round_gained", [])],
            seq=d.get("seq", 0),
            bot_level=stored_level(d.get("bot_level", DEFAULT_LEVEL)),
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
            table.unstored = [PendingResult(table.game_start(), table.game_row_id, result)
                              for result in table.results]
        if "ended_version" not in d and game is not None and game.phase in (
            Phase.ROUND_OVER, Phase.GAME_OVER
        ):  # a snapshot from before stop 59 (see `ended_version`)
            table.ended_version = game.version
        return table

