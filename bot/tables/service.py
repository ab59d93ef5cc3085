"""The table service: the one place that assembles a table's parts, the lobby's moves, and
what follows every change.

Each public coroutine takes the table's lock, checks who may do what, applies the change
(asking the engine for anything about the rules), then persists and asks the display for a
coalesced refresh. Refusals raise `TableError` with a catalogue key, so the Discord layer only
has to translate them. Nothing here imports discord.py.

The service owns its collaborators and hands them what they need of it (`_after`,
`_changed`, `touch`, `refresh`, `_close`, …): `Seating` (coming and going), `Games` (a game's
start, rounds, end and replay), `Moves` (a seated player's moves), `HandLinks` (where each
hand is shown), `Deadlines` (turn timers, idle close), `BotTurns` (automated seats),
`Outages` (clocks that wait while nobody can act, a restored table's adoption), `Breaks`
(the host's pause),
`UnreachableTables` (a deleted channel, a server that removed the bot), `Outbox` (storage).
The checks live in `refusals` and `hosting`, plain seat changes in `seats`.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Collection
from dataclasses import replace
from typing import Protocol

from bot.tables import hosting, refusals, seats, thinking
from bot.tables.asleep import AsleepThreads
from bot.tables.botturns import BotTurns
from bot.tables.breaks import Breaks
from bot.tables.clock import Clock
from bot.tables.deadlines import IDLE_CLOSE_SECONDS, Deadlines
from bot.tables.games import Games
from bot.tables.handlinks import HandLinks
from bot.tables.hosting import HOST_IDLE_SECONDS
from bot.tables.house import House, TableSettings, house_to_leave
from bot.tables.log import note, note_skips
from bot.tables.logentry import LogEntry
from bot.tables.moves import Moves
from bot.tables.outages import Outages
from bot.tables.outbox import Outbox, TableStore
from bot.tables.refresh import Coalescer
from bot.tables.refusals import TableError, settings_open
from bot.tables.registry import Registry
from bot.tables.seating import Left, Seating
from bot.tables.table import Table
from bot.tables.timers import Scheduler
from bot.tables.tokens import Opening
from bot.tables.unreachable import UnreachableTables
from bot.tables.vanished import VanishedTables
from engine import Event, Game, Phase, Rules
from engine.bots import LEVELS, Bot
from engine.events import GameOver, RoundOver, TimedOut

# Re-exported: the Discord layer and the tests take the refusal, the settings check and the
# idle limits from the service, the API they call.
__all__ = ["HOST_IDLE_SECONDS", "IDLE_CLOSE_SECONDS", "Display", "TableError", "TableService",
           "settings_open"]

log = logging.getLogger(__name__)

#: Users whose last locale `TableService.heard` keeps, on all servers (about 190 bytes
#: each): past it they are all forgotten at once, each one looked up again when next heard.
HEARD_KEPT = 10_000


class Display(Protocol):
    """The Discord side: renders the table's messages and hands from its current state."""

    async def flush(self, table: Table) -> None:
        """Bring the lobby or table message up to date."""
        ...

    async def flush_hands(self, table: Table) -> None:
        """Bring every player's open hand up to date."""
        ...

    async def closed(self, table: Table) -> None: ...

    def turn(self, table: Table) -> None:
        """The hand of the person whose turn it now is, if not drawn for that turn yet, at
        once: not on the hands' one-second beat, which they wait for to play."""
        ...

    def keep(self, table: Table) -> None:
        """The table message is about to give way to a new one: set `Table.retired` to the
        text it is to keep, the table's state's as it is now, before the change."""
        ...


class TableService:
    def __init__(
        self,
        clock: Clock,
        *,
        bot_pause: float = 1.5,
        refresh_interval: float = 1.0,
        seed: int | None = None,
        search_workers: int | None = None,
    ) -> None:
        self.clock = clock
        self.registry = Registry()
        self.scheduler = Scheduler(clock)
        self.coalescer = Coalescer(self.scheduler, refresh_interval)
        self.display: Display | None = None
        self._ids = itertools.count(1)
        self.outbox = Outbox(self.touch, self._storage_failed)
        self._tasks: set[asyncio.Task[None]] = set()
        self.thinker = thinking.Thinker(search_workers)
        self.deadlines = Deadlines(clock, self.scheduler, after=self._after,
                                   close=self._close_stopped,
                                   own_over=self._own_break_over, touch=self.touch,
                                   changed=self._changed)
        self.bots = BotTurns(self.scheduler, self.thinker, bot_pause, self._after)
        self.games = Games(self.outbox, self.deadlines, self.thinker, seed, after=self._after,
                           changed=self._changed, close=self._close, keep=self._keep,
                           host_only=self._host_only)
        self.seating = Seating(clock, self.scheduler, self.deadlines, after=self._after,
                               changed=self._changed, close=self._close_stopped,
                               to_lobby=self.games.back_to_lobby)
        self.moves = Moves(clock, self.deadlines, after=self._after, touch=self.touch)
        self.hands = HandLinks(clock, self.deadlines, self.seating, self.outbox,
                               refresh=self.refresh, changed=self._changed, touch=self.touch)
        self.outages = Outages(clock, self.registry, self.outbox, self.deadlines, self.seating,
                               self.bots, changed=self._changed, touch=self.touch,
                               warm=self.games.warm_workers)
        self.breaks = Breaks(clock, self.deadlines, self.outages, host_only=self._host_only,
                             changed=self._changed)
        self.actions = 0  # engine transitions applied since start, for metrics
        # The locale each user was last heard in, and Discord's where a choice replaced it
        # (`heard`).
        self._heard: dict[int, tuple[str, str | None]] = {}
        self.vanished = VanishedTables(clock)
        self.asleep = AsleepThreads(clock)
        self.unreachable = UnreachableTables(self.registry, self.vanished, after=self._after,
                                             close=self._close, stored=self.stored_so_far)

    @property
    def store(self) -> TableStore | None:
        """Where tables, snapshots and results are stored; None: nowhere (tests)."""
        return self.outbox.store

    @store.setter
    def store(self, store: TableStore | None) -> None:
        self.outbox.store = store
        self.vanished.store = store
        self.asleep.store = store
        self.unreachable.store = store

    # ------------------------------------------------------------------ lobby

    async def create(
        self, channel_id: int, guild_id: int | None, user_id: int, name: str, locale: str,
        preset: str = "classic", *, post: bool = True, rules: Rules | None = None,
        house: House | None = None, parent_id: int | None = None,
        opened_by: int | None = None, settings: TableSettings | None = None,
        opening: Opening | None = None,
    ) -> Table:
        """Open a table; `post=False` when the caller shows the lobby itself (as the reply
        to /create) and records its message id. `rules`: the channel's house rules read
        back (`bot.tables.house.read_house`, with what the lobby says of them, `house`, and
        the table `settings` kept beside them), else `preset`'s defaults. `opened_by`: that command's interaction id, which its reply
        comes after, stored as where a restart looks for a lobby whose id a crash lost
        (`Table.let_go`, `Recount.read`); `opening`, its token, stored with the table until
        the caller stores the lobby's id, lets a restart within the token's life edit the
        command's response into the lobby (`Opening`, `Publisher._opened`)."""
        if self.registry.in_channel(channel_id) is not None:
            raise TableError("err.table_exists")
        table = Table(
            id=0, channel_id=channel_id, guild_id=guild_id, host_id=user_id, locale=locale,
            rules=rules if rules is not None else Rules.preset(preset), house=house,
            parent_id=parent_id, opening=opening,
        )
        if settings is not None:
            table.bot_level, table.hints, table.reminders = \
                settings.bot_level, settings.hints, settings.reminders
        # What « Terminé » compares with (`confirm_rules`): what the channel keeps, where
        # the table opened on all of it; where some of it could not be read back (another
        # version's knobs, `House.dropped`, or none of it), the channel keeps more than the
        # table shows, and « Terminé » keeps what the table plays, as before stop 52: kept
        # from what it opened on, the row and the lobby's warning stayed until a game.
        unread = house is not None and (bool(house.dropped) or house.unreadable)
        table.kept = None if unread else table.house_form()
        table.seats.append(table.new_player(user_id, name, locale))
        self._heard_seat(table, user_id)
        if opened_by is not None:
            table.let_go(opened_by)
        table.id = await self.store.open_table(table) if self.store else next(self._ids)
        if self.registry.in_channel(channel_id) is not None:
            raise TableError("err.table_exists")
        self.registry.add(table)
        table.host_seen = self.clock.now()
        self.deadlines.human_seen(table)
        table.post_lobby = post
        if post:
            self._changed(table)
        else:
            self.touch(table)
        return table

    async def join(self, table: Table, user_id: int, name: str, locale: str) -> str:
        """See `Seating.join`."""
        joined = await self.seating.join(table, user_id, name, locale)
        if self._heard_seat(table, user_id):
            self.touch(table)
        return joined

    async def leave(self, table: Table, user_id: int, *, ask_first: bool = False,
                    game_no: int | None = None, lobby_button: bool = False) -> Left | None:
        """See `Seating.leave`."""
        return await self.seating.leave(table, user_id, ask_first=ask_first, game_no=game_no,
                                        lobby_button=lobby_button)

    def verify_kick(self, table: Table, by: int, user_id: int, name: str) -> None:
        """Raise why `by` may not remove `user_id` now (`kick` checks it again under the
        table's lock): asked first, so a question is put to the host alone. It changes
        nothing, not even who hosts (`kick` takes the role over, where one may)."""
        if not self.may_host(table, by):
            raise hosting.refusal(table, by, self.clock.now())
        if user_id == by:
            raise TableError("err.kick_self")
        if table.seat_of(user_id) is None and not table.queued(user_id):
            raise TableError("err.kick_unknown", name=name)

    async def kick(self, table: Table, by: int, user_id: int, name: str) -> None:
        async with hosting.host_action(table):
            self._host_only(table, by)
            self.verify_kick(table, by, user_id, name)
            # Noted first: the removal stores the table's snapshot, which must say it
            # (noted after, a crash before the next change let them sit again at once).
            # `verify_kick` made sure they are seated or waiting, so `remove` takes them.
            table.kicked.add(user_id)
            await self.seating.remove(table, user_id, farewell="hand.kicked", kicked=True)
            if user_id in table.away:  # presi waits for leavers, not for those removed
                self.seating.cancel_for_absence(table, user_id, "table.cancelled_kicked")

    async def add_bot(self, table: Table, by: int, level: str | None = None) -> None:
        """Seat a bot of `level` (one of engine.bots.LEVELS), by default the table's."""
        async with hosting.host_action(table):
            refusals.lobby_only(table)  # to anyone first (`refusals.lobby_only`)
            self._host_only(table, by)
            if level is not None and level not in LEVELS:
                raise TableError("err.bad_choice")
            if len(table.seats) >= table.capacity():
                raise TableError("err.table_full", max=table.capacity())
            seats.seat_bot(table, by_host=True, level=level or table.bot_level)
            self._changed(table)

    async def open_settings(self, table: Table, by: int) -> None:
        """The settings panel opens: said locked to anyone first (`refusals.settings_open`),
        then the host's, as every host action. One who takes the role over by it
        (`hosting.claim`) holds it as by any other: stored, and the lobby marks them. Held
        in memory alone, the role went back to the silent host at a crash, and the lobby
        kept its 👑 beside them (stop 61's review)."""
        async with hosting.host_action(table):
            settings_open(table)
            host = table.host_id
            self._host_only(table, by)
            if table.host_id != host:
                self._changed(table)

    async def set_options(self, table: Table, by: int, *, bot_level: str | None = None,
                          hints: bool | None = None, reminders: bool | None = None) -> None:
        """The host's table settings beside the rules (see `Table.bot_level`, `hints`,
        `reminders`).
        A new default level applies to the bots added from now on: a bot already seated,
        perhaps chosen at another level on purpose, keeps its own (the lobby shows it)."""
        async with hosting.host_action(table):
            settings_open(table)  # to anyone first (`settings.views.open_settings`)
            self._host_only(table, by)
            if bot_level is not None:
                if bot_level not in LEVELS:
                    raise TableError("err.bad_choice")
                table.bot_level = bot_level
            if hints is not None:
                table.hints = hints
            if reminders is not None:
                table.reminders = reminders
            if table.house is not None:  # a setting the host chose is no longer the house's
                changed = {name for name, value in (("bot_level", bot_level), ("hints", hints),
                                                    ("reminders", reminders))
                           if value is not None}
                table.house = replace(table.house, settings=tuple(
                    name for name in table.house.settings if name not in changed))
            self._changed(table)

    async def remove_bot(self, table: Table, by: int) -> None:
        """Undo the host's latest « Add bot »: the last-seated bot goes, so the remaining bots
        keep their numbers and the next one added takes the freed name."""
        async with hosting.host_action(table):
            refusals.lobby_only(table)  # to anyone first (`refusals.lobby_only`)
            self._host_only(table, by)
            bots = [p for p in table.seats if p.is_bot]
            if not bots:
                raise TableError("err.no_bot")
            last = max(bots, key=lambda p: p.joined)
            table.seats = [p for p in table.seats if p is not last]
            seats.seat_queue(table)
            self._changed(table)

    async def set_rules(self, table: Table, by: int, rules: Rules) -> None:
        async with hosting.host_action(table):
            settings_open(table)  # to anyone first (`settings.views.open_settings`)
            self._host_only(table, by)
            self._set_rules(table, rules)

    async def preset_defaults(self, table: Table, by: int) -> None:
        """The lobby's « Revenir au préréglage »: from the channel's house rules back to
        the preset's defaults, and the table settings the house brought (and the host has
        not changed since) back to theirs: the table a channel without house rules opens.
        A click drawn before the rules changed (reset already, or tuned in the panel since)
        finds no house rules to leave and changes nothing."""
        async with hosting.host_action(table):
            settings_open(table)  # to anyone first (`settings.views.open_settings`)
            self._host_only(table, by)
            house = table.house
            if house is None or not house_to_leave(house, table.rules):
                raise TableError("err.house_gone")
            # The rules first: refused (more seated than the preset's seats), nothing
            # changes, the settings neither. Then stored again, with the settings.
            self._set_rules(table, Rules.preset(table.rules.preset_id))
            if house.settings:
                default = TableSettings()
                for name in house.settings:
                    setattr(table, name, getattr(default, name))
                self.touch(table)

    def confirm_rules(self, table: Table) -> bool:
        """The host closed the settings panel (« Terminé »): its rules and table settings
        become the channel's house rules, as a game's start makes its own; only where they
        differ from those the table opened on or last kept (a host who only looked keeps
        nothing, and does not make this preset the channel's last). True if kept."""
        form = table.house_form()
        if form == table.kept:
            return False
        table.kept = form
        self.outbox.house_rules(table)
        self.touch(table)
        return True

    def _set_rules(self, table: Table, rules: Rules) -> None:
        """New rules in the lobby; they are the table's own from now on, no longer the
        house's it opened on (`Table.house`)."""
        if len(table.seats) > rules.max_players:
            if not rules.bots_fill:
                raise TableError("err.too_many_seated", count=len(table.seats),
                                 max=rules.max_players)
            # Rules with a queue (proletario's rotation, RULES §10) are made for more
            # players than seats: six friends switching to them were refused and told
            # to remove two of them (play-test 14). Those beyond the seats wait.
            seats.overflow_to_queue(table, rules.max_players)
        table.rules = seats.fitting_vs_bots(rules)
        table.house = None
        seats.seat_queue(table)  # more seats: who waits sits
        self._changed(table)
        self.outbox.status(table, "lobby")

    # ------------------------------------------------------------------ who acts

    def may_host(self, table: Table, user_id: int) -> bool:
        """See `hosting.may_host`."""
        return hosting.may_host(table, user_id, self.clock.now())

    def host_refusal(self, table: Table, user_id: int) -> TableError:
        """See `hosting.refusal`."""
        return hosting.refusal(table, user_id, self.clock.now())

    def bot(self, table: Table, game: Game, seat: int) -> Bot:
        """Who plays this automated seat now (see `autoplay.player_of`)."""
        return self.bots.bot(table, game, seat)

    def heard(self, user_id: int, locale: str, client: str) -> None:
        """Someone used a command or a control, in their Discord client's language (the
        interaction's `locale`): their hands at every table speak it from now on. `client`:
        the locale Discord sent, where a language they chose replaced it (`bot.languages`),
        kept with their seats (`Player.client`) for a restart or a reading that finds the
        choice given up where this process could not hear it. Only a
        click on a hand told it before (`HandLinks.remember`): a player who switched Discord
        to English and typed `/president leave`, or played at their other table, read
        English answers while their open hand was redrawn in French, and said « Tu as
        quitté la table » in French (play-test 20). The hand's link takes it too: what its
        last edits say (it moved, they left, the table closed, its token runs out) is drawn
        in the link's language.

        On every server: the locale is the user's own, « Selected language of the invoking
        user », where the server's is `guild_locale` (discord-api-docs, Interactions,
        Interaction Object), so it is the same wherever they play; a hand open at a table
        of another server went on in the old language until that table's next move.

        Nearly every interaction brings the locale the one before did, and finding the
        player's tables looks through every open table: 0.3 ms a click at 300 tables on
        the load benchmark, 5 % of the process. A locale heard again is skipped. Every
        locale a player's seat or hand takes comes from one of their interactions, heard
        first (seating, hand links), and tables are restored before any is heard; so none
        of theirs can have another meanwhile."""
        kept = None if client == locale else client
        if self._heard.get(user_id) == (locale, kept):
            return
        if len(self._heard) >= HEARD_KEPT:
            self._heard.clear()
        self._heard[user_id] = (locale, kept)
        for table in self.registry.of_user(user_id):
            player = table.player(user_id)
            link = table.hands.get(user_id)
            if link is not None:
                link.locale = locale
            if player is not None and player.locale != locale:
                player.locale, player.client = locale, kept
                self._changed(table)
            elif player is not None and player.client != kept:
                player.client = kept
                self.touch(table)  # nothing shown changes: kept for a restart

    def kept_client(self, user_id: int) -> str | None:
        """The locale Discord sent with the user's last interaction heard, where a chosen
        language replaced it, as their seats keep it across restarts (`heard`); None where
        none is kept (no choice applied, or a seat stored before stop 61)."""
        for table in self.registry.of_user(user_id):
            player = table.player(user_id)
            if player is not None and player.client is not None:
                return player.client
        return None

    def _heard_seat(self, table: Table, user_id: int) -> bool:
        """A seat or a place in the queue just taken keeps the Discord locale heard with
        the interaction that took it (`heard`, which came first, had no seat to set).
        Whether that changed the seat, to be stored."""
        heard = self._heard.get(user_id)
        player = table.player(user_id)
        if heard is None or player is None or player.locale != heard[0] \
                or player.client == heard[1]:
            return False
        player.client = heard[1]
        return True

    def locale_of(self, user_id: int, default: str) -> str:
        """The language `heard` last from the user, else `default`: what a word sent
        through an older interaction of theirs is written in."""
        heard = self._heard.get(user_id)
        return heard[0] if heard is not None else default

    def _own_break_over(self, table: Table) -> None:
        """A player's own break is up (`Deadlines._pause_over`): see `Breaks.lapsed`."""
        self.breaks.lapsed(table)

    def _host_only(self, table: Table, user_id: int) -> None:
        """Host actions, by the host or one who takes the role over (`hosting.claim`)."""
        hosting.claim(table, user_id, self.clock.now())
        self.deadlines.human_seen(table)

    # ------------------------------------------------------------------ around the table

    async def messages_deleted(self, channel_id: int, message_ids: Collection[int]) -> None:
        """Someone deleted the table's lobby or table message (a moderator tidying the
        channel): it is posted afresh at once, through the refresh and so within the call
        budget, rather than at the table's next change, which could leave players without
        its buttons for as long as a turn timer. Other messages are none of the table's."""
        table = self.registry.in_channel(channel_id)
        if table is None:
            return
        async with table.lock:
            gone = False
            for message_id in (table.lobby_message_id, table.table_message_id):
                if message_id is not None and message_id in message_ids:
                    table.let_go(message_id)
            if table.lobby_message_id in message_ids:
                table.lobby_message_id, gone = None, True
            if table.table_message_id in message_ids:
                table.table_message_id, gone = None, True
            if gone:
                self.refresh(table)

    async def member_gone(self, guild_id: int, user_id: int) -> None:
        """A moderator banned (or kicked) the user from the server: they can no longer see
        its channels nor act there, so at each of its tables they leave as a leaver does
        (a bot finishes their round, a lobby seat frees, the host role passes on), and, as
        one the host removed, presi does not wait for them. The table is told in its own
        words; their hand, which they can no longer see, is left alone."""
        for table in self.registry.in_guild(guild_id):
            async with table.lock:
                player = table.player(user_id)
                if table.closed or player is None:
                    continue
                if table.running:
                    table.remember(LogEntry("ev.member_gone", {"name": player.name},
                                            (user_id,)))
                else:
                    table.notice = LogEntry("table.member_gone", {"name": player.name},
                                            (user_id,))
                await self.seating.remove(table, user_id, farewell=None, removed=True)
                if user_id in table.away:
                    self.seating.cancel_for_absence(table, user_id, "table.cancelled_gone")

    # ------------------------------------------------------------------ the table's end

    def _close(self, table: Table) -> None:
        self.registry.remove(table)
        self.deadlines.forget(table, keep_refresh=False)
        self.coalescer.forget(table.id)
        self.coalescer.forget(("hands", table.id))
        table.closed = True
        self.outbox.status(table, "closed")
        if self.display is not None:
            task = asyncio.get_running_loop().create_task(self._show_closed(table))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _close_stopped(self, table: Table) -> None:
        """Close a table nobody came back to (`Deadlines`: idle for 30 minutes), or that its
        last player left (`Seating`), its game ended as a host's stop ends it. Closed as it
        stood, its message gave the « final standings » while storage kept the game
        unfinished: the channel's history said no game had been played and the stats
        counted its rounds but not the game (play-test 22), as a game stopped for want of
        players once did (play-test 14), and as one its last player left did (play-test 44)."""
        self.games.store_stop(table)
        self._close(table)

    async def _show_closed(self, table: Table) -> None:
        """Outside the lock: a slow Discord never holds up the table's next action."""
        assert self.display is not None
        try:
            await self.display.closed(table)
        except Exception:
            log.exception("could not show table %s as closed", table.id)

    # ------------------------------------------------------------------ after every change

    def _after(self, table: Table, events: list[Event]) -> None:
        self.actions += 1
        late = {seat for event in events if isinstance(event, TimedOut) for seat in event.late}
        for event in events:
            note(table, event, late=late)
            if isinstance(event, TimedOut) and event.seat is not None:
                holder = table.seats[event.seat].user_id
                link = table.hands.get(holder) if holder is not None else None
                if link is not None:
                    link.lapsed = True
            if isinstance(event, (RoundOver, GameOver)) and table.game is not None:
                table.ended_version = table.game.version
            if isinstance(event, RoundOver):
                table.results = [event]
                table.result_seats = [replace(p) for p in table.seats]  # before they go
                table.note_totals(event)  # (and who scored them)
                self.outbox.record(table, event)
                if table.game is not None and table.game.phase is Phase.ROUND_OVER:
                    self.seating.round_ended(table, table.game)
            elif isinstance(event, GameOver):
                table.results.append(event)
                table.result_waiting = [replace(p) for p in table.queue]  # before they go
                self.outbox.record(table, event)
                self.seating.game_ended(table, table.game)
        note_skips(table, events)
        if table.pause is not None and (table.game is None
                                        or table.game.phase is Phase.GAME_OVER):
            self.breaks.lift(table)  # the host stopped the game: no clock left to hold
        if table.game is None or table.game.phase is not Phase.EXCHANGE:
            table.gift_picks.clear()
        self.deadlines.arm_turn(table)
        self.bots.schedule(table)
        self._changed(table)

    def _keep(self, table: Table) -> None:
        """Before a change that owes a new message (a new round or game, the lobby): the
        current table message keeps the text of the last state it belongs to, taken here
        and stored in the snapshot that owes the new message, so that a restart retires it
        as the bot would have. Taken from what the bot last heard was shown, it read a
        redraw behind where an edit had reached Discord but not yet answered when the
        process died, and the restart took back what players had seen (round 1's results).
        Not again while a new message is owed: the old one belongs to the earlier state."""
        if self.display is not None and not (table.post_table or table.post_lobby):
            self.display.keep(table)

    def heard_timeout(self, table: Table, user_id: int, until: float) -> None:
        """A click of ``user_id`` at ``table`` was refused for a moderator's timeout until
        ``until`` (`moderation`): if they sit there, their hand says so until then, and is
        redrawn as it ends. Nothing is stored: what Discord says of the member is no state
        of the table's."""
        if table.player(user_id) is None or table.timed_out.get(user_id) == until:
            return
        table.timed_out[user_id] = until
        self.refresh(table)

        async def over() -> None:
            if table.timed_out.get(user_id) == until:
                del table.timed_out[user_id]
                self.refresh(table)

        self.scheduler.at((table.id, "timed_out", user_id), until, over)

    def heard_timeout_lifted(self, table: Table, user_id: int) -> None:
        """A click of ``user_id`` at ``table`` went through: a timeout the bot knew of was
        lifted early by a moderator (Discord tells no one when a timeout ends,
        discord-api-docs issue 4269), and their hand no longer says it."""
        if table.timed_out.pop(user_id, None) is not None:
            self.scheduler.cancel((table.id, "timed_out", user_id))
            self.refresh(table)

    def touch(self, table: Table) -> None:
        """Persist a change that needs no refresh (e.g. the display posted a new message).
        Not once the store has stopped: the stop took every table's last snapshot, and work
        it did not wait for (a result stored late) must not fail on the closed writer; the
        restart redoes what that snapshot still owes."""
        table.seq += 1
        if self.store is not None and not table.closed and not self.store.stopped:
            self.store.snapshot(table)
            table.seen_stored = (table.human_seen, table.host_seen)

    def refresh(self, table: Table) -> None:
        """Ask for the table's messages and hands to be redrawn, coalesced separately: the
        channel's message edits and each hand's token edits have their own rate limits."""
        if self.display is not None and not table.closed:
            display = self.display
            self.coalescer.request(table.id, lambda: display.flush(table))
            self.coalescer.request(("hands", table.id), lambda: display.flush_hands(table))
            display.turn(table)

    def _changed(self, table: Table) -> None:
        self.touch(table)
        self.refresh(table)

    # ------------------------------------------------------------------ persistence

    def _storage_failed(self, table: Table) -> None:
        """A record that can never be stored was dropped (the queue goes on): say so once on
        the table, so the host knows a result may be missing from the statistics."""
        if table.store_failed or table.closed:
            return
        table.store_failed = True
        entry = LogEntry("table.store_failed")
        if table.running:
            table.remember(entry)
        else:
            table.notice = entry
        self._changed(table)

    async def committed(self, table: Table) -> None:
        """Wait until the table's latest state is stored: a move is confirmed to its player
        only then, so that no confirmed move can be lost in a crash."""
        if self.store is not None:
            await self.store.committed(table)

    async def stored_so_far(self) -> None:
        """Wait for the storage work queued so far: an erasure must follow the results
        of a table that just closed, or they would record the erased player again."""
        await asyncio.gather(*self.outbox.pending(), return_exceptions=True)

    async def drain(self) -> None:
        """Wait for queued storage work (tests, shutdown)."""
        await asyncio.gather(*self.outbox.pending(), *self._tasks, *self.bots.tasks,
                             return_exceptions=True)
